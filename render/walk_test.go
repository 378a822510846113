package render

import (
	"fmt"
	"strings"
	"testing"
)

// nodeNames names each node Nodes yields, with the text of Text nodes.
func nodeNames(blocks []Block, most int) string {
	var out []string
	for n := range Nodes(blocks) {
		if t, ok := n.(*Text); ok {
			out = append(out, fmt.Sprintf("%q", t.Text))
		} else {
			out = append(out, strings.TrimPrefix(fmt.Sprintf("%T", n), "*render."))
		}
		if len(out) == most {
			break
		}
	}
	return strings.Join(out, "|")
}

func TestNodesVisitsEveryNodeInDocumentOrder(t *testing.T) {
	src := "# h *e*\n\n> - a [l **s**](u)\n>   - ~~d~~\n\n| x | :y[z] |\n|---|---|\n| c | d |\n\n:::box\nin\n:::\n\n::leaf[lab]\n"
	doc := Parse([]byte(src))
	want := strings.Join([]string{`Heading`, `"h "`, `Emphasis`, `"e"`, `Quote`, `List`, `Paragraph`, `"a "`, `Link`, `"l "`,
		`Strong`, `"s"`, `List`, `Paragraph`, `Strikethrough`, `"d"`, `Table`, `"x"`, `InlineDirective`, `"z"`, `"c"`, `"d"`,
		`Directive`, `Paragraph`, `"in"`, `Directive`, `"lab"`}, "|")
	if got := nodeNames(doc.Blocks, -1); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Breaking out of the loop stops the walk, at any depth.
	for most := 1; most <= 25; most++ {
		if got := len(strings.Split(nodeNames(doc.Blocks, most), "|")); got != most {
			t.Fatalf("stopping after %d nodes yielded %d", most, got)
		}
	}
}
