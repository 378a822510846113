package bundle

import (
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/markii/markii/internal/oserr"
)

// ReadDir reads a bundle or pack directory into an in-memory snapshot under
// lim. It walks the tree with lstat, one component at a time, and refuses
// the whole directory if anything in it is a symbolic link, a hard-linked
// file, a special file, a name the jail refuses, or over a budget. Sizes
// come from metadata before any file is read, and each file is opened
// without following links and checked again on the open handle.
func ReadDir(dir, what string, lim Limits) (*Files, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	w := &dirWalker{root: root, lim: lim}
	w.walk(".", 0)
	if err := w.p.err(dir, what); err != nil {
		return nil, err
	}
	if w.ioErr != nil {
		return nil, w.ioErr
	}
	out := newFiles()
	for _, f := range w.files {
		b, problem, err := readJailedFile(root, f.path, f.size, lim.EntryBytes)
		if err != nil {
			return nil, err
		}
		if problem != "" {
			w.p.add(ProblemUnreadable, f.path, "%s %s", quote(f.path), problem)
			continue
		}
		out.put(f.path, b)
	}
	if err := w.p.err(dir, what); err != nil {
		return nil, err
	}
	return out, nil
}

type dirFile struct {
	path string
	size int64
}

type dirWalker struct {
	root    *os.Root
	lim     Limits
	p       problems
	files   []dirFile
	entries int
	total   int64
	ioErr   error
}

// walk lists one directory and lstat's each child; it never follows a link.
func (w *dirWalker) walk(dir string, depth int) {
	if depth > w.lim.Depth {
		w.p.add(ProblemTooDeep, dir, "%s is nested more than %d directories deep", quote(dir), w.lim.Depth)
		return
	}
	d, err := w.root.OpenFile(dir, os.O_RDONLY|openNoFollow|openDirectory, 0)
	if err != nil {
		w.p.add(ProblemUnreadable, dir, "%s cannot be opened as a directory (%s)", quote(dir), errText(err))
		return
	}
	defer d.Close()
	for {
		batch, err := d.ReadDir(256)
		for _, e := range batch {
			w.entries++
			if w.entries > w.lim.Entries {
				w.p.add(ProblemTooManyEntries, "", "it has more than %d entries", w.lim.Entries)
				return
			}
			w.visit(path.Join(dir, e.Name()), e.Name(), depth)
		}
		if err == io.EOF || len(batch) == 0 {
			return
		}
		if err != nil {
			w.ioErr = err
			return
		}
	}
}

func (w *dirWalker) visit(rel, name string, depth int) {
	if rel == SignatureFile {
		// The publisher's signature is not part of the bundle: markii's
		// signature check reads it on its own terms, and whatever sits
		// there (a link, a pipe) never keeps the bundle from opening.
		return
	}
	if _, err := CleanPath(name); err != nil {
		w.p.add(ProblemName, rel, "%s has a name the bundle jail refuses", quote(rel))
		return
	}
	info, err := w.root.Lstat(rel)
	if err != nil {
		w.p.add(ProblemUnreadable, rel, "%s cannot be examined (%s)", quote(rel), errText(err))
		return
	}
	mode := info.Mode()
	switch {
	case mode&fs.ModeSymlink != 0:
		w.p.add(ProblemLink, rel, "%s is a symbolic link", quote(rel))
	case mode.IsDir():
		w.walk(rel, depth+1)
	case !mode.IsRegular():
		w.p.add(ProblemSpecialFile, rel, "%s is a special file", quote(rel))
	case linkCount(info) > 1:
		w.p.add(ProblemLink, rel, "%s is a hard link (it has %d names)", quote(rel), linkCount(info))
	case info.Size() > w.lim.EntryBytes:
		w.p.add(ProblemTooLarge, rel, "%s is %d bytes, over the %s limit", quote(rel), info.Size(), mib(w.lim.EntryBytes))
	default:
		w.total += info.Size()
		if w.total > w.lim.TotalBytes {
			w.p.add(ProblemTooLarge, rel, "%s brings the total over the %s limit", quote(rel), mib(w.lim.TotalBytes))
			return
		}
		w.files = append(w.files, dirFile{path: rel, size: info.Size()})
	}
}

// readJailedFile opens rel inside root without following a final link,
// re-checks on the handle that it is a regular, singly linked file of the
// size the walk saw, and reads exactly that many bytes.
func readJailedFile(root *os.Root, rel string, size, entryCap int64) ([]byte, string, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|openNoFollow|openNonBlock, 0)
	if err != nil {
		if isLinkLoop(err) {
			return nil, "became a symbolic link while the bundle was read", nil
		}
		return nil, "cannot be opened (" + errText(err) + ")", nil
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	switch {
	case !info.Mode().IsRegular():
		return nil, "is not a regular file", nil
	case linkCount(info) > 1:
		return nil, "is a hard link", nil
	case info.Size() != size || info.Size() > entryCap:
		return nil, "changed size while the bundle was read", nil
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, "changed while the bundle was read", nil
	}
	var probe [1]byte
	if n, _ := f.Read(probe[:]); n != 0 {
		return nil, "grew while the bundle was read", nil
	}
	return b, "", nil
}

// errText is the operating system's reason without the path prefix.
func errText(err error) string { return oserr.Cause(err).Error() }
