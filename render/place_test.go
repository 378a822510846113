package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// words is s's text without white space and frame edges, to compare
// wrapped text.
func words(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("│", "", "▌", "").Replace(s)), "")
}

// headingLines returns the text of the lines a heading takes on p.
func headingLines(p *Page, h HeadingRef) string {
	var b strings.Builder
	for i := h.Line; i < h.EndLine && i < len(p.Lines); i++ {
		b.WriteString(p.Lines[i].Text())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestChildHeadingsArePlacedOnTheirOwnLines: a heading inside a component
// is placed where the component drew it, even when its text also appears
// on an earlier line of the component's output (the card's title, the
// first of two panels with the same heading, a tab label).
func TestChildHeadingsArePlacedOnTheirOwnLines(t *testing.T) {
	cases := []struct {
		name, src string
		// want is, for each heading in order, the text of the line it
		// must be on (the whole line, trimmed of frame and padding).
		want []string
	}{
		{"card title", ":::card{title=\"Intro\"}\n## Intro\n\nBody.\n:::\n", []string{"│ Intro"}},
		{"two identical panels", "::::tabs\n:::tab{label=A}\n## Same\n\nOne.\n:::\n:::tab{label=B}\n## Same\n\nTwo.\n:::\n::::\n", []string{"Same", "Same"}},
		{"tab label as the body's first line", "::::tabs\n:::tab{label=Setup}\nSetup\n\n## Next\n:::\n::::\n", []string{"Next"}},
		{"row cells", "::::row\n:::cell\n## Same\n:::\n:::cell\nSame\n\n## Same\n:::\n::::\n", []string{"Same", "Same"}},
	}
	for _, c := range cases {
		for _, level := range []ansi.Level{ansi.None, ansi.TrueColor} {
			p := Layout(Parse([]byte(c.src)), Options{Width: 80, Level: level})
			if len(p.Headings) != len(c.want) {
				t.Fatalf("%s at %v: headings %+v, want %d", c.name, level, p.Headings, len(c.want))
			}
			seen := map[int]bool{}
			for i, h := range p.Headings {
				if h.Line < 0 || h.Line >= len(p.Lines) {
					t.Fatalf("%s at %v: heading %d at line %d of %d", c.name, level, i, h.Line, len(p.Lines))
				}
				line := p.Lines[h.Line].Text()
				if !strings.Contains(line, h.Text) || !strings.Contains(line, strings.TrimPrefix(c.want[i], "│ ")) {
					t.Fatalf("%s at %v: heading %d (%q) placed on line %d %q\n%s", c.name, level, i, h.Text, h.Line, line, pageText(p))
				}
				if strings.HasPrefix(c.want[i], "│ ") && !strings.HasPrefix(strings.TrimLeft(line, " "), "│") {
					t.Fatalf("%s at %v: heading placed on %q, want a line inside the frame", c.name, level, line)
				}
				if seen[h.Line] && c.name != "row cells" {
					t.Fatalf("%s at %v: two headings placed on line %d\n%s", c.name, level, h.Line, pageText(p))
				}
				seen[h.Line] = true
			}
		}
	}
	// In a row the two `Same` headings are on different lines: the
	// second cell starts with a paragraph that reads like the first's
	// heading.
	p := Layout(Parse([]byte(cases[3].src)), Options{Width: 80, Level: ansi.TrueColor})
	if a, b := p.Headings[0].Line, p.Headings[1].Line; a == b {
		t.Fatalf("the row's headings are both on line %d\n%s", a, pageText(p))
	}
}

// TestChildFocusablesArePlacedOnTheirOwnLines: a details block inside a
// live tabs panel is placed on the line its header is drawn on, though
// the tab label above it reads the same as the panel's first line.
func TestChildFocusablesArePlacedOnTheirOwnLines(t *testing.T) {
	src := "::::tabs\n:::tab{label=Alpha}\nAlpha\n\n:::details{title=Alpha}\nBody\n:::\n:::\n::::\n"
	p := Layout(Parse([]byte(src)), Options{Width: 60, Level: ansi.TrueColor, Live: &LiveState{Focus: -1}})
	var det *Focusable
	for i := range p.Focusables {
		if p.Focusables[i].Kind == FocusDetails {
			det = &p.Focusables[i]
		}
	}
	if det == nil {
		t.Fatalf("no details on the page: %+v\n%s", p.Focusables, pageText(p))
	}
	if det.Line != det.Mark.Line || !strings.Contains(p.Lines[det.Line].Text(), "▸") {
		t.Fatalf("details placed at lines %d..%d, its header is on line %d\n%s", det.Line, det.EndLine, det.Mark.Line, pageText(p))
	}
	if det.EndLine != det.Line+1 {
		t.Fatalf("closed details take lines %d..%d, want one line", det.Line, det.EndLine)
	}
	for _, ln := range p.Lines {
		for _, s := range ln {
			if s.Text == "" && s.Image == nil {
				t.Fatalf("a span with no text is left on the page: %+v in %q", s, ln.Text())
			}
		}
	}
}

// TestWrappedHeadingExtent: a heading that wraps takes all its lines, at
// the top level and inside a component, and a level 1 heading's rule is
// part of it.
func TestWrappedHeadingExtent(t *testing.T) {
	title := "A heading long enough to wrap over three lines here"
	for _, c := range []struct {
		name, src string
		lines     int
	}{
		{"top level", "## " + title + "\n\nBody.\n", 3},
		{"top level, level 1", "# " + title + "\n\nBody.\n", 4},
		{"card", ":::card\n## " + title + "\n\nBody.\n:::\n", 3},
		{"callout", ":::callout\n## " + title + "\n\nBody.\n:::\n", 3},
		{"nested", "::::card\n:::callout\n## " + title + "\n\nBody.\n:::\n::::\n", 3},
	} {
		for _, width := range []int{24, 30} {
			p := Layout(Parse([]byte(c.src)), Options{Width: width, Level: ansi.TrueColor})
			if len(p.Headings) != 1 {
				t.Fatalf("%s: headings %+v", c.name, p.Headings)
			}
			h := p.Headings[0]
			got := headingLines(p, h)
			if !strings.Contains(words(got), words(title)) {
				t.Fatalf("%s at %d: lines %d..%d hold %q, not the whole heading\n%s", c.name, width, h.Line, h.EndLine, got, pageText(p))
			}
			if strings.Contains(got, "Body") || (h.EndLine < len(p.Lines) && strings.Contains(p.Lines[h.EndLine].Text(), "here")) {
				t.Fatalf("%s at %d: lines %d..%d (%q) are not the heading's own\n%s", c.name, width, h.Line, h.EndLine, got, pageText(p))
			}
			if width == 24 && h.EndLine-h.Line < c.lines {
				t.Fatalf("%s at %d: the heading takes %d lines, want at least %d\n%s", c.name, width, h.EndLine-h.Line, c.lines, pageText(p))
			}
		}
	}
}

func pageText(p *Page) string {
	var b strings.Builder
	for i, ln := range p.Lines {
		fmt.Fprintf(&b, "%3d %s\n", i, ln.Text())
	}
	return b.String()
}
