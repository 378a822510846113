// Package bundle opens Markii bundles, a `.mkz` zip (legacy `.mkbundle`) or
// a directory with a manifest.json, into an immutable in-memory snapshot,
// and gives a script run its bundle as its whole filesystem through a
// jailed, grant-checked Session.
//
// Opening is bounded: sizes are checked before bytes are read or inflated,
// and any unsafe entry (a name that escapes, a link, ZIP64, an unknown
// method, a lying size, a bad CRC, a local header that disagrees with the
// central directory, entries that overlap) refuses the whole bundle with
// the list of offenders as typed Problems. Nothing here runs code.
package bundle

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Form says how a bundle is stored.
type Form int

// The two bundle forms.
const (
	// Zip is a .mkz (or legacy .mkbundle) archive; it is read-only on disk.
	Zip Form = iota + 1
	// Directory is a folder with a manifest.json; .cache/ writes persist.
	Directory
)

func (f Form) String() string {
	switch f {
	case Zip:
		return "zip"
	case Directory:
		return "directory"
	}
	return "unknown"
}

// ErrNoManifest is returned for a bundle without a manifest.json.
var ErrNoManifest = errors.New("bundle has no " + ManifestName)

// MissingDocumentError is a bundle whose document file is absent.
type MissingDocumentError struct {
	// Path is the clean bundle-relative document path.
	Path string
}

func (e *MissingDocumentError) Error() string { return "bundle has no " + e.Path }

// Bundle is an opened bundle: its validated manifest, its document and an
// immutable snapshot of its files taken at open.
type Bundle struct {
	path     string
	form     Form
	manifest *Manifest
	files    *Files
	document []byte
}

// HasBundleExtension reports whether name ends in .mkz or .mkbundle, in
// any letter case.
func HasBundleExtension(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".mkz" || ext == ".mkbundle"
}

// Open opens the bundle at path with DefaultLimits. path is a directory (a
// directory bundle) or a .mkz/.mkbundle file (a zip bundle).
func Open(path string) (*Bundle, error) { return OpenLimits(path, DefaultLimits) }

// OpenLimits opens the bundle at path under lim. Errors are
// *ArchiveError (refused contents), ErrNoManifest, *ManifestError,
// *MissingDocumentError, or the operating system's error for a path that
// cannot be read.
func OpenLimits(path string, lim Limits) (*Bundle, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	b := &Bundle{path: abs}
	switch {
	case info.IsDir():
		b.form = Directory
		if _, err := os.Lstat(filepath.Join(path, ManifestName)); errors.Is(err, os.ErrNotExist) {
			return nil, ErrNoManifest
		}
		b.files, err = ReadDir(path, "bundle", lim)
	case HasBundleExtension(path):
		b.form = Zip
		b.files, err = ReadZip(path, "bundle", lim)
	default:
		return nil, fmt.Errorf("%s is neither a bundle directory nor a .mkz file", path)
	}
	if err != nil {
		return nil, err
	}
	raw, ok := b.files.Get(ManifestName)
	if !ok {
		return nil, ErrNoManifest
	}
	if b.manifest, err = ParseManifest(raw); err != nil {
		return nil, err
	}
	if b.document, ok = b.files.Get(b.manifest.Document); !ok {
		return nil, &MissingDocumentError{Path: b.manifest.Document}
	}
	return b, nil
}

// Path is the bundle's absolute path on disk.
func (b *Bundle) Path() string { return b.path }

// Form is how the bundle is stored.
func (b *Bundle) Form() Form { return b.form }

// Manifest is the validated manifest.
func (b *Bundle) Manifest() *Manifest { return b.manifest }

// Document returns the document's bytes. The slice must not be modified.
func (b *Bundle) Document() []byte { return b.document }

// DocumentPath is the document's clean bundle-relative path.
func (b *Bundle) DocumentPath() string { return b.manifest.Document }

// Warnings are the manifest's non-fatal problems (unknown keys, legacy
// names), each one line.
func (b *Bundle) Warnings() []string { return b.manifest.Warnings }

// Files is the snapshot taken at open.
func (b *Bundle) Files() *Files { return b.files }

// File returns a file of the snapshot by a path the document names (an
// image, a data file), through the jail. It needs no grant: it is for the
// host and the renderer, never for scripts.
func (b *Bundle) File(name string) ([]byte, error) {
	clean, err := CleanPath(name)
	if err != nil {
		return nil, err
	}
	data, ok := b.files.Get(clean)
	if !ok {
		return nil, fmt.Errorf("bundle has no file %s", quote(clean))
	}
	return data, nil
}

// Resolve returns the text of a `src=` script file. The path is jailed;
// a missing file or a compiled chunk is an error (a script error for that
// block). The text joins the note's closure key and host scan.
func (b *Bundle) Resolve(src string) (string, error) {
	clean, err := CleanPath(src)
	if err != nil {
		return "", fmt.Errorf("src=%s: %w", quote(src), err)
	}
	data, ok := b.files.Get(clean)
	if !ok {
		return "", fmt.Errorf("src=%s: the bundle has no file %s", quote(src), quote(clean))
	}
	if isBytecode(data) {
		return "", fmt.Errorf("src=%s is refused: %w", quote(src), ErrBytecode)
	}
	return string(data), nil
}
