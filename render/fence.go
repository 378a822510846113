package render

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/util"
)

// Code fences are read here and nowhere else outside goldmark's parser:
// the chunk scanner's frames, the plain-text editor's cut of a script,
// the script rule of the converter and the editor, and the cheap look
// that decides whether a note may have scripts all call these.

// fenceRun counts the leading bytes of b equal to c.
func fenceRun(b []byte, c byte) int {
	n := 0
	for n < len(b) && b[n] == c {
		n++
	}
	return n
}

// opensCodeFence reports whether line, its indent already removed,
// opens a fenced code block, and its fence character and length.
func opensCodeFence(line []byte) (c byte, n int, ok bool) {
	if len(line) == 0 || line[0] != '`' && line[0] != '~' {
		return 0, 0, false
	}
	c = line[0]
	n = fenceRun(line, c)
	if n < 3 || c == '`' && bytes.IndexByte(line[n:], '`') >= 0 {
		// Too short, or a backtick fence whose info string has a
		// backtick: a code span.
		return 0, 0, false
	}
	return c, n, true
}

// closesCodeFence reports whether line, its indent already removed,
// closes a fenced code block opened by n of c: at least as many, then
// nothing but blanks, as goldmark's parser reads it.
func closesCodeFence(line []byte, c byte, n int) bool {
	run := fenceRun(line, c)
	return run >= n && util.IsBlank(line[run:])
}

// splitInfo splits a fence's info string into its language word and
// the rest.
func splitInfo(info string) (lang, meta string) {
	if i := strings.IndexAny(info, " \t"); i >= 0 {
		return info[:i], info[i+1:]
	}
	return info, ""
}

// scriptFence applies the script-fence rule of SPEC §1.5 to the info
// string after the language word: a script is a fence whose first
// `{...}` group has a valid name.
func scriptFence(meta string) (fenceMeta, bool) {
	m, ok := parseFenceMeta(meta)
	return m, ok && m.hasName && validScriptName(m.name)
}

// MayHaveScripts is a cheap look for a script fence (a code fence whose
// info string carries a {…} group), so that a caller does not wait for
// a whole parse just to decide whether to start a worker early. It may
// say yes for a note without scripts, never no for one with them.
func MayHaveScripts(src []byte) bool {
	for _, fence := range [][]byte{[]byte("```"), []byte("~~~")} {
		for rest := src; ; {
			i := bytes.Index(rest, fence)
			if i < 0 {
				break
			}
			rest = rest[i+len(fence):]
			line := rest
			if j := bytes.IndexByte(line, '\n'); j >= 0 {
				line = line[:j]
			}
			if bytes.IndexByte(line, '{') >= 0 {
				return true
			}
		}
	}
	return false
}
