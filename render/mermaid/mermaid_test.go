package mermaid

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// text joins a drawing's lines.
func text(lines []Line) string {
	var b strings.Builder
	for _, l := range lines {
		for _, s := range l {
			b.WriteString(s.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// mustDraw draws src at width and fails the test if it falls back.
func mustDraw(t *testing.T, src string, width int) string {
	t.Helper()
	lines, err := Draw(src, width)
	if err != nil {
		t.Fatalf("Draw(%q): %v", src, err)
	}
	out := text(lines)
	checkDrawing(t, out, width)
	return out
}

// checkDrawing fails t when a line is wider than width or holds a
// control character.
func checkDrawing(t testing.TB, out string, width int) {
	t.Helper()
	for _, ln := range strings.Split(out, "\n") {
		if w := ansi.Width(ln); w > width {
			t.Errorf("line %d columns wide, over %d: %q", w, width, ln)
		}
		for _, r := range ln {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
				t.Errorf("control character %U in %q", r, ln)
			}
		}
	}
}

func parseFC(t *testing.T, src string) *flowchart {
	t.Helper()
	stmts, err := statements(src)
	if err != nil {
		t.Fatal(err)
	}
	fc, err := parseFlowchart(stmts)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return fc
}

func TestFlowchartNodeShapes(t *testing.T) {
	for _, c := range []struct {
		src   string
		shape shape
		label string
	}{
		{"A", rect, "A"},
		{"A[text]", rect, "text"},
		{"A(text)", round, "text"},
		{"A([text])", stadium, "text"},
		{"A((text))", circle, "text"},
		{"A(((text)))", circle, "text"},
		{"A[[text]]", subroutine, "text"},
		{"A[(text)]", cylinder, "text"},
		{"A>text]", flag, "text"},
		{"A{text}", decision, "text"},
		{"A{{text}}", hexagon, "text"},
		{"A[/text/]", slanted, "text"},
		{`A[\text\]`, slanted, "text"},
		{`A["quoted [text]"]`, rect, "quoted [text]"},
		{"A[a #quot;b#quot;]", rect, `a "b"`},
		{"A:::hot", rect, "A"},
		{"A[ci_pr_&lt;PR&gt;_silver]", rect, "ci_pr_<PR>_silver"},
		{`A["<b>0. Annotation</b><br/>browser <code>tool</code>"]`, rect, "0. Annotation\nbrowser tool"},
		{"A[List<T> a < b]", rect, "List<T> a < b"},
		{"node-1.x[dashed id]", rect, "dashed id"},
	} {
		fc := parseFC(t, "graph TD\n"+c.src)
		if len(fc.nodes) != 1 {
			t.Errorf("%s: %d nodes", c.src, len(fc.nodes))
			continue
		}
		n := fc.nodes[0]
		if n.shape != c.shape || strings.Join(n.lines, "\n") != c.label {
			t.Errorf("%s: shape %d label %q, want %d %q", c.src, n.shape, n.lines, c.shape, c.label)
		}
	}
	fc := parseFC(t, "graph TD\nA[one<br>two<br/>three]")
	if got := fc.nodes[0].lines; len(got) != 3 || got[2] != "three" {
		t.Errorf("<br> lines: %q", got)
	}
}

func TestFlowchartEdges(t *testing.T) {
	for _, c := range []struct {
		src    string
		style  lineStyle
		headTo bool
		from   bool
		label  string
	}{
		{"A-->B", solid, true, false, ""},
		{"A --- B", solid, false, false, ""},
		{"A ----> B", solid, true, false, ""},
		{"A -.-> B", dotted, true, false, ""},
		{"A -.- B", dotted, false, false, ""},
		{"A ==> B", thick, true, false, ""},
		{"A === B", thick, false, false, ""},
		{"A --o B", solid, true, false, ""},
		{"A --x B", solid, true, false, ""},
		{"A <--> B", solid, true, true, ""},
		{"A -->|yes| B", solid, true, false, "yes"},
		{"A---|open|B", solid, false, false, "open"},
		{"A -- a label --> B", solid, true, false, "a label"},
		{"A -. dotted .-> B", dotted, true, false, "dotted"},
		{"A == thick ==> B", thick, true, false, "thick"},
		{"A-->|\"quoted\"|B", solid, true, false, "quoted"},
	} {
		fc := parseFC(t, "graph LR\n"+c.src)
		if len(fc.nodes) != 2 || len(fc.edges) != 1 {
			t.Errorf("%s: %d nodes %d edges", c.src, len(fc.nodes), len(fc.edges))
			continue
		}
		e := fc.edges[0]
		if e.from != 0 || e.to != 1 || e.style != c.style || e.headTo != c.headTo || e.headFrom != c.from || strings.Join(e.lines, " ") != c.label {
			t.Errorf("%s: %+v", c.src, e)
		}
	}
}

func TestFlowchartStatements(t *testing.T) {
	fc := parseFC(t, `---
title: front matter
---
%%{init: {"theme": "dark"}}%%
flowchart TB
    %% a comment
    A --> B --> C; D[four]
    A & B --> E & F
    subgraph one [A group]
      direction LR
      G --> A
    end
    classDef hot fill:#f00
    class A hot
    style B fill:#0f0
    linkStyle 0 stroke:#f00
    click A "https://example.com"
    A --> A
    A ~~~ G
`)
	var ids []string
	for _, n := range fc.nodes {
		ids = append(ids, n.id)
	}
	if got := strings.Join(ids, " "); got != "A B C D E F G" {
		t.Errorf("nodes %s", got)
	}
	var edges []string
	for _, e := range fc.edges {
		edges = append(edges, fc.nodes[e.from].id+fc.nodes[e.to].id)
	}
	if got := strings.Join(edges, " "); got != "AB BC AE AF BE BF GA" {
		t.Errorf("edges %s", got)
	}
	if len(fc.nodes[0].loops) != 1 {
		t.Errorf("A's loop: %v", fc.nodes[0].loops)
	}
}

func TestFallbackReasons(t *testing.T) {
	big := "graph TD\n"
	for i := range 5000 {
		big += fmt.Sprintf("n%d --> n%d\n", i, i+1)
	}
	for _, c := range []struct {
		src    string
		reason Reason
		msg    string
	}{
		{"gantt\n title x", Unsupported, "mermaid: gantt charts are shown as source"},
		{"pie\n \"a\": 1", Unsupported, "mermaid: pie charts are shown as source"},
		{"classDiagram\n A <|-- B", Unsupported, "mermaid: class diagrams are shown as source"},
		{"stateDiagram-v2\n [*] --> A", Unsupported, "mermaid: state diagrams are shown as source"},
		{"whatever\n", Unsupported, `mermaid: "whatever" is not a diagram kind markii draws`},
		{"", Syntax, "mermaid: the diagram is empty"},
		{"graph XY\nA-->B", Syntax, `mermaid: line 1: unknown direction: "graph XY"`},
		{"graph TD\nA -->", Syntax, `mermaid: line 2: an edge leads nowhere: "A -->"`},
		{"graph TD\nA ~> B", Syntax, `mermaid: line 2: cannot read: "A ~> B"`},
		{"sequenceDiagram\nA->>B: x\nend", Syntax, `mermaid: line 3: end without a block: "end"`},
		{"sequenceDiagram\nloop x\nA->>B: x", Syntax, "mermaid: a block is not closed with end"},
		{"sequenceDiagram\nA=>B: x", Syntax, `mermaid: line 2: cannot read: "A=>B: x"`},
		{big, TooLarge, "mermaid: diagrams of more than 2000 statements are shown as source"},
		{big[:4000], TooLarge, "mermaid: flowcharts of more than 150 nodes are shown as source"},
		{"graph TD\nA[" + strings.Repeat("x", 100) + "]", TooWide, "mermaid: this flowchart is 104 columns wide, wider than 80"},
		{"sequenceDiagram\nA->>B: " + strings.Repeat("x", 100), TooWide, "mermaid: this sequence diagram is 109 columns wide, wider than 80"},
	} {
		_, err := Draw(c.src, 80)
		var e *Error
		if !errors.As(err, &e) || e.Reason != c.reason || err.Error() != c.msg {
			t.Errorf("%.30q: %v, want %q", c.src, err, c.msg)
		}
	}
}

// TestHugeInputsFallBackQuickly: a statement of many nodes and shapes
// that do not close, or labels of many lines, are read in linear time
// and fall back without drawing a huge grid.
func TestHugeInputsFallBackQuickly(t *testing.T) {
	for _, c := range []struct {
		src    string
		reason Reason
	}{
		{"graph TD\n" + strings.Repeat("A[(x] & ", 100000) + "A", 0},
		{"graph TD\n" + strings.Repeat("A[x] & A([y]) & A{{z} & ", 30000) + "A", 0},
		{"graph TD\nB --> " + strings.Repeat("A[(x] & ", 100000) + "A", TooLarge},
		{"graph TD\nA[" + strings.Repeat("x<br>", 100000) + "]", TooLarge},
		{"sequenceDiagram\nA->>B: " + strings.Repeat("x<br>", 100000), TooLarge},
		{"graph TD\nA[" + strings.Repeat("<", 500000) + ">]", TooWide},
		{"graph TD\nA --> B\n" + strings.Repeat("%% comment\n", 200000), 0},
	} {
		start := time.Now()
		_, err := Draw(c.src, 80)
		var e *Error
		if c.reason != 0 && (!errors.As(err, &e) || e.Reason != c.reason) {
			t.Errorf("%.40q: %v, want reason %d", c.src, err, c.reason)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%.40q took %v", c.src, d)
		}
	}
}

// TestFiveThousandNodesFallBackQuickly: the node bound is checked as the
// source is read, so a huge graph costs no more than reading it.
func TestFiveThousandNodesFallBackQuickly(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph TD\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "n%d[node %d] --> n%d & n%d\n", i, i, (i*7+1)%5000, (i*13+5)%5000)
	}
	start := time.Now()
	_, err := Draw(b.String(), 80)
	if e := (*Error)(nil); !errors.As(err, &e) || e.Reason != TooLarge {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("5,000 nodes took %v to fall back", d)
	}
}

func TestFlowchartTopDown(t *testing.T) {
	out := mustDraw(t, "graph TD\nA[Start] -->|go| B{Choose}\nB -->|one| C(Left)\nB -->|two| D([Right])\n", 80)
	want := []string{"│ Start │", "< Choose >", "│ go", "│ one", "│ two", "│ Left │", "( Right )", "╭", "╱"}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q:\n%s", w, out)
		}
	}
	// Each arrowhead sits on the top border of a box below it.
	lines := strings.Split(out, "\n")
	heads := 0
	for y, ln := range lines {
		for x, r := range []rune(ln) {
			if r != '▼' {
				continue
			}
			heads++
			below := []rune(lines[y+1])
			if x >= len(below) || !strings.ContainsRune("─┌╭╱", below[x]) {
				t.Errorf("arrowhead at %d,%d points at %q:\n%s", x, y, string(below[x]), out)
			}
		}
	}
	if heads != 3 {
		t.Errorf("%d arrowheads, want 3:\n%s", heads, out)
	}
}

func TestFlowchartLeftRight(t *testing.T) {
	out := mustDraw(t, "graph LR\nA -->|label| B --> C\n", 80)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "│ A ├─") || !strings.Contains(lines[1], "label─►│ B ├──►│ C │") {
		t.Errorf("left-right chain:\n%s", out)
	}
	// Right-left runs the other way.
	out = mustDraw(t, "graph RL\nA --> B\n", 80)
	if !strings.Contains(out, "│ B │◄──") || !strings.Contains(out, "─┤ A │") {
		t.Errorf("right-left:\n%s", out)
	}
}

// TestFlowchartTurnsWhenTooWide: a left-right chart too wide for the
// width is drawn top-down when that fits.
func TestFlowchartTurnsWhenTooWide(t *testing.T) {
	src := "graph LR\nA[first step] --> B[second step] --> C[third step] --> D[fourth step]\n"
	out := mustDraw(t, src, 40)
	if !strings.Contains(out, "▼") || strings.Contains(out, "►") {
		t.Errorf("not turned top-down:\n%s", out)
	}
	if out := mustDraw(t, src, 100); !strings.Contains(out, "►") {
		t.Errorf("turned though it fits:\n%s", out)
	}
}

// TestFlowchartCycleAndBackEdge: an edge that closes a cycle points back
// up, with its arrowhead under the box it leads to.
func TestFlowchartCycleAndBackEdge(t *testing.T) {
	out := mustDraw(t, "graph TD\nA --> B --> C --> A\n", 80)
	if strings.Count(out, "▼") != 2 || strings.Count(out, "▲") != 1 {
		t.Errorf("cycle:\n%s", out)
	}
}

// TestFlowchartSubgraphs: a subgraph is a frame with its title around
// its nodes and no other; nodes outside it are moved clear of it.
func TestFlowchartSubgraphs(t *testing.T) {
	src := `graph TD
  user[User] --> web
  subgraph cloud [Cloud services]
    web[Web server] --> api[API]
    api --> db[(Database)]
  end
  api --> mail[Mail relay]
`
	out := mustDraw(t, src, 80)
	lines := strings.Split(out, "\n")
	// The title is in the top or the bottom line, wherever no edge
	// crosses it; the other line is the row of the other corner.
	top, bottom, left, right := -1, -1, -1, -1
	for y, ln := range lines {
		i := strings.Index(ln, "Cloud services")
		if i < 0 {
			continue
		}
		j := strings.LastIndexAny(ln[:i], "┌└")
		left = ansi.Width(ln[:j])
		right = left + ansi.Width(strings.TrimRight(ln[j:], " ")) - 1
		corner := []rune(ln[j:])[0]
		for y2, l2 := range lines {
			r := []rune(l2)
			if y2 != y && left < len(r) && (corner == '└' && r[left] == '┌' || corner == '┌' && r[left] == '└') {
				top, bottom = min(y, y2), max(y, y2)
			}
		}
	}
	if top < 0 || bottom < 0 {
		t.Fatalf("no frame:\n%s", out)
	}
	inside := func(name string) bool {
		for y, ln := range lines {
			if i := strings.Index(ln, name); i >= 0 {
				x := ansi.Width(ln[:i])
				return y > top && y < bottom && x > left && x < right
			}
		}
		t.Fatalf("no %s:\n%s", name, out)
		return false
	}
	for name, want := range map[string]bool{"Web server": true, "API": true, "Database": true, "User": false, "Mail relay": false} {
		if inside(name) != want {
			t.Errorf("%s inside the frame: %v, want %v:\n%s", name, !want, want, out)
		}
	}
	// Two frames that share a layer are moved apart, not left out.
	out = mustDraw(t, `graph TB
    subgraph Frontend
        ui[React UI] --> store[Redux store]
    end
    subgraph Backend
        api[REST API] --> svc[Services]
        svc --> repo[Repository]
    end
    ui --> api
    repo --> pg[(Postgres)]
`, 80)
	if !strings.Contains(out, " Frontend ") || !strings.Contains(out, " Backend ") {
		t.Errorf("a frame is left out:\n%s", out)
	}
	// Nested frames and frames side by side.
	out = mustDraw(t, "graph LR\nsubgraph outer\nsubgraph a [inner one]\nx --> y\nend\nsubgraph b\nz\nend\nend\nq --> x\n", 80)
	for _, w := range []string{"┌┄ outer ┄", "┌┄ inner one ┄", "┌┄ b ┄", "│ q ├"} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q:\n%s", w, out)
		}
	}
}

func TestFlowchartWideCharacters(t *testing.T) {
	out := mustDraw(t, "graph TD\nA[日本語のラベル] --> B[🎉 party]\n", 80)
	lines := strings.Split(out, "\n")
	if ansi.Width(lines[0]) != ansi.Width(strings.TrimRight(lines[1], " ")) {
		t.Errorf("box edges do not line up around wide text:\n%s", out)
	}
}

func TestLabelsAreSanitized(t *testing.T) {
	out := mustDraw(t, "graph TD\nA[evil \x1b[31mred\u009b] -->|\x07bell| B\n", 80)
	if strings.ContainsAny(out, "\x1b\x07\u009b") {
		t.Errorf("control bytes drawn: %q", out)
	}
	out = mustDraw(t, "sequenceDiagram\nA->>B: \x1b]8;;x\x1b\\hi\n", 80)
	if strings.ContainsAny(out, "\x1b") {
		t.Errorf("control bytes drawn: %q", out)
	}
}

func TestDrawingIsByteStable(t *testing.T) {
	src := "graph TD\nA --> B & C & D\nB --> E\nC --> E\nD --> E\nE -.-> A\nC ==> F\n"
	first := mustDraw(t, src, 80)
	for range 20 {
		if got := mustDraw(t, src, 80); got != first {
			t.Fatalf("drawings differ:\n%s\n%s", first, got)
		}
	}
}

func TestSequence(t *testing.T) {
	src := `sequenceDiagram
    participant A as Alice
    actor B as Bob
    A->>B: hello
    B-->>A: hi
    A-)B: async
    A-xB: cross
    A->B: open
    B->>B: think
    Note right of B: a note
    Note left of A: left
    Note over A,B: both
    loop every second
        A->>B: ping
    alt ok
        B->>A: pong
    else not ok
        B--xA: nothing
    end
    end
    activate A
    deactivate A
`
	out := mustDraw(t, src, 80)
	for _, w := range []string{"│ Alice │", "│ Bob │", "╭─────╮", "hello", "►│", "│◄┄", "▷│", "×│", "think", "│ a note │", "│ left │", "both", "loop every second", "alt ok", "else not ok", "┄"} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q:\n%s", w, out)
		}
	}
	stmts, _ := statements(src)
	sd, err := parseSequence(stmts)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.parts) != 2 || sd.depth != 2 {
		t.Errorf("%d participants, depth %d", len(sd.parts), sd.depth)
	}
	out = mustDraw(t, "sequenceDiagram\nautonumber\nA->>B: one\nB->>A: two\n", 80)
	if !strings.Contains(out, "1. one") || !strings.Contains(out, "2. two") {
		t.Errorf("autonumber:\n%s", out)
	}
}

// TestSequenceBounds: too many participants or too deep blocks fall back.
// TestSequenceNamesItsLifelinesAtBothEnds: as mermaid does by default,
// the participants are drawn again below the last event, joined to their
// lifelines.
func TestSequenceNamesItsLifelinesAtBothEnds(t *testing.T) {
	out := mustDraw(t, "sequenceDiagram\n    actor A as Alice\n    A->>Bob: hello\n", 80)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 6 {
		t.Fatalf("too short:\n%s", out)
	}
	top, bottom := strings.Join(lines[:3], "\n"), strings.Join(lines[len(lines)-3:], "\n")
	for _, w := range []string{"│ Alice │", "│ Bob │"} {
		if strings.Count(out, w) != 2 || !strings.Contains(top, w) || !strings.Contains(bottom, w) {
			t.Errorf("%q is not drawn once at the top and once at the bottom:\n%s", w, out)
		}
	}
	if strings.Count(lines[len(lines)-3], "┴") != 2 || !strings.HasPrefix(lines[len(lines)-3], "╭") {
		t.Errorf("the bottom boxes are not joined to the lifelines, or the actor's is not round:\n%s", out)
	}
}

func TestSequenceBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for i := range MaxParticipants + 1 {
		fmt.Fprintf(&b, "participant p%d\n", i)
	}
	if _, err := Draw(b.String(), 80); err == nil || !strings.Contains(err.Error(), "participants") {
		t.Errorf("participants: %v", err)
	}
	deep := "sequenceDiagram\n" + strings.Repeat("loop x\n", MaxDepth+1) + "A->>B: x\n" + strings.Repeat("end\n", MaxDepth+1)
	if _, err := Draw(deep, 200); err == nil || !strings.Contains(err.Error(), "nest deeper") {
		t.Errorf("depth: %v", err)
	}
}

// TestRandomGraphsFitTheirWidth: any graph within the bounds is drawn
// inside the width or falls back saying it is too wide.
func TestRandomGraphsFitTheirWidth(t *testing.T) {
	seed := uint32(1)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	dirs := []string{"TD", "LR", "BT", "RL"}
	for i := range 200 {
		nodes := 2 + next(12)
		var b strings.Builder
		fmt.Fprintf(&b, "graph %s\n", dirs[i%4])
		for range nodes + next(nodes) {
			fmt.Fprintf(&b, "n%d -->|%s| n%d\n", next(nodes), strings.Repeat("l", next(6)), next(nodes))
		}
		for _, width := range []int{40, 80} {
			lines, err := Draw(b.String(), width)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Reason != TooWide {
					t.Fatalf("%s: %v", b.String(), err)
				}
				continue
			}
			checkDrawing(t, text(lines), width)
		}
	}
}

// TestLargestGraphsAreQuick: a graph at the bounds, its text long enough
// to be wrapped twice, laid out in both directions each time and then
// found too wide, takes well under the time a note may take (about 0.1 s
// on a quiet machine; the limit is wall time on a shared one).
func TestLargestGraphsAreQuick(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph TD\n")
	for i := range MaxNodes {
		fmt.Fprintf(&b, "n%d[node number %d has a long text to wrap]\n", i, i)
	}
	for i := range MaxEdges {
		fmt.Fprintf(&b, "n%d --> n%d\n", i%MaxNodes, (i*37+11)%MaxNodes)
	}
	for _, width := range []int{80, 10000} {
		start := time.Now()
		_, err := Draw(b.String(), width)
		d := time.Since(start)
		t.Logf("width %d: %v (%v)", width, d, err)
		if d > time.Second {
			t.Errorf("%d nodes and %d edges took %v at width %d", MaxNodes, MaxEdges, d, width)
		}
	}
}

func TestWrapText(t *testing.T) {
	got := wrapText([]string{"short", "a longer line of words", "unbreakableword x"}, 10)
	want := []string{"short", "a longer", "line of", "words", "unbreakableword", "x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapText = %q, want %q", got, want)
	}
	// A sequence diagram too wide with its messages on one line is drawn
	// with them wrapped.
	out := mustDraw(t, "sequenceDiagram\nA->>B: "+strings.Repeat("word ", 12)+"\nB-->>A: ok\n", 40)
	if strings.Count(out, "word") != 12 {
		t.Errorf("wrapped message lost words:\n%s", out)
	}
}
