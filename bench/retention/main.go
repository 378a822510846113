// Command retention measures how much of the text GitHub shows for a
// markdown file survives in a terminal renderer's plain output.
//
// For each file it takes the words GitHub's rendering shows (goldmark with
// GFM and GitHub's emoji shortcodes to HTML, raw HTML kept, then the text
// of the HTML less what a browser never shows: script, style, template,
// iframe, object, comments; inline elements run into the words around
// them, as a browser draws them) and
// reports, for markii (`markii render --color never`) and glamour (plain
// "notty" style), the share of those words that the renderer prints, word
// by word as a multiset. Words are runs of letters and digits, lowercased.
//
// A mermaid fence counts as the text of the diagram GitHub draws for it
// (its labels, participants, messages, notes, subgraph and block titles,
// its title), not its source: GitHub shows no node ids, keywords or
// arrows, so counting them would ask a renderer to print the source and
// count a drawn diagram as text lost. The shown text comes from markii's
// own mermaid parser (render/mermaid's ShownText, run through
// internal/mermaidtext, since this module does not depend on markii's);
// a fence that parser does not read counts as its source, which markii
// then prints as a code block.
//
//	go run ./retention -markii /tmp/markii FILE...
//
// It prints one line per file and the median, minimum and the share of all
// words for each renderer.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"unicode"

	"charm.land/glamour/v2"
	"github.com/yuin/goldmark"
	emoji "github.com/yuin/goldmark-emoji"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	xhtml "golang.org/x/net/html"
)

func main() {
	markii := flag.String("markii", "markii", "the markii binary")
	width := flag.Int("width", 100, "the render width")
	missing := flag.Bool("missing", false, "list the words markii lost")
	srcDir := flag.String("src", "..", "markii's source tree, whose mermaid parser lists a diagram's shown text")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: retention [-markii BIN] [-width N] FILE...")
		os.Exit(3)
	}
	var mk, gl []float64
	var mkKept, glKept, total int
	fmt.Printf("%-40s %7s %8s %8s\n", "file", "words", "markii", "glamour")
	for _, f := range flag.Args() {
		src, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retention:", err)
			os.Exit(1)
		}
		text, err := githubText(src, *srcDir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retention:", f, err)
			os.Exit(1)
		}
		ref := words(text)
		m, err := exec.Command(*markii, "render", "--color", "never", "--width", fmt.Sprint(*width), f).Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "retention: markii:", f, err)
			os.Exit(1)
		}
		g, err := glamourText(src, *width)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retention: glamour:", f, err)
			os.Exit(1)
		}
		got := words(string(m))
		a, b := kept(ref, got), kept(ref, words(g))
		if *missing {
			for w, c := range ref {
				if c > got[w] {
					fmt.Printf("  lost %q ×%d\n", w, c-got[w])
				}
			}
		}
		n := count(ref)
		mkKept, glKept, total = mkKept+a, glKept+b, total+n
		mk, gl = append(mk, share(a, n)), append(gl, share(b, n))
		name := f[strings.LastIndexByte(f, '/')+1:]
		fmt.Printf("%-40s %7d %7.1f%% %7.1f%%\n", name, n, share(a, n), share(b, n))
	}
	fmt.Printf("%-40s %7s %7.1f%% %7.1f%%\n", "median", "", median(mk), median(gl))
	fmt.Printf("%-40s %7s %7.1f%% %7.1f%%\n", "minimum", "", minimum(mk), minimum(gl))
	fmt.Printf("%-40s %7d %7.1f%% %7.1f%%\n", "all words", total, share(mkKept, total), share(glKept, total))
}

// githubText is the text a browser shows for GitHub's rendering of src,
// a mermaid fence's being its diagram's (see the package comment).
func githubText(src []byte, srcDir string) (string, error) {
	var buf bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.GFM, emoji.Emoji), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := md.Convert(src, &buf); err != nil {
		return "", nil
	}
	doc, err := xhtml.Parse(&buf)
	if err != nil {
		return "", nil
	}
	diagrams := map[*xhtml.Node][]string{}
	if err := shownDiagrams(doc, srcDir, diagrams); err != nil {
		return "", err
	}
	var b strings.Builder
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		switch n.Type {
		case xhtml.TextNode:
			b.WriteString(n.Data)
			return
		case xhtml.CommentNode:
			return
		case xhtml.ElementNode:
			switch n.Data {
			case "script", "style", "template", "iframe", "object", "noscript":
				return
			}
			if shown, ok := diagrams[n]; ok {
				b.WriteString(" " + strings.Join(shown, " ") + " ")
				return
			}
		}
		// A browser runs inline elements into the text around them
		// (ƒ<sup>IV</sup> shows ƒIV); any other element, or a line
		// break, ends the words before it.
		inline := n.Type == xhtml.ElementNode && inlineElements[n.Data]
		if !inline {
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if !inline {
			b.WriteByte(' ')
		}
	}
	walk(doc)
	return b.String(), nil
}

// inlineElements are the HTML elements a browser draws in the run of the
// text around them, without a break.
var inlineElements = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "cite": true,
	"code": true, "data": true, "del": true, "dfn": true, "em": true,
	"g-emoji": true, "i": true, "ins": true, "kbd": true, "mark": true,
	"q": true, "s": true, "samp": true, "small": true, "span": true,
	"strike": true, "strong": true, "sub": true, "sup": true, "time": true,
	"tt": true, "u": true, "var": true,
}

// shownDiagrams maps each mermaid fence's <code> element in doc that
// markii's mermaid parser reads to the text its diagram shows.
func shownDiagrams(doc *xhtml.Node, srcDir string, out map[*xhtml.Node][]string) error {
	var codes []*xhtml.Node
	var srcs []string
	var find func(n *xhtml.Node)
	find = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode && n.Data == "code" && hasClass(n, "language-mermaid") {
			codes = append(codes, n)
			srcs = append(srcs, textOf(n))
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if len(srcs) == 0 {
		return nil
	}
	in, err := json.Marshal(srcs)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "run", "./internal/mermaidtext")
	cmd.Dir = srcDir
	cmd.Stdin = bytes.NewReader(in)
	cmd.Stderr = os.Stderr
	res, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("listing mermaid diagrams' text in %s: %w", srcDir, err)
	}
	var shown [][]string
	if err := json.Unmarshal(res, &shown); err != nil || len(shown) != len(codes) {
		return fmt.Errorf("listing mermaid diagrams' text: %d answers for %d diagrams (%v)", len(shown), len(codes), err)
	}
	for i, n := range codes {
		if shown[i] != nil {
			out[n] = shown[i]
		}
	}
	return nil
}

// hasClass reports whether element n has class c.
func hasClass(n *xhtml.Node, c string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && slices.Contains(strings.Fields(a.Val), c) {
			return true
		}
	}
	return false
}

// textOf is the text inside n.
func textOf(n *xhtml.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xhtml.TextNode {
			b.WriteString(c.Data)
		} else {
			b.WriteString(textOf(c))
		}
	}
	return b.String()
}

func glamourText(src []byte, width int) (string, error) {
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle("notty"), glamour.WithWordWrap(width))
	if err != nil {
		return "", err
	}
	return r.Render(string(src))
}

// words counts the lowercased runs of letters and digits in s.
func words(s string) map[string]int {
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		m[strings.ToLower(w)]++
	}
	return m
}

func count(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// kept is how many of ref's words got shows, each at most as often as ref has it.
func kept(ref, got map[string]int) int {
	n := 0
	for w, c := range ref {
		n += min(c, got[w])
	}
	return n
}

func share(a, n int) float64 {
	if n == 0 {
		return 100
	}
	return 100 * float64(a) / float64(n)
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minimum(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		m = min(m, x)
	}
	return m
}
