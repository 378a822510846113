package directive

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// linkGuard bounds the work a link parser does per block. goldmark's, and
// markii's that decides as it does, rescan the whole label at every `]`
// and the rest of the line at every `](`, so nested brackets (`[[[…x]]]`) or a run of `[a](` make it
// quadratic: 80 KB of `[a](` takes seconds. The guard charges each `]` what
// the link parser will scan (label length, plus the destination up to the
// next blank) against a budget proportional to the block; once spent, the
// remaining `]` of that block stay literal text. Ordinary notes stay far
// below the budget.
type linkGuard struct{ inner parser.InlineParser }

// GuardLinks wraps a link parser with a per-block work budget.
func GuardLinks(link parser.InlineParser) parser.InlineParser { return linkGuard{link} }

func (g linkGuard) Trigger() []byte { return g.inner.Trigger() }

func (g linkGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) == 0 || line[0] != ']' || blockSpan(parent) <= guardFrom {
		return g.inner.Parse(parent, block, pc)
	}
	// The first freeLinkCloses `]` of a block cost at most that many scans
	// of the block, so accounting starts only after them.
	if n, ok := pc.Get(linkCountKey).(*linkCount); !ok || n.node != parent {
		pc.Set(linkCountKey, &linkCount{node: parent, closes: 1})
		return g.inner.Parse(parent, block, pc)
	} else if n.closes < freeLinkCloses {
		n.closes++
		return g.inner.Parse(parent, block, pc)
	}
	bt := currentBlockText(parent, pc)
	bt.load(block.Source())
	lineNo, _ := block.Position()
	at := bt.flatPos(lineNo, seg)
	if at < 0 || at >= len(bt.flat) {
		return g.inner.Parse(parent, block, pc)
	}
	if bt.linkBudget == 0 {
		bt.linkBudget = 8*len(bt.flat) + 4096
	}
	cost := 1
	if open := bt.openOf(at); open >= 0 {
		cost += at - open
	}
	if at+1 < len(bt.flat) && bt.flat[at+1] == '(' {
		cost += bt.nextBlank(at+2) - at
	}
	if bt.linkSpent+cost > bt.linkBudget {
		bt.linkSpent = bt.linkBudget
		return nil
	}
	bt.linkSpent += cost
	return g.inner.Parse(parent, block, pc)
}

// freeLinkCloses is how many `]` per block pass without accounting.
const freeLinkCloses = 16

// linkCount counts the `]` the guard has seen in one block.
type linkCount struct {
	node   ast.Node
	closes int
}

var linkCountKey = parser.NewContextKey()

// guardFrom is the block size (in source bytes) from which the guard
// keeps accounts; below it the worst case is a few hundred thousand steps.
const guardFrom = 64

// blockSpan is the source distance from the block's first line to the end
// of its last, an upper bound of its size found in constant time.
func blockSpan(n ast.Node) int {
	lines := n.Lines()
	if lines.Len() == 0 {
		return 0
	}
	return lines.At(lines.Len()-1).Stop - lines.At(0).Start
}

func (g linkGuard) CloseBlock(parent ast.Node, block text.Reader, pc parser.Context) {
	if cb, ok := g.inner.(parser.CloseBlocker); ok {
		cb.CloseBlock(parent, block, pc)
	}
}

// nextBlank returns the flat offset of the first blank or line ending at or
// after i (or the end), reusing the previous answer when i falls inside the
// stretch it covered, so a run of queries costs linear time.
func (bt *blockText) nextBlank(i int) int {
	if i >= bt.blankFrom && i <= bt.blankAt && bt.blankAt > 0 {
		return bt.blankAt
	}
	j := i
	for j < len(bt.flat) && !isBlank(bt.flat[j]) && !isEOL(bt.flat[j]) {
		j++
	}
	bt.blankFrom, bt.blankAt = i, j
	return j
}
