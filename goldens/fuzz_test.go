package goldens

import (
	"os"
	"testing"

	"github.com/markii/markii/ansi"
)

// FuzzRender feeds arbitrary bytes (and an arbitrary values file) through
// Parse and Layout at an arbitrary width and every color level: it must
// never panic and its output must always pass ansi.Validate.
//
// CI runs only the seed corpus (the fixtures). Run it long with:
//
//	go test ./goldens -run '^$' -fuzz FuzzRender -fuzztime 20m
func FuzzRender(f *testing.F) {
	for _, fx := range listFixtures(f) {
		src, err := os.ReadFile(fx.Path)
		if err != nil {
			f.Fatal(err)
		}
		var vals []byte
		if fx.ValuesPath != "" {
			if vals, err = os.ReadFile(fx.ValuesPath); err != nil {
				f.Fatal(err)
			}
		}
		f.Add(src, vals, uint8(80))
	}
	f.Add([]byte(probeNote("\x1b]52;c;AAAA\x07&#x9b;2J\u009b")), []byte(`{"hostile":"\u001b[2J","hostilerows":[{"\u001b]0;x\u0007":"\u009b31m"}]}`), uint8(33))
	f.Add([]byte(":::a\n::::b\n:::c\nx\n::::\n:::\n:::\n"), []byte(nil), uint8(1))
	f.Fuzz(func(t *testing.T, src, valuesJSON []byte, w uint8) {
		width := 1 + int(w)%200
		vals, _ := loadValues(valuesJSON) // invalid JSON means no values
		for _, level := range levels {
			out := renderNote(src, width, level, vals)
			if err := ansi.Validate(out); err != nil {
				t.Fatalf("width %d level %s: %v", width, level, err)
			}
		}
	})
}
