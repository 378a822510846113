package render

import (
	"strings"

	"github.com/markii/markii/sanitize"
)

// TitleBytes is how much of a note Title needs: a list of notes reads only
// this prefix of each one.
const TitleBytes = 16 << 10

// maxTitleBytes cuts a long title.
const maxTitleBytes = 200

// Title is the title a list of notes shows for src: the frontmatter's
// `title:` value when it is a plain scalar, else the text of the first
// heading, else "". src may be a prefix of the note (see TitleBytes). The
// title is inert text, like every string of the tree.
func Title(src []byte) string {
	if yaml, _, ok := splitFrontmatter(src); ok {
		if t := readTitle(yaml); t != "" {
			return t
		}
	}
	doc := Parse(src)
	for n := range Nodes(doc.Blocks) {
		if h, ok := n.(*Heading); ok {
			if t := strings.TrimSpace(plainInlines(h.Content, maxTitleBytes)); t != "" {
				return t
			}
		}
	}
	return ""
}

// readTitle reads a top-level `title:` key of frontmatter YAML when its
// value is a scalar on the same line (quoted or not); any other shape (a
// block scalar, a list, a map) gives "".
func readTitle(yaml []byte) string {
	for _, l := range strings.Split(string(yaml), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimRight(l, " \t\r"), "title:")
		if !ok {
			continue
		}
		v := strings.TrimSpace(rest)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		} else if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		if v == "" || strings.ContainsAny(v[:1], "|>[{&*!#") {
			return ""
		}
		if len(v) > maxTitleBytes {
			v = strings.ToValidUTF8(v[:maxTitleBytes], "")
		}
		return strings.TrimSpace(sanitize.Inline(v))
	}
	return ""
}
