// Command gen writes realistic markdown of a given size for markii's
// benchmark: headings, paragraphs with emphasis, links and inline code,
// lists, tables, code blocks and quotes. With -components every paragraph
// also carries one component directive (cycling through callout, card,
// badge, stat, progress and kbd), for the component-overhead ratio.
//
//	gen -size 1048576 [-components] > note.mk.md
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

var words = strings.Fields(`the of and to in is that for it as with was on be by this are from at
or an which have not has but were all their more one can been also its other some when would them
these two may first then any new such only into over most after could time many use data system
note terminal render layout width column value script sandbox grant width table heading paragraph
quickly carefully simple reliable portable readable stable measured careful small large wide narrow`)

// gen produces the note text.
type gen struct {
	rng        *rand.Rand
	w          *bufio.Writer
	n          int
	components bool
	para       int
	// crng picks component attributes, so the base text is the same with
	// and without components.
	crng *rand.Rand
}

func (g *gen) write(s string) {
	g.n += len(s)
	g.w.WriteString(s)
}

// extra writes component text that does not count towards the size, so
// both variants carry the same base text.
func (g *gen) extra(s string) { g.w.WriteString(s) }

func (g *gen) word() string { return words[g.rng.IntN(len(words))] }

func (g *gen) cword() string { return words[g.crng.IntN(len(words))] }

// sentence returns a sentence of inline markdown.
func (g *gen) sentence() string {
	n := 6 + g.rng.IntN(14)
	parts := make([]string, 0, n)
	for i := 0; i < n; i++ {
		w := g.word()
		switch g.rng.IntN(25) {
		case 0:
			w = "*" + w + "*"
		case 1:
			w = "**" + w + " " + g.word() + "**"
		case 2:
			w = "`" + w + "()`"
		case 3:
			w = "[" + w + " " + g.word() + "](https://example.com/" + g.word() + "/" + g.word() + ")"
		case 4:
			w = "~~" + w + "~~"
		}
		parts = append(parts, w)
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) paragraph() string {
	var b strings.Builder
	for i, n := 0, 2+g.rng.IntN(4); i < n; i++ {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(g.sentence())
	}
	return wrapSource(b.String(), 78)
}

// wrapSource breaks s into source lines of at most width bytes at spaces,
// the way people write markdown by hand.
func wrapSource(s string, width int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if line+1+len(w) > width {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// paragraphBlock writes one paragraph, with a component when asked.
func (g *gen) paragraphBlock() {
	p := g.paragraph()
	if !g.components {
		g.write(p + "\n\n")
		return
	}
	g.para++
	switch g.para % 6 {
	case 0:
		g.extra(":::callout{type=info title=\"Note " + g.cword() + "\"}\n")
		g.write(p + "\n")
		g.extra(":::\n")
		g.write("\n")
	case 1:
		g.extra(":::card{title=\"" + g.cword() + " " + g.cword() + "\"}\n")
		g.write(p + "\n")
		g.extra(":::\n")
		g.write("\n")
	case 2:
		g.write(p)
		g.extra(" :badge[" + g.cword() + "]{variant=success}")
		g.write("\n\n")
	case 3:
		g.write(p + "\n\n")
		g.extra("::stat{value=" + fmt.Sprint(g.crng.IntN(100000)) + " label=\"" + g.cword() + "\" delta=\"+3%\" trend=up format=compact}\n\n")
	case 4:
		g.write(p + "\n\n")
		g.extra("::progress{value=" + fmt.Sprint(g.crng.IntN(10)) + " max=10 label=\"" + g.cword() + "\"}\n\n")
	case 5:
		g.write(p)
		g.extra(" Press :kbd[Ctrl]+:kbd[" + strings.ToUpper(g.cword()[:1]) + "].")
		g.write("\n\n")
	}
}

func (g *gen) list() {
	ordered := g.rng.IntN(2) == 0
	for i, n := 0, 3+g.rng.IntN(4); i < n; i++ {
		marker := "- "
		if ordered {
			marker = fmt.Sprintf("%d. ", i+1)
		}
		g.write(marker + g.sentence() + "\n")
		if g.rng.IntN(3) == 0 {
			g.write(strings.Repeat(" ", len(marker)) + "- " + g.sentence() + "\n")
		}
	}
	g.write("\n")
}

func (g *gen) table() {
	g.write("| Name | Count | Description |\n|:-----|------:|-------------|\n")
	for i, n := 0, 3+g.rng.IntN(5); i < n; i++ {
		g.write(fmt.Sprintf("| %s | %d | %s |\n", g.word(), g.rng.IntN(10000), g.sentence()))
	}
	g.write("\n")
}

var codeSamples = []string{
	"```go\nfunc sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n```\n\n",
	"```python\ndef mean(xs):\n    \"\"\"Average of xs.\"\"\"\n    return sum(xs) / len(xs) if xs else 0.0\n```\n\n",
	"```js\nconst names = users.filter(u => u.active).map(u => u.name);\nconsole.log(`${names.length} active`);\n```\n\n",
	"```bash\nfor f in *.md; do\n  wc -l \"$f\"\ndone\n```\n\n",
}

func (g *gen) block() {
	switch r := g.rng.IntN(20); {
	case r < 10:
		g.paragraphBlock()
	case r < 13:
		g.list()
	case r < 15:
		g.table()
	case r < 17:
		g.write(codeSamples[g.rng.IntN(len(codeSamples))])
	case r < 19:
		g.write("> " + g.sentence() + "\n> " + g.sentence() + "\n\n")
	default:
		g.write(fmt.Sprintf("%s %s %s\n\n", strings.Repeat("#", 2+g.rng.IntN(2)), strings.ToUpper(g.word()[:1])+g.word()[1:], g.word()))
	}
}

func main() {
	size := flag.Int("size", 5<<10, "approximate size of the note in bytes")
	components := flag.Bool("components", false, "add one component directive per paragraph")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	g := &gen{rng: rand.New(rand.NewPCG(*seed, 7)), crng: rand.New(rand.NewPCG(*seed, 11)), w: w, components: *components}
	g.write("# Benchmark note\n\n")
	for g.n < *size {
		if g.rng.IntN(12) == 0 {
			g.write("## " + strings.ToUpper(g.word()[:1]) + g.word()[1:] + " " + g.word() + "\n\n")
		}
		g.block()
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
