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
	if len(line) == 0 || line[0] != ']' || blockSpan(parent) <= guardFrom || freeClose(parent, pc) {
		return g.inner.Parse(parent, block, pc)
	}
	bt := currentBlockText(parent, pc)
	bt.load(block.Source())
	lineNo, _ := block.Position()
	if !bt.chargeLink(bt.flatPos(lineNo, seg)) {
		return nil
	}
	return g.inner.Parse(parent, block, pc)
}

// freeClose counts a `]` of parent and reports whether it passes without
// accounting: the first freeLinkCloses `]` of a block cost at most that
// many scans of the block, so accounting starts only after them.
func freeClose(parent ast.Node, pc parser.Context) bool {
	n, ok := pc.Get(linkCountKey).(*linkCount)
	if !ok || n.node != parent {
		pc.Set(linkCountKey, &linkCount{node: parent, closes: 1})
		return true
	}
	if n.closes < freeLinkCloses {
		n.closes++
		return true
	}
	return false
}

// chargeLink charges the `]` at flat offset at against the block's link
// budget and reports whether the link parser may scan for it; a `]` the
// block text does not hold is not charged.
func (bt *blockText) chargeLink(at int) bool {
	if at < 0 || at >= len(bt.flat) {
		return true
	}
	if bt.linkBudget == 0 {
		bt.linkBudget = 8*len(bt.flat) + 4096
	}
	cost := bt.linkCost(at)
	if bt.linkSpent+cost > bt.linkBudget {
		bt.linkSpent = bt.linkBudget
		return false
	}
	bt.linkSpent += cost
	return true
}

// linkCost is what the link parser scans for the `]` at flat offset at:
// its label, and the destination up to the next blank after `](`.
func (bt *blockText) linkCost(at int) int {
	cost := 1
	if open := bt.openOf(at); open >= 0 {
		cost += at - open
	}
	if at+1 < len(bt.flat) && bt.flat[at+1] == '(' {
		cost += bt.nextBlank(at+2) - at
	}
	return cost
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
