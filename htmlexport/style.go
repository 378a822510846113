package htmlexport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// class returns the style sheet class of a span style, numbering the
// styles in the order they are first used.
func (w *writer) class(s ansi.Style) string {
	n, ok := w.classes[s]
	if !ok {
		n = len(w.styles)
		w.classes[s] = n
		w.styles = append(w.styles, s)
	}
	return "s" + strconv.Itoa(n)
}

// hex is a theme color in CSS notation.
func hex(c theme.Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func hexOf(c ansi.Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// background is the page color under a theme's text.
func background(t theme.Theme) string {
	if t.IsDark() {
		return "#18181b"
	}
	return "#ffffff"
}

// styleSheet is the page's whole style sheet: the theme's colors for the
// elements, then one class per span style used by laid-out components.
func (w *writer) styleSheet() string {
	t := w.opt.Theme
	bg := background(t)
	scheme := "light"
	if t.IsDark() {
		scheme = "dark"
	}
	var b strings.Builder
	r := strings.NewReplacer(
		"BG", bg, "TEXT", hex(t.Text), "MUTED", hex(t.Muted), "FAINT", hex(t.Faint),
		"ACCENT", hex(t.Accent), "HEADING", hex(t.Heading), "INFO", hex(t.Info),
		"SUCCESS", hex(t.Success), "WARNING", hex(t.Warning), "DANGER", hex(t.Danger),
		"CODEFG", hex(t.Code), "CODEBG", hex(t.CodeBG), "KEYWORD", hex(t.Keyword),
		"STRING", hex(t.String), "NUMBER", hex(t.Number), "COMMENT", hex(t.Comment),
		"FUNCTION", hex(t.Function), "TYPE", hex(t.Type), "OPERATOR", hex(t.Operator),
		"SCHEME", scheme,
	)
	b.WriteString(r.Replace(baseSheet))
	for i, s := range w.styles {
		fmt.Fprintf(&b, ".s%d{%s}\n", i, spanCSS(s, t, bg))
	}
	return b.String()
}

// spanCSS is the declarations of a span style.
func spanCSS(s ansi.Style, t theme.Theme, bg string) string {
	fg, back := spanColors(s, t, bg)
	deco := strings.TrimSpace(pick(s.Underline, "underline") + " " + pick(s.Strikethru, "line-through"))
	decls := [...]string{
		pick(fg != "", "color:"+fg),
		pick(back != "", "background-color:"+back),
		pick(s.Bold, "font-weight:bold"),
		pick(s.Dim, "opacity:.7"),
		pick(s.Italic, "font-style:italic"),
		pick(deco != "", "text-decoration:"+deco),
	}
	var d []string
	for _, decl := range decls {
		if decl != "" {
			d = append(d, decl)
		}
	}
	return strings.Join(d, ";")
}

// pick is s when on is set, else "".
func pick(on bool, s string) string {
	if on {
		return s
	}
	return ""
}

// spanColors are a span style's text and background colors ("" for the
// page's own); an inverse style swaps them, the page's colors standing in
// for the ones it does not set.
func spanColors(s ansi.Style, t theme.Theme, bg string) (fg, back string) {
	if s.FG.Set {
		fg = hexOf(s.FG)
	}
	if s.BG.Set {
		back = hexOf(s.BG)
	}
	if !s.Inverse {
		return fg, back
	}
	if fg == "" {
		fg = hex(t.Text)
	}
	if back == "" {
		back = bg
	}
	return back, fg
}

// baseSheet is the style sheet of the elements, with the theme's colors
// as upper-case names.
const baseSheet = `:root{color-scheme:SCHEME}
body{margin:0;background:BG;color:TEXT;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:52rem;margin:0 auto;padding:2rem 1.25rem}
h1,h2,h3,h4,h5,h6{color:HEADING;line-height:1.25;margin:1.6em 0 .6em}
h1{font-size:2em;border-bottom:1px solid FAINT;padding-bottom:.3em}
a{color:ACCENT}
code,pre,kbd{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code{color:CODEFG;background:CODEBG;padding:.1em .3em;border-radius:4px}
pre{background:CODEBG;padding:.75rem 1rem;border-radius:6px;overflow-x:auto;line-height:1.45}
pre code{color:inherit;background:none;padding:0}
pre.code[data-lang]::before{content:attr(data-lang);display:block;color:MUTED;font-size:.8em;margin-bottom:.4em}
blockquote{margin:1em 0;padding:0 1em;border-left:3px solid FAINT;color:MUTED}
hr{border:0;border-top:1px solid FAINT;margin:1.5em 0}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid FAINT;padding:.3em .7em}
.left{text-align:left}.center{text-align:center}.right{text-align:right}
li.task{list-style:none}
.check{color:MUTED}
img{max-width:100%;height:auto}
figure{margin:1em 0}
figcaption{color:MUTED;font-size:.9em}
.image,.script{color:MUTED}
.callout{margin:1em 0;padding:.5em 1em;border-left:4px solid INFO;background:CODEBG;border-radius:4px}
.callout.success{border-left-color:SUCCESS}
.callout.accent{border-left-color:ACCENT}
.callout.warning{border-left-color:WARNING}
.callout.danger{border-left-color:DANGER}
.callout-head{margin:0;font-weight:bold;color:INFO}
.callout.success .callout-head{color:SUCCESS}
.callout.accent .callout-head{color:ACCENT}
.callout.warning .callout-head{color:WARNING}
.callout.danger .callout-head{color:DANGER}
.callout-title{margin:.2em 0;font-weight:bold}
.card{margin:1em 0;padding:.5em 1em;border:1px solid FAINT;border-radius:8px}
.card-title{font-weight:bold;margin:.3em 0}
details{margin:1em 0}
summary{font-weight:bold;cursor:pointer}
.tabs{margin:1em 0}
.tab{border-top:1px solid FAINT;padding-top:.3em}
.tab-label{font-weight:bold;margin:.2em 0}
.row{display:flex;flex-wrap:wrap;gap:1em}
.cell{flex:1 1 0;min-width:12em}
.align-center{text-align:center}.align-left{text-align:left}.align-right{text-align:right}
.width-narrow{max-width:50%}.width-fit{display:inline-block}
.badge{display:inline-block;padding:0 .5em;border-radius:999px;font-size:.85em;font-weight:bold;color:BG;background:MUTED}
.badge.info{background:INFO}.badge.success{background:SUCCESS}.badge.warning{background:WARNING}.badge.danger{background:DANGER}
kbd{border:1px solid FAINT;border-bottom-width:2px;border-radius:4px;padding:0 .35em}
.component pre{background:none;padding:0;margin:1em 0;overflow-x:auto}
.tk-keyword{color:KEYWORD}.tk-string{color:STRING}.tk-number{color:NUMBER}.tk-comment{color:COMMENT;font-style:italic}
.tk-function{color:FUNCTION}.tk-type{color:TYPE}.tk-operator{color:OPERATOR}
.tk-inserted{color:SUCCESS}.tk-deleted{color:DANGER}.tk-heading{color:HEADING;font-weight:bold}
`
