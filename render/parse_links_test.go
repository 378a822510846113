package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark/parser"
)

// linkCases are notes on which markii's link parser must build goldmark's
// tree: the limits goldmark keeps (999 bytes of label, 998 bytes of
// brackets left open), references over lines and in quotes, autolinks in
// and out of link text, and cmark's pathological bracket patterns.
var linkCases = []string{
	"[a](b) ![c](d \"t\") [e][r] [r][] [r] [missing][r] [r][missing]\n\n[r]: /ref 'title'\n",
	"[a\nb](c\n'multi\nline') [x](<y z>) [x](<>) [x]() [x](a(b)c) [x](a(b) [x](\\)) [x](a\\ b)",
	"> see [the\n> ref] and [The Ref][]\n>\n> [the ref]: /quoted\n",
	"[www.example.com](https://x.example/) www.example.com [*a* www.b.com](c) ![www.i.com](u)",
	"[a [b](c) d](e) ![a [b](c)](d) [![i](j)](k) [a ![b [c](d)](e)](f)",
	"*[a*](b) [a *b](c)* **[a**](b) [`]`](x) [a](`b)` [<b>](c) <a href=\"[\">](x)",
	"[^1] and [^2]\n\n[^1]: a footnote [with](link)\n",
	":badge[a [b](c) d]{x=1} :badge[[x]] [a :badge[b] c](d) [:badge[x](y)",
	"- [ ] [task](u)\n- [x] done [r]\n\n[r]: /r\n",
	"[" + strings.Repeat("a", 999) + "]\n\n[" + strings.Repeat("a", 999) + "]: /long\n",
	"[" + strings.Repeat("b", 1000) + "]\n\n[" + strings.Repeat("b", 1000) + "]: /too-long\n",
	"[a " + strings.Repeat("x ", 600) + "[b](c)](d)",
	"[a " + strings.Repeat("x", 994) + " [c [b](d) [e](f)] [g](h)",
	"[a " + strings.Repeat("x", 995) + " [c [b](d) [e](f)] [g](h)",
	"[" + strings.Repeat("y", 1200) + "](long-text)",
	strings.Repeat("![[]()", 400),
	strings.Repeat("[ (](", 400),
	strings.Repeat("[", 600) + "a" + strings.Repeat("]", 600),
	strings.Repeat("[a](<b", 300),
	strings.Repeat("[a](b", 300),
	strings.Repeat("**x [a*b**c*](d)\n\n", 20),
}

// TestLinksParseAsGoldmark compares markii's parser with the same parser
// built around goldmark's link parser on linkCases and on random
// paragraphs of brackets, destinations, titles, references and words:
// markii's links and images are goldmark's.
func TestLinksParseAsGoldmark(t *testing.T) {
	markii, _, html := htmlComparison()
	ref := newMarkdown(parser.NewLinkParser())
	check := func(src string) {
		t.Helper()
		if got, want := html(markii, []byte(src)), html(ref, []byte(src)); got != want {
			t.Fatalf("%q:\n markii: %q\ngoldmark: %q", src, got, want)
		}
	}
	for _, c := range linkCases {
		check(c)
	}
	pieces := []string{"[", "]", "![", "(", ")", "<", ">", "\"", "'", "a", "b ", " ", "\n", "\\", "\\[", "\\]",
		"](u)", "](<u v>)", "](u \"t\")", "][r]", "][]", "[r]", "[R]", "*", "_", "`", "www.x.com", "\n> ", "![a](b)"}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 30000; i++ {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			b.WriteString("[r]: /defined \"t\"\n\n")
		}
		for n := 1 + rng.IntN(16); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
}

// TestBracketsAllocateInBlocks: a paragraph of brackets allocates its
// nodes a slab at a time, not one or more objects per bracket, as
// goldmark's link parser does.
func TestBracketsAllocateInBlocks(t *testing.T) {
	const reps = 4000
	src := []byte(strings.Repeat("![[]()", reps))
	allocs := testing.AllocsPerRun(3, func() { Parse(src) })
	if allocs > reps/8 {
		t.Errorf("a paragraph of %d `![[]()` allocated %.0f times, want at most %d", reps, allocs, reps/8)
	}
}
