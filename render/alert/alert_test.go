package alert

import (
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// parse parses src with goldmark and the alert extension.
func parse(src string) ast.Node {
	md := goldmark.New(goldmark.WithExtensions(Extension))
	return md.Parser().Parse(text.NewReader([]byte(src)))
}

// alerts lists the kinds of the document's alerts and the text of the
// first paragraph in each.
func alerts(src string) (kinds []Kind, firsts []string) {
	doc := parse(src)
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if a, ok := n.(*Alert); ok && entering {
			kinds = append(kinds, a.AlertKind)
			first := ""
			if p, ok := a.FirstChild().(*ast.Paragraph); ok {
				for c := p.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						first += string(t.Segment.Value([]byte(src)))
					}
				}
			}
			firsts = append(firsts, first)
		}
		return ast.WalkContinue, nil
	})
	return kinds, firsts
}

func TestAlerts(t *testing.T) {
	for _, tc := range []struct {
		src   string
		kinds []Kind
		first []string
	}{
		{"> [!NOTE]\n> Body.\n", []Kind{Note}, []string{"Body."}},
		{"> [!tip]  \n> Two\n> lines.\n", []Kind{Tip}, []string{"Twolines."}},
		{">  [!IMPORTANT]\r\n> crlf\r\n", []Kind{Important}, []string{"crlf"}},
		{"> [!WARNING]\n", []Kind{Warning}, []string{""}},
		{"> [!CAUTION]\n>\n> After a blank.\n", []Kind{Caution}, []string{"After a blank."}},
		{"- > [!NOTE]\n  > In a list.\n", []Kind{Note}, []string{"In a list."}},
		{"> > [!NOTE]\n> > Nested.\n", []Kind{Note}, []string{"Nested."}},
		{"> [!NOTE] text\n> x\n", nil, nil},
		{"> [!HINT]\n> x\n", nil, nil},
		{"> [NOTE]\n> x\n", nil, nil},
		{"> x\n> [!NOTE]\n", nil, nil},
		{"[!NOTE]\nnot quoted\n", nil, nil},
	} {
		kinds, firsts := alerts(tc.src)
		if len(kinds) != len(tc.kinds) {
			t.Errorf("%q: alerts %v, want %v", tc.src, kinds, tc.kinds)
			continue
		}
		for i := range kinds {
			if kinds[i] != tc.kinds[i] || firsts[i] != tc.first[i] {
				t.Errorf("%q: alert %d is %v %q, want %v %q", tc.src, i, kinds[i], firsts[i], tc.kinds[i], tc.first[i])
			}
		}
	}
}
