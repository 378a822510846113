package render

import (
	"bytes"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"
)

// soak reports whether the long robustness inputs (a 10 MB line, a 100 MB
// note) should run: set MARKII_SOAK=1.
func soak() bool { return os.Getenv("MARKII_SOAK") != "" }

func deepList(levels int) []byte {
	var b bytes.Buffer
	for i := 0; i < levels; i++ {
		b.WriteString(strings.Repeat("  ", i))
		b.WriteString("- item\n")
	}
	return b.Bytes()
}

func deepContainers(levels int) []byte {
	var b bytes.Buffer
	for i := levels; i > 0; i-- {
		b.WriteString(strings.Repeat(":", i+2))
		b.WriteString("box\n")
	}
	b.WriteString("core\n")
	return b.Bytes()
}

func binaryNoise(n int) []byte {
	r := rand.New(rand.NewSource(7))
	b := make([]byte, n)
	r.Read(b)
	return b
}

// TestParseHostileInputIsBounded parses inputs built to blow up naive
// parsers. Each must finish within a bound that a loaded two-core machine
// meets many times over for a linear parser, while a quadratic one misses
// it by minutes.
func TestParseHostileInputIsBounded(t *testing.T) {
	type input struct {
		name  string
		gen   func() []byte
		limit time.Duration
		long  bool
	}
	inputs := []input{
		{"10000-deep quotes", func() []byte { return []byte(strings.Repeat(">", 10000) + " x\n") }, 10 * time.Second, false},
		{"10000-deep quotes, 500 lines", func() []byte { return bytes.Repeat([]byte(strings.Repeat("> ", 10000)+"y\n"), 500) }, 20 * time.Second, false},
		{"10000-deep list on one line", func() []byte { return []byte(strings.Repeat("- ", 10000) + "x\n") }, 10 * time.Second, false},
		{"2000-level indented list", func() []byte { return deepList(2000) }, 20 * time.Second, false},
		{"10000-level indented list (100 MB)", func() []byte { return deepList(10000) }, 120 * time.Second, true},
		{"3000-deep containers", func() []byte { return deepContainers(3000) }, 30 * time.Second, false},
		{"10000-deep containers (50 MB of fences)", func() []byte { return deepContainers(10000) }, 120 * time.Second, true},
		{"10000 equal container fences", func() []byte { return []byte(strings.Repeat(":::a\n", 10000) + "x\n") }, 20 * time.Second, false},
		{"10000-deep inline directives", func() []byte {
			return []byte(strings.Repeat(":a[", 10000) + "x" + strings.Repeat("]", 10000) + "\n")
		}, 10 * time.Second, false},
		{"100000 unclosed labels", func() []byte { return []byte(strings.Repeat(":a[", 100000) + "\n") }, 20 * time.Second, false},
		{"10000-deep emphasis", func() []byte {
			return []byte(strings.Repeat("*", 10000) + "x" + strings.Repeat("*", 10000) + "\n")
		}, 10 * time.Second, false},
		{"emphasis around labels", func() []byte { return []byte(strings.Repeat("w *e* :x[*y*] ", 50000) + "\n") }, 20 * time.Second, false},
		{"1 MB line of directives", func() []byte { return []byte(strings.Repeat("word :x[y]{a=b} *e* ", 50000) + "\n") }, 30 * time.Second, false},
		{"10 MB line of directives", func() []byte { return []byte(strings.Repeat("word :x[y]{a=b} *e* ", 500000) + "\n") }, 300 * time.Second, true},
		{"unclosed attribute block", func() []byte { return []byte(":x{" + strings.Repeat("a", 1<<20) + "\n") }, 10 * time.Second, false},
		{"200000 attributes", func() []byte { return []byte(":x{" + strings.Repeat("k v=1 .c ", 200000) + "}\n") }, 20 * time.Second, false},
		{"1 MB binary", func() []byte { return binaryNoise(1 << 20) }, 20 * time.Second, false},
		{"100 MB note", func() []byte { return bytes.Repeat(realisticNote(1<<20), 100) }, 600 * time.Second, true},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			if in.long && !soak() {
				t.Skip("set MARKII_SOAK=1 to run the long inputs")
			}
			src := in.gen()
			start := time.Now()
			doc := Parse(src)
			Listing(doc)
			elapsed := time.Since(start)
			if elapsed > in.limit {
				t.Errorf("%d bytes took %v (limit %v)", len(src), elapsed, in.limit)
			}
			t.Logf("%d bytes in %v, flattened=%v", len(src), elapsed, doc.Flattened)
		})
	}
}

// TestParseDepthIsCapped checks that no path through the tree is deeper
// than MaxDepth, so later recursive stages are safe.
func TestParseDepthIsCapped(t *testing.T) {
	for _, src := range [][]byte{
		[]byte(strings.Repeat(">", 10000) + " x\n"),
		[]byte(strings.Repeat("- ", 10000) + "x\n"),
		deepContainers(3000),
		[]byte(strings.Repeat(":a[", 10000) + "x" + strings.Repeat("]", 10000)),
		[]byte(strings.Repeat("*a ", 5000) + strings.Repeat("_b ", 5000) + "x" + strings.Repeat(" b_", 5000) + strings.Repeat(" a*", 5000)),
	} {
		doc := Parse(src)
		if d := treeDepth(doc); d > MaxDepth+1 {
			t.Errorf("depth %d > MaxDepth for %.20q…", d, src)
		}
		if !doc.Flattened {
			t.Errorf("Flattened not set for %.20q…", src)
		}
		if got := dump(doc); !strings.Contains(got, "x") {
			t.Errorf("deep content lost entirely for %.20q…", src)
		}
	}
}

func treeDepth(doc *Document) int {
	var blocks func([]Block) int
	var inlines func([]Inline) int
	inlines = func(in []Inline) int {
		m := 0
		for _, n := range in {
			d := 0
			switch n := n.(type) {
			case *Emphasis:
				d = 1 + inlines(n.Content)
			case *Strong:
				d = 1 + inlines(n.Content)
			case *Strikethrough:
				d = 1 + inlines(n.Content)
			case *Link:
				d = 1 + inlines(n.Content)
			case *InlineDirective:
				d = 1 + inlines(n.Content)
			}
			m = max(m, d)
		}
		return m
	}
	blocks = func(bs []Block) int {
		m := 0
		for _, b := range bs {
			d := 0
			switch n := b.(type) {
			case *Paragraph:
				d = 1 + inlines(n.Content)
			case *Heading:
				d = 1 + inlines(n.Content)
			case *Quote:
				d = 1 + blocks(n.Blocks)
			case *List:
				for _, it := range n.Items {
					d = max(d, 2+blocks(it.Blocks))
				}
			case *Directive:
				d = 1 + max(blocks(n.Blocks), inlines(n.Label))
			}
			m = max(m, d)
		}
		return m
	}
	return blocks(doc.Blocks)
}

func TestParseNeverFailsOnOddInput(t *testing.T) {
	for _, src := range []string{
		"", "\x00", "\xff\xfe\xfd", "\r\n\r\n", ":", "::", ":::", "::::", ":a", ":a[", ":a[]", ":a{", ":a{}", "::a{", ":::a[",
		"---", "---\n", "---\n---", "\xef\xbb\xbf---\nuses: [a]\n---\n", "```lua {", "```lua {name=", "```lua {name=\"x}",
		"[", "]", "![", "<", "&", "&#", "&#x", "&#99999999;", "\\", "|a|\n|-|\n|b", "- [ ]", "* * *", "> > >",
		":a[\n", ":a[x\n\ny]", ":a[x]{k=\"\n\"}", "\t\t:::a\n", "   :::a\n   :::\n", ":::a\n\t:::\n",
	} {
		doc := Parse([]byte(src))
		Listing(doc)
		PlainMarkdown([]byte(src))
		if doc == nil {
			t.Fatalf("nil document for %q", src)
		}
	}
}

// TestParseLinkPathologiesAreBounded covers inputs on which goldmark's own
// link parser is quadratic; the link guard keeps them linear.
func TestParseLinkPathologiesAreBounded(t *testing.T) {
	for _, c := range []struct {
		name string
		src  []byte
	}{
		{"nested brackets", []byte(strings.Repeat("[", 100000) + "x" + strings.Repeat("]", 100000) + "\n")},
		{"open destinations", []byte(strings.Repeat("[a](", 100000) + "\n")},
		{"labels without links", []byte(strings.Repeat("[a]", 200000) + "\n")},
		{"many small blocks", bytes.Repeat([]byte(strings.Repeat("[a](", 60)+"\n\n"), 8000)},
		{"many small nested blocks", bytes.Repeat([]byte(strings.Repeat("[", 120)+strings.Repeat("]", 120)+"\n\n"), 8000)},
	} {
		start := time.Now()
		Parse(c.src)
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: %d bytes took %v", c.name, len(c.src), d)
		} else {
			t.Logf("%s: %d bytes in %v", c.name, len(c.src), d)
		}
	}
	// Links still work next to the guard.
	got := dump(Parse([]byte("[a](u) [[b]](v) [c][] \n\n[c]: w\n")))
	if want := `(p (a "u" "a") " " (a "v" "[b]") " " (a "w" "c"))`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
}
