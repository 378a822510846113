package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// hostile are byte sequences a note or a script value may carry to attack
// the terminal.
var hostile = []string{
	"\x1b[2J", "\x1b]0;pwned\x07", "\x1b]8;;https://evil.example/\x07x\x1b]8;;\x07",
	"\x1b]52;c;Y3VybA==\x07", "\x1bP+q\x1b\\", "\u009b2J", "\x9d0;t\x9c", "a\rb\bc\x7fd\x00e\tf",
	"&#27;[31m", "&#x9b;2J", "**md** [l](javascript:x)",
}

// TestComponentProbe plants each payload in every attribute a component
// prints, in value strings and in value object keys, lays the note out in
// its static and live forms at all four levels and widths, and checks that
// only the encoder's own escape sequences come out.
func TestComponentProbe(t *testing.T) {
	for _, p := range hostile {
		q := strings.NewReplacer(`"`, "", "\n", " ").Replace(p)
		src := strings.NewReplacer("P", q).Replace(`:::callout{type=warning title="P" text="P"}
body :value[s] :value[o.P] :value[P]{format="P" decimals="P"}
:::

:::card{title="P" text="P"}
:badge[P]{variant="P"} :kbd[P]
:::

:::details{title="P" open}
P
:::

::::tabs
:::tab{label="P"}
P
:::
:::tab{label="P2"}
two
:::
::::

:::figure{src="P" alt="P"}
P
:::

::divider{label="P" variant="P" label-align="P"}

::divider{variant=ornament label="P"}

::rating[P]{value="P" max="P"}

::stat{data=o value="P" label="P" delta="P" trend="P" format="P" decimals="P"}

::stat{data=o}

::progress{data=o label="P" format="P"}

::chart{data=arr kind="P"}

::chart{data=arr kind=bar}

::chart{values="1,P,2"}

::table{data=rows caption="P" columns="P,name" format="P" text="P"}

::table{data=o}

::table{data=arr}

::table{data=err caption="P"}

::::row{cols="P" text="P"}
:::cell{text="P"}
P
:::
:::card{title="P"}
P
:::
::::

:::narrow{align="P"}
P
:::
`)
		vals := func(v any) json.RawMessage {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		obj := map[string]any{"value": p, "label": p, "delta": p, "trend": p, "max": p, p: p}
		values := value.Values{
			"s":    {Value: vals(p), Status: value.Fresh},
			"o":    {Value: vals(obj), Status: value.Stale},
			"arr":  {Value: vals([]any{p, 1, map[string]any{"value": 2, "label": p}}), Status: value.Fresh},
			"rows": {Value: vals([]any{map[string]any{p: p, "name": p}, map[string]any{"name": "ok", p: []any{p}}}), Status: value.Fresh},
			"err":  {Status: value.Error, FailureKind: value.Kind(p)},
			p:      {Value: vals(p), Status: value.Status(p), FailureKind: value.Kind(p)},
		}
		doc := Parse([]byte(src))
		for _, level := range []ansi.Level{ansi.None, ansi.Color16, ansi.Color256, ansi.TrueColor} {
			for _, width := range []int{1, 20, 61, 100} {
				for _, live := range []*LiveState{nil, {Focus: 0, Open: map[BlockID]bool{0: true}}, {Focus: 1, ActiveTab: map[BlockID]int{1: 1}}} {
					page := Layout(doc, Options{Width: width, Level: level, Theme: theme.Dark, Values: values, Now: componentNow, Live: live})
					out := ansi.Encode(page.Lines, level)
					if err := ansi.Validate(out); err != nil {
						t.Fatalf("payload %q level %s width %d live %v: %v", p, level, width, live != nil, err)
					}
					if level == ansi.None && strings.ContainsAny(string(out), "\x1b\x07\x00\r\b\x7f\u009b\u009d") {
						t.Fatalf("payload %q width %d: control bytes at level none", p, width)
					}
					for _, d := range page.Diagnostics {
						if strings.ContainsAny(d, "\x1b\x07\x00\r\n\b\x7f\u009b\u009d") {
							t.Fatalf("payload %q: diagnostic carries control bytes: %q", p, d)
						}
					}
				}
			}
		}
	}
}
