package render

import (
	"bytes"

	"golang.org/x/net/html"
)

// simpleHTML reads raw HTML made of text and plain start and end tags
// (the usual `<p align="center">`, `<img src=… width=…>`, `<a href=…>`)
// without the HTML5 tokenizer, which allocates a 4 KB buffer for every
// raw HTML block and inline tag. With h nil it only reports whether b is
// such HTML; with h set it feeds b's tokens to h, as tokens would. Any
// comment, declaration, processing instruction, element whose content
// the tokenizer reads as raw text (script, style, textarea…), a tag name
// or attribute it does not expect, or an unterminated tag makes it
// report false, and the tokenizer reads b instead.
func simpleHTML(b []byte, h *htmlBuilder) bool {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			j = len(b) - i
		}
		if j > 0 && h != nil {
			h.text(decodeEntities(b[i : i+j]))
		}
		i += j
		if i == len(b) {
			break
		}
		n, ok := simpleTag(b[i:], h)
		if !ok {
			return false
		}
		i += n
	}
	return true
}

// decodeEntities returns t with its character references decoded.
func decodeEntities(t []byte) []byte {
	if bytes.IndexByte(t, '&') < 0 {
		return t
	}
	return []byte(html.UnescapeString(string(t)))
}

// tokenizerOnly makes every raw HTML go through the tokenizer, for the
// tests that hold simpleHTML to the tokenizer's reading.
var tokenizerOnly = false

// maxSimpleName is the longest tag name simpleHTML reads.
const maxSimpleName = 16

// simpleTag reads the tag at the start of b and, with h set, adds it;
// it returns the tag's length, or false when the tokenizer must read it.
func simpleTag(b []byte, h *htmlBuilder) (int, bool) {
	i, end := 1, false
	if i < len(b) && b[i] == '/' {
		i, end = 2, true
	}
	var name [maxSimpleName]byte
	n := 0
	for i < len(b) && (isASCIIAlnum(b[i]) || n > 0 && b[i] == '-') {
		if n == maxSimpleName {
			return 0, false
		}
		name[n] = b[i] | 0x20
		if b[i] <= '9' || b[i] == '-' {
			name[n] = b[i]
		}
		n, i = n+1, i+1
	}
	if n == 0 || name[0] <= '9' || rawTextName(name[:n]) {
		return 0, false
	}
	var attrs htmlAttrs
	selfClosing := false
	for {
		at := i
		for i < len(b) && isHTMLSpace(b[i:i+1]) {
			i++
		}
		if i >= len(b) {
			return 0, false
		}
		if b[i] == '>' {
			i++
			break
		}
		if b[i] == '/' && i+1 < len(b) && b[i+1] == '>' {
			i, selfClosing = i+2, true
			break
		}
		if end || i == at {
			return 0, false // an end tag's attributes, or none between two
		}
		var ok bool
		if i, ok = simpleAttr(b, i, &attrs, h != nil); !ok {
			return 0, false
		}
	}
	if h == nil {
		return i, true
	}
	if end {
		h.endTag(name[:n])
		return i, true
	}
	kind := htmlKindOf(name[:n])
	if h.skipping(kind, name[:n], selfClosing) || h.pre() != nil && kind != hBreak {
		return i, true
	}
	h.start(kind, name[:n], attrs, selfClosing)
	return i, true
}

// simpleAttr reads the attribute at b[i:] into a (when read is set) and
// returns where it ends.
func simpleAttr(b []byte, i int, a *htmlAttrs, read bool) (int, bool) {
	k := i
	for i < len(b) && (isASCIIAlnum(b[i]) || b[i] == '-' || b[i] == '_' || b[i] == ':' || b[i] == '.') {
		i++
	}
	key := b[k:i]
	if len(key) == 0 {
		return 0, false
	}
	var val []byte
	j := i
	for j < len(b) && isHTMLSpace(b[j:j+1]) {
		j++
	}
	if j < len(b) && b[j] == '=' {
		j++
		for j < len(b) && isHTMLSpace(b[j:j+1]) {
			j++
		}
		if j >= len(b) {
			return 0, false
		}
		switch q := b[j]; q {
		case '"', '\'':
			e := bytes.IndexByte(b[j+1:], q)
			if e < 0 {
				return 0, false
			}
			val, i = b[j+1:j+1+e], j+2+e
		default:
			v := j
			for j < len(b) && !isHTMLSpace(b[j:j+1]) && b[j] != '>' {
				if c := b[j]; c == '"' || c == '\'' || c == '=' || c == '<' || c == '`' {
					return 0, false
				}
				j++
			}
			if j == v {
				return 0, false
			}
			val, i = b[v:j], j
		}
	}
	if read {
		if k := attrName(key); k != "" {
			a.set(k, decodeEntities(val))
		}
	}
	return i, true
}

// attrName returns the attribute name markii reads that key is, in any
// case, or "".
func attrName(key []byte) string {
	for _, k := range [...]string{"align", "href", "src", "srcset", "alt", "open", "width", "height", "start"} {
		if bytes.EqualFold(key, []byte(k)) {
			return k
		}
	}
	return ""
}

// rawTextName reports whether the element named name has content the
// tokenizer reads as text (raw text, escapable raw text or plaintext).
func rawTextName(name []byte) bool {
	switch string(name) {
	case "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext":
		return true
	}
	return false
}
