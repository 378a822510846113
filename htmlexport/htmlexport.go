// Package htmlexport writes a note as one self-contained HTML file that
// runs nothing and fetches nothing.
//
// It is a renderer over the sanitized tree render.Parse makes, beside the
// terminal layout: markdown becomes its HTML elements, the structural
// components (callout, card, details, tabs, figure, row and cell, the
// alignment and width wrappers, divider, badge, kbd) become semantic
// elements, and every other component (values, stats, charts, tables of
// data, fallbacks for unknown names) is drawn by render's own layout and
// written as its styled text, so it shows exactly what the terminal shows.
//
// The file carries its style sheet inline, built from the theme, and a
// Content-Security-Policy that allows that style sheet (by its hash) and
// data: images and nothing else: no script, no connection, no remote
// image, font or frame. Links are written only for the http, https,
// mailto and tel schemes and for the page's own fragments; images only
// when the caller handed over their bytes (bundle-local files), as
// data: URIs within size caps. Raw HTML in the note never reaches the
// tree, and every text and attribute is escaped.
package htmlexport

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/render/highlight"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// Caps on the images embedded as data: URIs: one image, and all of them.
const (
	MaxImageBytes  = 2 << 20
	MaxImagesBytes = 8 << 20
)

// componentWidth is the width, in cells, at which components drawn by
// render's layout are laid out.
const componentWidth = 80

// Options are what an export needs beside the document.
type Options struct {
	// Title is the page title; "" uses the first heading, else "markii note".
	Title string
	// Theme is the palette of the style sheet and of component text.
	Theme theme.Theme
	// Values are the stored script values components show; nil means none.
	Values value.Values
	// Now is the clock for relative dates.
	Now time.Time
	// Registry maps directive names to components; nil means the standard
	// registry.
	Registry *render.Registry
	// Images maps an image source, exactly as the document writes it, to
	// the bytes of that local file. Only PNG, JPEG and GIF bytes within the
	// caps are embedded; any other source keeps its text form.
	Images map[string][]byte
}

// Result is an exported page.
type Result struct {
	// HTML is the whole file.
	HTML []byte
	// Diagnostics are the problems with the note found while exporting.
	Diagnostics []string
}

// Render writes doc as a self-contained HTML page.
func Render(doc *render.Document, opt Options) Result {
	if opt.Theme.Name == "" {
		opt.Theme = theme.Dark
	}
	w := &writer{opt: opt, classes: map[ansi.Style]int{}, ids: map[string]int{}, fnRefs: map[int]int{}}
	w.blocks(doc.Blocks)
	if doc.Flattened {
		w.diagnose("the note nests deeper than markii draws; the deepest parts are flattened")
	}
	title := opt.Title
	if title == "" {
		title = firstHeading(doc.Blocks)
	}
	if title == "" {
		title = "markii note"
	}
	css := w.styleSheet()
	sum := sha256.Sum256([]byte(css))
	var out bytes.Buffer
	out.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&out, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", html.EscapeString(Policy(base64.StdEncoding.EncodeToString(sum[:]))))
	out.WriteString("<meta name=\"referrer\" content=\"no-referrer\">\n")
	out.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&out, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<main>\n", html.EscapeString(title), css)
	out.WriteString(w.b.String())
	out.WriteString("</main>\n</body>\n</html>\n")
	return Result{HTML: out.Bytes(), Diagnostics: w.diags}
}

// Policy is the Content-Security-Policy of an exported page whose style
// sheet has the given base64 SHA-256 hash: nothing may load or run but
// that style sheet and data: images.
func Policy(styleHash string) string {
	return "default-src 'none'; img-src data:; style-src 'sha256-" + styleHash + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// writer accumulates the body of one page.
type writer struct {
	opt        Options
	b          strings.Builder
	classes    map[ansi.Style]int // span style → its class number
	styles     []ansi.Style       // by class number
	ids        map[string]int     // heading id → times used
	fnRefs     map[int]int        // footnote number → references written
	imageBytes int
	diags      []string
}

func (w *writer) diagnose(d string) { w.diags = append(w.diags, d) }

// text writes escaped text.
func (w *writer) text(s string) { w.b.WriteString(html.EscapeString(s)) }

// open writes a start tag with escaped attribute values, given as name,
// value pairs.
func (w *writer) open(tag string, attrs ...string) {
	w.b.WriteByte('<')
	w.b.WriteString(tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.b.WriteByte(' ')
		w.b.WriteString(attrs[i])
		w.b.WriteString(`="`)
		w.b.WriteString(html.EscapeString(attrs[i+1]))
		w.b.WriteByte('"')
	}
	w.b.WriteByte('>')
}

func (w *writer) close(tag string) {
	w.b.WriteString("</")
	w.b.WriteString(tag)
	w.b.WriteString(">")
}

func (w *writer) blocks(bs []render.Block) {
	for _, b := range bs {
		w.block(b)
	}
}

func (w *writer) block(b render.Block) {
	switch b := b.(type) {
	case *render.Heading:
		tag := "h" + strconv.Itoa(min(max(b.Level, 1), 6))
		w.open(tag, "id", w.headingID(render.PlainText(b.Content)))
		w.inlines(b.Content)
		w.close(tag)
	case *render.Paragraph:
		w.wrap("p", b.Content)
	case *render.CodeBlock:
		w.code(b.Lang, b.Text)
	case *render.ScriptBlock:
		w.scriptBlock(b)
	case *render.ThematicBreak:
		w.b.WriteString("<hr>")
	default:
		w.container(b)
	}
	w.b.WriteByte('\n')
}

// container writes a block that holds other blocks or cells: a quote,
// list, table, directive or the footnotes.
func (w *writer) container(b render.Block) {
	switch b := b.(type) {
	case *render.Quote:
		w.open("blockquote")
		w.blocks(b.Blocks)
		w.close("blockquote")
	case *render.List:
		w.list(b)
	case *render.Table:
		w.table(b)
	case *render.Directive:
		w.directive(b)
	case *render.Footnotes:
		w.footnotes(b)
	}
}

// scriptBlock writes a script block as its label: the script's name and
// its own label.
func (w *writer) scriptBlock(b *render.ScriptBlock) {
	label := "⚙ " + b.Name
	if b.Label != "" {
		label += " · " + b.Label
	}
	w.open("p", "class", "script")
	w.text(label)
	w.close("p")
}

// footnotes writes the footnotes section: each note is a list item with
// the id its references link to and a link back to its first reference.
// The ids hold a colon, which heading ids never do.
func (w *writer) footnotes(f *render.Footnotes) {
	w.open("section", "class", "footnotes")
	w.b.WriteString("<hr>\n<ol>\n")
	for _, fn := range f.Notes {
		n := strconv.Itoa(fn.Number)
		w.open("li", "id", "fn:"+n)
		w.blocks(fn.Blocks)
		if w.fnRefs[fn.Number] > 0 {
			w.open("a", "href", "#fnref:"+n, "aria-label", "back to reference "+n)
			w.text("↩")
			w.close("a")
		}
		w.close("li")
		w.b.WriteByte('\n')
	}
	w.b.WriteString("</ol>\n")
	w.close("section")
}

// footnoteRef writes a reference as its number linked to the note; the
// first reference to a note carries the id the note links back to.
func (w *writer) footnoteRef(r *render.FootnoteRef) {
	n := strconv.Itoa(r.Number)
	w.open("sup")
	if w.fnRefs[r.Number] == 0 {
		w.open("a", "href", "#fn:"+n, "id", "fnref:"+n)
	} else {
		w.open("a", "href", "#fn:"+n)
	}
	w.fnRefs[r.Number]++
	w.text("[" + n + "]")
	w.close("a")
	w.close("sup")
}

func (w *writer) list(l *render.List) {
	tag := "ul"
	var attrs []string
	if l.Ordered {
		tag = "ol"
		if l.Start != 1 {
			attrs = []string{"start", strconv.Itoa(l.Start)}
		}
	}
	w.open(tag, attrs...)
	for _, it := range l.Items {
		w.openItem(it.Task)
		if l.Tight {
			w.tightBlocks(it.Blocks)
		} else {
			w.blocks(it.Blocks)
		}
		w.close("li")
	}
	w.close(tag)
}

// openItem opens a list item; a task's item starts with its check box.
func (w *writer) openItem(task *bool) {
	if task == nil {
		w.open("li")
		return
	}
	w.open("li", "class", "task")
	mark, label := "☐", "not done"
	if *task {
		mark, label = "☑", "done"
	}
	w.open("span", "class", "check", "role", "img", "aria-label", label)
	w.text(mark)
	w.close("span")
	w.b.WriteByte(' ')
}

// tightBlocks writes a tight item's blocks: its paragraphs without their
// margins, as their bare content.
func (w *writer) tightBlocks(bs []render.Block) {
	for _, b := range bs {
		if p, ok := b.(*render.Paragraph); ok {
			w.inlines(p.Content)
			w.b.WriteByte('\n')
			continue
		}
		w.block(b)
	}
}

func (w *writer) table(t *render.Table) {
	align := func(i int) []string {
		if i >= len(t.Align) {
			return nil
		}
		switch t.Align[i] {
		case render.AlignLeft:
			return []string{"class", "left"}
		case render.AlignCenter:
			return []string{"class", "center"}
		case render.AlignRight:
			return []string{"class", "right"}
		}
		return nil
	}
	w.b.WriteString("<table>\n<thead><tr>")
	for i, cell := range t.Header {
		w.open("th", align(i)...)
		w.inlines(cell)
		w.close("th")
	}
	w.b.WriteString("</tr></thead>\n<tbody>\n")
	for _, row := range t.Rows {
		w.b.WriteString("<tr>")
		for i, cell := range row {
			w.open("td", align(i)...)
			w.inlines(cell)
			w.close("td")
		}
		w.b.WriteString("</tr>\n")
	}
	w.b.WriteString("</tbody>\n</table>")
}

// code writes a code block, highlighted by the same lexers as the
// terminal and colored by the theme's syntax classes.
func (w *writer) code(lang, text string) {
	attrs := []string{"class", "code"}
	if lang != "" {
		attrs = append(attrs, "data-lang", lang)
	}
	w.open("pre", attrs...)
	w.b.WriteString("<code>")
	toks, ok := highlight.Tokens(lang, text)
	if !ok {
		w.text(text)
	}
	for _, t := range toks {
		if c := tokenClass(t.Kind); c != "" {
			w.open("span", "class", c)
			w.text(t.Text)
			w.close("span")
			continue
		}
		w.text(t.Text)
	}
	w.b.WriteString("</code></pre>")
}

// tokenClasses are the style sheet classes of the token kinds ("" for
// plain).
var tokenClasses = [...]string{
	highlight.Keyword:  "tk-keyword",
	highlight.String:   "tk-string",
	highlight.Number:   "tk-number",
	highlight.Comment:  "tk-comment",
	highlight.Function: "tk-function",
	highlight.Type:     "tk-type",
	highlight.Operator: "tk-operator",
	highlight.Inserted: "tk-inserted",
	highlight.Deleted:  "tk-deleted",
	highlight.Heading:  "tk-heading",
}

// tokenClass is the style sheet class of a token kind ("" for plain).
func tokenClass(k highlight.Kind) string {
	if int(k) < len(tokenClasses) {
		return tokenClasses[k]
	}
	return ""
}

func (w *writer) inlines(content []render.Inline) {
	for _, n := range content {
		w.inline(n)
	}
}

func (w *writer) inline(n render.Inline) {
	switch n := n.(type) {
	case *render.Text:
		w.text(n.Text)
	case *render.SoftBreak:
		w.b.WriteByte('\n')
	case *render.HardBreak:
		w.b.WriteString("<br>\n")
	case *render.CodeSpan:
		w.open("code")
		w.text(n.Text)
		w.close("code")
	case *render.Emoji:
		w.text(n.Text)
	case *render.Image:
		w.image(n.URL, n.Alt)
	case *render.InlineDirective:
		w.inlineDirective(n)
	case *render.FootnoteRef:
		w.footnoteRef(n)
	default:
		w.styled(n)
	}
}

// styled writes an inline that holds inlines in an element of its own:
// emphasis, strong, strikethrough, a wikilink or a link.
func (w *writer) styled(n render.Inline) {
	switch n := n.(type) {
	case *render.Emphasis:
		w.wrap("em", n.Content)
	case *render.Strong:
		w.wrap("strong", n.Content)
	case *render.Strikethrough:
		w.wrap("del", n.Content)
	case *render.WikiLink:
		w.open("span", "class", "wikilink")
		w.inlines(n.Content)
		w.close("span")
	case *render.Link:
		w.link(n)
	}
}

// link writes a link whose target Href accepts as an <a>, any other as
// its content alone.
func (w *writer) link(n *render.Link) {
	href := Href(n.URL)
	if href == "" {
		w.inlines(n.Content)
		return
	}
	w.open("a", "href", href, "rel", "noopener noreferrer nofollow")
	w.inlines(n.Content)
	w.close("a")
}

func (w *writer) wrap(tag string, content []render.Inline) {
	w.open(tag)
	w.inlines(content)
	w.close(tag)
}

// image writes an embedded image when its bytes were handed over and fit
// the caps, else its text form `[alt] (src)` as the terminal draws it.
func (w *writer) image(src, alt string) {
	if uri := w.dataURI(src); uri != "" {
		w.open("img", "src", uri, "alt", alt)
		return
	}
	w.open("span", "class", "image")
	w.text("[" + alt + "]")
	if src != "" {
		w.text(" (" + src + ")")
	}
	w.close("span")
}

// dataURI returns the data: URI of the image src names, or "" when there
// are no bytes for it, they are not a PNG, JPEG or GIF, or they pass a cap.
func (w *writer) dataURI(src string) string {
	data, ok := w.opt.Images[src]
	if !ok || src == "" {
		return ""
	}
	mime := http.DetectContentType(data)
	switch mime {
	case "image/png", "image/jpeg", "image/gif":
	default:
		w.diagnose(fmt.Sprintf("image %s was not embedded: it is not a PNG, JPEG or GIF image", src))
		return ""
	}
	if len(data) > MaxImageBytes {
		w.diagnose(fmt.Sprintf("image %s was not embedded: it is %d bytes, over the %d MiB limit", src, len(data), MaxImageBytes>>20))
		return ""
	}
	if w.imageBytes+len(data) > MaxImagesBytes {
		w.diagnose(fmt.Sprintf("image %s was not embedded: the page's images pass the %d MiB limit", src, MaxImagesBytes>>20))
		return ""
	}
	w.imageBytes += len(data)
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// Href returns the link target to write for a link destination, or ""
// when the destination is not written as a link: only the http, https,
// mailto and tel schemes and the page's own fragments (`#…`) are; a
// relative path names a file the exported page does not carry.
//
// A character sanitize.Visible would show (a bidi control, a zero-width
// character) is percent-encoded, as a browser encodes it: the target is
// the same, and no one reading the page's source or a copied address sees
// it reordered.
func Href(u string) string {
	u = sanitize.LinkURL(u)
	if u == "" {
		return ""
	}
	if strings.ContainsFunc(u, sanitize.Invisible) {
		var b strings.Builder
		for _, r := range u {
			if !sanitize.Invisible(r) {
				b.WriteRune(r)
				continue
			}
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
		u = b.String()
	}
	if strings.HasPrefix(u, "#") {
		return u
	}
	i := strings.IndexByte(u, ':')
	if i < 0 {
		return ""
	}
	switch strings.ToLower(u[:i]) {
	case "http", "https", "mailto", "tel":
		return u
	}
	return ""
}

// headingID returns a unique id for a heading with text t.
func (w *writer) headingID(t string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(t) {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9', r > 0x7f && !isSpace(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	id := b.String()
	if id == "" {
		id = "section"
	}
	n := w.ids[id]
	w.ids[id] = n + 1
	if n > 0 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

func isSpace(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u3000' }

// firstHeading is the text of the document's first heading, or "".
func firstHeading(bs []render.Block) string {
	for _, b := range bs {
		if h, ok := b.(*render.Heading); ok {
			return strings.TrimSpace(render.PlainText(h.Content))
		}
	}
	return ""
}
