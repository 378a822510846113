package render

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no input makes the parser, the listing or the
// md-plain export panic (parseDocument has no recovery net), and that no
// control character reaches the tree. CI runs the seed corpus; run it
// longer with: go test ./render -run '^$' -fuzz FuzzParse -fuzztime 10m
func FuzzParse(f *testing.F) {
	for _, c := range parseCases {
		f.Add([]byte(c.src))
	}
	f.Add([]byte(":a[:b[:c[x]{k=v}]] ::d{#i .c} :::e\n&#27;[2J\n:::\n"))
	f.Add([]byte("---\nuses:\n  - a\n---\n> - :::x\n>   ```lua {name=s}\n>   ```\n"))
	f.Add([]byte("*a :x[b* c]* [d :y[e](f)] `:z[g]`"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc := parseDocument(src)
		forEachString(doc, func(where, s string) {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 in %s: %q", where, s)
			}
			for _, r := range s {
				if (r < 0x20 && !(r == '\n' && where == "code")) || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					t.Fatalf("control %U in %s: %q", r, where, s)
				}
			}
		})
		items, _ := Listing(doc)
		for _, it := range items {
			if len(it.Text) > ListingMaxText {
				t.Fatalf("listing text over cap: %d", len(it.Text))
			}
		}
		out := PlainMarkdown(src)
		if len(out) == 0 || out[len(out)-1] != '\n' || bytes.HasSuffix(out, []byte("\n\n")) && len(out) > 1 {
			t.Fatalf("md-plain must end with exactly one line feed: %q", out)
		}
	})
}
