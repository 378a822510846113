package render

import (
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/mermaid"
)

// diagram draws a mermaid fence as a text diagram (package mermaid
// says which diagrams and statements it draws), or as its source after
// one dim line saying why when it cannot be drawn in width.
func (l *layouter) diagram(b *CodeBlock, width int) []ansi.Line {
	drawn, err := mermaid.Draw(b.Text, width)
	if err != nil {
		why := []run{{text: err.Error(), style: l.st.Dim}}
		out := wrapRunsIn(why, width, nil, &l.mem)
		return append(out, l.codeBlock(b, width)...)
	}
	out := make([]ansi.Line, len(drawn))
	for i, ln := range drawn {
		spans := l.mem.line(len(ln))
		for _, sp := range ln {
			spans = append(spans, ansi.Span{Text: sp.Text, Style: l.diagramStyle(sp.Class)})
		}
		out[i] = spans
	}
	return out
}

// diagramStyle is the theme style of a class of a diagram's cells: boxes
// and lifelines in the frame color, edges in the accent, labels muted.
func (l *layouter) diagramStyle(c mermaid.Class) ansi.Style {
	switch c {
	case mermaid.Border:
		return l.st.Frame
	case mermaid.Edge:
		return l.st.Accent
	case mermaid.Label:
		return l.st.Muted
	case mermaid.Text:
		return l.st.Text
	}
	return ansi.Style{}
}
