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
// level-1 heading, else of the first heading, else "". A README often
// opens with a sponsor's or a section's smaller heading before its name
// (`### Special thanks` … `# eza`): the name is its level-1 heading. src
// may be a prefix of the note (see TitleBytes). The title is inert text,
// like every string of the tree.
func Title(src []byte) string {
	if yaml, _, ok := splitFrontmatter(src); ok {
		if t := readTitle(yaml); t != "" {
			return t
		}
	}
	first := ""
	for n := range Nodes(Parse(src).Blocks) {
		h, ok := n.(*Heading)
		if !ok {
			continue
		}
		t := headingTitle(h.Content)
		switch {
		case t != "" && h.Level == 1:
			return t
		case first == "":
			first = t
		}
	}
	return first
}

// headingTitle is a heading's text as a title: the words before its first
// picture when there are any, so a README's name is not followed by its
// badges' alt text (GitHub shows the pictures, not those words); the words
// around the pictures when one comes first (a logo before the name); the
// pictures' alt text only when the heading has no words of its own. A
// bracket left open before a picture (a badge whose reference is defined
// past the part of the note a list reads) is cut with it.
func headingTitle(content []Inline) string {
	words := content
	if i := firstPicture(content); i > 0 {
		words = content[:i]
	} else if i == 0 {
		words = withoutPictures(content)
	}
	if t := strings.TrimRight(oneLine(plainInlines(words, maxTitleBytes)), " ["); t != "" {
		return t
	}
	return oneLine(plainInlines(content, maxTitleBytes))
}

// oneLine is s with each run of white space made one space, trimmed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// withoutPictures is content less its images and the links around them.
func withoutPictures(content []Inline) []Inline {
	var out []Inline
	for len(content) > 0 {
		i := firstPicture(content)
		if i < 0 {
			return append(out, content...)
		}
		out = append(out, content[:i]...)
		content = content[i+1:]
	}
	return out
}

// firstPicture is the index of the first inline that is an image or a
// link around one, or -1.
func firstPicture(content []Inline) int {
	for i, in := range content {
		switch n := in.(type) {
		case *Image:
			return i
		case *Link:
			if firstPicture(n.Content) >= 0 {
				return i
			}
		}
	}
	return -1
}

// readTitle reads a top-level `title:` key of frontmatter YAML when its
// value is a scalar on the same line (quoted or not); any other shape (a
// block scalar, a list, a map) gives "".
func readTitle(yaml []byte) string {
	for _, l := range strings.Split(string(yaml), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimRight(l, " \t\r"), "title:"); ok {
			return scalarTitle(rest)
		}
	}
	return ""
}

// scalarTitle is the title the text after `title:` gives: a scalar on the
// line, cut near maxTitleBytes, else "".
func scalarTitle(rest string) string {
	v := scalarText(strings.TrimSpace(rest))
	if v == "" || strings.ContainsAny(v[:1], "|>[{&*!#") {
		return ""
	}
	if len(v) > maxTitleBytes {
		v = strings.ToValidUTF8(v[:maxTitleBytes], "")
	}
	return strings.TrimSpace(sanitize.Inline(v))
}

// scalarText is the text of a YAML scalar v: inside its quotes, else
// before a comment.
func scalarText(v string) string {
	if u, ok := unquoted(v); ok {
		return u
	}
	if i := strings.Index(v, " #"); i >= 0 {
		return strings.TrimSpace(v[:i])
	}
	return v
}
