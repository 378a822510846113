package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseSanitizesAfterDecoding checks that character references which
// decode to control characters are removed: the sanitizer must run after
// CommonMark decoding, everywhere a note's text enters the tree.
func TestParseSanitizesAfterDecoding(t *testing.T) {
	refs := []string{"&#27;[2J", "&#x1b;]0;title&#7;", "&#x9b;31m", "&#155;31m", "&#X9B;", "&#127;", "&#0;", "\x1b[31m", "\u009b2J", "\x07\x08\x7f"}
	places := []struct{ name, tmpl string }{
		{"paragraph", "text %s end\n"},
		{"heading", "# head %s\n"},
		{"emphasis", "*em %s*\n"},
		{"code span", "`code %s`\n"},
		{"code block", "```\ncode %s\n```\n"},
		{"code info", "```lang%s\nx\n```\n"},
		{"link text", "[link %s](https://x.org)\n"},
		{"link url", "[l](https://x.org/%s)\n"},
		{"image alt", "![alt %s](a.png)\n"},
		{"table cell", "| a |\n|---|\n| %s |\n"},
		{"quote", "> %s\n"},
		{"list", "- %s\n"},
		{"inline label", ":badge[%s]\n"},
		{"inline attr", ":badge[x]{title=\"%s\"}\n"},
		{"leaf label", "::leaf[%s]\n"},
		{"leaf attr", "::leaf{v=\"%s\"}\n"},
		{"container attr", ":::note{v=\"%s\"}\nx\n:::\n"},
		{"script label", "```lua {name=x src=\"%s\"}\n```\n"},
		{"script permissions", "```lua {name=x permissions=\"a.com,%s\"}\n```\n"},
	}
	for _, p := range places {
		for _, r := range refs {
			src := strings.Replace(p.tmpl, "%s", r, 1)
			doc := Parse([]byte(src))
			forEachString(doc, func(where, s string) {
				for _, c := range s {
					if c == '\n' && (where == "code" || where == "script-source") {
						continue
					}
					if c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) {
						t.Errorf("%s with %q: control %U left in %s %q", p.name, r, c, where, s)
					}
				}
				if !utf8.ValidString(s) {
					t.Errorf("%s: invalid UTF-8 in %s", p.name, where)
				}
			})
		}
	}
}

func TestParseDecodesReferences(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a &amp; b &lt;c&gt; &copy; &#65;&#x42; \\*lit\\* &nosuch; &#;\n", `(p "a & b <c> © AB *lit* &nosuch; &#;")`},
		{"&#27;[2J and &#x9b;31m and &#155;x\n", `(p "[2J and 31m and x")`},
		{"[x](https://a.org/&amp;b \"t\") [y](javascript:alert(1)) [z](JAVASCRIPT&#58;x) ![i](data:x)\n",
			`(p (a "https://a.org/&b" "x") " " (a "" "y") " " (a "" "z") " " (img "" "i"))`},
		{"[ok](mailto:a@b.c) [rel](./y.mk.md) [frag](#top) [sp](<a b>)\n",
			`(p (a "mailto:a@b.c" "ok") " " (a "./y.mk.md" "rel") " " (a "#top" "frag") " " (a "a%20b" "sp"))`},
		{"bad \xff\xfe utf8\n", "(p \"bad \uFFFD\uFFFD utf8\")"},
	}
	for _, c := range cases {
		if got := dump(Parse([]byte(c.src))); got != c.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
		}
	}
}

// forEachString calls fn with every string in doc that the renderer may
// show, tagged with where it came from.
func forEachString(doc *Document, fn func(where, s string)) {
	var blocks func([]Block)
	var inlines func([]Inline)
	attrs := func(a Attrs) {
		for _, x := range a {
			fn("attr key", x.Key)
			fn("attr value", x.Value)
		}
	}
	inlines = func(in []Inline) {
		for _, n := range in {
			switch n := n.(type) {
			case *Text:
				fn("text", n.Text)
			case *Emphasis:
				inlines(n.Content)
			case *Strong:
				inlines(n.Content)
			case *Strikethrough:
				inlines(n.Content)
			case *CodeSpan:
				fn("code span", n.Text)
			case *Link:
				fn("url", n.URL)
				inlines(n.Content)
			case *Image:
				fn("url", n.URL)
				fn("alt", n.Alt)
			case *InlineDirective:
				fn("name", n.Name)
				attrs(n.Attrs)
				inlines(n.Content)
			}
		}
	}
	blocks = func(bs []Block) {
		for _, b := range bs {
			switch n := b.(type) {
			case *Paragraph:
				inlines(n.Content)
			case *Heading:
				inlines(n.Content)
			case *CodeBlock:
				fn("lang", n.Lang)
				fn("code", n.Text)
			case *ScriptBlock:
				fn("script label", n.Label)
				for _, p := range n.Permissions {
					fn("permission", p)
				}
			case *Quote:
				blocks(n.Blocks)
			case *List:
				for _, it := range n.Items {
					blocks(it.Blocks)
				}
			case *Table:
				for _, c := range n.Header {
					inlines(c)
				}
				for _, r := range n.Rows {
					for _, c := range r {
						inlines(c)
					}
				}
			case *Directive:
				fn("name", n.Name)
				attrs(n.Attrs)
				inlines(n.Label)
				blocks(n.Blocks)
			}
		}
	}
	blocks(doc.Blocks)
}
