package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// realisticNote generates about size bytes of a typical note: sections
// with prose (emphasis, links, inline code, inline directives), lists,
// task lists, tables, code, quotes, containers, leaves and script fences.
func realisticNote(size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "## Section %d: notes on the *quarterly* review\n\n", i)
		b.WriteString("The team shipped **three** features this cycle, fixed `parse_attrs` and closed " +
			"[issue 42](https://example.org/issues/42). Stars now read :value[repo.stars]{format=compact} " +
			"and the badge says :badge[stable]{tone=success}. Numbers like 12:34 and key:value stay text.\n" +
			"A second line keeps the paragraph going with ~~old~~ new wording &amp; an entity.\n\n")
		b.WriteString("- first point with a [link](./other.mk.md)\n- second point\n  - nested *detail*\n- [x] done task\n- [ ] open task\n\n")
		b.WriteString("| name | role | since |\n|:-----|:----:|------:|\n| Ada | lead | 2019 |\n| Linus | dev | 2021 |\n\n")
		b.WriteString(":::card{title=\"Summary\" width=wide}\nInside the card, a paragraph with _emphasis_.\n\n::stat{data=stars label=\"Stars\"}\n:::\n\n")
		b.WriteString("```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n")
		fmt.Fprintf(&b, "```lua {name=s%d permissions=api.github.com}\nreturn net.fetch_json(\"https://api.github.com/repos/x/y\").stargazers_count\n```\n\n", i)
		b.WriteString("> A quote with a :kbd[Ctrl] key and a final thought.\n\n---\n\n")
	}
	return []byte(b.String())
}

// BenchmarkParse parses a generated ~1 MB note into the sanitized tree.
func BenchmarkParse(b *testing.B) {
	src := realisticNote(1 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(src)
	}
}

// BenchmarkGoldmarkFloor is the goldmark parse alone (CommonMark + GFM +
// the directive parsers, no conversion to markii's tree) on the same note,
// for comparison.
func BenchmarkGoldmarkFloor(b *testing.B) {
	src := realisticNote(1 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		parseSource(src)
	}
}

// BenchmarkPlainMarkdown runs the md-plain export on the same note.
func BenchmarkPlainMarkdown(b *testing.B) {
	src := realisticNote(1 << 20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		PlainMarkdown(src)
	}
}

// htmlReadme generates about size bytes of a README in GitHub's style:
// a centred logo and badges, details blocks with markdown inside, an
// HTML table of keys, link lists in <p> blocks, <kbd> and <br> inline.
func htmlReadme(size int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<p align=\"center\">\n  <img src=\"docs/logo-%d.png\" alt=\"Project logo\" width=\"200\">\n  <br>\n"+
			"  <a href=\"https://example.org/ci\"><img src=\"https://example.org/badge.svg\" alt=\"CI\"></a>\n"+
			"  <a href=\"https://example.org/docs\">Documentation</a> · <a href=\"#install\">Install</a>\n</p>\n\n", i)
		fmt.Fprintf(&b, "## Section %d\n\nPress <kbd>Ctrl</kbd>+<kbd>C</kbd> to stop; text with <b>bold</b> and a line<br>break.\n\n", i)
		b.WriteString("<details>\n<summary>Show the <i>options</i></summary>\n\n- one option\n- another with `code`\n\n</details>\n\n")
		b.WriteString("<table>\n<tr><th>Key</th><th>Action</th></tr>\n<tr><td><kbd>j</kbd></td><td>Down a line</td></tr>\n" +
			"<tr><td><kbd>k</kbd></td><td>Up a line</td></tr>\n</table>\n\n")
		b.WriteString("<p>\n<a href=\"https://example.org/a\">Alpha</a> |\n<a href=\"https://example.org/b\">Beta</a> |\n<a href=\"https://example.org/c\">Gamma</a>\n</p>\n\n")
		b.WriteString("Plain markdown follows with [a link](https://example.org) and `code`.\n\n")
	}
	return []byte(b.String())
}

// BenchmarkRenderHTMLReadme parses and lays out a generated 64 KB
// README that is mostly raw HTML.
func BenchmarkRenderHTMLReadme(b *testing.B) {
	src := htmlReadme(64 << 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Layout(Parse(src), Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark})
	}
}
