package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
)

// badgeForms are one linked image, a README's badge, in each way a note
// writes it: markdown, inline HTML in a paragraph, and an HTML block.
var badgeForms = map[string]string{
	"markdown":    "[![Build Status](https://ci.example/b/badge.svg)](https://ci.example/actions)\n",
	"inline html": `Build: <a href="https://ci.example/actions"><img src="https://ci.example/b/badge.svg" alt="Build Status"></a>` + "\n",
	"html block":  "<p align=\"center\">\n  <a href=\"https://ci.example/actions\">\n    <img src=\"https://ci.example/b/badge.svg\" alt=\"Build Status\">\n  </a>\n</p>\n",
}

// laidText lays src out at level (one wide line per paragraph) and returns
// its text and every hyperlink target a span carries.
func laidText(t *testing.T, src string, level ansi.Level, showURLs bool) (string, map[string]bool) {
	t.Helper()
	lines := Layout(Parse([]byte(src)), Options{Width: 200, Level: level, ShowURLs: showURLs}).Lines
	var b strings.Builder
	links := map[string]bool{}
	for _, ln := range lines {
		b.WriteString(strings.TrimSpace(ln.Text()))
		b.WriteByte('\n')
		for _, s := range ln {
			if s.Link != "" {
				links[s.Link] = true
			}
		}
	}
	return b.String(), links
}

// TestLinkedImageIsOneLink: an image that is the whole text of a link is
// drawn as its alt text as the link: without hyperlinks the link's
// address follows once and the image's address is not printed; with them
// the label is one hyperlink to the link's target, never to the image.
func TestLinkedImageIsOneLink(t *testing.T) {
	for name, src := range badgeForms {
		text, links := laidText(t, src, ansi.None, false)
		if !strings.Contains(text, "[Build Status] (https://ci.example/actions)") || strings.Contains(text, "badge.svg") || len(links) != 0 {
			t.Errorf("%s, no color: %q (links %v), want the label and the link's address only", name, text, links)
		}
		if got, _ := laidText(t, src, ansi.TrueColor, true); got != text {
			t.Errorf("%s, truecolor with addresses shown: %q, want the no-color text %q", name, got, text)
		}
		for _, level := range []ansi.Level{ansi.Color16, ansi.TrueColor} {
			text, links := laidText(t, src, level, false)
			if !strings.Contains(text, "[Build Status]") || strings.Contains(text, "https://") {
				t.Errorf("%s, %v: %q, want the label and no address", name, level, text)
			}
			if len(links) != 1 || !links["https://ci.example/actions"] {
				t.Errorf("%s, %v: hyperlinks %v, want only the link's target", name, level, links)
			}
		}
	}
}

// TestLinkedImageLabelIsTheHyperlink: every cell of the label carries the
// link, so the whole badge is one hyperlink.
func TestLinkedImageLabelIsTheHyperlink(t *testing.T) {
	lines := Layout(Parse([]byte(badgeForms["markdown"])), Options{Width: 80, Level: ansi.TrueColor}).Lines
	var label strings.Builder
	for _, s := range lines[0] {
		if s.Link == "https://ci.example/actions" {
			label.WriteString(s.Text)
		} else if strings.TrimSpace(s.Text) != "" {
			t.Fatalf("span %q is not in the hyperlink", s.Text)
		}
	}
	if label.String() != "[Build Status]" {
		t.Fatalf("hyperlinked text %q, want [Build Status]", label.String())
	}
}

// TestLinkedImageUnsafeTarget: a javascript: or data: link around an
// image is never a hyperlink and its address is never printed.
func TestLinkedImageUnsafeTarget(t *testing.T) {
	for _, src := range []string{
		"[![Build](https://ci.example/badge.svg)](javascript:alert(1))\n",
		`<a href="javascript:alert(1)"><img src="https://ci.example/badge.svg" alt="Build"></a>` + "\n",
		`<a href="data:text/html,hi"><img src="https://ci.example/badge.svg" alt="Build"></a>` + "\n",
	} {
		for _, level := range []ansi.Level{ansi.None, ansi.TrueColor} {
			text, links := laidText(t, src, level, false)
			if !strings.Contains(text, "[Build]") || strings.Contains(text, "javascript") || strings.Contains(text, "data:") {
				t.Errorf("%q at %v: %q", src, level, text)
			}
			for u := range links {
				if !strings.HasPrefix(u, "https://ci.example/") {
					t.Errorf("%q at %v: hyperlink to %q", src, level, u)
				}
			}
		}
	}
}

// TestLinkedImageMisleadingAlt: a badge whose alt text names another host
// than its link's still says where the link goes.
func TestLinkedImageMisleadingAlt(t *testing.T) {
	text, _ := laidText(t, "[![bank.com](https://x.example/b.svg)](https://evil.example/login)\n", ansi.TrueColor, false)
	if !strings.Contains(text, "(→\u00a0evil.example)") {
		t.Fatalf("%q does not name the real host", text)
	}
}

// TestImageWithoutAltNamesItsFile: an image with no alt text shows a
// stand-in naming its file, sanitized and bounded, never `[]`; linked, the
// stand-in is the link's label.
func TestImageWithoutAltNamesItsFile(t *testing.T) {
	long := strings.Repeat("x", 300) + ".png"
	cases := []struct{ src, want string }{
		{"![](https://raw.example/i/master/fzf-preview.png)\n", "[image: fzf-preview.png] (https://raw.example/i/master/fzf-preview.png)"},
		{`<img src="https://raw.example/i/master/fzf-preview.png?raw=true">` + "\n", "[image: fzf-preview.png] (https://raw.example/i/master/fzf-preview.png?raw=true)"},
		{`<p><img src="shots/my%20shot.png" alt=""></p>` + "\n", "[image: my shot.png] (shots/my%20shot.png)"},
		{"![ ](https://raw.example/)\n", "[image] (https://raw.example/)"},
		{"[![](https://ci.example/b/badge.svg)](https://ci.example/actions)\n", "[image: badge.svg] (https://ci.example/actions)"},
		{`<a href="https://ci.example/actions"><img src="https://ci.example/b/badge.svg"></a>` + "\n", "[image: badge.svg] (https://ci.example/actions)"},
		{"![](https://raw.example/a%1B%5B31m%E2%80%AEgnp.exe)\n", "[image: a[31m⟨U+202E⟩gnp.exe]"},
		{"![](https://raw.example/" + long + ")\n", "[image: " + strings.Repeat("x", imageNameWidth-1) + "…]"},
	}
	for _, c := range cases {
		for _, level := range []ansi.Level{ansi.None, ansi.TrueColor} {
			text, _ := laidText(t, c.src, level, level == ansi.TrueColor)
			if !strings.Contains(text, c.want) || strings.Contains(text, "[]") || strings.ContainsRune(text, 0x1b) {
				t.Errorf("%q at %v: %q, want %q", c.src, level, text, c.want)
			}
		}
	}
}

// TestImagesOtherwiseUnchanged: a standalone image with alt text keeps
// `[alt] (src)`, and an image beside other text in a link keeps its own
// address.
func TestImagesOtherwiseUnchanged(t *testing.T) {
	cases := []struct{ src, want string }{
		{"![Logo](https://raw.example/logo.png)\n", "[Logo] (https://raw.example/logo.png)"},
		{`<img src="https://raw.example/logo.png" alt="Logo">` + "\n", "[Logo] (https://raw.example/logo.png)"},
		{"[![a](https://x.example/a.png) docs](https://x.example/t)\n", "[a] (https://x.example/a.png) docs (https://x.example/t)"},
	}
	for _, c := range cases {
		if text, _ := laidText(t, c.src, ansi.None, false); !strings.Contains(text, c.want) {
			t.Errorf("%q: %q, want %q", c.src, text, c.want)
		}
	}
	text, links := laidText(t, cases[0].src, ansi.TrueColor, false)
	if !strings.Contains(text, "[Logo] (https://raw.example/logo.png)") || !links["https://raw.example/logo.png"] {
		t.Errorf("truecolor standalone image: %q (links %v)", text, links)
	}
}
