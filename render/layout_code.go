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
		top = append(top, ansi.Span{Text: ruleCut(spacedRule, 1, "─", max(width-4-ansi.Width(lang), 1)), Style: frame})
	} else {
		top = append(top, ansi.Span{Text: ruleCut(lightRules, 0, "─", width-1), Style: frame})
	}
	out = append(out, top)
	gutter := ansi.Span{Text: codeGutter, Style: frame}
	cont := ansi.Span{Text: codeWrapMark, Style: l.st.Dim}
	avail := width - ansi.Width(codeGutter)
	out = l.gutterLines(out, code, gutter, cont, avail, avail-ansi.Width(codeWrapMark), true)
	l.mem.returnLines(code)
	out = append(out, append(l.mem.line(1), ansi.Span{Text: ruleCut(cornerRule, len("╰"), "─", width-1), Style: frame}))
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
		switch {
		case len(ln) == 0:
			out = append(out, l.emptyCodeLine(pad, framed))
		case ln.Width() <= avail:
			// The usual case: the line fits and is only indented.
			out = append(out, l.prefixCode(ln, []ansi.Span{pad}))
		default:
			for i, part := range breakLine(ln, avail, contAvail) {
				pre, n := codePrefix(i, pad, cont, framed)
				out = append(out, l.prefixCode(part, pre[:n]))
			}
		}
	}
	return out
}

// emptyCodeLine is an empty line of code: empty, or the pad without its
// trailing spaces when framed.
func (l *layouter) emptyCodeLine(pad ansi.Span, framed bool) ansi.Line {
	if !framed {
		return nil
	}
	return append(l.mem.line(1), ansi.Span{Text: strings.TrimRight(pad.Text, " "), Style: pad.Style})
}

// codePrefix is what piece i of a broken line of code starts with, the
// first n spans of pre: pad on the first piece, then cont (after pad when
// framed).
func codePrefix(i int, pad, cont ansi.Span, framed bool) (pre [2]ansi.Span, n int) {
	switch {
	case i == 0:
		return [2]ansi.Span{pad}, 1
	case framed:
		return [2]ansi.Span{pad, cont}, 2
	}
	return [2]ansi.Span{cont}, 1
}

// prefixCode returns part after pre, whose first span is left out when it
// has no text.
func (l *layouter) prefixCode(part ansi.Line, pre []ansi.Span) ansi.Line {
	if pre[0].Text == "" {
		pre = pre[1:]
	}
	if len(pre) == 0 {
		return part
	}
	return append(append(l.mem.line(len(part)+len(pre)), pre...), part...)
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
	syntax := l.st.syntax()
	for _, t := range toks {
		st := syntax.of(t.Kind)
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

// syntaxStyles is the theme's style of each token kind, by kind.
type syntaxStyles [highlight.Heading + 1]ansi.Style

// syntax returns the theme's syntaxStyles.
func (st *Styles) syntax() syntaxStyles {
	return syntaxStyles{
		highlight.Keyword:  st.Keyword,
		highlight.String:   st.String,
		highlight.Number:   st.Number,
		highlight.Comment:  st.Comment,
		highlight.Function: st.Function,
		highlight.Type:     st.Type,
		highlight.Operator: st.Operator,
		highlight.Inserted: st.Success,
		highlight.Deleted:  st.Danger,
		highlight.Heading:  Over(st.Accent, st.Strong),
	}
}

// of is the style of token kind k; plain text, and a kind it does not
// know, are drawn plainly.
func (s *syntaxStyles) of(k highlight.Kind) ansi.Style {
	if int(k) < len(s) {
		return s[k]
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
			cut := cutAt(cs, i, from, lastBreak)
			out = append(out, cutOf(ln, cs[from:cut]))
			from, width = cut, rest
			curW, lastBreak = measureFrom(cs, cut, i)
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

// cutAt is where a piece from cluster from that cluster i does not fit in
// ends: at i when a word breaks there, else at the piece's last word
// break, lastBreak, if it has one.
func cutAt(cs []lineCluster, i, from, lastBreak int) int {
	if !wordBreak(cs, i) && lastBreak > from {
		return lastBreak
	}
	return i
}

// measureFrom returns the width of clusters cs[cut:i], the start of a new
// piece, and its last word break after cut (-1 for none).
func measureFrom(cs []lineCluster, cut, i int) (w, lastBreak int) {
	lastBreak = -1
	for k := cut; k < i; k++ {
		w += cs[k].w
		if k > cut && wordBreak(cs, k) {
			lastBreak = k
		}
	}
	return w, lastBreak
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
