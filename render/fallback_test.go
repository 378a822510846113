package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// A pack component markii cannot draw names its pack in a diagnostic,
// never on the page: the block keeps its content in a box and the inline
// form its text. An ordinary unknown name does not claim a pack, and a
// note whose frontmatter uses a missing pack says so once.
func TestUnknownFallbackNamesThePack(t *testing.T) {
	doc := Parse([]byte("---\nuses: [ana]\n---\n\n::ana_timeline\n\n::Not_a_pack\n\nSee :ana_badge[x] here.\n"))
	page := Layout(doc, Options{Width: 60, Level: ansi.None, Theme: theme.Dark})
	out := string(ansi.Encode(page.Lines, ansi.None))
	if strings.Contains(out, "unknown") || strings.Contains(out, "pack") || !strings.Contains(out, "See x here.") {
		t.Errorf("the page holds a diagnostic or lost the inline text:\n%s", out)
	}
	want := []string{
		"this note uses pack ana, which is not installed; its components show as unknown-component boxes",
		"unknown component `ana_timeline` from pack ana",
		"unknown component `Not_a_pack`",
		"unknown component `ana_badge` from pack ana",
	}
	if strings.Join(page.Diagnostics, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics %q, want %q", page.Diagnostics, want)
	}
}

// A bare text directive no component draws inline, with neither a label
// nor attributes, is text that holds a colon: an emoticon (`:D`), a route
// parameter (`/users/:name`), a block component's name in prose. It
// stays its source text, with no diagnostic, and the listing still holds
// it as a directive. Any other unknown inline directive keeps only its
// text on the page and is reported.
func TestBareDirectivesStayText(t *testing.T) {
	for src, want := range map[string]string{
		"Great :D":                       "Great :D",
		"Oops :P and :O.":                "Oops :P and :O.",
		"Two letters :Dx":                "Two letters :Dx",
		"**bold :D**":                    "bold :D",
		"[link :D](https://a.b/)":        "link :D",
		"Smile :-) stays":                "Smile :-) stays",
		"GET /api/blobs/:digest":         "GET /api/blobs/:digest",
		"Route /users/:name/:repo here":  "Route /users/:name/:repo here",
		"Three letters :Dxy too":         "Three letters :Dxy too",
		"Block :callout in prose":        "Block :callout in prose",
		"Pack :ana_timeline in prose":    "Pack :ana_timeline in prose",
		"Label :D[x] is not":             "Label x is not",
		"Attrs :D{a=1} is not":           "Attrs  is not",
		"Empty attrs :D{} is not":        "Empty attrs  is not",
		"Labelled :digest[sha] is not":   "Labelled sha is not",
		"Block :callout[written] is not": "Block written is not",
		"Known :kbd stays a kbd":         "Known [] stays a kbd",
	} {
		doc := Parse([]byte(src + "\n"))
		page := Layout(doc, Options{Width: 80, Level: ansi.None, Theme: theme.Dark})
		out := string(ansi.Encode(page.Lines, ansi.None))
		if !strings.Contains(out, want) {
			t.Errorf("%q renders %q, want it to contain %q", src, out, want)
		}
		text := !strings.Contains(src, "is not") && !strings.Contains(src, "kbd")
		if text != (len(page.Diagnostics) == 0) {
			t.Errorf("%q: diagnostics %q", src, page.Diagnostics)
		}
	}
	items, _ := Listing(Parse([]byte("Great :D and /users/:name\n")))
	if len(items) != 2 || items[0].Name != "D" || items[1].Name != "name" {
		t.Fatalf("the listing lost a bare directive: %+v", items)
	}
}

// A fallback box lists every attribute as `key: value`, a bare key alone,
// with a value past maxFallbackValue cells cut; reserved width and align
// are placement, not content, and are left out.
func TestUnknownFallbackListsAttributes(t *testing.T) {
	long := strings.Repeat("x", 300)
	doc := Parse([]byte("::data_number[Caption]{value=200 unit=\"10 GB\" flag width=wide align=center long=" + long + "}\n"))
	page := Layout(doc, Options{Width: 400, Level: ansi.None, Theme: theme.Dark})
	out := string(ansi.Encode(page.Lines, ansi.None))
	for _, want := range []string{"┆ Caption ", "┆ value: 200 ", "┆ unit: 10 GB ", "┆ flag ", "┆ long: " + strings.Repeat("x", maxFallbackValue-1) + "… "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"width:", "align:", strings.Repeat("x", maxFallbackValue)} {
		if strings.Contains(out, bad) {
			t.Errorf("output has %q:\n%s", bad, out)
		}
	}
}
