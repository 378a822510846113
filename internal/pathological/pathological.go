// Package pathological holds the markdown inputs built to make a parser take
// more than linear time (cmark-gfm's test/pathological_tests.py) and the
// check that markii renders each of them in linear time. render's tests
// time them in process and goldens' tests through the markii binary; both
// use these inputs and this check.
package pathological

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Input is one of cmark's pathological inputs: Gen(n) builds it with n
// repetitions, and Cmark is the n cmark uses.
type Input struct {
	Name  string
	Cmark int
	Gen   func(n int) string
}

// CI is the n the inputs are checked at in every test run: an eighth of
// cmark's, or 1000 repetitions of the small fixed inputs.
func (in Input) CI() int {
	if in.Cmark == 1 {
		return 1000 // the small fixed inputs, repeated as paragraphs
	}
	return max(in.Cmark/8, 1)
}

// Inputs are the inputs of cmark-gfm's test/pathological_tests.py. For
// "backticks" and "deeply nested lists", whose pieces grow, n is the
// number of bytes (cmark's 4,999 runs and 1,000 lines), so that doubling
// n doubles the input as for the others.
var Inputs = []Input{
	{"nested strong emph", 65000, func(n int) string {
		return strings.Repeat("*a **a ", n) + "b" + strings.Repeat(" a** a*", n)
	}},
	{"many emph closers with no openers", 65000, func(n int) string { return strings.Repeat("a_ ", n) }},
	{"many emph openers with no closers", 65000, func(n int) string { return strings.Repeat("_a ", n) }},
	{"many link closers with no openers", 65000, func(n int) string { return strings.Repeat("a]", n) }},
	{"many link openers with no closers", 65000, func(n int) string { return strings.Repeat("[a", n) }},
	{"mismatched openers and closers", 50000, func(n int) string { return strings.Repeat("*a_ ", n) }},
	{"openers and closers multiple of 3", 50000, func(n int) string { return "a**b" + strings.Repeat("c* ", n) }},
	{"link openers and emph closers", 50000, func(n int) string { return strings.Repeat("[ a_", n) }},
	{"pattern [ (]( repeated", 80000, func(n int) string { return strings.Repeat("[ (](", n) }},
	{"pattern ![[]() repeated", 160000, func(n int) string { return strings.Repeat("![[]()", n) }},
	{"hard link/emph case", 1, func(n int) string { return strings.Repeat("**x [a*b**c*](d)\n\n", n) }},
	{"nested brackets", 50000, func(n int) string {
		return strings.Repeat("[", n) + "a" + strings.Repeat("]", n)
	}},
	{"nested block quotes", 50000, func(n int) string { return strings.Repeat("> ", n) + "a" }},
	{"deeply nested lists", 1003000, func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("  ", i) + "* a\n")
		}
		return b.String()
	}},
	{"U+0000 in input", 1, func(n int) string { return strings.Repeat("abc\u0000de\u0000\n", n) }},
	{"backticks", 12502499, func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString("e" + strings.Repeat("`", i))
		}
		return b.String()
	}},
	{"unclosed links A", 30000, func(n int) string { return strings.Repeat("[a](<b", n) }},
	{"unclosed links B", 30000, func(n int) string { return strings.Repeat("[a](b", n) }},
	{"unclosed <!--", 300000, func(n int) string { return "</" + strings.Repeat("<!--", n) }},
	{"tables", 30000, func(n int) string { return strings.Repeat("aaa\rbbb\n-\v\n", n) }},
	// Raw HTML (markii draws an allowlist of it): deep nesting within one
	// block and across blocks, tags never closed, a huge attribute, and
	// many line breaks. Cmark is the size markii holds them to.
	{"nested <div>", 10000, func(n int) string {
		return strings.Repeat("<div>", n) + "a" + strings.Repeat("</div>", n) + "\n"
	}},
	{"nested <div> blocks", 10000, func(n int) string {
		return strings.Repeat("<div>\n\n", n) + "a\n\n" + strings.Repeat("</div>\n\n", n)
	}},
	{"nested inline HTML", 10000, func(n int) string {
		return "x " + strings.Repeat("<b><span>", n) + "a" + strings.Repeat("</span></b>", n) + "\n"
	}},
	{"unclosed HTML tags", 10000, func(n int) string {
		return strings.Repeat("<details><summary>s<blockquote><ul><li><table><tr><td><b><a href=x>", n) + "\n\ntext\n"
	}},
	{"unmatched HTML end tags", 10000, func(n int) string {
		return "<div>\n" + strings.Repeat("<span></p></details></td>", n) + "\n"
	}},
	{"1 MB HTML attribute", 1 << 20, func(n int) string {
		return "<p><img alt=\"" + strings.Repeat("a", n) + "\"></p>\n\nx <span title=\"" + strings.Repeat("b", n) + "\">y</span>\n"
	}},
	{"many <br>", 100000, func(n int) string {
		return "<p>" + strings.Repeat("x<br>", n) + "</p>\n\na" + strings.Repeat("<br>", n) + "\n"
	}},
	// Math: deeply nested fractions in inline and display math, and a
	// line of dollars none of which closes.
	{"nested \\frac", 10000, func(n int) string {
		deep := strings.Repeat(`\frac{1}{`, n) + "x" + strings.Repeat("}", n)
		return "$" + deep + "$\n\n$$\n" + deep + "\n$$\n"
	}},
	{"many $", 100000, func(n int) string { return strings.Repeat("$a ", n) + "\n\n" + strings.Repeat("$", n) + "\n" }},
	// Mermaid: a flowchart of n nodes, far over the bound on what is
	// drawn, falls back to its source as soon as the bound is passed.
	{"mermaid 5,000-node graph", 5000, func(n int) string {
		var b strings.Builder
		b.WriteString("```mermaid\ngraph TD\n")
		for i := range n {
			fmt.Fprintf(&b, "n%d[node %d] --> n%d & n%d\n", i, i, (i*7+1)%n, (i+1)%n)
		}
		b.WriteString("```\n")
		return b.String()
	}},
	// Container directives nested deep whose fences grow by one colon a
	// level, inward (the innermost fence longest) or outward (the
	// outermost longest, as a note must write them to nest), of a
	// component markii does not know (drawn as a dashed box) and of
	// callouts, cards and details. The note has about levels² bytes, so n here is the byte
	// count and the levels are its square root. Cmark is 3,000 levels
	// (9 MB): past MaxBlockDepth the fences are paragraph text, about
	// 140,000 lines each inside 12 frames.
	{"nested directive fences growing inward", 9000000, func(n int) string { return nestedFences(n, "note", false) }},
	{"nested directive fences growing outward", 9000000, func(n int) string { return nestedFences(n, "note", true) }},
	{"nested callout fences growing outward", 9000000, func(n int) string { return nestedFences(n, "callout", true) }},
	{"nested card fences growing outward", 9000000, func(n int) string { return nestedFences(n, "card", true) }},
	{"nested details fences growing outward", 9000000, func(n int) string { return nestedFences(n, "details", true) }},
	{"wikilink openers", 50000, func(n int) string { return strings.Repeat("[[a ", n) + "\n\n" + strings.Repeat("[[a]] ", n) + "\n" }},
	{"reference collisions", 50000, func(n int) string {
		var b strings.Builder
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "[x%d]: /url\n\n[x0]\n\n", i)
		}
		return b.String()
	}},
}

// nestedFences is container directives called name, nested as deep as
// fits in about n bytes, one more colon a level: the outermost fence the
// longest when outward, else the innermost.
func nestedFences(n int, name string, outward bool) string {
	levels := 1
	for (levels+1)*(levels+1) <= n {
		levels++
	}
	fence := func(i int) string {
		if outward {
			i = levels - 1 - i
		}
		return strings.Repeat(":", 3+i)
	}
	var b strings.Builder
	b.Grow(n + 6*levels)
	for i := range levels {
		b.WriteString(fence(i) + name + "\n")
	}
	b.WriteString("x\n")
	for i := levels - 1; i >= 0; i-- {
		b.WriteString(fence(i) + "\n")
	}
	return b.String()
}

// LinearGrowth fails t unless measure(Gen(2n)) is at most 2.5 times
// measure(Gen(n)), plus slack for timer and scheduling noise. measure
// returns the CPU time one render of its input takes; LinearGrowth tries
// three times, since a collection or a page fault can land in either run.
func LinearGrowth(t testing.TB, in Input, n int, slack time.Duration, measure func(src []byte) time.Duration) (small, large time.Duration) {
	t.Helper()
	a, b := []byte(in.Gen(n)), []byte(in.Gen(2*n))
	for try := 0; try < 3; try++ {
		small, large = measure(a), measure(b)
		if large <= small*5/2+slack {
			return small, large
		}
	}
	t.Errorf("%s: %d bytes took %v, twice that took %v: not linear", in.Name, len(a), small, large)
	return small, large
}
