package directive

import (
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// labelCode keeps a code span from reaching past the label it starts in.
//
// A text directive's label is found first, by bracket matching alone, and
// only then parsed as inline content, as remark-directive does: in
// :badge[`]`] the label is one backtick and "`]" follows it. goldmark
// would instead let a code span opened inside the label take its `]` and
// end after it. labelCode runs before the code span parser: a backtick run
// inside an open label whose closer (the next run of the same length) lies
// past the label's `]` stays literal text, as an opener without a closer
// does. Every other backtick run is left to the code span parser.
type labelCode struct{}

// NewLabelCodeGuard returns the inline parser that keeps code spans inside
// the directive label they start in. It must run before goldmark's code
// span parser (priority 100).
func NewLabelCodeGuard() parser.InlineParser { return labelCode{} }

func (labelCode) Trigger() []byte { return []byte{'`'} }

func (labelCode) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	bt, ok := pc.Get(blockTextKey).(*blockText)
	if !ok || bt.node != parent || len(bt.labelEnds) == 0 {
		return nil
	}
	line, seg := block.PeekLine()
	if seg.Padding != 0 {
		return nil
	}
	at := seg.Start
	end, open := bt.openLabel(at)
	if !open {
		return nil
	}
	n := runEnd(line, 0, '`')
	if bt.backtickRunIn(parent, block.Source(), n, at+n, end) {
		return nil
	}
	block.Advance(n)
	return ast.NewTextSegment(seg.WithStop(at + n))
}

// openLabel is where the innermost label open at source offset at
// ends, if one is. Labels nest, so the innermost open one is last; those
// whose `]` is behind the reader are closed.
func (bt *blockText) openLabel(at int) (end int, open bool) {
	for len(bt.labelEnds) > 0 && bt.labelEnds[len(bt.labelEnds)-1] <= at {
		bt.labelEnds = bt.labelEnds[:len(bt.labelEnds)-1]
	}
	if len(bt.labelEnds) == 0 {
		return 0, false
	}
	return bt.labelEnds[len(bt.labelEnds)-1], true
}

// backtickRunIn reports whether a run of exactly n backticks starts in
// source[from:to]. The block's runs are indexed by length on first use.
func (bt *blockText) backtickRunIn(block ast.Node, source []byte, n, from, to int) bool {
	if bt.runs == nil {
		bt.runs = make(map[int][]int)
		lines := block.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			for p := seg.Start; p < seg.Stop; p++ {
				if source[p] != '`' {
					continue
				}
				start := p
				p = runEnd(source[:seg.Stop], p, '`')
				bt.runs[p-start] = append(bt.runs[p-start], start)
			}
		}
	}
	starts := bt.runs[n]
	i, _ := slices.BinarySearch(starts, from)
	return i < len(starts) && starts[i] < to
}
