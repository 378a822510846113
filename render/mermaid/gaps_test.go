package mermaid

import (
	"strings"
	"testing"
	"unicode"
)

// cellAt is the character at column x of line y of a drawing, or "".
func cellAt(lines []string, x, y int) string {
	if y < 0 || y >= len(lines) {
		return ""
	}
	r := []rune(lines[y])
	if x < 0 || x >= len(r) {
		return ""
	}
	return string(r[x])
}

// cellAt2 is line y of a drawing, or "".
func cellAt2(lines []string, y int) string {
	if y < 0 || y >= len(lines) {
		return ""
	}
	return lines[y]
}

// TestEdgesToSubgraphs: an edge to or from a subgraph's id runs to or
// from its frame, as mermaid draws it: its arrowhead stops on the
// frame's line, and an edge out of a frame starts from its line.
func TestEdgesToSubgraphs(t *testing.T) {
	for _, c := range []struct {
		name, src string
		// arrowsOnFrame and startsOnFrame count the arrowheads that
		// point at a frame's line and the frame lines an edge leaves.
		arrowsOnFrame, startsOnFrame int
		want                         []string
	}{
		{"top-down in and out", `flowchart TD
    A[Client] --> backend
    subgraph backend [Backend services]
        api[API] --> db[(Database)]
        api --> cache[Cache]
    end
    backend -->|metrics| M[Monitoring]
`, 1, 1, []string{"Backend services", "metrics", "│ Monitoring │"}},
		{"left-right in and out", `flowchart LR
    A[Client] --> backend
    subgraph backend [Backend services]
        api[API] --> db[(Database)]
    end
    backend -->|metrics| M[Monitoring]
`, 1, 1, []string{"Backend services", "metrics─►│ Monitoring │"}},
		{"frame to frame, declared after use", `flowchart TB
    one --> two
    subgraph one
    a1-->a2
    end
    subgraph two
    b1-->b2
    end
`, 1, 1, []string{" one ", " two "}},
		{"bottom-up", `flowchart BT
    subgraph s [Store]
        x --> y
    end
    s --> z[Reader]
`, 0, 1, []string{" Store ", "│ Reader │"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fc := parseFC(t, c.src)
			for _, n := range fc.nodes {
				for _, s := range fc.subs {
					if s.id != "" && n.id == s.id {
						t.Errorf("subgraph %q is drawn as a node too", s.id)
					}
				}
			}
			out := mustDraw(t, c.src, 80)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q:\n%s", w, out)
				}
			}
			lines := strings.Split(out, "\n")
			arrows, starts := 0, 0
			for y, ln := range lines {
				for x, r := range []rune(ln) {
					switch r {
					case '▼':
						// The row below is a frame's top line: dotted, or
						// its title where no place on the line is clear.
						if below := []rune(cellAt2(lines, y+1)); x < len(below) && strings.ContainsRune("┄ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ", below[x]) &&
							strings.Contains(string(below[:x]), "┌┄") && strings.Contains(string(below[x:]), "┐") {
							arrows++
						}
					case '►':
						if cellAt(lines, x+1, y) == "┆" {
							arrows++
						}
					case '┬', '├', '┴':
						// A dotted frame line an edge leaves: dotted on
						// both sides along the line.
						along := cellAt(lines, x-1, y) + cellAt(lines, x+1, y)
						if r == '├' {
							along = cellAt(lines, x, y-1) + cellAt(lines, x, y+1)
						}
						if along == "┄┄" || along == "┆┆" {
							starts++
						}
					}
				}
			}
			if arrows != c.arrowsOnFrame || starts != c.startsOnFrame {
				t.Errorf("%d arrowheads on a frame and %d edges from one, want %d and %d:\n%s",
					arrows, starts, c.arrowsOnFrame, c.startsOnFrame, out)
			}
		})
	}
	// An edge between a node and its own subgraph, in one layer, is a
	// loop on the node, its label kept.
	out := mustDraw(t, "flowchart TD\n0-->s\nsubgraph s\n1&2-->|own|s\nend", 80)
	if !strings.Contains(out, "↻ own") {
		t.Errorf("an edge to its own frame is lost:\n%s", out)
	}
	// A subgraph with no node of its own stays a node of its name.
	fc := parseFC(t, "graph TD\nA --> s\nsubgraph s\nend\n")
	if len(fc.nodes) != 2 || fc.nodes[1].id != "s" || fc.edges[0].toSub != -1 {
		t.Errorf("an empty subgraph's id: %+v %+v", fc.nodes, fc.edges)
	}
}

// TestSubgraphDirection: a subgraph that gives a direction of its own
// and is not linked outside is drawn in that direction, framed, as
// mermaid draws it; one linked outside is laid out in the chart's
// direction (mermaid too ignores its direction then), none of its nodes
// dropped.
func TestSubgraphDirection(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"left-right in top-down", `flowchart TD
    Start --> Phase
    Phase --> Update
    subgraph Update ["DB update"]
        direction LR
        r[Read] --> c[Convert] --> s[Save]
    end
    Update --> Review
`, []string{"┌┄ DB update ┄", "│ Read ├──►│ Convert ├──►│ Save │", "│ Review │"}},
		{"nested, each its own way", nestedDirections, []string{"│ f1 │◄───┤ i1 │", "┌┄ TOP ┄", "┌┄ B1 ┄", "┌┄ B2 ┄", "│ A ├──►┆", "┆──►│ B │"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := mustDraw(t, c.src, 80)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q:\n%s", w, out)
				}
			}
			shown, _ := ShownText(c.src)
			missing(t, c.src, out, shown)
		})
	}
	// B2 is drawn bottom-up inside TOP, which runs top-down.
	out := mustDraw(t, realDiagrams[3], 80)
	f2, i2 := strings.Index(out, "│ f2 │"), strings.Index(out, "│ i2 │")
	if f2 < 0 || i2 < 0 || f2 > i2 || !strings.Contains(out, "▲") {
		t.Errorf("B2 is not drawn bottom-up:\n%s", out)
	}
	for _, dir := range []string{"LR", "RL", "TB", "BT"} {
		src := "flowchart TD\n  Start --> Phase\n  subgraph block [Update]\n    direction " + dir +
			"\n    read[Read] --> conv[Convert] --> save[Save]\n  end\n  Phase --> read\n  save --> Review\n"
		out := mustDraw(t, src, 80)
		for _, w := range []string{"Start", "Phase", "│ Read │", "│ Convert │", "│ Save │", "Review", " Update "} {
			if !strings.Contains(out, w) {
				t.Errorf("linked outside, direction %s: missing %q:\n%s", dir, w, out)
			}
		}
		if strings.Contains(out, "►") {
			t.Errorf("linked outside, direction %s is not ignored:\n%s", dir, out)
		}
	}
}

// TestFrameTitlesSurvive: a subgraph's title is drawn in its frame, or,
// when the frame is left out, has no node to frame or is too narrow for
// it, in a line below the drawing that names its nodes.
func TestFrameTitlesSurvive(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"frames left out", `graph TD
n0 --> n0
n0 --> n4
n3 --> n2
n0 --> n1
n5 --> n5
n5 --> n6
n0 --> n2
subgraph s0 [Group title 0]
n1
n6
n0
end
subgraph s1 [Group title 1]
n2
n5
n4
end
subgraph s2 [Group title 2]
n2
end
`, []string{"┄ Group title 0: n0, n1, n6", "┄ Group title 1: n4, n5", "┄ Group title 2: n2"}},
		{"a narrow frame", "graph LR\nsubgraph s [A title far wider than the node it frames]\nx\nend\n",
			[]string{"┄ A title far wider than the node it frames: x"}},
		{"an empty subgraph", "graph TD\nA --> B\nsubgraph e [Nothing here yet]\nend\n",
			[]string{"┄ Nothing here yet"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := mustDraw(t, c.src, 80)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q:\n%s", w, out)
				}
			}
		})
	}
	// The line wraps inside a narrow width, cutting a word too long for it.
	out := mustDraw(t, "graph LR\nsubgraph s [Averyveryverylongwordtitle and more]\nx\nend\n", 12)
	if !strings.Contains(strings.ReplaceAll(out, "\n", ""), "Averyveryverylongwordtitle") {
		t.Errorf("title lost at width 12:\n%s", out)
	}
}

// TestEdgeLabelsWrap: an edge label too long for the room is wrapped,
// in the chart's own direction when that fits.
func TestEdgeLabelsWrap(t *testing.T) {
	label := "runs the whole test suite on every supported platform"
	for _, c := range []struct {
		src       string
		width     int
		arrow     string // the arrowhead the chart's direction draws
		wantLines int    // the lines the label takes at least
	}{
		{"flowchart LR\nA[Build] -->|" + label + "| B[Release] --> C[Publish]\n", 80, "►", 2},
		{"flowchart TD\nA[Build] -->|" + label + "| B[Release]\nA -->|lint| C[Docs]\n", 50, "▼", 2},
		{"flowchart TD\nA[Build] -->|one<br>two| B\n", 80, "▼", 2},
		{"flowchart LR\nA[Build] -->|one<br>two| B\nA --> C\n", 80, "►", 2},
	} {
		out := mustDraw(t, c.src, c.width)
		if !strings.Contains(out, c.arrow) {
			t.Errorf("not drawn in its own direction at %d:\n%s", c.width, out)
		}
		shown, _ := ShownText(c.src)
		missing(t, c.src, out, shown)
		n := 0
		for _, ln := range strings.Split(out, "\n") {
			if strings.Contains(ln, "suite") || strings.Contains(ln, "platform") || strings.Contains(ln, "one") || strings.Contains(ln, "two") {
				n++
			}
		}
		if n < c.wantLines {
			t.Errorf("label on %d lines, want %d:\n%s", n, c.wantLines, out)
		}
	}
}

// TestDiagramTitles: a title from front matter or a sequence diagram's
// title statement is the drawing's first line.
func TestDiagramTitles(t *testing.T) {
	for _, src := range []string{
		"---\ntitle: Release flow\n---\nflowchart LR\nA --> B\n",
		"---\ntitle: \"Release flow\"\n---\nsequenceDiagram\nA->>B: hi\n",
		"sequenceDiagram\ntitle Release flow\nA->>B: hi\n",
	} {
		out := mustDraw(t, src, 80)
		if first, _, _ := strings.Cut(out, "\n"); first != "Release flow" {
			t.Errorf("%q: first line %q:\n%s", src, first, out)
		}
	}
}

// realDiagrams are diagrams as people write them in READMEs: the two
// mermaid's own README draws that markii reads, and others after
// mermaid's documentation and GitHub's.
var realDiagrams = []string{
	// mermaid's README
	`flowchart LR

A[Hard] -->|Text| B(Round)
B --> C{Decision}
C -->|One| D[Result 1]
C -->|Two| E[Result 2]`,
	`sequenceDiagram
Alice->>John: Hello John, how are you?
loop HealthCheck
    John->>John: Fight against hypochondria
end
Note right of John: Rational thoughts!
John-->>Alice: Great!
John->>Bob: How about you?
Bob-->>John: Jolly good!`,
	// mermaid's documentation: links to and from subgraphs
	`flowchart TB
    c1-->a2
    subgraph one
    a1-->a2
    end
    subgraph two
    b1-->b2
    end
    subgraph three
    c1-->c2
    end
    one --> two
    three --> two
    two --> c2`,
	nestedDirections,
	`graph TD
    A[Christmas] -->|Get money| B(Go shopping)
    B --> C{Let me think}
    C -->|One| D[Laptop]
    C -->|Two| E[iPhone]
    C -->|Three| F[fa:fa-car Car]`,
	`sequenceDiagram
    autonumber
    participant A as Alice
    actor J as John
    A->>J: Hello John, how are you?
    J-->>A: Great!
    A-)J: See you later!
    Note over A,J: A typical interaction
    alt is sick
        J->>A: Not so good :(
    else is well
        J->>A: Feeling fresh like a daisy
    end
    opt Extra response
        J->>A: Thanks for asking
    end
    par Alice to Bob
        A->>J: Hello guys!
    and Alice to John
        A->>J: Hello again!
    end
    rect rgb(191, 223, 255)
    A->>J: A message in a rectangle
    end`,
	`---
title: Request path
---
flowchart LR
    user([User]) -- HTTPS request --> lb{{Load balancer}}
    lb --> web1[Web 1] & web2[Web 2]
    subgraph data [Data tier]
        db[(Primary DB)] -.->|replicates to| replica[(Replica)]
    end
    web1 & web2 ==> db
    web1 -->|"cache <br> lookups"| cache>Redis cache]`,
	`flowchart TD
    Start([Open a pull request]) --> CI{CI passes?}
    CI -->|yes, every check on every supported platform is green| Review[Code review]
    CI -->|no| Fix[Fix the failures] --> CI
    Review --> Merge[(Merge to main)]
    Merge --> Release[[Release train]]
    Release --> Start`,
	`sequenceDiagram
    title Login
    participant Browser
    participant Server as Auth server
    Browser->>Server: POST /login with the user's name and password over a long line of text
    Server-->>Browser: 302 redirect with a session cookie
    Note left of Browser: the cookie is kept
    Note right of Server: sessions expire after a day
    Browser->>Browser: store the token`,
}

// words are the lowercased runs of letters and digits in s, counted.
func words(s string) map[string]int {
	m := map[string]int{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		m[strings.ToLower(w)]++
	}
	return m
}

// missing fails t for each word of shown that out prints fewer times.
func missing(t *testing.T, src, out string, shown []string) {
	t.Helper()
	got := words(out)
	for w, n := range words(strings.Join(shown, "\n")) {
		if got[w] < n {
			t.Errorf("%q printed %d times, shown %d:\n%.60q\n%s", w, got[w], n, src, out)
		}
	}
}

// TestEveryShownWordIsDrawn: every word a diagram shows on GitHub (its
// labels, titles, messages and notes) is in markii's drawing of it, at
// each width the diagram is drawn in.
func TestEveryShownWordIsDrawn(t *testing.T) {
	drawn := 0
	for _, src := range realDiagrams {
		shown, err := ShownText(src)
		if err != nil {
			t.Fatalf("%.40q: %v", src, err)
		}
		for _, width := range []int{100, 80, 60, 40} {
			lines, err := Draw(src, width)
			if err != nil {
				continue
			}
			drawn++
			out := text(lines)
			checkDrawing(t, out, width)
			missing(t, src, out, shown)
		}
	}
	if drawn < 3*len(realDiagrams) {
		t.Errorf("only %d drawings of %d diagrams at 4 widths", drawn, len(realDiagrams))
	}
}

// TestShownText: what a diagram shows, not its ids, keywords or arrows;
// a diagram markii does not read has none.
func TestShownText(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"graph TD\nA[Start] -->|go| B\nsubgraph s [Group]\nB\nend\ns --> C((End))", "Start|B|End|go|Group"},
		{"sequenceDiagram\ntitle T\nactor A as Alice\nA->>B: hi\nNote over A: n\nloop every day\nB-->>A: ok\nend", "T|Alice|B|hi|n|loop every day|ok"},
	} {
		got, err := ShownText(c.src)
		if err != nil || strings.Join(got, "|") != c.want {
			t.Errorf("%q: %q %v, want %q", c.src, got, err, c.want)
		}
	}
	if got, err := ShownText("gantt\ntitle x"); err == nil || got != nil {
		t.Errorf("gantt: %q %v", got, err)
	}
}

// TestSequenceBoxes: a box's title, which mermaid draws above the
// participants in it, is a line below the diagram naming them; a
// leading CSS color is not part of it, as mermaid reads it.
func TestSequenceBoxes(t *testing.T) {
	src := `sequenceDiagram
    box Aqua Group One
    participant A as Alice
    participant J as John
    end
    box Another Group
    participant B
    end
    box rgb(33,66,99) Rgb group
    participant C
    end
    box transparent Aqua
    participant D
    end
    box #fa0
    participant E
    end
    A->>B: hi
    C->>D: there
    D->>E: you`
	out := mustDraw(t, src, 80)
	for _, w := range []string{"┄ Group One: Alice, John", "┄ Another Group: B", "┄ Rgb group: C", "┄ Aqua: D"} {
		if !strings.Contains(out, w) {
			t.Errorf("missing %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "fa0") || strings.Contains(out, "rgb") {
		t.Errorf("a box's color is drawn as text:\n%s", out)
	}
	shown, _ := ShownText(src)
	missing(t, src, out, shown)
}

// nestedDirections is mermaid's own example of subgraphs each laid out in
// its own direction inside a subgraph linked as a whole.
const nestedDirections = `flowchart LR
  subgraph TOP
    direction TB
    subgraph B1
        direction RL
        i1 -->f1
    end
    subgraph B2
        direction BT
        i2 -->f2
    end
  end
  A --> TOP --> B
  B1 --> B2`
