package viewer

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/markii/markii/fixtures"
)

// The tour's table of viewer keys teaches what the keys do: every key it
// names is bound to the action its row says.
func TestTourKeyTableMatchesTheKeys(t *testing.T) {
	actions := map[string][]key.Binding{
		"scroll a line":      {keys.Down, keys.Up},
		"scroll a page":      {keys.PageDown, keys.PageUp},
		"scroll half a page": {keys.HalfDown, keys.HalfUp},
		"top and bottom":     {keys.Top, keys.Bottom},
		"search forward, backward; next, previous match": {keys.Search, keys.SearchBack, keys.Next, keys.Prev},
		"mark a place, go back to it":                    {keys.Mark, keys.GoMark},
		"table of contents":                              {keys.TOC},
		"previous and next heading":                      {keys.PrevHeading, keys.NextHeading},
		"fold a section, fold or unfold all":             {keys.Fold, keys.FoldAll},
		"scroll a wide table or code sideways":           {keys.Left, keys.Right},
		"run the note's scripts":                         {keys.Run},
		"diagnostics":                                    {keys.Diagnostics},
		"every key":                                      {keys.Help},
		"quit":                                           {keys.Quit},
		"focus tabs and details; :kbd[←] :kbd[→] switch, :kbd[Enter] opens": {keys.Focus, keys.Left, keys.Right, keys.Enter},
	}
	names := map[string]string{"Tab": "tab", "Enter": "enter", "←": "left", "→": "right", "F1": "f1"}
	keyRef := regexp.MustCompile(":kbd\\[([^\\]]+)\\]|`([^`]+)`")
	tour := string(fixtures.Tour)
	_, table, ok := strings.Cut(tour, "## The viewer\n")
	if !ok {
		t.Fatal("the tour has no viewer section")
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if !strings.HasPrefix(line, "| ") || len(cells) != 2 || cells[0] == "Keys" {
			continue
		}
		rows++
		action := strings.TrimSpace(cells[1])
		bindings, ok := actions[action]
		if !ok {
			t.Errorf("tour row %q: no binding is known for this action (add it here)", line)
			continue
		}
		var bound []string
		for _, b := range bindings {
			bound = append(bound, b.Keys()...)
		}
		for _, ref := range keyRef.FindAllStringSubmatch(line, -1) {
			k := ref[1] + ref[2]
			if n, ok := names[k]; ok {
				k = n
			}
			if !slices.Contains(bound, k) {
				t.Errorf("tour row %q: %q is not a key for %q (those are %v)", line, k, action, bound)
			}
		}
	}
	if rows < len(actions) {
		t.Errorf("the tour's key table has %d rows, want %d", rows, len(actions))
	}
}
