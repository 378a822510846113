package render

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// componentNotes generates two notes of about size bytes with the same
// text: in withComps every paragraph sits in (or carries) a standard
// component, cycling through callout, card, badge, stat, details, progress
// and a data-bound table; plain has the same words without directives.
func componentNotes(size int) (plain, withComps []byte) {
	rng := rand.New(rand.NewSource(7))
	words := strings.Fields("the quick brown fox jumps over lazy dog markii renders notes in a terminal with style while scripts run inside a sandbox 日本語 café")
	sent := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[rng.Intn(len(words))]
		}
		return strings.Join(parts, " ")
	}
	var p, c strings.Builder
	for i := 0; c.Len() < size; i++ {
		fmt.Fprintf(&p, "## Section %d\n\n", i)
		fmt.Fprintf(&c, "## Section %d\n\n", i)
		para := sent(50)
		switch i % 7 {
		case 0:
			fmt.Fprintf(&p, "Info\n\n%s\n\n", para)
			fmt.Fprintf(&c, ":::callout{type=info}\n%s\n:::\n\n", para)
		case 1:
			fmt.Fprintf(&p, "Card %d\n\n%s\n\n", i, para)
			fmt.Fprintf(&c, ":::card{title=\"Card %d\"}\n%s\n:::\n\n", i, para)
		case 2:
			fmt.Fprintf(&p, "%s and tag.\n\n", para)
			fmt.Fprintf(&c, "%s and :badge[tag]{variant=success}.\n\n", para)
		case 3:
			fmt.Fprintf(&p, "Stars\n\n18,234\n\n%s\n\n", para)
			fmt.Fprintf(&c, "::stat{data=stars label=Stars format=number}\n\n%s\n\n", para)
		case 4:
			fmt.Fprintf(&p, "More\n\n%s\n\n", para)
			fmt.Fprintf(&c, ":::details{title=More}\n%s\n:::\n\n", para)
		case 5:
			fmt.Fprintf(&p, "Build 70%%\n\n%s\n\n", para)
			fmt.Fprintf(&c, "::progress{value=0.7 label=Build}\n\n%s\n\n", para)
		case 6:
			fmt.Fprintf(&p, "| name | role |\n|---|---|\n| Ada | Analyst |\n\n%s\n\n", para)
			fmt.Fprintf(&c, "::table{data=users columns=\"name,role\"}\n\n%s\n\n", para)
		}
	}
	return []byte(p.String()), []byte(c.String())
}

// benchValues are the values the component note reads.
var benchValues = value.Values{
	"stars": {Value: raw(`18234`), Status: value.Fresh},
	"users": {Value: raw(`[{"name":"Ada","role":"Analyst"}]`), Status: value.Fresh},
}

func benchRender(b *testing.B, src []byte) {
	opt := Options{Width: 100, Level: ansi.TrueColor, Theme: theme.Dark, Values: benchValues}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		ansi.Encode(Layout(Parse(src), opt).Lines, ansi.TrueColor)
	}
}

// BenchmarkComponents renders a 1 MB note with one component per paragraph
// and the same note without components (parse, layout and encode); the
// component note should stay within 1.5× of the plain one:
//
//	go test ./render -run '^$' -bench BenchmarkComponents -benchtime 5x
func BenchmarkComponents(b *testing.B) {
	plain, comps := componentNotes(1 << 20)
	b.Run("plain", func(b *testing.B) { benchRender(b, plain) })
	b.Run("components", func(b *testing.B) { benchRender(b, comps) })
}
