package viewer

import (
	"strings"
	"testing"
)

func TestSearchHighlightsRenderedTextIncrementally(t *testing.T) {
	// The source has `**bo**ld` markup; the rendered text is "bold".
	src := "# Title\n\nA **bo**ld word, another bold word.\n\n" + longNote(6, 3) + "\nLast bold line.\n"
	m := newTest(t, src, 80, 12, nil)
	press(m, "/")
	typeText(m, "b")
	if !strings.Contains(status(m), "/b") {
		t.Fatalf("prompt not in the status bar: %q", status(m))
	}
	typeText(m, "old")
	if got := status(m); !strings.Contains(got, "1/3 matches") {
		t.Fatalf("status %q, want 1/3 matches (the rendered text, not the markup)", got)
	}
	// The current match is drawn in the current-match style, the others in
	// the match style, as spans the ansi encoder wrote.
	frame := m.frame()
	cur := string(m.chrome.encode("bo", m.chrome.current))
	if !strings.Contains(frame, cur) && !strings.Contains(frame, string(m.chrome.encode("bold", m.chrome.current))) {
		t.Fatalf("current match not highlighted:\n%q", frame)
	}
	if !strings.Contains(frame, m.chrome.encode("bold", m.chrome.match)) {
		t.Fatalf("other match not highlighted:\n%q", frame)
	}
	press(m, "enter")
	if m.reader.search.editing {
		t.Fatal("enter did not close the prompt")
	}
	press(m, "n")
	if !strings.Contains(status(m), "2/3 matches") {
		t.Fatalf("n: status %q", status(m))
	}
	press(m, "n")
	if !strings.Contains(status(m), "3/3 matches") {
		t.Fatalf("n: status %q", status(m))
	}
	if !strings.Contains(screen(m), "Last bold line.") {
		t.Fatalf("n did not scroll to the last match:\n%s", screen(m))
	}
	press(m, "n")
	if !strings.Contains(status(m), "1/3 matches") {
		t.Fatalf("n wraps: status %q", status(m))
	}
	press(m, "N")
	if !strings.Contains(status(m), "3/3 matches") {
		t.Fatalf("N wraps back: status %q", status(m))
	}
}

func TestSearchNoMatchAndBackspace(t *testing.T) {
	m := newTest(t, longNote(3, 2), 80, 12, nil)
	press(m, "/")
	typeText(m, "needlx")
	if !strings.Contains(status(m), "no matches") {
		t.Fatalf("status %q", status(m))
	}
	press(m, "backspace")
	typeText(m, "e")
	if !strings.Contains(status(m), "1/1 matches") {
		t.Fatalf("after fixing the typo: status %q", status(m))
	}
	if !strings.Contains(screen(m), "The needle hides") {
		t.Fatalf("incremental search did not scroll to the match:\n%s", screen(m))
	}
}

func TestSearchIsSmartCaseAndCached(t *testing.T) {
	m := newTest(t, longNote(3, 2), 80, 12, nil)
	press(m, "/")
	typeText(m, "paragraph")
	if n := len(m.reader.search.matches); n != 7 {
		t.Fatalf("%d matches for paragraph, want 7 (the intro has one)", n)
	}
	typeText(m, " 2")
	if n := len(m.reader.search.matches); n != 2 {
		t.Fatalf("%d matches for paragraph 2, want 2", n)
	}
	if _, ok := m.reader.search.cache["paragraph"]; !ok {
		t.Fatal("the shorter query's result was not kept")
	}
	// A capital letter makes the case count, as less's -i does.
	press(m, "esc", "/")
	typeText(m, "PARAGRAPH")
	if n := len(m.reader.search.matches); n != 0 {
		t.Fatalf("%d matches for PARAGRAPH, want none: the note says Paragraph", n)
	}
	press(m, "esc", "/")
	typeText(m, "Paragraph")
	if n := len(m.reader.search.matches); n != 6 {
		t.Fatalf("%d matches for Paragraph, want 6 (not the intro's)", n)
	}
}

func TestSearchUnfoldsToShowAMatch(t *testing.T) {
	m := newTest(t, longNote(3, 2), 80, 12, nil)
	press(m, "Z")
	mustLack(t, m, "Paragraph 3.2")
	press(m, "/")
	typeText(m, "3.2 of")
	press(m, "enter")
	mustContain(t, m, "Paragraph 3.2")
}

func TestHighlightSplitsSpans(t *testing.T) {
	m := newTest(t, "one **two** three\n", 80, 5, nil)
	line := m.reader.pg.line(0)
	ms := []match{{line: 0, start: 2, end: 9}}
	got := highlight(line, ms, 0, 0, m.chrome.match, m.chrome.current)
	if got.Text() != line.Text() {
		t.Fatalf("highlight changed the text: %q", got.Text())
	}
	var hl string
	for _, s := range got {
		if s.Style == m.chrome.current {
			hl += s.Text
		}
	}
	if hl != "e two t" {
		t.Fatalf("highlighted %q, want %q", hl, "e two t")
	}
}

// hiddenNote hides words in a closed details body, an inactive tab, and a
// details block inside an inactive tab, below enough text to scroll.
func hiddenNote() string {
	return longNote(3, 3) + `
:::details{title="Closed"}
Only the zebra lives in here.
:::

:::::tabs
::::tab{label="Shown"}
The shown panel.
::::
::::tab{label="Other"}
The giraffe waits on the other tab.

:::details{title="Inner"}
An okapi hides two levels down.
:::
::::
:::::

Tail text, and one more giraffe out in the open.
`
}

// currentMatch is the text of the current match as drawn on the page.
func currentMatch(t *testing.T, m *Model) (string, int) {
	t.Helper()
	if len(m.reader.search.matches) == 0 {
		t.Fatal("no matches")
	}
	mt := m.reader.search.matches[m.reader.search.current]
	if mt.hidden != nil {
		t.Fatalf("the current match is still hidden: %+v", *mt.hidden)
	}
	r := m.reader.pg.rowOf(mt.line)
	if r < m.reader.top || r >= m.reader.top+m.bodyHeight() {
		t.Fatalf("the current match (line %d, row %d) is off screen (top %d)", mt.line, r, m.reader.top)
	}
	return m.reader.pg.lineText(mt.line)[mt.start:mt.end], mt.line
}

func TestSearchOpensTheClosedDetailsItFindsTextIn(t *testing.T) {
	m := newTest(t, hiddenNote(), 80, 12, nil)
	mustLack(t, m, "zebra")
	press(m, "/")
	typeText(m, "zebra")
	press(m, "enter")
	if got := status(m); !strings.Contains(got, "1/1 matches") {
		t.Fatalf("status %q, want the hidden hit counted", got)
	}
	if word, ln := currentMatch(t, m); word != "zebra" || !strings.Contains(m.reader.pg.lineText(ln), "Only the zebra lives") {
		t.Fatalf("landed on %q in %q", word, m.reader.pg.lineText(ln))
	}
	mustContain(t, m, "▾ Closed", "Only the zebra lives in here.")
}

func TestSearchSwitchesToTheTabItFindsTextIn(t *testing.T) {
	m := newTest(t, hiddenNote(), 80, 12, nil)
	press(m, "/")
	typeText(m, "giraffe")
	press(m, "enter")
	// One hit on the inactive tab (before, in page order), one in the open.
	if got := status(m); !strings.Contains(got, "1/2 matches") {
		t.Fatalf("status %q, want 1/2 matches", got)
	}
	if word, ln := currentMatch(t, m); word != "giraffe" || !strings.Contains(m.reader.pg.lineText(ln), "waits on the other tab") {
		t.Fatalf("landed on %q in %q", word, m.reader.pg.lineText(ln))
	}
	mustContain(t, m, "[Other]", "The giraffe waits on the other tab.")
	mustLack(t, m, "The shown panel.")
	press(m, "n")
	if word, ln := currentMatch(t, m); word != "giraffe" || !strings.Contains(m.reader.pg.lineText(ln), "out in the open") {
		t.Fatalf("n landed on %q in %q", word, m.reader.pg.lineText(ln))
	}
	if got := status(m); !strings.Contains(got, "2/2 matches") {
		t.Fatalf("status %q after n", got)
	}
}

func TestSearchOpensBlocksHiddenInsideHiddenBlocks(t *testing.T) {
	m := newTest(t, hiddenNote(), 80, 12, nil)
	press(m, "/")
	typeText(m, "okapi")
	press(m, "enter")
	if word, ln := currentMatch(t, m); word != "okapi" || !strings.Contains(m.reader.pg.lineText(ln), "two levels down") {
		t.Fatalf("landed on %q in %q", word, m.reader.pg.lineText(ln))
	}
	mustContain(t, m, "[Other]", "▾ Inner", "An okapi hides two levels down.")
}

func TestSearchCountsHiddenHitsWhileTyping(t *testing.T) {
	m := newTest(t, hiddenNote(), 80, 12, nil)
	press(m, "/")
	typeText(m, "the ")
	// n steps through shown and hidden hits alike; every step lands on a
	// shown match.
	press(m, "enter")
	total := len(m.reader.search.matches)
	for i := 0; i < total; i++ {
		if word, _ := currentMatch(t, m); strings.ToLower(word) != "the " {
			t.Fatalf("match %d is %q", i, word)
		}
		press(m, "n")
	}
}
