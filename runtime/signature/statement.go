// Package signature signs and verifies Markii notes and bundles with SSH
// signatures (the SSHSIG format of OpenSSH's PROTOCOL.sshsig), so that a
// key people already use for SSH or git works, and `ssh-keygen -Y verify`
// with the namespace "markii-note" checks a markii signature without
// markii.
//
// What is signed is a Statement: a short canonical text holding the hash
// of the note's content, the closure key grants use for its code (the
// same key function, over the note's own code only: packs installed on
// one machine are not part of what an author signs) and, for a bundle,
// the hash of its manifest. A signature therefore covers exactly the code
// a grant would cover, plus the text around it.
//
// A signature is checked only against the reader's own trust file (an
// allowed_signers file in markii's config directory), never against a key
// the note or bundle carries. Its result is a Status, a typed value that
// is shown to the reader and read by nothing else: no grant, prompt, tier
// or unattended-run decision looks at it. Every way a signature can be
// wrong, including a signature file that is unreadable, huge, a link or a
// named pipe, is a Status and never an error that keeps a note from
// opening.
package signature

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/markii/markii/runtime/bundle"
)

// Namespace is the SSHSIG namespace of every markii signature. It is part
// of what is signed, so a signature made for git, a file or any other
// purpose never verifies as a note's, and a note's never as theirs.
const Namespace = "markii-note"

// StatementVersion opens every statement.
const StatementVersion = "markii-signature/1"

// FileName is the name of a bundle's signature file, at the bundle's
// root; it is left out of what is signed. A single note's signature is
// the file beside it named NOTE + Suffix.
const FileName = bundle.SignatureFile

// Suffix is added to a single note's file name to name its signature.
const Suffix = ".sig"

// Kind says whether a Statement is about a single note or a bundle.
type Kind string

// The statement kinds.
const (
	KindNote   Kind = "note"
	KindBundle Kind = "bundle"
)

// Statement is what a signature signs.
type Statement struct {
	Kind Kind
	// Content is the lowercase hex SHA-256 of the note's bytes, or of a
	// bundle's file listing (ContentHash).
	Content string
	// Closure is the closure key of the note's own code (grants.Key).
	Closure string
	// Manifest is the hex SHA-256 of a bundle's manifest.json; "" for a
	// single note.
	Manifest string
}

// Bytes is the canonical text that is signed:
//
//	markii-signature/1
//	kind note|bundle
//	content sha256:HEX
//	closure markii-grant-key/1:HEX
//	manifest sha256:HEX            (bundles only)
//
// each line ending in a line feed.
func (s Statement) Bytes() []byte {
	var b strings.Builder
	b.WriteString(StatementVersion + "\n")
	b.WriteString("kind " + string(s.Kind) + "\n")
	b.WriteString("content sha256:" + s.Content + "\n")
	b.WriteString("closure markii-grant-key/1:" + s.Closure + "\n")
	if s.Kind == KindBundle {
		b.WriteString("manifest sha256:" + s.Manifest + "\n")
	}
	return []byte(b.String())
}

// NoteHash is the content hash of a single note's bytes.
func NoteHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ContentHash is the content hash of a bundle: SHA-256 over its files in
// bytewise name order, each as u32(len(name)) name sha256(data), leaving
// out the signature file itself. get returns a file's bytes.
func ContentHash(names []string, get func(string) ([]byte, bool)) string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	h := sha256.New()
	for _, n := range sorted {
		if n == FileName {
			continue
		}
		data, ok := get(n)
		if !ok {
			continue
		}
		var l [4]byte
		l[0], l[1], l[2], l[3] = byte(len(n)>>24), byte(len(n)>>16), byte(len(n)>>8), byte(len(n))
		h.Write(l[:])
		h.Write([]byte(n))
		sum := sha256.Sum256(data)
		h.Write(sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}
