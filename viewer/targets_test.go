package viewer

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
)

// linkTargets lists the page's link targets.
func linkTargets(m *Model) []target {
	var out []target
	for i := range m.reader.pg.targets {
		if tg := m.reader.pg.target(i); tg.kind == render.FocusLink {
			out = append(out, tg)
		}
	}
	return out
}

// drawn returns the text a target's ranges cover, one piece per line.
func drawn(m *Model, tg target) []string {
	var out []string
	for _, r := range tg.ranges {
		out = append(out, m.reader.pg.lineText(r.Line)[r.From:r.To])
	}
	return out
}

func atLevel(l ansi.Level) func(*Options) {
	return func(o *Options) { o.Level = l }
}

func TestCodeThatReadsLikeALinkIsNeverOne(t *testing.T) {
	src := "Code `(https://a.example)` and `https://a.example` beside [the real one](https://a.example).\n"
	for _, l := range []ansi.Level{ansi.None, ansi.Color16, ansi.TrueColor} {
		t.Run(l.String(), func(t *testing.T) {
			m := newTest(t, src, 120, 10, atLevel(l))
			links := linkTargets(m)
			if len(links) != 1 {
				t.Fatalf("%d link targets, want 1: %+v", len(links), links)
			}
			got := strings.Join(drawn(m, links[0]), "")
			if !strings.HasPrefix(got, "the real one") || strings.Contains(got, "Code") {
				t.Fatalf("the link target covers %q", got)
			}
			press(m, "tab")
			first, _ := m.reader.focused()
			press(m, "tab")
			again, _ := m.reader.focused()
			if first.ranges[0] != again.ranges[0] {
				t.Fatalf("a second tab stop at %+v after %+v", again.ranges, first.ranges)
			}
		})
	}
}

func TestWrappedLinkIsOneTabStop(t *testing.T) {
	src := "Before [a link whose text is long enough to wrap](https://b.example) after.\n"
	for _, l := range []ansi.Level{ansi.None, ansi.TrueColor} {
		t.Run(l.String(), func(t *testing.T) {
			m := newTest(t, src, 30, 10, atLevel(l))
			links := linkTargets(m)
			if len(links) != 1 {
				t.Fatalf("%d link targets, want 1: %+v", len(links), links)
			}
			pieces := drawn(m, links[0])
			if len(pieces) < 2 {
				t.Fatalf("the wrapped link covers %q, want a piece on each line", pieces)
			}
			if got := strings.Join(strings.Fields(strings.Join(pieces, " ")), " "); !strings.HasPrefix(got, "a link whose text is long enough to wrap") {
				t.Fatalf("the link's pieces read %q", got)
			}
			press(m, "tab")
			if l == ansi.None {
				return
			}
			// Every line the link covers is drawn focused.
			frame := strings.Split(m.frame(), "\n")
			marked := 0
			for _, r := range links[0].ranges {
				if strings.Contains(frame[r.Line-m.reader.top], "\x1b[7") || strings.Contains(frame[r.Line-m.reader.top], ";7") {
					marked++
				}
			}
			if marked != len(links[0].ranges) {
				t.Fatalf("%d of the link's %d lines are drawn focused:\n%s", marked, len(links[0].ranges), strings.Join(frame, "\n"))
			}
		})
	}
}

func TestLinksInsideContainersAreTargets(t *testing.T) {
	src := strings.Join([]string{
		":::callout{kind=note}",
		"In a [callout link](https://c.example) box.",
		":::",
		"",
		"| name | where |",
		"| ---- | ----- |",
		"| x | [table link](https://t.example) |",
		"",
		"- item with [list link](https://l.example)",
		"  - nested [deep link](https://d.example)",
		"",
		"> quoted [quote link](https://q.example)",
		"",
	}, "\n")
	want := map[string]string{
		"https://c.example": "callout link",
		"https://t.example": "table link",
		"https://l.example": "list link",
		"https://d.example": "deep link",
		"https://q.example": "quote link",
	}
	for _, l := range []ansi.Level{ansi.None, ansi.TrueColor} {
		t.Run(l.String(), func(t *testing.T) {
			m := newTest(t, src, 80, 30, atLevel(l))
			links := linkTargets(m)
			if len(links) != len(want) {
				t.Fatalf("%d link targets, want %d: %+v", len(links), len(want), links)
			}
			for _, tg := range links {
				text, ok := want[tg.url]
				if !ok {
					t.Fatalf("unexpected link target %s", tg.url)
				}
				if got := strings.Join(drawn(m, tg), ""); !strings.HasPrefix(got, text) {
					t.Errorf("the target of %s covers %q, want it to start with %q", tg.url, got, text)
				}
			}
		})
	}
}

func TestMatchesAreMarkedWithoutColor(t *testing.T) {
	src := "A needle here, [a link](https://n.example) and a needle there.\n"
	m := newTest(t, src, 80, 8, atLevel(ansi.None))
	press(m, "/")
	typeText(m, "needle")
	press(m, "enter")
	body := strings.Split(m.frame(), "\n")[0]
	current := "\x1b[1;4;7mneedle"
	other := "\x1b[7mneedle"
	if strings.Count(body, current) != 1 || strings.Count(body, other) != 1 {
		t.Fatalf("the current match and the other are not told apart without color: %q", body)
	}
	// Only the viewer's own attributes: no color, no hyperlink.
	plain := strings.NewReplacer("\x1b[1;4;7m", "", "\x1b[7m", "", "\x1b[0m", "", "\x1b[m", "").Replace(body)
	if strings.Contains(plain, "\x1b") {
		t.Fatalf("a sequence besides the marks: %q", body)
	}
	if xstrip(body) != "A needle here, a link (https://n.example) and a needle there." {
		t.Fatalf("the marked line reads %q", xstrip(body))
	}
}

// At every color level the current match and the other matches are
// drawn differently from each other and from the text around them.
func TestCurrentAndOtherMatchesDifferAtEveryLevel(t *testing.T) {
	for _, level := range []ansi.Level{ansi.None, ansi.Color16, ansi.Color256, ansi.TrueColor} {
		m := newTest(t, "A needle here and a needle there.\n", 80, 8, atLevel(level))
		press(m, "/")
		typeText(m, "needle")
		press(m, "enter")
		body := strings.Split(m.frame(), "\n")[0]
		current := m.chrome.encode("needle", m.chrome.current)
		other := m.chrome.encode("needle", m.chrome.match)
		if level == ansi.None {
			// The viewer's own attributes, as TestMatchesAreMarkedWithoutColor has them.
			current, other = "\x1b[1;4;7mneedle", "\x1b[7mneedle"
		}
		if current == other || current == "needle" || other == "needle" {
			t.Errorf("%s: current %q and other %q matches are not told apart", level, current, other)
			continue
		}
		if strings.Count(body, current) != 1 || strings.Count(body, other) != 1 {
			t.Errorf("%s: the line does not show one current (%q) and one other (%q) match: %q", level, current, other, body)
		}
	}
}
