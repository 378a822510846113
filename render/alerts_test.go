package render

import (
	"strings"
	"testing"
)

// TestAlertsAreCallouts: each GitHub alert kind parses to the callout it
// is drawn as, labeled with its name, and md-plain keeps the alert.
func TestAlertsAreCallouts(t *testing.T) {
	src := "> [!NOTE]\n> a\n\n> [!TIP]\n> b\n\n> [!IMPORTANT]\n> c\n\n> [!WARNING]\n> d\n\n> [!CAUTION]\n> e\n"
	doc := Parse([]byte(src))
	want := [][2]string{{"info", "Note"}, {"success", "Tip"}, {"accent", "Important"}, {"warning", "Warning"}, {"danger", "Caution"}}
	if len(doc.Blocks) != len(want) {
		t.Fatalf("%d blocks", len(doc.Blocks))
	}
	for i, b := range doc.Blocks {
		d, ok := b.(*Directive)
		if !ok || d.Name != "callout" || d.Form != FormContainer {
			t.Fatalf("block %d is %T %+v", i, b, b)
		}
		if typ, _ := d.Attrs.Get("type"); typ != want[i][0] || plainText(d.Label) != want[i][1] {
			t.Errorf("block %d: type %q label %q, want %v", i, typ, plainText(d.Label), want[i])
		}
		if len(d.Blocks) != 1 {
			t.Errorf("block %d: %d body blocks", i, len(d.Blocks))
		}
	}
	if plain := string(PlainMarkdown([]byte(src))); !strings.Contains(plain, "> [!NOTE]\n> a\n") || !strings.Contains(plain, "> [!CAUTION]\n> e\n") {
		t.Errorf("md-plain lost the alerts:\n%s", plain)
	}
}
