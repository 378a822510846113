package cli

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/viewer"
)

// signOptions are markii sign's flags.
type signOptions struct{ key textFlag }

func (o *signOptions) bind(fs *flagSet) {
	fs.text(&o.key, flagSpec{name: "key", value: "PATH", help: "the OpenSSH private key to sign with (required)"})
}

var signCommand = commandOf(command{
	summary: "sign a note or bundle with an SSH key (Ed25519 or ECDSA P-256)",
	args:    "NOTE|BUNDLE",
	maxArgs: 1,
}, (*signOptions).bind, signNote)

// verifyOptions are markii verify's flags.
type verifyOptions struct{ statement bool }

func (o *verifyOptions) bind(fs *flagSet) {
	fs.bool(&o.statement, flagSpec{name: "statement", help: "print the statement a signature signs (for ssh-keygen -Y verify -n markii-note)"})
}

var verifyCommand = commandOf(command{
	summary: "check a note's or bundle's signature against your allowed_signers",
	args:    "NOTE|BUNDLE",
	maxArgs: 1,
}, (*verifyOptions).bind, verifyNote)

// signedNote loads the note a sign or verify command names, from a file
// or a bundle (a note from stdin has no place for a signature).
func signedNote(c *invocation, verb string) (*note, run.Note, error) {
	if len(c.args) == 0 {
		return nil, run.Note{}, usagef("markii %s needs a note or bundle (markii %s NOTE)", verb, verb)
	}
	if c.args[0] == "-" {
		return nil, run.Note{}, usagef("markii %s needs a file or bundle: a note on standard input has no place for a signature", verb)
	}
	n, err := loadNote(c.args[0], nil)
	if err != nil {
		return nil, run.Note{}, err
	}
	return n, runnable(n, render.Parse(n.Source)), nil
}

func signNote(c *invocation, o *signOptions) error {
	keyPath := o.key.value
	if keyPath == "" {
		return usagef("markii sign needs --key PATH, an OpenSSH Ed25519 or ECDSA P-256 private key")
	}
	n, rn, err := signedNote(c, "sign")
	if err != nil {
		return err
	}
	signer, err := signature.LoadKey(keyPath)
	if err != nil {
		return failf("cannot use the key %s: %w", keyPath, err)
	}
	sig, err := signature.Sign(run.Statement(rn, n.Source), signer)
	if err != nil {
		return failf("%w", err)
	}
	where, err := writeSignature(n, rn, sig)
	if err != nil {
		return failf("cannot write the signature: %w", err)
	}
	fmt.Fprintf(c.stdio.Out, "signed %s with %s; the signature is %s\n",
		sanitize.Line(n.Name), ssh.FingerprintSHA256(signer.PublicKey()), sanitize.Line(where))
	return nil
}

// writeSignature stores sig where verify looks for it and says where.
func writeSignature(n *note, rn run.Note, sig []byte) (string, error) {
	if p := run.SignaturePath(rn, n.Path); p != "" {
		return p, replaceFile(p, sig)
	}
	return n.Path + " (its " + signature.FileName + " entry)", rewriteZip(n.Path, sig)
}

// replaceFile writes data to path through a temporary sibling renamed over
// it; a link or anything but a regular file at path is refused.
func replaceFile(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file; remove it first", path)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Chmod(0o644)
	serr := f.Sync()
	if err := errors.Join(werr, cerr, serr, f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// rewriteZip writes a copy of the zip bundle at path with sig as its
// signature entry (replacing an earlier one) and renames it over path.
// The other entries are copied byte for byte.
func rewriteZip(path string, sig []byte) error {
	r, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = copyZip(f, r, sig)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func copyZip(w io.Writer, r *zip.ReadCloser, sig []byte) error {
	zw := zip.NewWriter(w)
	for _, e := range r.File {
		if e.Name == signature.FileName {
			continue
		}
		if err := zw.Copy(e); err != nil {
			return err
		}
	}
	sw, err := zw.CreateHeader(&zip.FileHeader{Name: signature.FileName, Method: zip.Deflate, Modified: time.Now()})
	if err != nil {
		return err
	}
	if _, err := sw.Write(sig); err != nil {
		return err
	}
	return zw.Close()
}

func verifyNote(c *invocation, o *verifyOptions) error {
	n, rn, err := signedNote(c, "verify")
	if err != nil {
		return err
	}
	if o.statement {
		_, err := c.stdio.Out.Write(run.Statement(rn, n.Source).Bytes())
		return err
	}
	st := c.signatureStatus(n, rn, true)
	fmt.Fprintf(c.stdio.Out, "%s: %s\n", sanitize.Line(n.Name), st)
	if st.State != signature.Trusted {
		return &exitError{code: ExitFailure}
	}
	return nil
}

// trust reads the reader's trust file from markii's config directory, and
// nowhere else. A missing file trusts no key; with warn set, lines that
// were skipped and a file that cannot be read are named on stderr.
func (c *invocation) trust(warn bool) *signature.Trust {
	dir, err := config.Dir(runtime.GOOS, c.getenv)
	if err != nil {
		return nil
	}
	t, err := signature.LoadTrust(filepath.Join(dir, signature.TrustFileName))
	if warn && err != nil {
		fmt.Fprintf(c.stdio.Err, "markii: %s; no key is trusted\n", sanitize.Line(err.Error()))
	}
	if warn && t != nil {
		for _, p := range t.Problems {
			fmt.Fprintf(c.stdio.Err, "markii: %s: %s\n", sanitize.Line(signature.TrustFileName), sanitize.Line(p))
		}
	}
	return t
}

// signatureStatus checks n's signature against the reader's trust file.
// It never fails: a note opens whatever its signature is.
func (c *invocation) signatureStatus(n *note, rn run.Note, warn bool) signature.Status {
	path := n.Path
	if n.Bundle != nil {
		path = n.Bundle.Path()
	}
	return run.CheckSignature(rn, path, n.Source, c.trust(warn), time.Now())
}

// noteSignature is n's signature status for display. A note with no
// signature file is unsigned without being parsed, so opening a long
// unsigned note costs nothing more.
func (c *invocation) noteSignature(n *note) signature.Status {
	if !hasSignature(n) {
		return signature.Status{State: signature.Unsigned}
	}
	return c.signatureStatus(n, runnable(n, render.Parse(n.Source)), false)
}

// hasSignature reports whether something sits where n's signature would.
func hasSignature(n *note) bool {
	switch {
	case n.Path == "":
		return false
	case n.Bundle == nil:
		_, err := os.Lstat(n.Path + signature.Suffix)
		return err == nil
	case n.Bundle.Form() == bundle.Directory:
		_, err := os.Lstat(filepath.Join(n.Bundle.Path(), signature.FileName))
		return err == nil
	}
	_, ok := n.Bundle.Files().Get(signature.FileName)
	return ok
}

// signLibrary checks the signature of each library entry: a note or
// bundle folder with no signature file beside or in it is unsigned without
// being read; any other entry is opened and checked, except a .mkz too
// large for the list to open, whose status stays not checked.
func (c *invocation) signLibrary(lib *viewer.Library) {
	unsigned := signature.Status{State: signature.Unsigned}
	for i := range lib.Entries {
		e := &lib.Entries[i]
		switch mayBeSigned(e) {
		case sigAbsent:
			e.Signature = &unsigned
			continue
		case sigUnknown:
			continue
		}
		n, err := loadNote(e.Path, nil)
		if err != nil {
			continue
		}
		st := c.noteSignature(n)
		e.Signature = &st
	}
}

// sigPresence is what the list knows of an entry's signature before it
// reads the entry.
type sigPresence int

const (
	// sigMaybe: the entry is read and checked.
	sigMaybe sigPresence = iota
	// sigAbsent: there is no signature file; the entry is unsigned.
	sigAbsent
	// sigUnknown: the entry is too large for the list to open.
	sigUnknown
)

func mayBeSigned(e *viewer.LibraryEntry) sigPresence {
	var err error
	switch e.Kind {
	case viewer.NoteFile:
		_, err = os.Lstat(e.Path + signature.Suffix)
	case viewer.BundleFolder:
		_, err = os.Lstat(filepath.Join(e.Path, signature.FileName))
	default:
		fi, err := os.Stat(e.Path)
		if err != nil || fi.Size() > viewer.DefaultLibraryLimits.ArchiveBytes {
			return sigUnknown
		}
		return sigMaybe
	}
	if errors.Is(err, fs.ErrNotExist) {
		return sigAbsent
	}
	return sigMaybe
}
