package goldens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/value"
)

// payload is one hostile byte sequence a note may carry.
type payload struct {
	Name  string
	Bytes string
	// Entity marks a payload written as character references, which
	// CommonMark decodes to the control characters they name.
	Entity bool
}

// payloads are the terminal attacks the probe suite plants everywhere.
var payloads = []payload{
	{Name: "CSI clear screen", Bytes: "\x1b[2J"},
	{Name: "CSI color", Bytes: "\x1b[31mred"},
	{Name: "CSI cursor home", Bytes: "\x1b[H"},
	{Name: "OSC 0 title", Bytes: "\x1b]0;pwned\x07"},
	{Name: "OSC 2 title ST", Bytes: "\x1b]2;pwned\x1b\\"},
	{Name: "OSC 8 hyperlink", Bytes: "\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07"},
	{Name: "OSC 52 clipboard", Bytes: "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07"},
	{Name: "DCS", Bytes: "\x1bP+q544e\x1b\\"},
	{Name: "C1 CSI as UTF-8", Bytes: "\u009b2J"},
	{Name: "C1 OSC as UTF-8", Bytes: "\u009d0;pwned\u009c"},
	{Name: "C1 raw byte CSI", Bytes: "\x9b2J"},
	{Name: "C1 raw bytes OSC", Bytes: "\x9d0;pwned\x9c"},
	{Name: "C1 raw byte range", Bytes: "\x80\x85\x8d\x90\x9f"},
	{Name: "BEL", Bytes: "ding\x07ding"},
	{Name: "BS", Bytes: "over\x08\x08\x08\x08hidden"},
	{Name: "CR", Bytes: "visible\rhidden"},
	{Name: "DEL", Bytes: "del\x7fete"},
	{Name: "NUL", Bytes: "nu\x00ll"},
	{Name: "TAB and VT and FF", Bytes: "a\tb\vc\fd"},
	{Name: "entity ESC decimal", Bytes: "&#27;[2J", Entity: true},
	{Name: "entity ESC hex", Bytes: "&#x1b;]0;pwned&#7;", Entity: true},
	{Name: "entity C1 CSI hex", Bytes: "&#x9b;31m", Entity: true},
	{Name: "entity C1 CSI decimal", Bytes: "&#155;2J", Entity: true},
	{Name: "entity OSC 52", Bytes: "&#x1B;]52;c;AAAA&#x07;", Entity: true},
	{Name: "entity NUL and DEL", Bytes: "&#0;&#127;&#x7f;", Entity: true},
	{Name: "entity BEL", Bytes: "ding&#7;&#x07;ding", Entity: true},
	{Name: "entity bidi override", Bytes: "&#x202E;gnp.exe&#x2066;&#8238;", Entity: true},
	{Name: "entity split by a tag", Bytes: "&#2<b></b>7;[31m&<i>#27;</i>[2J", Entity: true},
	{Name: "named entity then ESC", Bytes: "&amp;#27;[31m&lt;&#x1B;", Entity: true},
}

// probeNote plants p in every place a note can carry text. Structural
// characters in p (a CR ends a line) may change the shape of the note;
// the output must stay clean whatever shape results.
func probeNote(p string) string {
	r := strings.NewReplacer("P", p)
	return r.Replace(`---
title: "P"
uses: [P]
---

# Heading P

Body text P with *emphasis P* and **strong P** and ~~strike P~~.

Inline code ` + "`code P`" + ` and a [link text P](https://example.com/P) and
an autolink <https://example.com/aP> and an image ![alt P](img-P.png).

[ref link P][r]

[r]: https://example.com/ref-P "title P"

` + "```lua" + `
code block P
` + "```" + `

` + "```P" + `
info string
` + "```" + `

` + "```lua {name=probe label=\"P\" permissions=P}" + `
return "P"
` + "```" + `

| head P | two |
|--------|-----|
| cell P | :badge[P] |

> quote P
> > nested P

> [!NOTE]
> alert body P

> [!WARNING] P
> text on an alert's marker line P

> [!P]
> not an alert P

Shortcodes :tada:P and :P: and P:smile: and :smile:P and :P:tada:.

A footnote P[^P] and another[^n] and an undefined one[^x P].

[^P]: footnote body P

[^n]: P

- item P
  - nested item P
- [ ] task P

1. ordered P

<div>raw html P</div>

inline <span title="P">html P</span>

<details><summary>summary P</summary>

html details body P

</details>

<p align="center"><img src="img-P.png" alt="alt P" width="P"></p>

<p><a href="https://example.com/P" title="P">html link P</a></p>

<p><a href="P">relative P</a></p>

<p><a href="javascript:alert('P')">js P</a> <kbd>kbd P</kbd><br><sub>sub P</sub></p>

<table><tr><th align="P">th P</th></tr><tr><td>td P</td></tr></table>

<pre>pre P
  line two P</pre>

<h3 id="P">html heading P</h3>

<ul><li>html item P</li></ul>

<blockquote>html quote P</blockquote>

<unknown-element P="P">unknown element P</unknown-element>

<p>x<sup>sup P</sup> H<sub>P</sub>O <a href="data:text/html,P">data P</a> <img alt="img alt P" src="img2-P.png" width="P" height="P"></p>

<iframe src="P">
iframe P

after an unclosed iframe P

Math $x_P^P + \frac{P}{2}$ and $P$ and $\sqrt{P}$, currency $5 and P$10.

$$
\frac{P}{x} = \sum_{P}^{P} \begin{pmatrix} P & 1 \\ 2 & P \end{pmatrix}
$$

` + "```math" + `
\int_P^P P \, dP \mathbb{P} \unknown{P}
` + "```" + `

Text :kbd[kbd P] and :badge[badge P]{variant=P} and :unknown[inline P]{k=P}
and :value[P] and :value[probe]{format=P} and :value[vals.P].

::divider{label="P"}

::divider{variant=ornament label="P"}

::unknown-leaf[label P]{attr="P"}

:::unknown-container{attr="P"}
container body P
:::

:::callout{type=warning title="P"}
callout body P
:::

:::callout{type="P"}
invalid type
:::

:::card{title="P" text="P"}
card body P
:::

:::details{title="P"}
details body P
:::

::::tabs
:::tab{label="P"}
tab body P
:::
::::

:::figure{src="https://example.com/P.png" alt="P"}
figure caption P
:::

:::figure{src="P" alt="P"}
figure two
:::

::rating{value="P" max="P"}

::stat{value="P" label="P" delta="P" trend=up}

::stat{data=hostile label="P"}

::stat{data=hostileobj}

::progress{value="P" label="P"}

::progress{data=hostileobj label="P"}

::chart{values="1,P,3"}

::chart{kind=bar data=hostilearr}

::chart{kind=bar data=hostileobjs}

::table{data=hostilerows caption="P" columns="P,name"}

::table{data=hostilerows}

::table{data=hostilearr caption="P"}

::table{data=hostileobj}

::::row
:::cell
cell one P
:::
:::cell
cell two P
:::
::::

:::P
name P
:::

::P{x=P}
`)
}

// probeValues carries p in value strings and in object keys.
func probeValues(t testing.TB, p string) value.Values {
	t.Helper()
	mk := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	obj := map[string]any{"value": p, "label": p, "delta": p, "trend": p, "max": p, p: p}
	return value.Values{
		"hostile":     {Value: mk(p), Status: value.Fresh},
		"hostileobj":  {Value: mk(obj), Status: value.Stale},
		"hostilearr":  {Value: mk([]any{p, 1, p + "2"}), Status: value.Fresh},
		"hostileobjs": {Value: mk([]any{map[string]any{"value": p}, map[string]any{"value": 2, "label": p}}), Status: value.Fresh},
		"hostilerows": {Value: mk([]any{map[string]any{p: p, "name": p}, map[string]any{"name": "ok", p: 3}}), Status: value.Fresh},
		"vals":        {Value: mk(map[string]any{p: p}), Status: value.Fresh},
		"probe":       {Value: mk(p), Status: value.Error, FailureKind: value.Kind(p)},
		p:             {Value: mk(p), Status: value.Status(p), FailureKind: value.Kind(p)},
	}
}

// TestProbeSuite renders a note carrying every payload in every place at
// every color level and checks that only the engine's own SGR and OSC 8
// sequences remain.
func TestProbeSuite(t *testing.T) {
	for _, p := range payloads {
		t.Run(p.Name, func(t *testing.T) {
			src := []byte(probeNote(p.Bytes))
			vals := probeValues(t, p.Bytes)
			for _, level := range levels {
				for _, width := range []int{1, 20, 40, 80} {
					out := renderNote(src, width, level, vals)
					if err := validateAt(out, level); err != nil {
						t.Errorf("level %s width %d: %v\n%s", level, width, err, around(out, err))
					}
					if bytes.Contains(out, []byte("evil.example")) && bytes.Contains(out, []byte("\x1b]8;;https://evil")) {
						t.Errorf("level %s width %d: author OSC 8 survived", level, width)
					}
				}
			}
		})
	}
}

// TestProbeTextSurvives checks that sanitizing removes only the controls:
// the words around a payload are still printed, so the probe really
// reached the renderer.
func TestProbeTextSurvives(t *testing.T) {
	src := []byte(probeNote("\x1b[31mZQX"))
	out := renderNote(src, 80, ansi.None, probeValues(t, "ZQX"))
	for _, want := range []string{"Heading", "Body text", "callout body", "card body", "cell one", "figure caption",
		"summary", "html details body", "html link", "th [31mZQX", "td [31mZQX", "pre [31mZQX", "html heading", "html item", "html quote", "unknown element",
		"after an unclosed iframe", "img alt", "data [31mZQX"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("render lost %q", want)
		}
	}
	if n := bytes.Count(out, []byte("[31mZQX")); n == 0 {
		t.Errorf("the text after a removed ESC should remain visible as inert text; output:\n%s", out)
	}
}

// engineShaped names payloads that are byte-for-byte the kind of sequence
// the engine itself writes (an SGR, a well-formed OSC 8 to an allowed URL).
// At a color level no byte check can tell them from the engine's own; they
// are caught at level none, and the probe suite shows the sanitizer removes
// them before they reach the encoder.
// The value is the payload's inert remainder after sanitizing, which
// TestProbeEngineShapedPayloads counts.
var engineShaped = map[string]string{"CSI color": "[31mred", "OSC 8 hyperlink": "evil.example/click"}

// validateAt is the output check of the probe suite: Validate, and at level
// none not a single escape byte.
func validateAt(out []byte, level ansi.Level) error {
	if err := ansi.Validate(out); err != nil {
		return err
	}
	if level == ansi.None {
		if i := bytes.IndexByte(out, 0x1b); i >= 0 {
			return fmt.Errorf("offset %d: escape byte at level none", i)
		}
	}
	return nil
}

// TestValidateCatchesBypass proves the check can fail: text that did not
// pass the sanitizer, handed straight to the encoder, is rejected at every
// level (engine-shaped sequences at level none).
func TestValidateCatchesBypass(t *testing.T) {
	for _, p := range payloads {
		if p.Entity {
			continue // references are only controls after CommonMark decodes them
		}
		for _, level := range levels {
			if _, ok := engineShaped[p.Name]; ok && level != ansi.None {
				continue
			}
			line := ansi.Line{{Text: "before " + p.Bytes + " after"}}
			out := ansi.Encode([]ansi.Line{line}, level)
			if err := validateAt(out, level); err == nil {
				t.Errorf("%s at %s: the check accepted raw author bytes %q", p.Name, level, out)
			}
		}
	}
	// A hyperlink the engine would refuse, forged into the bytes.
	if ansi.Validate([]byte("\x1b]8;;javascript:alert(1)\x07x\x1b]8;;\x07\n")) == nil {
		t.Error("Validate accepted an OSC 8 link to a refused scheme")
	}
}

// around shows the bytes around the offset an error names.
func around(out []byte, err error) string {
	var off int
	if _, e := fmt.Sscanf(err.Error(), "offset %d", &off); e != nil || off > len(out) {
		return ""
	}
	lo, hi := max(0, off-60), min(len(out), off+60)
	return strings.ReplaceAll(string(out[lo:hi]), "\x1b", "\\e")
}

// sgrSequence matches an SGR sequence; hyperlinkSpan matches an OSC 8
// hyperlink with its URL and its text.
var (
	sgrSequence   = regexp.MustCompile("\x1b\\[[0-9;]*m")
	hyperlinkSpan = regexp.MustCompile("\x1b\\]8;;([^\x07]*)\x07([^\x1b]*)\x1b\\]8;;\x07")
)

// visibleText removes the engine's sequences from out; a hyperlink becomes
// its text plus its URL (once, when they are equal), as level none prints
// it.
func visibleText(out []byte) []byte {
	out = sgrSequence.ReplaceAll(out, nil)
	return hyperlinkSpan.ReplaceAllFunc(out, func(m []byte) []byte {
		sub := hyperlinkSpan.FindSubmatch(m)
		if bytes.Equal(sub[1], sub[2]) {
			return sub[2]
		}
		return append(append([]byte{}, sub[2]...), sub[1]...)
	})
}

// TestProbeEngineShapedPayloads covers what Validate alone cannot: an
// author's SGR or OSC 8 is byte-for-byte an engine sequence. With escapes
// removed, the payload's inert text must appear exactly as often at every
// color level as at level none (a hyperlink's URL counts as text, as level
// none prints it); a leaked sequence would have been stripped with the
// engine's own and lowered the count.
func TestProbeEngineShapedPayloads(t *testing.T) {
	for _, p := range payloads {
		inert, ok := engineShaped[p.Name]
		if !ok {
			continue
		}
		leaked := ansi.Encode([]ansi.Line{{{Text: "x " + p.Bytes}}}, ansi.TrueColor)
		if bytes.Contains(visibleText(leaked), []byte(inert)) {
			t.Fatalf("%s: the count cannot see a leaked sequence", p.Name)
		}
		src := []byte(probeNote(p.Bytes))
		vals := probeValues(t, p.Bytes)
		want := bytes.Count(renderNote(src, 80, ansi.None, vals), []byte(inert))
		if want == 0 {
			t.Fatalf("%s: inert text %q not found at level none", p.Name, inert)
		}
		for _, level := range levels[1:] {
			visible := visibleText(renderNote(src, 80, level, vals))
			if got := bytes.Count(visible, []byte(inert)); got != want {
				t.Errorf("%s at %s: inert text %q appears %d times, want %d (an author sequence reached the output)", p.Name, level, inert, got, want)
			}
		}
	}
}
