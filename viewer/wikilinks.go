package viewer

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// noteName is a note file's name without its extension (.mk.md, .md,
// .markdown, .mkz), in lower case: the name a wikilink calls it by.
func noteName(file string) string {
	lower := strings.ToLower(file)
	for _, ext := range []string{".mk.md", ".markdown", ".md", ".mkz"} {
		if strings.HasSuffix(lower, ext) {
			return lower[:len(lower)-len(ext)]
		}
	}
	return lower
}

// wikiResolver returns the render.Options.WikiLinks of the note at
// notePath: a wikilink names a note of the library's folder tree by its
// file name, case-insensitively and with or without extension (a path
// before the name narrows it to that folder), else a note beside this
// one. The result is a link relative to the note, the heading's section
// as its fragment; "" when no such note exists.
func wikiResolver(lib *Library, notePath string) func(target, heading string) string {
	if notePath == "" {
		return nil
	}
	dir := filepath.Dir(notePath)
	// One look per name, however often the page is laid out again.
	seen := map[string]string{}
	return func(target, heading string) string {
		found, ok := seen[target]
		if !ok {
			found = findWikiNote(lib, dir, target)
			seen[target] = found
		}
		if found == "" {
			return ""
		}
		rel, err := filepath.Rel(dir, found)
		if err != nil {
			return ""
		}
		u := (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath()
		if heading != "" {
			u += "#" + slug(heading)
		}
		return u
	}
}

// findWikiNote returns the path of the note target names, or "": the
// library's note of that name in a folder ending in target's, else the
// note of that name in dir.
func findWikiNote(lib *Library, dir, target string) string {
	want := noteName(filepath.Base(filepath.FromSlash(target)))
	sub := strings.ToLower(filepath.ToSlash(filepath.Dir(filepath.FromSlash(target))))
	if want == "" {
		return ""
	}
	if p := lib.findNote(want, sub); p != "" {
		return p
	}
	return findNoteIn(dir, want)
}

// findNote is the path of the library's first note named want in a
// folder whose path ends in sub ("." for any), or ""; a nil library has
// none.
func (lib *Library) findNote(want, sub string) string {
	if lib == nil {
		return ""
	}
	for _, e := range lib.Entries {
		if e.Kind == BundleFolder || noteName(filepath.Base(e.Rel)) != want {
			continue
		}
		if sub == "." || strings.HasSuffix(strings.ToLower(filepath.ToSlash(filepath.Dir(e.Rel))), sub) {
			return e.Path
		}
	}
	return ""
}

// findNoteIn is the path of the note file named want in dir, or "".
func findNoteIn(dir, want string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if e.Type().IsRegular() && isNoteFile(e.Name()) && noteName(e.Name()) == want {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

// isNoteFile reports whether a file name is a note's or an archive's
// (.mkz).
func isNoteFile(name string) bool {
	lower := strings.ToLower(name)
	return isMarkdown(lower) || strings.HasSuffix(lower, ".mkz")
}
