package run

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"time"

	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/signature"
)

// SignedKey is the closure key a signature of n covers: the key grants
// use (grants.Key) over the note's own code, its scripts, src= files and
// bundle modules. Packs installed on one machine are left out: they are
// the reader's, not the author's.
func SignedKey(n Note) string { return grants.Key(buildClosure(n).grants) }

// Statement is what a signature of n signs. document is the note's
// bytes (for a bundle, its document is covered by the file listing).
func Statement(n Note, document []byte) signature.Statement {
	if n.Bundle == nil {
		return signature.Statement{Kind: signature.KindNote, Content: signature.NoteHash(document), Closure: SignedKey(n)}
	}
	files := n.Bundle.Files()
	manifest, _ := files.Get(bundle.ManifestName)
	sum := sha256.Sum256(manifest)
	return signature.Statement{
		Kind:     signature.KindBundle,
		Content:  signature.ContentHash(files.Names(), files.Get),
		Closure:  SignedKey(n),
		Manifest: hex.EncodeToString(sum[:]),
	}
}

// SignaturePath is where n's signature lives on disk: beside a single
// note (path + ".sig"), at the root of a directory bundle, and "" for a
// zip bundle, whose signature is its markii.sig entry.
func SignaturePath(n Note, path string) string {
	switch {
	case n.Bundle == nil:
		return path + signature.Suffix
	case n.Bundle.Form() == bundle.Directory:
		return filepath.Join(n.Bundle.Path(), signature.FileName)
	}
	return ""
}

// CheckSignature checks n's signature against the reader's trust (nil:
// none). path is the note's file or bundle on disk ("" for stdin, which
// is unsigned). It never fails: every problem is a Status.
func CheckSignature(n Note, path string, document []byte, trust *signature.Trust, now time.Time) signature.Status {
	if path == "" {
		return signature.Status{State: signature.Unsigned}
	}
	var sig []byte
	if p := SignaturePath(n, path); p != "" {
		var bad *signature.Status
		if sig, bad = signature.ReadFile(p); bad != nil {
			return *bad
		}
	} else if data, ok := n.Bundle.Files().Get(signature.FileName); ok {
		sig = data
	}
	return signature.Verify(Statement(n, document), sig, trust, now)
}
