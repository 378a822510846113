package directive

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"sync"
)

// lazyStop ends a container directive at a lazy continuation line.
//
// A container directive is a fenced block, like fenced code: a line that
// does not continue every enclosing block quote or list item (a "lazy"
// line) cannot continue a paragraph inside the container, because the
// container's content is a document of its own. remark-directive closes
// the container there, and with it the enclosing blocks, so
//
//	> :::note
//	> a
//	b
//
// is a quote holding the note with "a", then the paragraph "b". goldmark
// would append "b" to the paragraph "a". lazyStop is tried, among the
// parsers that may interrupt a paragraph, just before goldmark's own
// paragraph parser: when the paragraph that would take the line sits in a
// container directive below the block the line was found to belong to, it
// opens the line as a new paragraph there, which closes the others. It is
// goldmark's paragraph parser in every other respect.
type lazyStop struct{ paragraph parser.BlockParser }

// NewLazyStop returns the block parser that keeps lazy continuation lines
// out of container directives. Register it at a priority just below
// goldmark's paragraph parser (1000), e.g. 999.
func NewLazyStop() parser.BlockParser { return lazyStop{parser.NewParagraphParser()} }

// Trigger lists every byte: goldmark tries only the parsers registered for
// a line's first byte, and any line may be lazy.
func (lazyStop) Trigger() []byte {
	everyByteOnce.Do(func() {
		for i := range everyByte {
			everyByte[i] = byte(i)
		}
	})
	return everyByte[:]
}

var (
	everyByteOnce sync.Once
	everyByte     [256]byte
)

func (l lazyStop) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	last := pc.LastOpenedBlock().Node
	if last == nil || !ast.IsParagraph(last) || last.Parent() == parent {
		return nil, parser.NoChildren
	}
	for b := last.Parent(); b != nil && b != parent; b = b.Parent() {
		if b.Kind() == KindContainer {
			return l.paragraph.Open(parent, reader, pc)
		}
	}
	return nil, parser.NoChildren
}

func (l lazyStop) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	return l.paragraph.Continue(node, reader, pc)
}

func (l lazyStop) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	l.paragraph.Close(node, reader, pc)
}

func (lazyStop) CanInterruptParagraph() bool { return true }

func (lazyStop) CanAcceptIndentedLine() bool { return false }
