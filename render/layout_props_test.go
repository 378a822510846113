package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// TestLayoutFixturesProperties lays every fixture out at several widths
// and levels: the encoding must pass Validate, no line may hold a line
// feed, and no line may be wider than the width unless a table or a box
// has reached its smallest size.
func TestLayoutFixturesProperties(t *testing.T) {
	files, err := filepath.Glob("../fixtures/*.mk.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := Parse(src)
		for _, width := range []int{20, 40, 80, 120} {
			for _, lvl := range []ansi.Level{ansi.None, ansi.Color16, ansi.Color256, ansi.TrueColor} {
				for _, th := range []theme.Theme{theme.Dark, theme.Light} {
					p := Layout(d, Options{Width: width, Level: lvl, Theme: th})
					out := ansi.Encode(p.Lines, lvl)
					if err := ansi.Validate(out); err != nil {
						t.Fatalf("%s at %d/%v: %v", f, width, lvl, err)
					}
					for i, ln := range p.Lines {
						if strings.ContainsAny(ln.Text(), "\n\r") {
							t.Fatalf("%s line %d holds a line break", f, i)
						}
						if w := ln.Width(); w > width && !strings.ContainsAny(ln.Text(), "│┆┌└├") {
							t.Errorf("%s at width %d: line %d is %d wide: %q", f, width, i, w, ln.Text())
						}
					}
					for _, h := range p.Headings {
						if h.Line < 0 || h.Line >= len(p.Lines) || !strings.Contains(p.Lines[h.Line].Text(), firstWord(h.Text)) {
							t.Errorf("%s at %d: heading %q recorded at line %d", f, width, h.Text, h.Line)
						}
					}
				}
			}
		}
	}
}

// firstWord returns the start of a heading's first word, short enough
// not to be broken across lines.
func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	r := []rune(f[0])
	return string(r[:min(len(r), 4)])
}

// TestLayoutDeepNesting lays out pathological nesting without crashing
// and with bounded output.
func TestLayoutDeepNesting(t *testing.T) {
	src := strings.Repeat("> ", 5000) + "deep\n\n" + strings.Repeat("- ", 3000) + "item\n"
	p := Layout(Parse([]byte(src)), Options{Width: 40, Theme: theme.Dark})
	total := 0
	for _, ln := range p.Lines {
		total += len(ln.Text())
	}
	if total > 4<<20 {
		t.Fatalf("deep nesting drew %d bytes", total)
	}
	if !strings.Contains(string(ansi.Encode(p.Lines, ansi.None)), "deep") {
		t.Fatal("deep content lost")
	}
}
