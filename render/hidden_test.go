package render

import (
	"reflect"
	"testing"
)

// TestLiveBlocksCarryTheTextTheyHide: a closed details body, the inactive
// panels of a tabs block and a details block hidden inside one are on
// the page as text a viewer can search, and nothing shown is.
func TestLiveBlocksCarryTheTextTheyHide(t *testing.T) {
	src := ":::details{title=\"Closed\"}\nOnly the zebra.\n:::\n\n" +
		":::::tabs\n::::tab{label=\"A\"}\nShown panel.\n::::\n::::tab{label=\"B\"}\nThe giraffe.\n\n" +
		":::details{title=\"Inner\"}\nAn okapi.\n:::\n::::\n:::::\n\n:::details{title=\"Open\" open}\nIn sight.\n:::\n"
	live := &LiveState{Focus: -1, ActiveTab: map[BlockID]int{}, Open: map[BlockID]bool{}, Folded: map[BlockID]bool{}}
	p := Layout(Parse([]byte(src)), Options{Width: 40, Live: live})
	got := map[string][]HiddenPanel{}
	for _, f := range p.Focusables {
		got[f.Label] = f.Hidden
	}
	want := map[string][]HiddenPanel{
		"Closed": {{Panel: 0, Lines: []string{"Only the zebra."}}},
		"A":      {{Panel: 1, Lines: []string{"The giraffe.", "  ▸ Inner", "An okapi."}}},
		"Open":   nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("hidden text %#v, want %#v", got, want)
	}
	// The static form hides nothing.
	for _, f := range Layout(Parse([]byte(src)), Options{Width: 40}).Focusables {
		if f.Hidden != nil {
			t.Fatalf("static %q hides %v", f.Label, f.Hidden)
		}
	}
}
