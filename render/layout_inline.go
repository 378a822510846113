package render

import (
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/sanitize"
)

// flatten turns inline content into runs in style st (with hyperlink target
// link, "" for none), appending to dst.
func (l *layouter) flatten(dst []run, content []Inline, st ansi.Style, link string) []run {
	for _, n := range content {
		switch n := n.(type) {
		case *Link:
			dst = l.flattenLink(dst, n, st)
		case *WikiLink:
			dst = l.flattenWikiLink(dst, n, st)
		case *Image:
			dst = l.flattenImage(dst, n, st)
		case *InlineDirective:
			dst = l.inlineDirective(dst, n, st, link)
		case *FootnoteRef:
			dst = l.footnoteRef(dst, n, st, link)
		case styledInline:
			dst = l.flatten(dst, n.inlines(), Over(st, n.styleIn(&l.st)), link)
		default:
			dst = l.flattenText(dst, n, st, link)
		}
	}
	return dst
}

// styledInline is an inline whose content is drawn in a style of its own
// over the surrounding one: emphasis, strong and strikethrough.
type styledInline interface {
	inlineParent
	styleIn(st *Styles) ansi.Style
}

func (*Emphasis) styleIn(st *Styles) ansi.Style      { return st.Emphasis }
func (*Strong) styleIn(st *Styles) ansi.Style        { return st.Strong }
func (*Strikethrough) styleIn(st *Styles) ansi.Style { return st.Strike }

// flattenText appends the run of a leaf of text: text, a line break, code
// or an emoji. Empty text and code draw nothing.
func (l *layouter) flattenText(dst []run, n Inline, st ansi.Style, link string) []run {
	text := ""
	switch n := n.(type) {
	case *Text:
		text = n.Text
	case *SoftBreak:
		text = " "
	case *HardBreak:
		return append(dst, run{brk: true})
	case *CodeSpan:
		text, st = n.Text, Over(st, l.st.Code)
	case *Emoji:
		return append(dst, run{text: l.emoji(n), style: st, link: link})
	}
	if text == "" {
		return dst
	}
	return append(dst, run{text: text, style: st, link: link, target: l.inLink})
}

// emoji is an emoji's text, or its shortcode when Options.NoEmoji is set.
func (l *layouter) emoji(n *Emoji) string {
	if l.opt.NoEmoji {
		return ":" + n.Shortcode + ":"
	}
	return n.Text
}

// flattenLink draws a link per SPEC §7.3: an OSC 8 hyperlink when color is
// on and the URL may be linked, else the text followed by the URL in
// parentheses (or the URL alone when the text is the URL). A hyperlink
// whose text names another host than its target's is followed by the real
// host, `https://bank.com (→ evil.example)`, so the destination is never
// hidden behind a terminal's link (see misleadingLink).
//
// Every run of the link, its printed address and host included, carries
// one target, so the page can say where the link is however it wraps.
func (l *layouter) flattenLink(dst []run, n *Link, st ansi.Style) []run {
	if n.URL == "" {
		return l.flatten(dst, n.Content, st, "")
	}
	outer := l.inLink
	l.inLink = l.newTarget(n.URL)
	defer func() { l.inLink = outer }()
	// A link whose whole text is an image (a README's badge) is drawn as
	// the image's label, as the link: the image's own address is not shown.
	content, text := n.Content, ""
	if img := soleImage(n.Content); img != nil {
		content, text = []Inline{&Text{Text: imageLabel(img)}}, img.Alt
	}
	hyperlink := ""
	if l.opt.Level != ansi.None && ansi.LinkAllowed(n.URL) {
		if !l.opt.ShowURLs {
			return l.hyperlinkText(dst, n, content, text, st)
		}
		// ShowURLs prints the address as the no-color level does and
		// keeps the hyperlink on the text.
		hyperlink = n.URL
	}
	return l.printedLink(dst, n, content, text, hyperlink, st)
}

// hyperlinkText draws a link as its content carrying the hyperlink, and
// the real host after it when text names another (misleadingLink).
func (l *layouter) hyperlinkText(dst []run, n *Link, content []Inline, text string, st ansi.Style) []run {
	dst = l.flatten(dst, content, Over(st, l.st.Link), n.URL)
	if text == "" {
		text = linkText(n.Content)
	}
	if host, ok := misleadingLink(text, n.URL); ok {
		dst = l.realHost(dst, host, st)
	}
	return dst
}

// printedLink draws a link with its address printed: the address alone
// when the text is the address, else the text then the address in
// parentheses. hyperlink is the hyperlink the text carries, "" for none.
func (l *layouter) printedLink(dst []run, n *Link, content []Inline, text, hyperlink string, st ansi.Style) []run {
	if text == "" {
		text = plainText(content)
	}
	if text == n.URL || text == sanitize.Visible(n.URL) || text == "" {
		return append(dst, run{text: sanitize.Visible(n.URL), style: Over(st, l.st.Link), link: hyperlink, target: l.inLink})
	}
	if n.URL == "mailto:"+text {
		// An email autolink prints the address as written.
		return append(dst, run{text: text, style: Over(st, l.st.Link), link: hyperlink, target: l.inLink})
	}
	dst = l.flatten(dst, content, Over(st, l.st.Link), hyperlink)
	dst = append(dst, run{text: " (" + sanitize.Visible(n.URL) + ")", style: Over(st, l.st.Dim), target: l.inLink})
	// The URL is printed, but a look-alike host in it (Cyrillic а for a)
	// still reads as the text's; its Punycode form cannot.
	if host, ok := misleadingLink(text, n.URL); ok && !strings.Contains(n.URL, host) {
		dst = l.realHost(dst, host, st)
	}
	return dst
}

// realHost appends a link's real host, ` (→ host)`, after its text.
func (l *layouter) realHost(dst []run, host string, st ansi.Style) []run {
	return append(dst, run{text: " (→\u00a0" + host + ")", style: Over(st, l.st.Dim), target: l.inLink})
}

// flattenWikiLink draws a wikilink: as a link to the note
// Options.WikiLinks resolves it to, else as its label in the muted style
// and never a hyperlink.
func (l *layouter) flattenWikiLink(dst []run, n *WikiLink, st ansi.Style) []run {
	if l.opt.WikiLinks != nil {
		if u := sanitize.LinkURL(l.opt.WikiLinks(n.Target, n.Heading)); u != "" {
			return l.flattenLink(dst, &Link{URL: u, Content: n.Content}, st)
		}
	}
	return l.flatten(dst, n.Content, Over(st, l.st.Muted), "")
}

// flattenImage draws an image as `[alt] (src)`; images are never fetched.
func (l *layouter) flattenImage(dst []run, n *Image, st ansi.Style) []run {
	dst = append(dst, run{text: imageLabel(n), style: Over(st, l.st.Muted)})
	if n.URL == "" {
		return dst
	}
	link, target := "", l.inLink
	if l.opt.Level != ansi.None && ansi.LinkAllowed(n.URL) {
		link = n.URL
		if target == 0 {
			target = l.newTarget(n.URL)
		}
	}
	return append(dst, run{text: " (" + sanitize.Visible(n.URL) + ")", style: Over(st, l.st.Dim), link: link, target: target})
}

// linkText is plainText for a link's content, without building a string
// for the common link of one plain text.
func linkText(content []Inline) string {
	if len(content) == 1 {
		if t, ok := content[0].(*Text); ok {
			return t.Text
		}
	}
	return plainText(content)
}

// plainText returns the visible text of inline content without styles.
func plainText(content []Inline) string {
	var b strings.Builder
	appendPlain(&b, content)
	return b.String()
}

func appendPlain(b *strings.Builder, content []Inline) {
	walkText(content, " ", func(t string) bool {
		b.WriteString(t)
		return true
	})
}

// walkText hands emit the plain text of in, in order: text, code and alt
// text as written and every line break as brk, stopping as soon as emit
// returns false. It reports whether it went through to the end.
func walkText(in []Inline, brk string, emit func(string) bool) bool {
	for _, n := range in {
		ok := true
		switch n := n.(type) {
		case *Text:
			ok = emit(n.Text)
		case *SoftBreak, *HardBreak:
			ok = emit(brk)
		case *CodeSpan:
			ok = emit(n.Text)
		case *Emoji:
			ok = emit(n.Text)
		case *Image:
			ok = emit(n.Alt)
		case inlineParent:
			ok = walkText(n.inlines(), brk, emit)
		}
		if !ok {
			return false
		}
	}
	return true
}

// spansToRuns appends a component's spans as runs drawn over st; a span
// without a target of its own takes inLink, the link it is drawn in.
func spansToRuns(dst []run, spans []ansi.Span, st ansi.Style, inLink ansi.Target) []run {
	for _, s := range spans {
		if s.Text == "" {
			continue
		}
		t := s.Target
		if t == 0 {
			t = inLink
		}
		dst = append(dst, run{text: s.Text, style: Over(st, s.Style), link: s.Link, target: t})
	}
	return dst
}

// runsToSpans converts runs to spans on one line (hard breaks become a
// space).
func runsToSpans(runs []run) []ansi.Span {
	out := make([]ansi.Span, 0, len(runs))
	for _, r := range runs {
		if r.brk {
			out = append(out, ansi.Span{Text: " "})
			continue
		}
		out = append(out, ansi.Span{Text: r.text, Style: r.style, Link: r.link, Target: r.target})
	}
	return out
}
