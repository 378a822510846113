package htmlexport

import (
	"slices"
	"strings"
	"sync"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/sanitize"
)

// directive writes a block directive: a structural component as its
// semantic element, anything else as render's layout of it.
func (w *writer) directive(d *render.Directive) {
	if write, ok := containers()[d.Name]; ok && d.Form == render.FormContainer {
		write(w, d)
		return
	}
	if d.Name == "divider" && d.Form == render.FormLeaf {
		w.b.WriteString(`<hr class="divider">`)
		return
	}
	w.laidOut(d)
}

// containers writes each structural container directive, by name, as its
// semantic element. It is built on first use, as markii's other tables
// are: its writers write blocks, which may be directives again, and a
// process that exports nothing never needs it.
func containers() map[string]func(*writer, *render.Directive) {
	containersOnce.Do(func() {
		t := map[string]func(*writer, *render.Directive){
			"callout": (*writer).callout,
			"card":    (*writer).card,
			"details": (*writer).details,
			"tabs": func(w *writer, d *render.Directive) {
				w.open("div", "class", "tabs")
				w.panels(d.Blocks)
				w.close("div")
			},
			"tab":    func(w *writer, d *render.Directive) { w.panels([]render.Block{d}) },
			"figure": (*writer).figure,
			"row":    classDiv("row"),
			"cell":   classDiv("cell"),
		}
		for _, name := range []string{"center", "left", "right"} {
			t[name] = classDiv("align-" + name)
		}
		for _, name := range []string{"wide", "full", "narrow", "fit"} {
			t[name] = classDiv("width-" + name)
		}
		containersTable = t
	})
	return containersTable
}

var (
	containersOnce  sync.Once
	containersTable map[string]func(*writer, *render.Directive)
)

// classDiv writes a container as a div of class around its blocks.
func classDiv(class string) func(*writer, *render.Directive) {
	return func(w *writer, d *render.Directive) {
		w.open("div", "class", class)
		w.blocks(d.Blocks)
		w.close("div")
	}
}

// card writes a card as a section with its title as a header.
func (w *writer) card(d *render.Directive) {
	w.open("section", "class", "card")
	if title, _ := d.Attrs.Get("title"); title != "" {
		w.open("header", "class", "card-title")
		w.text(title)
		w.close("header")
	}
	w.blocks(d.Blocks)
	w.close("section")
}

// details writes a details block open, as the terminal's static form
// shows it; the reader can close it without any script.
func (w *writer) details(d *render.Directive) {
	title, _ := d.Attrs.Get("title")
	if title == "" {
		title = "Details"
	}
	w.b.WriteString("<details open>")
	w.open("summary")
	w.text(title)
	w.close("summary")
	w.blocks(d.Blocks)
	w.close("details")
}

// callout writes an aside in its type's color with the terminal's head.
func (w *writer) callout(d *render.Directive) {
	kind, _ := d.Attrs.Get("type")
	if !slices.Contains(render.CalloutTypes, kind) {
		kind = render.CalloutTypes[0]
	}
	head := render.CalloutHead(kind, strings.TrimSpace(render.PlainText(d.Label)))
	w.open("aside", "class", "callout "+kind, "role", "note")
	w.open("p", "class", "callout-head")
	w.text(head)
	w.close("p")
	if title, _ := d.Attrs.Get("title"); title != "" {
		w.open("p", "class", "callout-title")
		w.text(title)
		w.close("p")
	}
	w.blocks(d.Blocks)
	w.close("aside")
}

// panels writes each tab of a tabs block as a labeled section, every panel
// shown, as the terminal's static form shows them; a block that is not a
// tab is a panel of its own, so nothing is lost.
func (w *writer) panels(blocks []render.Block) {
	for _, b := range blocks {
		d, ok := b.(*render.Directive)
		if !ok || d.Name != "tab" || d.Form != render.FormContainer {
			if p, ok := b.(*render.Paragraph); ok && strings.TrimSpace(render.PlainText(p.Content)) == "" {
				continue
			}
			w.open("section", "class", "tab")
			w.block(b)
			w.close("section")
			continue
		}
		label, _ := d.Attrs.Get("label")
		if label == "" {
			label = "Tab"
		}
		w.open("section", "class", "tab")
		w.open("p", "class", "tab-label")
		w.text(label)
		w.close("p")
		w.blocks(d.Blocks)
		w.close("section")
	}
}

// figure writes an image with its caption: embedded when its bytes were
// handed over, else its alt text and source as the terminal draws them.
func (w *writer) figure(d *render.Directive) {
	src, hasSrc := d.Attrs.Get("src")
	alt, _ := d.Attrs.Get("alt")
	w.open("figure")
	switch {
	case !hasSrc || src == "":
	case !sanitize.SafeURL(src):
		// Said on the diagnostics, never on the page.
		w.diagnose("figure: image source was refused as unsafe and was not shown")
	default:
		if uri := w.dataURI(src); uri != "" {
			w.open("img", "src", uri, "alt", alt)
			break
		}
		w.open("p", "class", "image")
		if alt != "" {
			w.text("alt: " + alt)
			w.b.WriteString("<br>")
		}
		if href := Href(src); href != "" {
			w.open("a", "href", href, "rel", "noopener noreferrer nofollow")
			w.text(src)
			w.close("a")
		} else {
			w.text(src)
		}
		w.close("p")
	}
	if len(d.Blocks) > 0 {
		w.open("figcaption")
		w.blocks(d.Blocks)
		w.close("figcaption")
	}
	w.close("figure")
}

// inlineDirective writes badge and kbd as their elements and any other
// inline component as render's layout of it.
func (w *writer) inlineDirective(n *render.InlineDirective) {
	switch n.Name {
	case "badge":
		variant, _ := n.Attrs.Get("variant")
		switch variant {
		case "info", "success", "warning", "danger":
		default:
			variant = "neutral"
		}
		w.open("span", "class", "badge "+variant)
		w.inlines(n.Content)
		w.close("span")
	case "kbd":
		w.open("kbd")
		w.inlines(n.Content)
		w.close("kbd")
	default:
		page := w.layout(&render.Paragraph{Content: []render.Inline{n}}, 1<<16)
		w.open("span", "class", "component")
		for i, ln := range page.Lines {
			if i > 0 {
				w.b.WriteByte(' ')
			}
			w.spans(ln)
		}
		w.close("span")
	}
}

// laidOut writes a block component as render lays it out for the
// terminal, its styled text in a preformatted block.
func (w *writer) laidOut(d *render.Directive) {
	page := w.layout(d, componentWidth)
	w.open("div", "class", "component", "data-component", d.Name)
	w.b.WriteString("<pre>")
	for i, ln := range page.Lines {
		if i > 0 {
			w.b.WriteByte('\n')
		}
		w.spans(ln)
	}
	w.b.WriteString("</pre>")
	w.close("div")
}

// layout lays one block out at width with the export's values, at the
// truecolor level so that styles and link targets are kept.
func (w *writer) layout(b render.Block, width int) *render.Page {
	page := render.Layout(&render.Document{Blocks: []render.Block{b}}, render.Options{
		Width:    width,
		Level:    ansi.TrueColor,
		Theme:    w.opt.Theme,
		Values:   w.opt.Values,
		Now:      w.opt.Now,
		Registry: w.opt.Registry,
	})
	w.diags = append(w.diags, page.Diagnostics...)
	return page
}

// spans writes styled spans, each style as a class of the style sheet,
// each link target that passes Href as a link.
func (w *writer) spans(ln ansi.Line) {
	for _, s := range ln {
		href := ""
		if s.Link != "" {
			href = Href(s.Link)
		}
		if href != "" {
			w.open("a", "href", href, "rel", "noopener noreferrer nofollow")
		}
		if s.Style.IsZero() {
			w.text(s.Text)
		} else {
			w.open("span", "class", w.class(s.Style))
			w.text(s.Text)
			w.close("span")
		}
		if href != "" {
			w.close("a")
		}
	}
}
