package render

import (
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// codeSpans is goldmark's code span parser with an index of the block's
// backtick runs in front of it.
//
// goldmark looks for a code span's closer by scanning the rest of the
// block, and scans it again for every later opener: a paragraph of
// backtick runs of growing length (“ e`e“e```… “) costs the square of
// its length. A closer is the next run of exactly the opener's length, so
// codeSpans records every run of the block once, by length, and answers
// an opener without a closer from the index: the opener stays text, as
// goldmark would leave it. An opener that has a closer is handed to
// goldmark, whose scan then ends at that closer, so the text it reads is
// the span's own. The parse is goldmark's, in time linear in the block.
type codeSpans struct{ parser.InlineParser }

var backtickRunsKey = parser.NewContextKey()

// backtickRuns indexes the backtick runs of one block's lines.
type backtickRuns struct {
	block ast.Node
	// starts maps a run's length to the source offsets where runs of that
	// length start, in ascending order.
	starts map[int][]int
}

// runsOf returns the index of block's backtick runs, building it on the
// block's first code span opener.
func runsOf(block ast.Node, source []byte, pc parser.Context) *backtickRuns {
	if r, ok := pc.Get(backtickRunsKey).(*backtickRuns); ok && r.block == block {
		return r
	}
	r := &backtickRuns{block: block, starts: map[int][]int{}}
	lines := block.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		for at := seg.Start; at < seg.Stop; at++ {
			if source[at] != '`' {
				continue
			}
			start := at
			for at < seg.Stop && source[at] == '`' {
				at++
			}
			r.starts[at-start] = append(r.starts[at-start], start)
		}
	}
	pc.Set(backtickRunsKey, r)
	return r
}

// hasRunFrom reports whether a run of exactly n backticks starts at or
// after offset from.
func (r *backtickRuns) hasRunFrom(n, from int) bool {
	starts := r.starts[n]
	i, _ := slices.BinarySearch(starts, from)
	return i < len(starts)
}

func (c codeSpans) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	n := 0
	for n < len(line) && line[n] == '`' {
		n++
	}
	if n > 0 && seg.Padding == 0 && !runsOf(parent, block.Source(), pc).hasRunFrom(n, seg.Start+n) {
		block.Advance(n)
		return ast.NewTextSegment(seg.WithStop(seg.Start + n))
	}
	return c.InlineParser.Parse(parent, block, pc)
}

// CloseBlock drops the finished block's index.
func (codeSpans) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	pc.Set(backtickRunsKey, nil)
}
