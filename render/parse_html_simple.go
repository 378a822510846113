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
	end := len(b) > 1 && b[1] == '/'
	i := 1
	if end {
		i = 2
	}
	var name [maxSimpleName]byte
	n, i, ok := simpleName(b, i, &name)
	if !ok {
		return 0, false
	}
	var attrs htmlAttrs
	i, selfClosing, ok := simpleAttrs(b, i, end, &attrs, h != nil)
	if ok && h != nil {
		h.simpleTag(name[:n], end, &attrs, selfClosing)
	}
	return i, ok
}

// simpleName reads the tag name at b[i:] into name in lower case and
// returns its length and where it ends. It reports false for a name
// that is missing, starts with a digit, is longer than maxSimpleName or
// names an element whose content the tokenizer reads as text.
func simpleName(b []byte, i int, name *[maxSimpleName]byte) (n, end int, ok bool) {
	for ; i < len(b) && isClass(b[i], classTagName); i, n = i+1, n+1 {
		if n == maxSimpleName {
			return 0, 0, false
		}
		name[n] = b[i] | 0x20 // digits and '-' have the bit already
	}
	// A missing name leaves name[0] zero; a leading '-' is below '9' too.
	return n, i, name[0] > '9' && !rawTextName(name[:n])
}

// simpleAttrs reads the attributes from b[i:] to the end of the tag
// into a (when read is set) and returns where the tag ends and whether
// it is self-closing. It reports false for an unterminated tag, an end
// tag with attributes, or attributes with no space between them.
func simpleAttrs(b []byte, i int, end bool, a *htmlAttrs, read bool) (int, bool, bool) {
	for {
		at := i
		i = skipClass(b, i, classHTMLSpace)
		if n, selfClosing := tagClose(b[i:]); n > 0 {
			return i + n, selfClosing, true
		}
		if end || i == at || i == len(b) {
			return 0, false, false
		}
		var ok bool
		if i, ok = simpleAttr(b, i, a, read); !ok {
			return 0, false, false
		}
	}
}

// tagClose returns the length of the `>` or `/>` that b starts with (0
// when neither), and whether it is `/>`.
func tagClose(b []byte) (int, bool) {
	if len(b) > 0 && b[0] == '>' {
		return 1, false
	}
	if len(b) > 1 && b[0] == '/' && b[1] == '>' {
		return 2, true
	}
	return 0, false
}

// simpleTag adds a tag simpleHTML read, as tokens would.
func (h *htmlBuilder) simpleTag(name []byte, end bool, attrs *htmlAttrs, selfClosing bool) {
	if end {
		h.endTag(name)
		return
	}
	kind := htmlKindOf(name)
	if h.skipping(kind, name, selfClosing) || h.pre() != nil && kind != hBreak {
		return
	}
	h.start(kind, name, *attrs, selfClosing)
}

// simpleAttr reads the attribute at b[i:] into a (when read is set) and
// returns where it ends.
func simpleAttr(b []byte, i int, a *htmlAttrs, read bool) (int, bool) {
	k := i
	i = skipClass(b, i, classAttrName)
	key := b[k:i]
	if len(key) == 0 {
		return 0, false
	}
	val, i, ok := attrValue(b, i)
	if !ok {
		return 0, false
	}
	if read {
		if k := attrName(key); k != "" {
			a.set(k, decodeEntities(val))
		}
	}
	return i, true
}

// attrValue reads the `= value` that may follow an attribute's name,
// which ends at b[i:], and returns the value and where it ends (i when
// there is none).
func attrValue(b []byte, i int) ([]byte, int, bool) {
	j := skipClass(b, i, classHTMLSpace)
	if j == len(b) || b[j] != '=' {
		return nil, i, true
	}
	j = skipClass(b, j+1, classHTMLSpace)
	if j == len(b) {
		return nil, 0, false
	}
	if q := b[j]; q == '"' || q == '\'' {
		return quotedValue(b, j)
	}
	return unquotedValue(b, j)
}

// quotedValue reads the value quoted by the quote at b[j].
func quotedValue(b []byte, j int) ([]byte, int, bool) {
	e := bytes.IndexByte(b[j+1:], b[j])
	if e < 0 {
		return nil, 0, false
	}
	return b[j+1 : j+1+e], j + 2 + e, true
}

// unquotedValue reads the unquoted value at b[j:]: up to white space or
// '>', with none of "'=<` in it.
func unquotedValue(b []byte, j int) ([]byte, int, bool) {
	v := skipOutside(b, j, classValueEnd|classValueBad)
	return b[j:v], v, v > j && (v == len(b) || !isClass(b[v], classValueBad))
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
