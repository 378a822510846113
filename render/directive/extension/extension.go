// Package extension offers markii's directive parsers as a goldmark
// extension, for programs that build their parser with goldmark.New:
//
//	md := goldmark.New(goldmark.WithExtensions(extension.Directives))
//
// It is a package of its own so that markii, which assembles its parser
// from goldmark's parser package directly, does not link goldmark's HTML
// renderer or pay for its start-up.
package extension

import (
	"github.com/markii/markii/render/directive"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

type directives struct{}

// Directives adds the three directive forms to a goldmark parser.
var Directives goldmark.Extender = directives{}

// Extend registers the directive parsers. The label closer runs before
// goldmark's link parser (priority 200) so it sees its own `]` first, and
// the label's code guard before its code span parser (100).
func (directives) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			util.Prioritized(directive.NewContainerParser(), 70),
			util.Prioritized(directive.NewLeafParser(), 71),
			util.Prioritized(directive.NewLazyStop(), 999),
		),
		parser.WithInlineParsers(
			util.Prioritized(directive.NewInlineParser(), 300),
			util.Prioritized(directive.NewLabelCloser(), 150),
			util.Prioritized(directive.NewLabelCodeGuard(), 90),
		),
	)
}
