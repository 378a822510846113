package snapshot

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/markii/markii/runtime/bundle"
)

// noteRef is one note found under the paths.
type noteRef struct {
	// path is the note's file or bundle path; dir is the folder it is in
	// and name its base name (the snapshot files' prefix).
	path, dir, name string
}

// found is what a search of the paths found.
type found struct {
	notes []noteRef
	// dirs are the note folders searched whole: their snapshot folders
	// are checked for obsolete snapshots.
	dirs []string
	// missing are paths that could not be read, with why.
	missing []Case
}

// maxNotes bounds how many notes one run checks.
const maxNotes = 1_000_000

// find finds the notes under paths: a file is a note; a folder is searched
// recursively for .mk.md and .md files and bundles (.mkz, .mkbundle, or a
// folder with a manifest.json), skipping hidden folders and snapshot
// folders. A folder given that is itself a bundle is one note.
func find(paths []string) found {
	var f found
	seen := map[string]bool{}
	add := func(path string) {
		abs, err := filepath.Abs(path)
		if err != nil || seen[abs] || len(f.notes) >= maxNotes {
			return
		}
		seen[abs] = true
		f.notes = append(f.notes, noteRef{path: abs, dir: filepath.Dir(abs), name: filepath.Base(abs)})
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			f.missing = append(f.missing, Case{Note: p, Status: Failed, Err: err})
			continue
		}
		if !fi.IsDir() || isBundleDir(p) {
			add(p)
			continue
		}
		f.walk(p, add)
	}
	return f
}

// walk searches the folder root for notes.
func (f *found) walk(root string, add func(string)) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				f.missing = append(f.missing, Case{Note: path, Status: Failed, Err: err})
			}
			return nil
		}
		if d.IsDir() {
			return f.enter(root, path, add)
		}
		if isNoteFile(d.Name()) && d.Type().IsRegular() {
			add(path)
		}
		return nil
	})
}

// enter decides on a folder met in the walk from root: a hidden or
// snapshot folder is skipped, a folder bundle is a note, any other is
// searched and kept in f.dirs.
func (f *found) enter(root, path string, add func(string)) error {
	if path == root {
		f.keepDir(path)
		return nil
	}
	if name := filepath.Base(path); name == Dir || strings.HasPrefix(name, ".") {
		return filepath.SkipDir
	}
	if isBundleDir(path) {
		add(path)
		return filepath.SkipDir
	}
	f.keepDir(path)
	return nil
}

// keepDir adds the absolute form of path to f.dirs.
func (f *found) keepDir(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		f.dirs = append(f.dirs, abs)
	}
}

// isNoteFile reports whether a file name is a note's: .mk.md, .md or a
// zip bundle.
func isNoteFile(name string) bool {
	lower := strings.ToLower(name)
	return !strings.HasPrefix(name, ".") && (strings.HasSuffix(lower, ".md") || bundle.HasBundleExtension(name))
}

// isBundleDir reports whether path is a folder bundle: a .mkbundle folder
// or a folder with a manifest.json.
func isBundleDir(path string) bool {
	if bundle.HasBundleExtension(path) {
		return true
	}
	_, err := os.Lstat(filepath.Join(path, "manifest.json"))
	return !errors.Is(err, fs.ErrNotExist) && err == nil
}
