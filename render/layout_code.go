package render

import (
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/highlight"
	"github.com/rivo/uniseg"
)

// codeIndent is how far code block lines are indented.
const codeIndent = 4

// Highlighting budgets: how many bytes of code one layout highlights with
// the native lexer, and with chroma's slower lexers (each block counted
// as at least chromaBlockCost, for chroma's per-call overhead). Code past
// a budget is drawn unhighlighted so that a huge note stays fast.
const (
	nativeBudget    = 4 << 20
	chromaBudget    = 16 << 10
	chromaBlockCost = 1 << 10
)

// codeBlock draws a code block: an optional language line, then the code
// indented, syntax highlighted when color is on, and lines longer than
// the width broken between grapheme clusters (never truncated); each
// continuation piece starts with a dim `↪` so it never reads as a line of
// its own. An empty block draws nothing.
func (l *layouter) codeBlock(c *CodeBlock, width int) []ansi.Line {
	text := strings.TrimSuffix(c.Text, "\n")
	if text == "" {
		return nil
	}
	indent := codeIndent
	if width <= 2*codeIndent {
		indent = 0
	}
	avail := max(width-indent, 1)
	var out []ansi.Line
	if c.Lang != "" {
		out = append(out, ansi.Line{{Text: " " + c.Lang, Style: l.st.CodeLang}})
	}
	var code []ansi.Line
	if l.opt.Level != ansi.None && c.Lang != "" && l.highlightAllowed(c.Lang, text) {
		if toks, ok := highlight.Tokens(c.Lang, text); ok {
			code = l.tokenLines(toks)
		}
	}
	if code == nil {
		for _, ln := range strings.Split(text, "\n") {
			if ln == "" {
				code = append(code, nil)
				continue
			}
			code = append(code, ansi.Line{{Text: ln}})
		}
	}
	pad := ansi.Span{Text: blank(indent)}
	// A continuation piece keeps the indent, its last two cells replaced
	// by the marker; with no indent the marker takes one cell of its own.
	cont := ansi.Span{Text: blank(indent-2) + "↪ ", Style: l.st.Dim}
	contAvail := avail
	if indent < 2 {
		cont.Text = "↪"
		contAvail = max(avail-1, 1)
	}
	for _, ln := range code {
		if len(ln) == 0 {
			out = append(out, nil)
			continue
		}
		for i, part := range breakLine(ln, avail, contAvail) {
			p := pad
			if i > 0 {
				p = cont
			}
			if p.Text != "" {
				nl := make(ansi.Line, 0, len(part)+1)
				part = append(append(nl, p), part...)
			}
			out = append(out, part)
		}
	}
	return out
}

// highlightAllowed charges a code block to its lexer's budget and reports
// whether it fits.
func (l *layouter) highlightAllowed(lang, text string) bool {
	if highlight.Fast(lang) {
		if len(text) > nativeBudget-l.highlightedNative {
			return false
		}
		l.highlightedNative += len(text)
		return true
	}
	cost := max(len(text), chromaBlockCost)
	if cost > chromaBudget-l.highlightedChroma {
		return false
	}
	l.highlightedChroma += cost
	return true
}

// tokenLines splits highlighted tokens into lines of styled spans.
func (l *layouter) tokenLines(toks []highlight.Token) []ansi.Line {
	var out []ansi.Line
	var cur ansi.Line
	for _, t := range toks {
		st := l.syntaxStyle(t.Kind)
		s := t.Text
		for {
			i := strings.IndexByte(s, '\n')
			part := s
			if i >= 0 {
				part = s[:i]
			}
			if part != "" {
				cur = append(cur, ansi.Span{Text: part, Style: st})
			}
			if i < 0 {
				break
			}
			out = append(out, cur)
			cur = nil
			s = s[i+1:]
		}
	}
	return append(out, cur)
}

// syntaxStyle maps a token kind to the theme's style.
func (l *layouter) syntaxStyle(k highlight.Kind) ansi.Style {
	switch k {
	case highlight.Keyword:
		return l.st.Keyword
	case highlight.String:
		return l.st.String
	case highlight.Number:
		return l.st.Number
	case highlight.Comment:
		return l.st.Comment
	case highlight.Function:
		return l.st.Function
	case highlight.Type:
		return l.st.Type
	case highlight.Operator:
		return l.st.Operator
	case highlight.Inserted:
		return l.st.Success
	case highlight.Deleted:
		return l.st.Danger
	case highlight.Heading:
		return Over(l.st.Accent, l.st.Strong)
	}
	return ansi.Style{}
}

// breakLine splits a line of spans between grapheme clusters into a first
// piece of at most width cells and further pieces of at most rest cells.
// A line that fits is returned as is.
func breakLine(ln ansi.Line, width, rest int) []ansi.Line {
	if ln.Width() <= width {
		return []ansi.Line{ln}
	}
	var out []ansi.Line
	var cur ansi.Line
	curW := 0
	for _, sp := range ln {
		t := sp.Text
		start, pos, state := 0, 0, -1
		for pos < len(t) {
			cluster, _, _, ns := uniseg.FirstGraphemeClusterInString(t[pos:], state)
			state = ns
			cw := ansi.Width(cluster)
			if curW > 0 && curW+cw > width {
				if pos > start {
					cur = append(cur, ansi.Span{Text: t[start:pos], Style: sp.Style, Link: sp.Link})
				}
				out = append(out, cur)
				cur, curW, start = nil, 0, pos
				width = rest
			}
			curW += cw
			pos += len(cluster)
		}
		if pos > start {
			cur = append(cur, ansi.Span{Text: t[start:pos], Style: sp.Style, Link: sp.Link})
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
