package bundle

import (
	"errors"
	"strconv"
	"strings"
)

// PathError is a path that the bundle jail refuses. Path is the path as the
// caller wrote it (already folded to printable text by Error), Reason says
// which rule it broke.
type PathError struct {
	Path   string
	Reason string
}

func (e *PathError) Error() string {
	return "bundle path " + quote(e.Path) + " is refused: " + e.Reason
}

// Reserved top-level names that are never a pack namespace.
const (
	ScriptsDir = "scripts"
	AssetsDir  = "assets"
	CacheDir   = ".cache"
)

// ManifestName is the manifest's fixed path; DefaultDocument is the
// document's path when the manifest names none.
const (
	ManifestName    = "manifest.json"
	DefaultDocument = "note.mk.md"
)

// SignatureFile is the publisher's signature at a bundle's root (see
// runtime/signature). It is not part of what is signed, and a directory
// bundle's walk leaves it to the signature check, so whatever sits there
// never keeps the bundle from opening.
const SignatureFile = "markii.sig"

// CleanPath normalises a bundle-relative path through the jail: it refuses
// empty paths, NUL, backslashes, absolute paths, drive letters and any ".."
// segment, collapses "." and empty segments and strips a leading "./". It
// never percent-decodes. The result uses "/" and has no trailing slash.
func CleanPath(p string) (string, error) {
	switch {
	case p == "":
		return "", &PathError{p, "it is empty"}
	case strings.IndexByte(p, 0) >= 0:
		return "", &PathError{p, "it contains a NUL byte"}
	case strings.IndexByte(p, '\\') >= 0:
		return "", &PathError{p, "it contains a backslash"}
	case p[0] == '/':
		return "", &PathError{p, "it is absolute"}
	case hasDriveLetter(p):
		return "", &PathError{p, "it starts with a drive letter"}
	}
	segs := strings.Split(p, "/")
	kept := segs[:0]
	for _, s := range segs {
		switch s {
		case "", ".":
			continue
		case "..":
			return "", &PathError{p, "it contains a \"..\" segment"}
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		return "", &PathError{p, "it names the bundle root"}
	}
	return strings.Join(kept, "/"), nil
}

// hasDriveLetter reports whether p starts like "C:".
func hasDriveLetter(p string) bool {
	if len(p) < 2 || p[1] != ':' {
		return false
	}
	c := p[0]
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// firstSegment returns the part of a clean path before its first "/".
func firstSegment(clean string) string {
	head, _, _ := strings.Cut(clean, "/")
	return head
}

// IsLocalModule reports whether a require name is bundle-local: its first
// segment is scripts, assets or .cache. Anything else names a pack.
func IsLocalModule(name string) bool {
	switch firstSegment(name) {
	case ScriptsDir, AssetsDir, CacheDir:
		return true
	}
	return false
}

// ModulePath turns a require name into the jailed path of its file: the
// name plus ".lua" unless it already ends in ".lua".
func ModulePath(name string) (string, error) {
	if !strings.HasSuffix(name, ".lua") {
		name += ".lua"
	}
	return CleanPath(name)
}

// ModuleKey is the one spelling of a require name: the path of its file
// without the ".lua" suffix. Names with one key ("scripts/m",
// "scripts/m.lua", "scripts//m", "scripts/./m") name one module, which a
// run loads once.
func ModuleKey(name string) (string, error) {
	if _, err := CleanPath(name); err != nil {
		return "", err // refused as the script wrote it
	}
	p, err := ModulePath(name)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(p, ".lua"), nil
}

// isBytecode reports whether src starts with Lua's binary chunk signature
// (ESC), which markii never loads.
func isBytecode(src []byte) bool { return len(src) > 0 && src[0] == 0x1b }

// ErrBytecode is returned for a module or src= file that is a compiled Lua
// chunk rather than text.
var ErrBytecode = errors.New("it is compiled Lua bytecode, and only Lua source text can be loaded")

// quote prints a path for a one-line message: Go-quoted, so control bytes
// are escaped, and shortened if very long.
func quote(p string) string {
	const max = 200
	if len(p) > max {
		p = p[:max] + "…"
	}
	return strconv.Quote(p)
}
