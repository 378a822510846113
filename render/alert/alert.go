// Package alert parses GitHub's alerts, a block quote whose first line is
// `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]`, as a
// goldmark extension:
//
//	md := goldmark.New(goldmark.WithExtensions(alert.Extension))
//
// The quote becomes an Alert node holding the quote's blocks without the
// marker line. Anything else on the marker line, or a marker that is not
// one of the five, leaves the quote as it is, as on GitHub.
package alert

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Kind is the kind of an alert.
type Kind uint8

// The five alert kinds GitHub draws.
const (
	Note Kind = iota + 1
	Tip
	Important
	Warning
	Caution
)

// String is the kind as its marker spells it, capitalized: "Note".
func (k Kind) String() string {
	switch k {
	case Note:
		return "Note"
	case Tip:
		return "Tip"
	case Important:
		return "Important"
	case Warning:
		return "Warning"
	case Caution:
		return "Caution"
	}
	return ""
}

// KindAlert is the goldmark node kind of an Alert.
var KindAlert = ast.NewNodeKind("Alert")

// Alert is a block quote that is an alert; its children are the quote's
// blocks after the marker line.
type Alert struct {
	ast.BaseBlock
	AlertKind Kind
}

// Kind implements ast.Node.
func (*Alert) Kind() ast.NodeKind { return KindAlert }

// Dump implements ast.Node.
func (a *Alert) Dump(source []byte, level int) {
	ast.DumpHelper(a, source, level, map[string]string{"Kind": a.AlertKind.String()}, nil)
}

// markerKind reads a marker line (without its line ending): `[!NOTE]`,
// any letter case, with spaces or tabs around it.
func markerKind(line []byte) Kind {
	line = bytes.TrimSpace(line)
	if len(line) < 4 || line[0] != '[' || line[1] != '!' || line[len(line)-1] != ']' {
		return 0
	}
	switch string(bytes.ToUpper(line[2 : len(line)-1])) {
	case "NOTE":
		return Note
	case "TIP":
		return Tip
	case "IMPORTANT":
		return Important
	case "WARNING":
		return Warning
	case "CAUTION":
		return Caution
	}
	return 0
}

// transformer turns alert quotes into Alert nodes.
type transformer struct{}

// Transform implements parser.ASTTransformer.
func (transformer) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	var quotes []*ast.Blockquote
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if q, ok := n.(*ast.Blockquote); ok && entering {
			quotes = append(quotes, q)
		}
		return ast.WalkContinue, nil
	})
	for _, q := range quotes {
		p, ok := q.FirstChild().(*ast.Paragraph)
		if !ok || p.Lines().Len() == 0 {
			continue
		}
		first := p.Lines().At(0)
		kind := markerKind(bytes.TrimRight(first.Value(source), "\r\n"))
		if kind == 0 {
			continue
		}
		dropMarkerLine(p, first)
		a := &Alert{AlertKind: kind}
		for c := q.FirstChild(); c != nil; {
			next := c.NextSibling()
			a.AppendChild(a, c)
			c = next
		}
		if p.Lines().Len() == 0 || p.FirstChild() == nil {
			a.RemoveChild(a, p)
		}
		q.Parent().ReplaceChild(q.Parent(), q, a)
	}
}

// dropMarkerLine removes the marker line from p: its line segment and the
// inline nodes made from it, which all start before the line ends.
func dropMarkerLine(p *ast.Paragraph, first text.Segment) {
	lines := text.NewSegments()
	for i := 1; i < p.Lines().Len(); i++ {
		lines.Append(p.Lines().At(i))
	}
	p.SetLines(lines)
	for c := p.FirstChild(); c != nil && segmentStart(c) < first.Stop; {
		next := c.NextSibling()
		p.RemoveChild(p, c)
		c = next
	}
}

// segmentStart is where an inline node's text starts in the source; a
// node with no text of its own counts as starting where its first text
// child does, or at the start.
func segmentStart(n ast.Node) int {
	for ; n != nil; n = n.FirstChild() {
		if t, ok := n.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	return -1
}

type extension struct{}

// Extension adds alerts to a goldmark parser. The transformer runs after
// the whole document is parsed.
var Extension goldmark.Extender = extension{}

// Extend implements goldmark.Extender.
func (extension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(transformer{}, 500)))
}
