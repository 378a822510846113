package directive

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

type extension struct{}

// Extension adds the three directive forms to a goldmark parser.
var Extension goldmark.Extender = extension{}

// Extend registers the directive parsers. The label closer runs before
// goldmark's link parser (priority 200) so it sees its own `]` first.
func (extension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			util.Prioritized(NewContainerParser(), 70),
			util.Prioritized(NewLeafParser(), 71),
		),
		parser.WithInlineParsers(
			util.Prioritized(NewInlineParser(), 300),
			util.Prioritized(NewLabelCloser(), 150),
		),
	)
}
