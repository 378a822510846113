package render

import (
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

func TestCodeBlockContinuationIsMarked(t *testing.T) {
	long := "abcdefghijklmnopqrstuvwxyz0123456789"
	cases := []struct {
		width int
		want  string
	}{
		{20, "╭───────────────────\n│ abcdefghijklmnopqr\n│ ↪ stuvwxyz01234567\n│ ↪ 89\n│ next\n╰───────────────────"},
		// Below the indent threshold the marker takes a cell of its own.
		{8, "abcdefgh\n↪ijklmno\n↪pqrstuv\n↪wxyz012\n↪3456789\nnext"},
	}
	for _, c := range cases {
		got := drawText(t, "```\n"+long+"\nnext\n```", c.width, nil)
		if got != c.want {
			t.Errorf("width %d:\ngot\n%s\nwant\n%s", c.width, got, c.want)
		}
	}
	// Highlighted code marks its continuations in the dim style too.
	page := Layout(Parse([]byte("```go\nvar x = \""+long+"\"\n```")), Options{Width: 24, Level: ansi.TrueColor, Theme: theme.Dark})
	if len(page.Lines) != 5 || page.Lines[2][1].Text != "↪ " || page.Lines[2][1].Style != NewStyles(theme.Dark).Dim {
		t.Fatalf("highlighted continuation not marked: %q", Encode(page))
	}
}

// Encode renders a page's lines for failure messages.
func Encode(p *Page) string { return string(ansi.Encode(p.Lines, ansi.None)) }

func TestEmptyCodeBlockDrawsNothing(t *testing.T) {
	for _, src := range []string{"a\n\n```\n```\n\nb", "a\n\n```go\n```\n\nb", "a\n\n```\n\n```\n\nb"} {
		if got := drawText(t, src, 40, nil); got != "a\n\nb" {
			t.Errorf("%q drew\n%s", src, got)
		}
	}
}

func TestEmptyValueLabelHasNoHint(t *testing.T) {
	if got := drawText(t, "see :value[] here", 80, nil); got != "see {value} here" {
		t.Fatalf("got %q", got)
	}
	page := Layout(Parse([]byte(":value[]")), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	if len(page.Lines) != 1 || len(page.Lines[0]) != 1 || page.Lines[0][0].Style != NewStyles(theme.Dark).Dim {
		t.Fatalf("want one dim span, got %#v", page.Lines)
	}
	// Other inline components report the hint as a diagnostic, never on
	// the page.
	page = Layout(Parse([]byte(":badge[]{text=x}")), Options{Width: 120, Level: ansi.None, Theme: theme.Dark})
	if got := page.Lines[0].Text(); strings.Contains(got, "no content") || len(page.Diagnostics) != 1 || !strings.Contains(page.Diagnostics[0], "`badge` has no content") {
		t.Fatalf("badge: %q, diagnostics %q", got, page.Diagnostics)
	}
}

func TestFitWrappersDrawBoxesAtNaturalWidth(t *testing.T) {
	card := ":::card{title=\"Fit\"}\nHi.\n:::\n"
	box := []string{"┌─ Fit ───┐", "│ Hi.     │", "└─────────┘"}
	pad := func(n int) []string {
		out := make([]string, len(box))
		for i, ln := range box {
			out[i] = strings.Repeat(" ", n) + ln
		}
		return out
	}
	cases := []struct {
		src  string
		want []string
	}{
		{"::::center{width=fit}\n" + card + "::::", pad(14)},
		{"::::right{width=fit}\n" + card + "::::", pad(29)},
		{"::::left{width=fit}\n" + card + "::::", pad(0)},
		{"::::fit\n" + card + "::::", pad(0)},
		{"::::fit{align=center}\n" + card + "::::", pad(14)},
		{"::::fit{align=right}\n" + card + "::::", pad(29)},
		// A width the child sets itself wins over the wrapper's fit.
		{"::::center{width=fit}\n:::card{title=\"Fit\" width=narrow}\nHi.\n:::\n::::", nil},
	}
	for _, c := range cases {
		got := drawText(t, c.src, 40, nil)
		if c.want == nil {
			if !strings.Contains(got, "┌─ Fit ────────────┐") {
				t.Errorf("%q: narrow card lost its width:\n%s", c.src, got)
			}
			continue
		}
		if want := strings.Join(c.want, "\n"); got != want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", c.src, got, want)
		}
	}
	// The fit reaches only the wrapper's direct components: a card inside
	// a full-width card keeps the full inner width.
	got := drawText(t, "::::center{width=fit}\n:::card{title=\"Out\"}\n::card\n:::\n::::", 40, nil)
	if !strings.Contains(got, "┌─ Out ───┐") {
		t.Fatalf("outer card not fit:\n%s", got)
	}
}

// nestedCards is n cards, each inside the previous one.
func nestedCards(n int, attrs string) string {
	var b strings.Builder
	for i := n; i > 0; i-- {
		b.WriteString(strings.Repeat(":", i+2) + "card{title=c" + attrs + "}\n")
	}
	b.WriteString("deep text that wraps over a few lines of the innermost card\n")
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat(":", i+2) + "\n")
	}
	return b.String()
}

func TestNestedFramesStayWithinWidth(t *testing.T) {
	for _, src := range []string{
		nestedCards(50, ""),
		nestedCards(50, " width=fit"),
		strings.Repeat(":::card{title=x}\n", 50) + "deep\n",
		strings.Repeat(":::callout\n", 50) + "deep\n",
		strings.Repeat("> ", 50) + strings.Repeat(":::card\n", 50) + "deep\n",
	} {
		for width := 1; width <= 120; width++ {
			draw(t, src, width, nil, nil)
		}
	}
}

// layoutTime parses and lays out src once and returns the layout time.
func layoutTime(src string) (time.Duration, *Page) {
	d := Parse([]byte(src))
	start := time.Now()
	p := Layout(d, Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	return time.Since(start), p
}

// quickestLayout is the least of n layoutTime runs of src, with the page
// of the last.
func quickestLayout(src string, n int) (time.Duration, *Page) {
	best, page := layoutTime(src)
	for range n - 1 {
		d, p := layoutTime(src)
		best, page = min(best, d), p
	}
	return best, page
}

func TestDeepNestingLaysOutInLinearTime(t *testing.T) {
	// Timed against a tenth of the nesting in the same run, so a loaded
	// machine slows both: linear work takes about 10 times as long, and
	// quadratic work 100 times.
	// The quickest of a few runs each, so one preemption does not decide.
	small, _ := quickestLayout(strings.Repeat(":::card{title=x}\n", 1000)+"deep\n", 5)
	elapsed, page := quickestLayout(strings.Repeat(":::card{title=x}\n", 10000)+"deep\n", 3)
	if elapsed > 30*small+100*time.Millisecond {
		t.Errorf("10000 nested cards took %v, 1000 took %v", elapsed, small)
	}
	if n := len(page.Diagnostics); n != 1 {
		t.Errorf("want one diagnostic for the flattened nesting, got %q", page.Diagnostics)
	}
}

func TestNestedFitBoxesLayOutTheirContentOncePerLevel(t *testing.T) {
	// Nested fit boxes measure their bodies; past the first level they
	// must not double the work at every level. The work is counted in
	// allocations, which a loaded machine does not change: a layout of
	// the content per level is about depth times the plain nesting's,
	// and doubling would be 2^depth times.
	const depth = 12
	body := strings.Repeat("a paragraph of ordinary words that wraps over the lines of a box\n\n", 400)
	fitNested, plainNested := body, body
	for i := 3; i < 3+depth; i++ {
		c := strings.Repeat(":", i)
		fitNested = c + "callout{width=fit}\n" + fitNested + c + "\n"
		plainNested = c + "callout\n" + plainNested + c + "\n"
	}
	opt := Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark}
	fitDoc, plainDoc := Parse([]byte(fitNested)), Parse([]byte(plainNested))
	fit := testing.AllocsPerRun(3, func() { Layout(fitDoc, opt) })
	plain := testing.AllocsPerRun(3, func() { Layout(plainDoc, opt) })
	if fit > 2*depth*plain {
		t.Errorf("%d nested fit callouts allocated %.0f times, %.0f without fit", depth, fit, plain)
	}
}

func TestOrderedListKeepsItsDelimiter(t *testing.T) {
	if got := drawText(t, "1) one\n2) two", 40, nil); got != "1) one\n2) two" {
		t.Errorf("got %q", got)
	}
	if got := drawText(t, "9. nine\n10. ten", 40, nil); got != " 9. nine\n10. ten" {
		t.Errorf("got %q", got)
	}
}

func TestEmailAutolinksPrintTheAddress(t *testing.T) {
	src := "<person@example.com> and bare other@example.com here"
	if got := drawText(t, src, 80, nil); got != "person@example.com and bare other@example.com here" {
		t.Errorf("got %q", got)
	}
	page := Layout(Parse([]byte(src)), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	if sp := page.Lines[0][0]; sp.Text != "person@example.com" || sp.Link != "mailto:person@example.com" {
		t.Errorf("colored email link is %+v", sp)
	}
}

func TestLinkDestinationSpacesAreEncoded(t *testing.T) {
	if got := drawText(t, "[x](<https://example.com/with space>)", 80, nil); got != "x (https://example.com/with%20space)" {
		t.Errorf("got %q", got)
	}
	// Not an autolink: the text stays as written.
	if got := drawText(t, "<https://example.com/with space>", 80, nil); got != "<https://example.com/with space>" {
		t.Errorf("got %q", got)
	}
}

func TestCenterFitKeepsCalloutStraight(t *testing.T) {
	got := drawText(t, "::::center{width=fit}\n:::callout\nCentered fit callout.\n:::\n::::", 40, nil)
	want := "        ▌ ℹ Info\n        ▌ Centered fit callout."
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// TestJoinedFramesHoldMaxJoinedFrames: the frame constants are as long
// as joinFrame takes them to be.
func TestJoinedFramesHoldMaxJoinedFrames(t *testing.T) {
	if leftFrames != strings.Repeat("┆ ", maxJoinedFrames) || rightFrames != strings.Repeat(" ┆", maxJoinedFrames) {
		t.Error("leftFrames or rightFrames is not maxJoinedFrames edges")
	}
}

// TestCodeLinesBreakBetweenWords: a long code line is cut where a word
// ends, so every word of it reads whole on one line, and a word longer
// than the line is cut between clusters.
func TestCodeLinesBreakBetweenWords(t *testing.T) {
	ln := ansi.Line{{Text: `curl -s https://api.example.com/latest | grep "browser_download_url" | cut -d: -f2`}}
	parts := breakLine(ln, 30, 26)
	var joined strings.Builder
	for i, p := range parts {
		w := 30
		if i > 0 {
			w = 26
		}
		if p.Width() > w {
			t.Errorf("piece %d %q is %d wide, over %d", i, p.Text(), p.Width(), w)
		}
		joined.WriteString(p.Text())
	}
	if joined.String() != ln.Text() {
		t.Fatalf("pieces %q lose text", joined.String())
	}
	for _, word := range []string{"curl", "https", "api", "example", "latest", "grep", "browser_download_url", "cut", "f2"} {
		found := false
		for _, p := range parts {
			found = found || strings.Contains(p.Text(), word)
		}
		if !found {
			t.Errorf("%q is cut across pieces: %v", word, parts)
		}
	}
	long := breakLine(ansi.Line{{Text: strings.Repeat("x", 70)}}, 30, 26)
	if len(long) != 3 || long[0].Width() != 30 || long[1].Width() != 26 {
		t.Errorf("a word longer than the line: %v", long)
	}
}
