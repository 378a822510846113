package render

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// componentNow is the clock of the component tests.
var componentNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// draw lays src out at width with no color and returns the lines as text
// (trailing spaces kept) and the page.
func draw(t *testing.T, src string, width int, values value.Values, live *LiveState) ([]string, *Page) {
	t.Helper()
	page := Layout(Parse([]byte(src)), Options{Width: width, Level: ansi.None, Theme: theme.Dark, Values: values, Now: componentNow, Live: live})
	lines := make([]string, len(page.Lines))
	for i, ln := range page.Lines {
		lines[i] = ln.Text()
		if w := ln.Width(); w > width && !strings.ContainsAny(lines[i], "┬┼┴") && strings.Count(lines[i], "│") < 3 {
			t.Errorf("line %d is %d cells wide at width %d: %q", i+1, w, width, lines[i])
		}
	}
	return lines, page
}

// drawText is draw joined into one string, one line per row, trailing
// spaces trimmed.
func drawText(t *testing.T, src string, width int, values value.Values) string {
	t.Helper()
	lines, _ := draw(t, src, width, values, nil)
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

func vals(t *testing.T, m map[string]value.Entry) value.Values { return value.Values(m) }

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestCallout(t *testing.T) {
	cases := []struct {
		src, want string
		diag      string
	}{
		{":::callout\nBody.\n:::", "▌ ℹ Info\n▌ Body.", ""},
		{":::callout{type=warning title=\"Careful\"}\nBody.\n:::", "▌ ▲ Warning\n▌ Careful\n▌ Body.", ""},
		{":::callout{type=danger}\nBody.\n:::", "▌ ✕ Danger\n▌ Body.", ""},
		{":::callout{type=critical}\nBody.\n:::", "▌ ℹ Info\n▌ Body.", `callout: "critical" is not a valid type value (ignored)`},
		{":::callout{text=right}\nBody.\n:::", "▌ ℹ Info\n▌ " + strings.Repeat(" ", 33) + "Body.", ""},
		{":::callout{text=middle}\nBody.\n:::", "▌ ℹ Info\n▌ Body.", `callout: "middle" is not a valid text value (ignored)`},
		{":::callout{type}\nBody.\n:::", "▌ ℹ Info\n▌ Body.", ""},
		{":::callout\nOne.\n\nTwo.\n:::", "▌ ℹ Info\n▌ One.\n▌\n▌ Two.", ""},
		{":::callout{width=fit}\nA longer body line.\n:::", "▌ ℹ Info\n▌ A longer body line.", ""},
		{":::callout{width=fit align=right}\nShort.\n:::", strings.Repeat(" ", 40-ansi.Width("▌ Short.")) + "▌ ℹ Info\n" + strings.Repeat(" ", 40-ansi.Width("▌ Short.")) + "▌ Short.", ""},
	}
	for _, c := range cases {
		got := drawText(t, c.src, 40, nil)
		if got != c.want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", c.src, got, c.want)
		}
		_, page := draw(t, c.src, 40, nil, nil)
		if c.diag != "" && (len(page.Diagnostics) != 1 || page.Diagnostics[0] != c.diag) {
			t.Errorf("%q: diagnostics %q, want %q", c.src, page.Diagnostics, c.diag)
		}
		if c.diag == "" && len(page.Diagnostics) != 0 {
			t.Errorf("%q: unexpected diagnostics %q", c.src, page.Diagnostics)
		}
	}
}

func TestCalloutBarAndColors(t *testing.T) {
	page := Layout(Parse([]byte(":::callout{type=danger title=T}\nA body long enough to wrap over lines.\n:::")),
		Options{Width: 20, Level: ansi.TrueColor, Theme: theme.Dark})
	danger := NewStyles(theme.Dark).Danger
	for i, ln := range page.Lines {
		if ln[0].Text != "▌ " || ln[0].Style != danger {
			t.Errorf("line %d does not start with the danger bar: %+v", i, ln[0])
		}
	}
	if len(page.Lines) < 4 {
		t.Fatalf("body did not wrap: %d lines", len(page.Lines))
	}
	if !page.Lines[1][1].Style.Bold || page.Lines[1][1].Text != "T" {
		t.Errorf("title line not bold: %+v", page.Lines[1])
	}
}

func TestCard(t *testing.T) {
	cases := []struct {
		src   string
		width int
		want  string
	}{
		{":::card{title=\"Hi\"}\nBody.\n:::", 20, "┌─ Hi ─────────────┐\n│ Body.            │\n└──────────────────┘"},
		{":::card\nBody.\n:::", 12, "┌──────────┐\n│ Body.    │\n└──────────┘"},
		{":::card{title=\"Hi\" width=fit}\nBody.\n:::", 40, "┌─ Hi ───┐\n│ Body.  │\n└────────┘"},
		{":::card{width=fit}\nx\n:::", 80, "┌" + strings.Repeat("─", 38) + "┐\n│ x" + strings.Repeat(" ", 36) + "│\n└" + strings.Repeat("─", 38) + "┘"},
		{":::card{width=narrow align=right}\nx\n:::", 40, strings.Repeat(" ", 20) + "┌" + strings.Repeat("─", 18) + "┐\n" + strings.Repeat(" ", 20) + "│ x" + strings.Repeat(" ", 16) + "│\n" + strings.Repeat(" ", 20) + "└" + strings.Repeat("─", 18) + "┘"},
		{":::card{text=center}\nab\n:::", 10, "┌────────┐\n│   ab   │\n└────────┘"},
		{":::card{text=\"Hey\"}\nbody\n:::", 22, "┌────────────────────┐\n│ body               │\n└────────────────────┘"},
		{":::card{title=\"A very long title\"}\nx\n:::", 16, "┌─ A very lo… ─┐\n│ x            │\n└──────────────┘"},
		{"::::card{title=O}\n:::card{title=I}\nin\n:::\n::::", 14, "┌─ O ────────┐\n│ ┌─ I ────┐ │\n│ │in      │ │\n│ └────────┘ │\n└────────────┘"},
		// Under eight cells of text a card keeps them all for its text.
		{":::card\nab\n:::", 11, "┌─────────┐\n│ab       │\n└─────────┘"},
	}
	for _, c := range cases {
		if got := drawText(t, c.src, c.width, nil); got != c.want {
			t.Errorf("%q at %d:\ngot\n%s\nwant\n%s", c.src, c.width, got, c.want)
		}
	}
}

func TestInlineComponents(t *testing.T) {
	cases := []struct {
		src, want string
	}{
		{"A :badge[new] b", "A [new] b"},
		{"A :badge[new]{variant=odd} b", "A [new] b"},
		{"Press :kbd[Ctrl]+:kbd[C].", "Press [Ctrl]+[C]."},
		{"::badge[leaf]{variant=success}", "[leaf]"},
	}
	for _, c := range cases {
		if got := drawText(t, c.src, 80, nil); got != c.want {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
	page := Layout(Parse([]byte("A :badge[ok]{variant=success} :kbd[K]")), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark})
	st := NewStyles(theme.Dark)
	var pill, key bool
	for _, s := range page.Lines[0] {
		if s.Text == "ok" && s.Style.Inverse && s.Style.FG == st.Success.FG {
			pill = true
		}
		if s.Text == "K" && s.Style.Bold {
			key = true
		}
	}
	if !pill || !key {
		t.Errorf("badge inverse in success color %v, kbd bold %v: %+v", pill, key, page.Lines[0])
	}
	if got := page.Lines[0].Text(); got != "A  ok  [K]" {
		t.Errorf("colored badge text %q", got)
	}
}

func TestDetailsStaticAndLive(t *testing.T) {
	src := ":::details{title=\"More\"}\nHidden body.\n:::\n\n:::details{open}\nOpen body.\n:::"
	if got, want := drawText(t, src, 60, nil), "▸ More (collapsible section, shown expanded)\n  Hidden body.\n\n▾ Details (collapsible section, shown expanded)\n  Open body."; got != want {
		t.Errorf("static:\n%s\nwant\n%s", got, want)
	}
	lines, page := draw(t, src, 60, nil, &LiveState{Focus: 0})
	got := strings.Join(lines, "\n")
	if want := "› ▸ More  enter to open\n\n  ▾ Details\n  Open body."; got != want {
		t.Errorf("live:\n%s\nwant\n%s", got, want)
	}
	if len(page.Focusables) != 2 || page.Focusables[0].Kind != FocusDetails || page.Focusables[1].Line != 2 || page.Focusables[1].EndLine != 4 {
		t.Errorf("focusables %+v", page.Focusables)
	}
	lines, _ = draw(t, src, 60, nil, &LiveState{Focus: 1, Open: map[BlockID]bool{0: true, 1: false}})
	if want := "  ▾ More\n  Hidden body.\n\n› ▸ Details  enter to open"; strings.Join(lines, "\n") != want {
		t.Errorf("live toggled:\n%s\nwant\n%s", strings.Join(lines, "\n"), want)
	}
}

func TestTabsStaticAndLive(t *testing.T) {
	src := "::::tabs\n:::tab{label=One}\nFirst body.\n:::\n:::tab{label=Two}\nSecond body.\n:::\n:::tab\nThird.\n:::\n::::"
	if got, want := drawText(t, src, 60, nil), "One (active)\nFirst body.\n\nTwo\nSecond body.\n\nTab\nThird."; got != want {
		t.Errorf("static:\n%s\nwant\n%s", got, want)
	}
	lines, page := draw(t, src, 60, nil, &LiveState{Focus: 0, ActiveTab: map[BlockID]int{0: 1}})
	// The panel starts under the strip's first label, not under the
	// focus marker.
	if want := "› One  [Two]  Tab\n  Second body."; strings.Join(lines, "\n") != want {
		t.Errorf("live:\n%s\nwant\n%s", strings.Join(lines, "\n"), want)
	}
	f := page.Focusables
	if len(f) != 1 || f[0].Kind != FocusTabs || f[0].Label != "Two" || strings.Join(f[0].Panels, ",") != "One,Two,Tab" || f[0].EndLine != 2 {
		t.Errorf("focusables %+v", f)
	}
	lines, _ = draw(t, src, 60, nil, &LiveState{Focus: -1, ActiveTab: map[BlockID]int{0: 9}})
	if want := "  [One]  Two  Tab\n  First body."; strings.Join(lines, "\n") != want {
		t.Errorf("live out of range:\n%s", strings.Join(lines, "\n"))
	}
	if got := drawText(t, ":::tab{label=Solo}\nBody.\n:::", 40, nil); got != "Solo\nBody." {
		t.Errorf("standalone tab %q", got)
	}
}

func TestInertInsideCallout(t *testing.T) {
	src := "::::callout\n:::details{title=D}\nBody.\n:::\n::::\n\n:::details{title=E}\nOut.\n:::"
	lines, page := draw(t, src, 60, nil, &LiveState{Focus: 0})
	got := strings.Join(lines, "\n")
	if !strings.Contains(got, "▸ D (collapsible section, shown expanded)") || !strings.Contains(got, "› ▸ E") {
		t.Errorf("details in a callout should be static and the outer one live:\n%s", got)
	}
	if len(page.Focusables) != 1 || page.Focusables[0].Label != "E" || page.Focusables[0].ID != 0 {
		t.Errorf("focusables %+v", page.Focusables)
	}
}

func TestFigure(t *testing.T) {
	cases := []struct {
		src, want, diag string
	}{
		{":::figure{src=dog.png alt=\"A good dog\"}\nA good dog.\n:::", "alt: A good dog\ndog.png\nA good dog.", ""},
		{":::figure{src=\"javascript:alert(1)\"}\ncaption\n:::", "caption", "figure: image source was refused as unsafe and was not shown"},
		{":::figure{src=\" javascript:x\"}\nc\n:::", "c", "figure: image source was refused as unsafe and was not shown"},
		{":::figure{alt=x}\nc\n:::", "alt: x\nc", ""},
		{":::figure{src=\"\"}\nc\n:::", "c", ""},
		{":::figure{src=\"https://example.com/a b.png\"}\nc\n:::", "https://example.com/a b.png\nc", ""},
	}
	for _, c := range cases {
		_, page := draw(t, c.src, 40, nil, nil)
		if got := drawText(t, c.src, 40, nil); got != c.want {
			t.Errorf("%q: got\n%s\nwant\n%s", c.src, got, c.want)
		}
		if strings.Join(page.Diagnostics, "|") != c.diag {
			t.Errorf("%q: diagnostics %q", c.src, page.Diagnostics)
		}
	}
}

func TestRating(t *testing.T) {
	cases := map[string]string{
		"::rating":                       "☆☆☆☆☆",
		"::rating{value=3}":              "★★★☆☆",
		"::rating{value=4 max=10}":       "★★★★☆☆☆☆☆☆",
		"::rating{value=9 max=3}":        "★★★",
		"::rating{value=-2}":             "☆☆☆☆☆",
		"::rating{value=abc max=xyz}":    "☆☆☆☆☆",
		"::rating{value=2.9 max=\"4x\"}": "★★☆☆",
		"::rating{value=1 max=0}":        "★",
		"::rating{value=2 max=100}":      "★★" + strings.Repeat("☆", 18),
		"::rating[Taste]{value=1 max=2}": "Taste ★☆",
	}
	for src, want := range cases {
		if got := drawText(t, src, 40, nil); got != want {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
}

func TestDivider(t *testing.T) {
	cases := []struct {
		src   string
		width int
		want  string
	}{
		{"::divider", 10, "──────────"},
		{"::divider{width=narrow align=right}", 80, strings.Repeat(" ", 40) + strings.Repeat("─", 40)},
		{"::divider{label=Hi}", 12, "──── Hi ────"},
		{"::divider{label=Hi label-align=left}", 12, "── Hi ──────"},
		{"::divider{label=Hi label-align=right}", 12, "────── Hi ──"},
		{"::divider{variant=dots label=Hi}", 12, "···· Hi ····"},
		{"::divider{variant=ornament}", 11, "     ❖"},
		{"::divider{variant=ornament label=Hi label-align=right}", 12, "      ❖ Hi ❖"},
		{"::divider{variant=wavy}", 30, strings.Repeat("─", 30)},
		{"::divider{label-align=top}", 30, strings.Repeat("─", 30)},
		{"::divider{width=fit}", 80, "──────────"},
		{"::divider{width=fit label=Hi}", 80, "─ Hi ─"},
		{"::divider{label=Hi label-align=left}", 7, "─ Hi ──"},
		{"::divider{label=Hello}", 8, "─ Hel… ─"},
	}
	for _, c := range cases {
		if got := drawText(t, c.src, c.width, nil); got != c.want {
			t.Errorf("%s at %d: got %q, want %q", c.src, c.width, got, c.want)
		}
	}
}

func TestStat(t *testing.T) {
	v := vals(t, map[string]value.Entry{
		"stars":  {Value: raw(`18234`), Status: value.Fresh},
		"obj":    {Value: raw(`{"value":0.5,"label":"Rate","delta":"+1","trend":"up"}`), Status: value.Stale},
		"broken": {Status: value.Error, FailureKind: "capability-denied"},
	})
	cases := map[string]string{
		"::stat{data=stars label=Stars format=compact}":                               "Stars\n18.2k",
		"::stat{value=1234567 label=Downloads delta=\"+12%\" trend=up format=number}": "Downloads\n1,234,567  +12%",
		"::stat{label=Empty}":                              "Empty\n—",
		"::stat{data=obj format=percent}":                  "Rate\n50%  +1 (stale)",
		"::stat{data=obj label=Mine delta=\"-2\" value=7}": "Mine\n7  -2 (stale)",
		"::stat{data=broken label=B}":                      "B\n— (needs permission)",
		"::stat{data=absent label=M}":                      "M\n—",
		"::stat{value=1 trend=sideways delta=d}":           "1  d",
		"::stat{value=1 format=fancy}":                     "1",
		"::stat{value=\"**x**\"}":                          "**x**",
		"::stat{value=2.5 decimals=2 format=number}":       "2.50",
	}
	for src, want := range cases {
		if got := drawText(t, src, 60, v); got != want {
			t.Errorf("%s:\ngot  %q\nwant %q", src, got, want)
		}
	}
	page := Layout(Parse([]byte("::stat{value=1 delta=x trend=down}\n\n::stat{data=broken}")), Options{Width: 40, Level: ansi.TrueColor, Theme: theme.Dark, Values: v})
	st := NewStyles(theme.Dark)
	var down, failure bool
	for _, ln := range page.Lines {
		for _, s := range ln {
			down = down || (s.Text == "x" && s.Style == st.Danger)
			failure = failure || (strings.Contains(s.Text, "permission") && s.Style == st.Danger)
		}
	}
	if !down || !failure {
		t.Errorf("down delta in danger %v, failure suffix in danger %v", down, failure)
	}
}

func TestProgress(t *testing.T) {
	v := vals(t, map[string]value.Entry{
		"build": {Value: raw(`{"value":42,"max":60}`), Status: value.Fresh},
		"n":     {Value: raw(`0.25`), Status: value.Stale},
		"bad":   {Status: value.Error, FailureKind: "limit"},
	})
	cases := map[string]string{
		"::progress{value=0.3}":                           "█████████░░░░░░░░░░░░░░░░░░░░░ 30%",
		"::progress{value=7 max=10 label=Setup}":          "Setup █████████████████████░░░░░░░░░ 70%",
		"::progress{data=build label=Build}":              "Build █████████████████████░░░░░░░░░ 70%",
		"::progress{data=build value=60}":                 "██████████████████████████████ 100%",
		"::progress{value=5 max=0}":                       "██████████████████████████████ 100%",
		"::progress{value=-1}":                            "░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░ 0%",
		"::progress{value=0.5 format=percent decimals=2}": "███████████████░░░░░░░░░░░░░░░ 50.00%",
		"::progress{data=n}":                              "████████░░░░░░░░░░░░░░░░░░░░░░ 25% (stale)",
		"::progress{data=bad}":                            "░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░ — (limit exceeded)",
	}
	for src, want := range cases {
		if got := drawText(t, src, 80, v); got != want {
			t.Errorf("%s:\ngot  %q\nwant %q", src, got, want)
		}
	}
	if got := drawText(t, "::progress{value=0.5 label=Load}", 20, nil); got != "Load ██████░░░░░ 50%" {
		t.Errorf("narrow progress %q", got)
	}
	if got := drawText(t, "::progress{value=1 label=\"A long label\"}", 20, nil); got != "A long label ███\n100%" {
		t.Errorf("minimum bar is 3 cells: %q", got)
	}
}

func TestChart(t *testing.T) {
	many := make([]string, 250)
	for i := range many {
		many[i] = "1"
	}
	v := vals(t, map[string]value.Entry{
		"spark":  {Value: raw(`[1,"2",{"value":3},5,8,"x",13,21]`), Status: value.Fresh},
		"series": {Value: raw(`[{"value":4,"label":"Mon"},{"value":-8,"label":"Tue"}]`), Status: value.Stale},
		"many":   {Value: raw("[" + strings.Join(many, ",") + "]"), Status: value.Fresh},
		"none":   {Value: raw(`"nope"`), Status: value.Fresh},
	})
	cases := []struct {
		src   string
		width int
		want  string
	}{
		{"::chart{values=\"1,3,2,5,4,8,6\"}", 40, "1 ▁▃▂▅▄█▆ 8"},
		{"::chart{values=\"0.123,0.456\"}", 40, "0.12 ▁█ 0.46"},
		{"::chart{values=\"2,2\"}", 40, "2 ▄▄ 2"},
		{"::chart{data=spark values=\"9,9\"}", 40, "1 ▁▁▂▂▃▅█ 21"},
		{"::chart{kind=bar values=\"3,6\"}", 12, "3 █████\n6 ██████████"},
		{"::chart{kind=bar data=series}", 14, "Mon █████\nTue ██████████\n(stale)"},
		{"::chart{values=\"\"}", 40, "no data"},
		{"::chart{data=none}", 40, "no data"},
		{"::chart{data=gone}", 40, "no data"},
		{"::chart{kind=pie values=\"1,2\"}", 40, "1 ▁█ 2"},
		{"::chart{values=\"1,2,3,4,5,6,7,8,9,10,11,12\"}", 12, "1 ▁▂▃▄▅▆█ 12"},
	}
	for _, c := range cases {
		if got := drawText(t, c.src, c.width, v); got != c.want {
			t.Errorf("%s at %d:\ngot  %q\nwant %q", c.src, c.width, got, c.want)
		}
	}
	lines, _ := draw(t, "::chart{kind=bar data=many}", 40, v, nil)
	if len(lines) != maxChartPoints {
		t.Errorf("bar chart of 250 points drew %d lines, want %d", len(lines), maxChartPoints)
	}
}

func TestTable(t *testing.T) {
	v := vals(t, map[string]value.Entry{
		"users":  {Value: raw(`[{"name":"Ada","role":"Analyst"},{"name":"Linus","since":1991}]`), Status: value.Fresh},
		"matrix": {Value: raw(`[[1,2],[3]]`), Status: value.Fresh},
		"tags":   {Value: raw(`["go","lua"]`), Status: value.Fresh},
		"repo":   {Value: raw(`{"name":"markii","stars":18234}`), Status: value.Stale},
		"prices": {Value: raw(`[{"p":3.5},{"p":1234.25},{"p":"n/a"}]`), Status: value.Fresh},
		"broken": {Status: value.Error, FailureKind: "tier-blocked"},
		"scalar": {Value: raw(`5`), Status: value.Fresh},
		"md":     {Value: raw(`[{"**k**":"*v*"}]`), Status: value.Fresh},
	})
	cases := []struct {
		src   string
		width int
		want  string
	}{
		{"::table{data=users columns=\"name,role\" caption=\"Team\"}", 40, "Team\n┌───────┬─────────┐\n│ name  │ role    │\n├───────┼─────────┤\n│ Ada   │ Analyst │\n│ Linus │         │\n└───────┴─────────┘"},
		{"::table{data=users}", 40, "┌───────┬─────────┬───────┐\n│ name  │ role    │ since │\n├───────┼─────────┼───────┤\n│ Ada   │ Analyst │       │\n│ Linus │         │ 1991  │\n└───────┴─────────┴───────┘"},
		{"::table{data=matrix}", 40, "┌───┬───┐\n│ 1 │ 2 │\n│ 3 │   │\n└───┴───┘"},
		{"::table{data=tags}", 40, "┌─────┐\n│ go  │\n│ lua │\n└─────┘"},
		{"::table{data=repo}", 40, "┌───────┬────────┐\n│ name  │ markii │\n│ stars │ 18234  │\n└───────┴────────┘\n(stale)"},
		{"::table{data=prices format=number limit=2}", 40, "┌──────────┐\n│ p        │\n├──────────┤\n│ 3.5      │\n│ 1,234.25 │\n└──────────┘"},
		{"::table{data=users columns=\"name,role\" caption=\"Team\" width=narrow align=center}", 80, strings.Repeat(" ", 30) + "Team\n" + strings.Repeat(" ", 30) + "┌───────┬─────────┐"},
		{"::table{data=users columns=\"name,role\" caption=\"Team\"}", 10, "Team\n┌─────┬─────┐\n│ nam │ rol │\n│ e   │ e   │\n├─────┼─────┤\n│ Ada │ Ana │\n│     │ lys │\n│     │ t   │\n│ Lin │     │\n│ us  │     │\n└─────┴─────┘"},
		{"::table{data=nothing caption=\"Team\"}", 40, "Team\nno data"},
		{"::table{data=broken}", 40, "no data (requires manual run)"},
		{"::table{data=scalar}", 40, "no data"},
		{"::table", 40, "no data"},
		{"::table{data=md}", 40, "┌───────┐\n│ **k** │\n├───────┤\n│ *v*   │\n└───────┘"},
		{"::table{data=tags text=right}", 40, "┌─────┐\n│  go │\n│ lua │\n└─────┘"},
		{"::table{data=tags text=justify}", 40, "┌─────┐\n│ go  │\n│ lua │\n└─────┘"},
	}
	for _, c := range cases {
		got := drawText(t, c.src, c.width, v)
		if !strings.HasPrefix(got, c.want) || (!strings.Contains(c.src, "narrow") && got != c.want) {
			t.Errorf("%s at %d:\ngot\n%s\nwant\n%s", c.src, c.width, got, c.want)
		}
	}
}

func TestRowAndCell(t *testing.T) {
	src := "::::row\n:::card{title=L}\nleft\n:::\n:::card{title=R}\nright\n:::\n::::"
	lines, _ := draw(t, src, 80, nil, nil)
	if len(lines) != 3 || ansi.Width(lines[0]) != 79 || !strings.HasPrefix(lines[0], "┌─ L "+strings.Repeat("─", 32)+"┐   ┌─ R ") {
		t.Errorf("two cards side by side, 38 columns each:\n%s", strings.Join(lines, "\n"))
	}
	if got := drawText(t, src, 59, nil); !strings.Contains(got, "┘\n\n┌─ R") {
		t.Errorf("row below 60 columns should stack:\n%s", got)
	}
	grid := drawText(t, ":::row{cols=2}\nA.\n\nB.\n\nC.\n:::", 61, nil)
	if want := "A." + strings.Repeat(" ", 30) + "B.\n\nC."; grid != want {
		t.Errorf("cols=2 grid:\n%q\nwant\n%q", grid, want)
	}
	if got := drawText(t, ":::row{cols=5}\nA.\n\nB.\n:::", 61, nil); got != "A."+strings.Repeat(" ", 30)+"B." {
		t.Errorf("invalid cols: %q", got)
	}
	centered := drawText(t, "::::row{text=center}\n:::cell\nab\n:::\n:::cell\ncd\n:::\n::::", 61, nil)
	if want := strings.Repeat(" ", 13) + "ab" + strings.Repeat(" ", 30) + "cd"; centered != want {
		t.Errorf("text=center row:\n%q\nwant\n%q", centered, want)
	}
	if got := drawText(t, ":::cell{text=right}\nx\n:::", 10, nil); got != "         x" {
		t.Errorf("standalone cell: %q", got)
	}
}

func TestWrappers(t *testing.T) {
	long := "one two three four five six seven eight nine ten eleven twelve"
	cases := []struct {
		src   string
		width int
		want  string
	}{
		{":::center\nab\n:::", 10, "    ab"},
		{":::right\nab\n:::", 10, "        ab"},
		{":::left\nab\n:::", 10, "ab"},
		{":::narrow\n" + long + "\n:::", 80, "one two three four five six seven eight\nnine ten eleven twelve"},
		{":::narrow\n" + long + "\n:::", 30, "one two three four\nfive six seven eight\nnine ten eleven\ntwelve"},
		{":::narrow{align=right}\nab\n:::", 10, "        ab"},
		{":::wide\nab\n:::", 10, "ab"},
		{":::full\nab\n:::", 10, "ab"},
		{":::fit{align=center}\nab\n:::", 10, "    ab"},
		{"::::center{width=narrow}\n" + long + "\n::::", 60, strings.Repeat(" ", 16) + "one two three four five six\n" + strings.Repeat(" ", 16) + "seven eight nine ten eleven\n" + strings.Repeat(" ", 27) + "twelve"},
	}
	for _, c := range cases {
		if got := drawText(t, c.src, c.width, nil); got != c.want {
			t.Errorf("%q at %d:\ngot\n%s\nwant\n%s", c.src, c.width, got, c.want)
		}
	}
}

func TestValueReferences(t *testing.T) {
	v := vals(t, map[string]value.Entry{
		"stars":  {Value: raw(`18234`), Status: value.Fresh},
		"old":    {Value: raw(`"then"`), Status: value.Stale},
		"broken": {Status: value.Error, FailureKind: "limit"},
		"md":     {Value: raw(`"**not bold** \u001b[31m"`), Status: value.Fresh},
		"when":   {Value: raw(`"2026-08-31T12:00:00Z"`), Status: value.Fresh},
	})
	cases := map[string]string{
		"S :value[stars] e":                         "S 18234 e",
		"S :value[stars]{format=compact}":           "S 18.2k",
		"S :value[stars]{format=number decimals=1}": "S 18,234.0",
		"S :value[old]":                             "S then (stale)",
		"S :value[broken]":                          "S {broken} (limit exceeded)",
		"S :value[broken.x]":                        "S {broken.x}",
		"S :value[repo.stars]":                      "S {repo.stars}",
		"S :value[@stars]":                          "S {@stars}",
		"S :value[md]":                              "S **not bold** [31m",
		"S :value[when]{format=relative}":           "S yesterday",
		"S :value[when]{format=date}":               "S Aug 31, 2026",
	}
	for src, want := range cases {
		if got := drawText(t, src, 80, v); got != want {
			t.Errorf("%s: got %q, want %q", src, got, want)
		}
	}
	page := Layout(Parse([]byte(":value[old] :value[broken] :value[gone]")), Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark, Values: v})
	st := NewStyles(theme.Dark)
	want := map[string]ansi.Style{"then": {Underline: true}, "(stale)": st.Dim, "{broken}": st.Limit, "(limit exceeded)": st.Dim, "{gone}": st.Dim}
	for _, s := range page.Lines[0] {
		if w, ok := want[s.Text]; ok {
			if s.Style != w {
				t.Errorf("%q drawn in %+v, want %+v", s.Text, s.Style, w)
			}
			delete(want, s.Text)
		}
	}
	if len(want) != 0 {
		t.Errorf("spans not found: %v in %+v", want, page.Lines[0])
	}
}

func TestPackDiagnostic(t *testing.T) {
	doc := Parse([]byte("---\nuses: [ana, viz]\n---\n\n::ana_timeline\n"))
	if got := packDiagnostic(doc, nil, nil); got != "this note uses packs ana, viz, which are not installed; their components show as unknown-component boxes" {
		t.Errorf("diagnostic %q", got)
	}
	reg := NewStandardRegistry()
	reg.MustRegister(Component{Name: "ana_timeline", Form: FormLeaf, Block: func(c *Context) []ansi.Line { return nil }})
	if got := missingPacks(doc, reg, nil); len(got) != 1 || got[0] != "viz" {
		t.Errorf("missing with ana installed: %v", got)
	}
	if got := packDiagnostic(Parse([]byte("plain")), nil, nil); got != "" {
		t.Errorf("no frontmatter: %q", got)
	}
}

func TestComponentsAtWidthOne(t *testing.T) {
	src := ":::callout{title=T}\nx\n:::\n\n:::card{title=T}\nx\n:::\n\n::divider{label=L}\n\n::progress{value=1 label=L}\n\n::chart{kind=bar values=\"1,2\"}\n\n::chart{values=\"1,2\"}\n\n::table{data=t}\n\n::::row\n:::card\na\n:::\n:::card\nb\n:::\n::::\n\n::::tabs\n:::tab\nx\n:::\n::::\n\n:::details\nx\n:::"
	v := value.Values{"t": {Value: raw(`[{"a":1,"b":2}]`), Status: value.Fresh}}
	for w := 1; w <= 6; w++ {
		for _, live := range []*LiveState{nil, {Focus: 0}} {
			page := Layout(Parse([]byte(src)), Options{Width: w, Level: ansi.TrueColor, Theme: theme.Dark, Values: v, Live: live})
			for _, d := range page.Diagnostics {
				if strings.Contains(d, "failed to render") {
					t.Errorf("width %d: %s", w, d)
				}
			}
		}
	}
}

func TestWidgetIDsStable(t *testing.T) {
	src := "::::tabs\n:::tab{label=A}\na\n:::\n:::tab{label=B}\n## Hidden heading\n\n::details{title=Inner}\n:::\n::::\n\n:::details{title=After}\ny\n:::\n\n## After heading"
	idOf := func(page *Page, label string) BlockID {
		for _, f := range page.Focusables {
			if f.Label == label {
				return f.ID
			}
		}
		return -1
	}
	headingID := func(page *Page) BlockID {
		for _, h := range page.Headings {
			if h.Text == "After heading" {
				return h.ID
			}
		}
		return -1
	}
	_, static := draw(t, src, 60, nil, nil)
	_, hidden := draw(t, src, 60, nil, &LiveState{Focus: -1})
	_, shown := draw(t, src, 60, nil, &LiveState{Focus: -1, ActiveTab: map[BlockID]int{0: 1}})
	_, closed := draw(t, src, 60, nil, &LiveState{Focus: -1, Open: map[BlockID]bool{1: false}})
	for name, page := range map[string]*Page{"static": static, "tab A": hidden, "tab B": shown, "closed": closed} {
		if got := idOf(page, "After"); got != 2 {
			t.Errorf("%s: details after the tabs has ID %d, want 2 (%+v)", name, got, page.Focusables)
		}
		if got := headingID(page); got != 1 {
			t.Errorf("%s: heading after the tabs has ID %d, want 1", name, got)
		}
	}
	if idOf(hidden, "Inner") != -1 {
		t.Errorf("a hidden panel's details is reported as focusable: %+v", hidden.Focusables)
	}
	if idOf(shown, "Inner") != 1 || idOf(static, "Inner") != 1 {
		t.Errorf("inner details IDs: shown %d static %d, want 1", idOf(shown, "Inner"), idOf(static, "Inner"))
	}
}

func TestCellTextInRow(t *testing.T) {
	lines, page := draw(t, "::::row\n:::cell{text=right}\nab\n:::\n:::cell{text=diagonal}\ncd\n:::\n::::", 61, nil, nil)
	got := strings.Join(lines, "\n")
	want := strings.Repeat(" ", 27) + "ab   cd"
	if strings.TrimRight(got, " ") != want {
		t.Errorf("cells in a row:\n%q\nwant\n%q", got, want)
	}
	if len(page.Diagnostics) != 1 || page.Diagnostics[0] != `cell: "diagonal" is not a valid text value (ignored)` {
		t.Errorf("diagnostics %q", page.Diagnostics)
	}
}
