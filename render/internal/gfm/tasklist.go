package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// taskCheckBoxParser parses the [ ] or [x] that starts a list item.
type taskCheckBoxParser struct{}

func (taskCheckBoxParser) Trigger() []byte { return []byte{'['} }

func (taskCheckBoxParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	if parent.Parent() == nil || parent.Parent().FirstChild() != parent {
		return nil
	}
	if parent.HasChildren() {
		return nil
	}
	if _, ok := parent.Parent().(*gast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	value, n, ok := matchTaskBox(line)
	if !ok {
		return nil
	}
	block.Advance(n)
	return ast.NewTaskCheckBox(value == 'x' || value == 'X')
}

func (taskCheckBoxParser) CloseBlock(parent gast.Node, pc parser.Context) {}

// matchTaskBox matches `^\[([\sxX])\]\s*` at the start of line: it returns
// the box's character and the length of the match.
func matchTaskBox(line []byte) (value byte, n int, ok bool) {
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return 0, 0, false
	}
	value = line[1]
	if !isSpace(value) && value != 'x' && value != 'X' {
		return 0, 0, false
	}
	n = 3
	for n < len(line) && isSpace(line[n]) {
		n++
	}
	return value, n, true
}
