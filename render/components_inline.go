package render

import (
	"github.com/markii/markii/ansi"
	"github.com/markii/markii/value"
)

// inlineComponents are the standard components drawn inside a line.
func inlineComponents() []Component {
	return []Component{
		{Name: "badge", Form: FormInline, Inline: badge},
		{Name: "kbd", Form: FormInline, Inline: kbd},
		{Name: "value", Form: FormInline, Inline: valueRef},
	}
}

// badge draws a pill: ` label ` in inverse video of the variant's color,
// or `[label]` without color.
func badge(c *Context) []ansi.Span {
	k := newKit(c)
	variant := k.enum("variant", "neutral", "neutral", "info", "success", "warning", "danger")
	label := c.Inline(c.Label)
	if c.Level() == ansi.None {
		spans := append([]ansi.Span{{Text: "[", Style: c.Style}}, label...)
		return k.inlineMarkers(append(spans, ansi.Span{Text: "]", Style: c.Style}))
	}
	tone := k.st.tone(variant, k.st.Muted)
	pill := Over(Over(c.Style, tone), ansi.Style{Inverse: true, Bold: true})
	spans := []ansi.Span{{Text: " ", Style: pill}}
	for _, s := range label {
		s.Style = Over(s.Style, pill)
		spans = append(spans, s)
	}
	spans = append(spans, ansi.Span{Text: " ", Style: pill})
	return k.inlineMarkers(spans)
}

// kbd draws a key: `[` + bold label + `]`.
func kbd(c *Context) []ansi.Span {
	frame := Over(c.Style, c.Styles().Dim)
	spans := []ansi.Span{{Text: "[", Style: frame}}
	for _, s := range c.Inline(c.Label) {
		s.Style = Over(s.Style, ansi.Style{Bold: true})
		spans = append(spans, s)
	}
	return append(spans, ansi.Span{Text: "]", Style: frame})
}

// valueRef draws `:value[path]{format decimals}` by the path's status:
// fresh shows the formatted value; stale the value underlined plus a dim
// ` (stale)`; error `{path}` in the failure color plus a dim ` (<failure
// phrase>)`; missing a dim `{path}`.
func valueRef(c *Context) []ansi.Span {
	k := newKit(c)
	path := c.LabelText()
	r := NewValueReader(c.Values()).Resolve(path)
	shown := "{" + path + "}"
	if path == "" {
		shown = "{value}"
	}
	switch r.Status {
	case value.Fresh, value.Stale:
		text := k.text(r.Value, k.str("format", ""), k.str("decimals", ""))
		if r.Status == value.Fresh {
			return []ansi.Span{{Text: text, Style: c.Style}}
		}
		return []ansi.Span{
			{Text: text, Style: Over(c.Style, ansi.Style{Underline: true})},
			{Text: r.Suffix(), Style: Over(c.Style, k.st.Dim)},
		}
	case value.Error:
		return []ansi.Span{
			{Text: shown, Style: Over(c.Style, k.st.Failure(r.FailureKind))},
			{Text: " (" + r.FailureKind.Phrase() + ")", Style: Over(c.Style, k.st.Dim)},
		}
	}
	return []ansi.Span{{Text: shown, Style: Over(c.Style, k.st.Dim)}}
}
