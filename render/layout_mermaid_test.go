package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// mermaidPage lays out one mermaid fence at width and returns its text.
func mermaidPage(t *testing.T, body string, width int, level ansi.Level) (string, []ansi.Line) {
	t.Helper()
	page := Layout(Parse([]byte("```mermaid\n"+body+"```\n")), Options{Width: width, Level: level, Theme: theme.Dark})
	var text []string
	for _, ln := range page.Lines {
		text = append(text, ln.Text())
	}
	return strings.Join(text, "\n"), page.Lines
}

// TestMermaidFlowchartIsDrawn: a flowchart fence is drawn as boxes and
// arrows, not as its source, and its boxes take the frame style.
func TestMermaidFlowchartIsDrawn(t *testing.T) {
	all, lines := mermaidPage(t, "graph TD\n  A[Start] --> B(End)\n", 60, ansi.TrueColor)
	for _, want := range []string{"│ Start │", "▼", "╭─────╮", "│ End │"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if strings.Contains(all, "-->") {
		t.Errorf("the source is shown:\n%s", all)
	}
	st := NewStyles(theme.Dark)
	var frame, edge bool
	for _, ln := range lines {
		for _, sp := range ln {
			frame = frame || sp.Style == st.Frame && strings.Contains(sp.Text, "┌")
			edge = edge || sp.Style == st.Accent && strings.Contains(sp.Text, "▼")
		}
	}
	if !frame || !edge {
		t.Errorf("boxes in the frame style %v, edges in the accent %v", frame, edge)
	}
}

// TestMermaidWrapsLongText: a node's text too wide for the width is
// wrapped, as mermaid wraps it, when that makes the chart fit.
func TestMermaidWrapsLongText(t *testing.T) {
	all, _ := mermaidPage(t, "graph TD\n  A --> B["+strings.Repeat("wide ", 20)+"]\n", 60, ansi.None)
	if strings.Contains(all, "mermaid:") || strings.Count(all, "│ wide wide") < 2 {
		t.Errorf("long text:\n%s", all)
	}
}

// TestMermaidFallsBackToItsSource: a diagram markii does not draw, or one
// too wide, is its source after one line saying why.
func TestMermaidFallsBackToItsSource(t *testing.T) {
	for _, c := range []struct {
		body  string
		width int
		why   string
	}{
		{"gantt\n  title A plan\n", 60, "mermaid: gantt charts are shown as source"},
		{"graph TD\n  A --> B[" + strings.Repeat("wide", 25) + "]\n", 60, "mermaid: this flowchart is 104 columns wide, wider than 60"},
		{"graph TD\n  A --> \n", 60, "mermaid: line 2: an edge leads nowhere"},
	} {
		all, _ := mermaidPage(t, c.body, c.width, ansi.None)
		first, rest, _ := strings.Cut(all, "\n")
		if !strings.HasPrefix(first, c.why) || !strings.Contains(rest, strings.Split(c.body, "\n")[0]) {
			t.Errorf("%q:\n%s", c.body, all)
		}
	}
}
