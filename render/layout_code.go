package render

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/highlight"
	"github.com/rivo/uniseg"
)

// codeIndent is how far an unframed code block's lines are indented, and
// codeContinuation the indent of a continuation piece: the marker in its
// last two cells. A framed block's lines start after codeGutter, a
// continuation piece after codeGutter and codeWrapMark.
const (
	codeIndent       = 4
	codeContinuation = "  ↪ "
	codeGutter       = "│ "
	codeWrapMark     = "↪ "
)

// highlightBudget is how many bytes of code one layout highlights; code
// past it is drawn unhighlighted so that a huge note stays fast.
const highlightBudget = 4 << 20

// codeBlock draws a code block (fenced, with or without a language, or
// indented) in an open frame as wide as the layout: a top rule that
// carries the language (`╭─ go ───`), a `│` gutter before every line and
// a bottom rule, so code never reads as indented prose, with or without
// color. The code is syntax highlighted when color is on, and lines
// longer than the width are broken between grapheme clusters (never
// truncated); each continuation piece starts with a dim `↪` so it never
// reads as a line of its own. Where the width is too small for a frame
// the code is drawn under its language line, indented or not. An empty
// block draws nothing.
func (l *layouter) codeBlock(c *CodeBlock, width int) []ansi.Line {
	text := c.Text
	if text == "" {
		return nil
	}
	if width > 2*codeIndent {
		return l.framedCode(c, width)
	}
	indent := codeIndent
	if width <= 2*codeIndent {
		indent = 0
	}
	avail := max(width-indent, 1)
	out := l.mem.borrowLines()
	if c.Lang != "" {
		// The leading space and the name are two spans of one style, which
		// the encoder writes as one run.
		out = append(out, append(l.mem.line(2), ansi.Span{Text: " ", Style: l.st.CodeLang}, ansi.Span{Text: c.Lang, Style: l.st.CodeLang}))
	}
	code := l.codeLines(c)
	pad := ansi.Span{Text: blank(indent)}
	// A continuation piece keeps the indent, its last two cells replaced
	// by the marker; with no indent the marker takes one cell of its own.
	cont := ansi.Span{Text: "↪", Style: l.st.Dim}
	contAvail := avail
	switch {
	case indent == codeIndent:
		cont.Text = codeContinuation
	case indent < 2:
		contAvail = max(avail-1, 1)
	default:
		cont.Text = blank(indent-2) + "↪ "
	}
	out = l.gutterLines(out, code, pad, cont, avail, contAvail, false)
	l.mem.returnLines(code)
	return l.mem.keepLines(out)
}

// framedCode draws a code block in its frame at width (more than
// 2*codeIndent columns), or wider for a viewer that scrolls sideways
// (Options.ScrollWidth).
func (l *layouter) framedCode(c *CodeBlock, width int) []ansi.Line {
	out := l.mem.borrowLines()
	frame := l.st.Frame
	code := l.codeLines(c)
	if l.scrollable(width) {
		// A viewer that scrolls sideways gets the long lines whole, the
		// frame as wide as the longest, up to ScrollWidth.
		longest := 0
		for _, ln := range code {
			longest = max(longest, ln.Width())
		}
		if w := min(longest+ansi.Width(codeGutter), l.opt.ScrollWidth); w > width {
			width = w
			l.laidWide()
		}
	}
	top := append(l.mem.line(3), ansi.Span{Text: "╭", Style: frame})
	if c.Lang != "" {
		// The language sits in the top rule; a name too long for it is
		// cut to leave the rule's corner and ends visible.
		lang := truncate(c.Lang, width-6)
		top = append(top, ansi.Span{Text: "─ ", Style: frame}, ansi.Span{Text: lang, Style: l.st.CodeLang})
		top = append(top, ansi.Span{Text: " " + strings.Repeat("─", max(width-4-ansi.Width(lang), 1)), Style: frame})
	} else {
		top = append(top, ansi.Span{Text: strings.Repeat("─", width-1), Style: frame})
	}
	out = append(out, top)
	gutter := ansi.Span{Text: codeGutter, Style: frame}
	cont := ansi.Span{Text: codeWrapMark, Style: l.st.Dim}
	avail := width - ansi.Width(codeGutter)
	out = l.gutterLines(out, code, gutter, cont, avail, avail-ansi.Width(codeWrapMark), true)
	l.mem.returnLines(code)
	out = append(out, append(l.mem.line(1), ansi.Span{Text: "╰" + strings.Repeat("─", width-1), Style: frame}))
	return l.mem.keepLines(out)
}

// codeLines splits a code block's text into lines of spans, highlighted
// when color is on and its language has a lexer within the budget, in a
// borrowed line buffer.
func (l *layouter) codeLines(c *CodeBlock) []ansi.Line {
	text := c.Text
	var code []ansi.Line
	if l.opt.Level != ansi.None && c.Lang != "" && l.highlightAllowed(c.Lang, text) {
		if toks, ok := highlight.Tokens(c.Lang, text); ok {
			code = l.tokenLines(toks)
		}
	}
	if code == nil {
		code = l.mem.borrowLines()
		for rest := text; ; {
			ln, tail, more := strings.Cut(rest, "\n")
			if ln == "" {
				code = append(code, nil)
			} else {
				code = append(code, append(l.mem.line(1), ansi.Span{Text: ln}))
			}
			if !more {
				break
			}
			rest = tail
		}
	}
	return code
}

// gutterLines appends code's lines to out, each after pad, breaking a
// line wider than avail into pieces, the later ones at most contAvail
// wide after cont (after pad and cont when framed). An empty line is
// empty, or only the pad when framed.
func (l *layouter) gutterLines(out, code []ansi.Line, pad, cont ansi.Span, avail, contAvail int, framed bool) []ansi.Line {
	for _, ln := range code {
		if len(ln) == 0 {
			if framed {
				out = append(out, append(l.mem.line(1), ansi.Span{Text: strings.TrimRight(pad.Text, " "), Style: pad.Style}))
			} else {
				out = append(out, nil)
			}
			continue
		}
		if ln.Width() <= avail {
			// The usual case: the line fits and is only indented.
			if pad.Text != "" {
				ln = append(append(l.mem.line(len(ln)+1), pad), ln...)
			}
			out = append(out, ln)
			continue
		}
		for i, part := range breakLine(ln, avail, contAvail) {
			var pre []ansi.Span
			switch {
			case i == 0:
				pre = []ansi.Span{pad}
			case framed:
				pre = []ansi.Span{pad, cont}
			default:
				pre = []ansi.Span{cont}
			}
			if pre[0].Text == "" {
				pre = pre[1:]
			}
			if len(pre) > 0 {
				part = append(append(l.mem.line(len(part)+len(pre)), pre...), part...)
			}
			out = append(out, part)
		}
	}
	return out
}

// highlightAllowed charges a code block to the highlighting budget and
// reports whether its language has a lexer and the block fits.
func (l *layouter) highlightAllowed(lang, text string) bool {
	if !highlight.Supported(lang) || len(text) > highlightBudget-l.highlighted {
		return false
	}
	l.highlighted += len(text)
	return true
}

// tokenLines splits highlighted tokens into lines of styled spans, in a
// borrowed line buffer (see borrowLines).
func (l *layouter) tokenLines(toks []highlight.Token) []ansi.Line {
	out := l.mem.borrowLines()
	// cur collects a line's spans; each finished line is copied into
	// exactly sized storage.
	cur := l.mem.spanScratch[:0]
	end := func() {
		var ln ansi.Line
		if len(cur) > 0 {
			ln = append(l.mem.line(len(cur)), cur...)
		}
		out = append(out, ln)
		cur = cur[:0]
	}
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
			end()
			s = s[i+1:]
		}
	}
	end()
	if cap(cur) > 256 {
		cur = nil
	}
	clear(cur[:cap(cur)])
	l.mem.spanScratch = cur[:0]
	return out
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
// A piece ends where a word does (after a space or a mark, before or
// after a run of letters, digits and underscores) when the piece has
// such a place, so that no word is cut in two unless it is longer than a
// piece. A line that fits is returned as is.
func breakLine(ln ansi.Line, width, rest int) []ansi.Line {
	if ln.Width() <= width {
		return []ansi.Line{ln}
	}
	cs := lineClusters(ln)
	var out []ansi.Line
	from, curW, lastBreak := 0, 0, -1
	for i := 0; i < len(cs); i++ {
		if curW > 0 && curW+cs[i].w > width {
			cut := i
			if !wordBreak(cs, i) && lastBreak > from {
				cut = lastBreak
			}
			out = append(out, cutOf(ln, cs[from:cut]))
			from, curW, lastBreak, width = cut, 0, -1, rest
			for k := cut; k < i; k++ {
				curW += cs[k].w
				if k > cut && wordBreak(cs, k) {
					lastBreak = k
				}
			}
		}
		if i > from && wordBreak(cs, i) {
			lastBreak = i
		}
		curW += cs[i].w
	}
	if from < len(cs) {
		out = append(out, cutOf(ln, cs[from:]))
	}
	return out
}

// lineCluster is a grapheme cluster of a line: the span it is in, its
// byte range in that span's text, its width, and whether it is part of
// a word (a letter, digit or underscore).
type lineCluster struct {
	span, start, end, w int
	word                bool
}

// lineClusters splits ln's spans into grapheme clusters.
func lineClusters(ln ansi.Line) []lineCluster {
	var cs []lineCluster
	for i, sp := range ln {
		t := sp.Text
		pos, state := 0, -1
		for pos < len(t) {
			c, _, _, ns := uniseg.FirstGraphemeClusterInString(t[pos:], state)
			state = ns
			r, _ := utf8.DecodeRuneInString(c)
			cs = append(cs, lineCluster{span: i, start: pos, end: pos + len(c), w: ansi.Width(c), word: r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)})
			pos += len(c)
		}
	}
	return cs
}

// wordBreak reports whether a line may break before cs[i] without
// cutting a word in two.
func wordBreak(cs []lineCluster, i int) bool { return !(cs[i-1].word && cs[i].word) }

// cutOf is the part of ln that clusters cs cover, one span for each of
// ln's spans they touch.
func cutOf(ln ansi.Line, cs []lineCluster) ansi.Line {
	var cur ansi.Line
	for i := 0; i < len(cs); {
		j := i
		for j < len(cs) && cs[j].span == cs[i].span {
			j++
		}
		sp := ln[cs[i].span]
		cur = append(cur, ansi.Span{Text: sp.Text[cs[i].start:cs[j-1].end], Style: sp.Style, Link: sp.Link, Target: sp.Target})
		i = j
	}
	return cur
}
