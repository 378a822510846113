package viewer

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/signature"
)

// EntryKind says how a note in a library is stored.
type EntryKind int

// The kinds of library entry.
const (
	// NoteFile is a single .mk.md file.
	NoteFile EntryKind = iota
	// ZipBundle is a .mkz (or legacy .mkbundle) archive.
	ZipBundle
	// BundleFolder is a folder holding a manifest.json.
	BundleFolder
)

// LibraryEntry is one note of a library.
type LibraryEntry struct {
	// Path is the entry's absolute path, to open it.
	Path string
	// Rel is its slash-separated path below the library's root, as the
	// file system spells it (the chrome makes it inert when it draws it).
	Rel  string
	Kind EntryKind
	// Title is the note's title (see render.Title); "" when it has none
	// or its document could not be read.
	Title string
	// Signature is the note's signature status as the caller checked it
	// against the reader's trust file; nil when it was not checked (an
	// archive too large for the list to open, or an entry that could not
	// be read). It is shown beside the entry and read by nothing else.
	Signature *signature.Status
}

// Library is a folder of notes: `markii view DIR` lists it.
type Library struct {
	// Root is the folder's absolute path.
	Root string
	// Entries are the notes found, by path.
	Entries []LibraryEntry
	// Capped says a limit stopped the scan: more notes may be there.
	Capped bool
}

// LibraryLimits bound what scanning a folder may cost.
type LibraryLimits struct {
	// Entries caps the notes listed.
	Entries int
	// Depth caps how many folder levels below the root are read.
	Depth int
	// Folders caps the folders read.
	Folders int
	// FolderEntries caps the names read from one folder.
	FolderEntries int
	// ArchiveBytes is the largest .mkz opened for its title; larger ones
	// are listed by name.
	ArchiveBytes int64
	// TitleBytes caps the bytes read for titles in the whole scan; past
	// it, notes are listed by name.
	TitleBytes int64
}

// DefaultLibraryLimits are the limits of `markii view DIR`.
var DefaultLibraryLimits = LibraryLimits{
	Entries:       2000,
	Depth:         8,
	Folders:       5000,
	FolderEntries: 10000,
	ArchiveBytes:  8 << 20,
	TitleBytes:    256 << 20,
}

// vendoredFolders are folders of other people's files, never listed.
var vendoredFolders = map[string]bool{
	"node_modules":     true,
	"vendor":           true,
	"bower_components": true,
	"__pycache__":      true,
	"site-packages":    true,
	"target":           true,
}

// ScanLibrary lists the notes under root: .mk.md files, .mkz archives and
// bundle folders (a folder with a manifest.json, not descended into).
// Hidden (dot) and vendored folders are skipped, and so is every symbolic
// link that leads out of root or to a folder: the scan reads through an
// os.Root, so nothing outside root is ever opened.
func ScanLibrary(root string, lim LibraryLimits) (*Library, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &scan{root: r, lim: lim, lib: &Library{Root: abs}, budget: lim.TitleBytes}
	if err := s.folder(".", 0); err != nil {
		return nil, err
	}
	return s.lib, nil
}

// scan is one walk of a library's folder tree.
type scan struct {
	root    *os.Root
	lim     LibraryLimits
	lib     *Library
	folders int
	budget  int64
}

// full reports whether the entry cap is reached.
func (s *scan) full() bool {
	if len(s.lib.Entries) >= s.lim.Entries {
		s.lib.Capped = true
		return true
	}
	return false
}

// folder lists the folder rel (a path below the root) at depth; only the
// root folder's failure to open is an error.
func (s *scan) folder(rel string, depth int) error {
	if s.folders >= s.lim.Folders {
		s.lib.Capped = true
		return nil
	}
	s.folders++
	ents, err := s.readFolder(rel)
	if err != nil && rel == "." {
		return err
	}
	for _, e := range ents {
		if s.full() {
			return nil
		}
		s.entry(rel, e, depth)
	}
	return nil
}

// readFolder reads the folder rel's entries, at most the limit's, README
// first, then by name.
func (s *scan) readFolder(rel string) ([]fs.DirEntry, error) {
	f, err := s.root.Open(rel)
	if err != nil {
		return nil, err
	}
	ents, err := f.ReadDir(s.lim.FolderEntries)
	f.Close()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(ents) >= s.lim.FolderEntries {
		s.lib.Capped = true
	}
	slices.SortFunc(ents, readmeFirst)
	return ents, nil
}

// readmeFirst orders a folder's entries: a folder's README comes first,
// as a repository shows it, then the rest by name.
func readmeFirst(a, b fs.DirEntry) int {
	ra, rb := isReadme(a.Name()), isReadme(b.Name())
	if ra == rb {
		return strings.Compare(a.Name(), b.Name())
	}
	if ra {
		return -1
	}
	return 1
}

// entry lists e, found in the folder rel at depth: a note, an archive, a
// bundle folder, or a folder to descend into. Hidden and vendored
// folders are skipped.
func (s *scan) entry(rel string, e fs.DirEntry, depth int) {
	name := e.Name()
	if strings.HasPrefix(name, ".") {
		return
	}
	p := path.Join(rel, name)
	switch t := e.Type(); {
	case t.IsDir() && !vendoredFolders[name]:
		s.dir(p, depth)
	case t&fs.ModeSymlink != 0:
		// os.Root refuses a link that leads out of the root; a link
		// to a folder is never followed, so a loop cannot form.
		if info, err := s.root.Stat(p); err == nil && info.Mode().IsRegular() {
			s.file(p, name)
		}
	case t.IsRegular():
		s.file(p, name)
	}
}

// dir lists the folder p found at depth: a bundle folder, or a folder
// to descend into while the depth limit allows.
func (s *scan) dir(p string, depth int) {
	if _, err := s.root.Lstat(path.Join(p, bundle.ManifestName)); err == nil {
		s.add(p, BundleFolder)
	} else if depth < s.lim.Depth {
		s.folder(p, depth+1)
	} else {
		s.lib.Capped = true
	}
}

// isReadme reports whether name is a folder's README (README.md,
// readme.markdown, …).
func isReadme(name string) bool {
	lower := strings.ToLower(name)
	return lower == "readme.md" || lower == "readme.markdown" || lower == "readme.mk.md"
}

// isMarkdown reports whether a file name is a note's: a Markii note
// (.mk.md) or plain markdown (.md, .markdown), which a repository's docs
// folder holds.
func isMarkdown(lower string) bool {
	return strings.HasSuffix(lower, ".md") || strings.HasSuffix(lower, ".markdown")
}

// file adds the regular file p when it is a note or an archive.
func (s *scan) file(p, name string) {
	switch lower := strings.ToLower(name); {
	case isMarkdown(lower):
		s.add(p, NoteFile)
	case bundle.HasBundleExtension(lower):
		s.add(p, ZipBundle)
	}
}

func (s *scan) add(p string, k EntryKind) {
	e := LibraryEntry{Path: filepath.Join(s.lib.Root, filepath.FromSlash(p)), Rel: p, Kind: k}
	if s.budget > 0 {
		e.Title = render.Title(s.titleSource(e))
	}
	s.lib.Entries = append(s.lib.Entries, e)
}

// titleSource reads the start of an entry's document, at most
// render.TitleBytes of it; nil when it cannot be read.
func (s *scan) titleSource(e LibraryEntry) []byte {
	switch e.Kind {
	case NoteFile:
		return s.prefix(s.root, e.Rel)
	case BundleFolder:
		return s.folderSource(e.Rel)
	case ZipBundle:
		return s.archiveSource(e)
	}
	return nil
}

// folderSource reads the start of the document of the bundle folder rel.
func (s *scan) folderSource(rel string) []byte {
	sub, err := s.root.OpenRoot(rel)
	if err != nil {
		return nil
	}
	defer sub.Close()
	raw := s.read(sub, bundle.ManifestName, bundle.MaxManifestBytes)
	m, err := bundle.ParseManifest(raw)
	if err != nil {
		return nil
	}
	return s.prefix(sub, m.Document)
}

// archiveSource reads the start of the document of the archive e, an
// archive within the limits and the scan's budget.
func (s *scan) archiveSource(e LibraryEntry) []byte {
	info, err := s.root.Stat(e.Rel)
	if err != nil || info.Size() > s.lim.ArchiveBytes || info.Size() > s.budget {
		return nil
	}
	s.budget -= info.Size()
	lim := bundle.DefaultLimits
	lim.ArchiveBytes, lim.EntryBytes, lim.TotalBytes = s.lim.ArchiveBytes, s.lim.ArchiveBytes, s.lim.ArchiveBytes
	b, err := bundle.OpenLimits(e.Path, lim)
	if err != nil {
		return nil
	}
	doc := b.Document()
	return doc[:min(len(doc), render.TitleBytes)]
}

// prefix reads the start of the regular file name below r.
func (s *scan) prefix(r *os.Root, name string) []byte {
	src := s.read(r, name, render.TitleBytes)
	return bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
}

// read reads at most n bytes of the regular file name below r, counting
// them against the scan's budget.
func (s *scan) read(r *os.Root, name string, n int64) []byte {
	if info, err := r.Lstat(name); err != nil || !info.Mode().IsRegular() {
		// Only a regular file is opened: a FIFO would block the scan.
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		if info, err := r.Stat(name); err != nil || !info.Mode().IsRegular() {
			return nil
		}
	}
	f, err := r.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf, err := io.ReadAll(io.LimitReader(f, min(n, s.budget)))
	if err != nil {
		return nil
	}
	s.budget -= int64(len(buf))
	return buf
}
