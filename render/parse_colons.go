package render

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// colonRuns reads a run of colons, all but its last, as text. Both parsers
// a colon triggers need a letter or a name after it: a text directive
// (`:name`) and an emoji shortcode (`:tada:`), so a colon followed by
// another colon starts neither. Without it goldmark offers every colon of
// a long run to both in turn, which is most of the time a note of long
// fences (a directive nested past MaxBlockDepth) takes to parse. The last
// colon of the run is left to them, as is a run after a tab's padding.
type colonRuns struct{}

func (colonRuns) Trigger() []byte { return []byte{':'} }

func (colonRuns) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, seg := block.PeekLine()
	n := 0
	for n+1 < len(line) && line[n+1] == ':' {
		n++
	}
	if n == 0 || seg.Padding != 0 {
		return nil
	}
	block.Advance(n)
	return ast.NewTextSegment(text.NewSegment(seg.Start, seg.Start+n))
}
