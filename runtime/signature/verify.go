package signature

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"github.com/markii/markii/runtime/internal/safefile"
	"github.com/markii/markii/sanitize"
)

// MaxSignatureBytes bounds a signature file: an armored SSH signature by
// an Ed25519 or P-256 key is well under 1 KiB.
const MaxSignatureBytes = 16 << 10

// State is what a signature check found: one of four answers.
type State int

// The states a note's signature can be in.
const (
	// Unsigned: there is no signature.
	Unsigned State = iota
	// Trusted: the signature is good and the key is in the trust file.
	Trusted
	// UnknownKey: the signature is good, by a key the trust file does not
	// hold (or holds for other namespaces).
	UnknownKey
	// Mismatch: there is a signature and it is not good (see Problem).
	Mismatch
)

// Problem says why a signature is a Mismatch.
type Problem int

// The reasons a signature is refused.
const (
	NoProblem Problem = iota
	// Changed: the signature does not verify over this note's statement
	// (the note, its code or its manifest changed, or it signs another).
	Changed
	// WrongNamespace: the signature was made for another purpose.
	WrongNamespace
	// UnsupportedAlgorithm: the key or hash is not Ed25519/P-256 and
	// SHA-256/SHA-512.
	UnsupportedAlgorithm
	// Expired: the trusted key is outside its valid-after/valid-before.
	Expired
	// Revoked: the key is on a @revoked line of the trust file.
	Revoked
	// Malformed: the signature file is not an SSH signature.
	Malformed
	// Unreadable: the signature file is not a regular file, is too large
	// or cannot be read.
	Unreadable
)

var problemText = map[Problem]string{
	Changed:              "the note changed since it was signed, or the signature is for other content",
	WrongNamespace:       "the signature was not made for a markii note",
	UnsupportedAlgorithm: "the signature uses an algorithm markii does not accept",
	Expired:              "the signing key is outside the validity the trust file gives it",
	Revoked:              "the signing key is revoked in the trust file",
	Malformed:            "the signature file is not an SSH signature",
	Unreadable:           "the signature file cannot be read",
}

func (p Problem) String() string { return problemText[p] }

// Status is the result of checking a note's signature. It is shown to the
// reader and read by no decision.
type Status struct {
	State State
	// Principal is the trusted principal (Trusted, and Expired/Revoked
	// mismatches of a trusted key), sanitized for display.
	Principal string
	// Fingerprint is the signing key's SHA256 fingerprint, when known.
	Fingerprint string
	// Problem says why a Mismatch is one.
	Problem Problem
	// Detail adds a plain reason (for Unreadable and Malformed).
	Detail string
}

// String is the one-line, display-safe form:
// "signed by alice@example.org", "signed by an unknown key (SHA256:…)",
// "signature does not match: …" or "unsigned".
func (s Status) String() string {
	switch s.State {
	case Trusted:
		return "signed by " + s.Principal
	case UnknownKey:
		return "signed by an unknown key (" + s.Fingerprint + ")"
	case Mismatch:
		msg := "signature does not match: " + s.Problem.String()
		if s.Detail != "" {
			msg += " (" + sanitize.Line(s.Detail) + ")"
		}
		return msg
	}
	return "unsigned"
}

// Short is the status bar's and the library list's segment:
// "signed: alice@example.org", "signed: unknown key SHA256:AbCdEfGh…",
// "signature does not match" or "unsigned".
func (s Status) Short() string {
	switch s.State {
	case Trusted:
		return "signed: " + s.Principal
	case UnknownKey:
		return "signed: unknown key " + shortFingerprint(s.Fingerprint)
	case Mismatch:
		return "signature does not match"
	}
	return "unsigned"
}

// Sentence is the status as the one line the consent question opens
// with: "Signed by alice@example.org. A signature grants nothing.",
// "Signed by an unknown key (SHA256:…). A signature grants nothing.",
// "Signature does not match." or "Unsigned.".
func (s Status) Sentence() string {
	switch s.State {
	case Trusted:
		return "Signed by " + s.Principal + ". A signature grants nothing."
	case UnknownKey:
		return "Signed by an unknown key (" + s.Fingerprint + "). A signature grants nothing."
	case Mismatch:
		return "Signature does not match."
	}
	return "Unsigned."
}

// shortFingerprint is fp cut to its first eight characters of hash.
func shortFingerprint(fp string) string {
	const keep = len("SHA256:") + 8
	if len(fp) <= keep+1 {
		return fp
	}
	return fp[:keep] + "…"
}

// Code is the status's stable machine name for records and JSON:
// "trusted", "unknown-key", "mismatch" or "unsigned".
func (s Status) Code() string {
	return [...]string{"unsigned", "trusted", "unknown-key", "mismatch"}[s.State]
}

// ReadFile reads a signature file at path the way markii reads every file
// it does not own: never following a link, never waiting on a pipe, never
// reading more than MaxSignatureBytes. A missing file gives (nil, nil).
// Any other failure comes back as a Mismatch status, not an error.
func ReadFile(path string) ([]byte, *Status) {
	data, err := safefile.ReadFile(path, MaxSignatureBytes, safefile.Options{NoFollow: true})
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	}
	detail := "it cannot be read"
	var se *safefile.Error
	if errors.As(err, &se) {
		switch se.Problem {
		case safefile.Symlink:
			detail = "it is a symbolic link"
		case safefile.TooLarge:
			detail = fmt.Sprintf("it is over %d KiB", MaxSignatureBytes>>10)
		default:
			detail = "it is " + safefile.Describe(se.Mode)
		}
	}
	return nil, &Status{State: Mismatch, Problem: Unreadable, Detail: detail}
}

// Verify checks sig (an armored SSH signature, nil when there is none)
// over st against the reader's trust (nil: an empty trust file) at time
// now. It never fails: every outcome is a Status.
func Verify(st Statement, sig []byte, trust *Trust, now time.Time) Status {
	if sig == nil {
		return Status{State: Unsigned}
	}
	if len(sig) > MaxSignatureBytes {
		return Status{State: Mismatch, Problem: Unreadable, Detail: fmt.Sprintf("it is over %d KiB", MaxSignatureBytes>>10)}
	}
	parsed, err := sshsig.Unarmor(bytes.TrimSpace(sig))
	if err != nil || parsed.PublicKey == nil {
		return Status{State: Mismatch, Problem: Malformed}
	}
	fp := ssh.FingerprintSHA256(parsed.PublicKey)
	if p := checkAlgorithms(parsed); p != NoProblem {
		return Status{State: Mismatch, Problem: p, Fingerprint: fp}
	}
	if parsed.Namespace != Namespace {
		return Status{State: Mismatch, Problem: WrongNamespace, Fingerprint: fp}
	}
	if err := sshsig.Verify(bytes.NewReader(st.Bytes()), parsed, parsed.PublicKey, parsed.HashAlgorithm, Namespace); err != nil {
		return Status{State: Mismatch, Problem: Changed, Fingerprint: fp}
	}
	if trust == nil {
		trust = &Trust{}
	}
	if trust.Revoked[fp] {
		return Status{State: Mismatch, Problem: Revoked, Fingerprint: fp}
	}
	return trust.judge(parsed.PublicKey, fp, now)
}

// checkAlgorithms refuses keys, signature formats and hashes markii does
// not accept.
func checkAlgorithms(s *sshsig.Signature) Problem {
	if !supported(s.PublicKey.Type()) || s.Signature == nil || s.Signature.Format != s.PublicKey.Type() {
		return UnsupportedAlgorithm
	}
	if s.HashAlgorithm != sshsig.HashSHA256 && s.HashAlgorithm != sshsig.HashSHA512 {
		return UnsupportedAlgorithm
	}
	return NoProblem
}

// judge finds the key among the trusted signers. A key trusted for this
// namespace at this time is Trusted; one trusted for it only at other
// times is an Expired mismatch; anything else is an UnknownKey.
func (t *Trust) judge(k ssh.PublicKey, fp string, now time.Time) Status {
	want := k.Marshal()
	var expired *Signer
	for i := range t.Signers {
		s := &t.Signers[i]
		if !bytes.Equal(s.Key.Marshal(), want) {
			continue
		}
		if len(s.Namespaces) > 0 && !matchList(Namespace, s.Namespaces) {
			continue
		}
		if (!s.ValidAfter.IsZero() && now.Before(s.ValidAfter)) || (!s.ValidBefore.IsZero() && !now.Before(s.ValidBefore)) {
			expired = s
			continue
		}
		return Status{State: Trusted, Principal: principal(s), Fingerprint: fp}
	}
	if expired != nil {
		return Status{State: Mismatch, Problem: Expired, Principal: principal(expired), Fingerprint: fp}
	}
	return Status{State: UnknownKey, Fingerprint: fp}
}

func principal(s *Signer) string {
	return sanitize.Line(strings.Join(s.Principals, ","))
}
