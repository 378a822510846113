package render

import (
	"math"
	"strings"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render/valuefmt"
	"github.com/markii/markii/sanitize"
)

// dataComponents are the standard components that draw data.
func dataComponents() []Component {
	return []Component{
		{Name: "rating", Form: FormLeaf, Block: rating},
		{Name: "divider", Form: FormLeaf, SelfSizing: true, Block: divider},
		{Name: "stat", Form: FormLeaf, Block: stat},
		{Name: "progress", Form: FormLeaf, Block: progress},
		{Name: "chart", Form: FormLeaf, Block: chart},
		{Name: "table", Form: FormLeaf, SelfSizing: true, Block: table},
	}
}

// parseInt reads a string as JavaScript's parseInt(s, 10) does: leading
// white space, an optional sign, then as many digits as there are. ok is
// false when there are no digits.
func parseInt(s string) (int, bool) {
	s = strings.TrimLeft(s, " \t\n\r\f\v")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n, digits := 0, 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		if n < min(1<<40, math.MaxInt/10) {
			n = n*10 + int(s[digits]-'0')
		}
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// leafLabel prefixes a leaf directive's `[label]`, when it has one.
func leafLabel(c *Context) []ansi.Span {
	if len(c.Label) == 0 || strings.TrimSpace(c.LabelText()) == "" {
		return nil
	}
	return append(c.Inline(c.Label), ansi.Span{Text: " "})
}

// rating draws `★`×value + `☆`×(max-value); max is clamped to 1..20 and
// value to 0..max.
func rating(c *Context) []ansi.Line {
	k := newKit(c)
	maxStars, ok := parseInt(k.str("max", "5"))
	if !ok {
		maxStars = 5
	}
	maxStars = min(max(maxStars, 1), 20)
	value, ok := parseInt(k.str("value", "0"))
	if !ok {
		value = 0
	}
	value = min(max(value, 0), maxStars)
	spans := leafLabel(c)
	spans = append(spans,
		ansi.Span{Text: strings.Repeat("★", value), Style: k.st.Warning},
		ansi.Span{Text: strings.Repeat("☆", maxStars-value), Style: k.st.Dim})
	return c.WrapSpans(spans, c.Width)
}

// divider draws a dim rule across its box, `─` or `·`, with ` label `
// woven in at label-align; the ornament variant is `❖` or `❖ label ❖`
// placed at label-align.
func divider(c *Context) []ansi.Line {
	k := newKit(c)
	variant := k.enum("variant", "line", "line", "dots", "ornament")
	at := k.enum("label-align", "center", "left", "center", "right")
	label, _ := k.attr("label")
	natural := 10
	if label != "" {
		natural = ansi.Width(label) + 4
	}
	box := c.BoxWidth(natural)
	var ln ansi.Line
	if variant == "ornament" {
		text := "❖"
		if label != "" {
			text = "❖ " + truncate(label, max(box-4, 1)) + " ❖"
		}
		pad := box - ansi.Width(text)
		switch at {
		case "center":
			pad /= 2
		case "left":
			pad = 0
		}
		ln = padLeft(line(text, k.st.Dim), pad)
	} else {
		rule := "─"
		if variant == "dots" {
			rule = "·"
		}
		ln = ruleWithLabel(rule, label, at, box, k.st)
	}
	return k.withMarkers([]ansi.Line{ln}, c.Width)
}

// ruleWithLabel draws a rule box cells wide with ` label ` woven in; left
// and right alignment keep two rule characters on the short side.
func ruleWithLabel(rule, label, at string, box int, st *Styles) ansi.Line {
	if label == "" || box < 5 {
		return line(strings.Repeat(rule, box), st.Rule)
	}
	t := " " + truncate(label, box-4) + " "
	rest := box - ansi.Width(t)
	left := rest / 2
	switch at {
	case "left":
		left = min(2, rest/2)
	case "right":
		left = rest - min(2, rest/2)
	}
	return ansi.Line{
		{Text: strings.Repeat(rule, left), Style: st.Rule},
		{Text: t, Style: st.Muted},
		{Text: strings.Repeat(rule, rest-left), Style: st.Rule},
	}
}

// stat draws a key figure: a muted label line, then the bold formatted
// value (or `—`), two spaces and the delta (green up, red down), then the
// data's state suffix.
func stat(c *Context) []ansi.Line {
	k := newKit(c)
	format := k.format()
	decimals := k.str("decimals", "")
	r := k.bound()
	sd := k.statFields(r)
	var out []ansi.Line
	if sd.label != "" {
		out = append(out, c.WrapSpans([]ansi.Span{{Text: sd.label, Style: k.st.Muted}}, c.Width)...)
	}
	shown := "—"
	if sd.hasValue {
		if t := k.text(sd.value, format, decimals); t != "" {
			shown = t
		}
	}
	spans := []ansi.Span{{Text: shown, Style: ansi.Style{Bold: true}}}
	if sd.delta != "" {
		spans = append(spans, ansi.Span{Text: "  "}, ansi.Span{Text: sd.delta, Style: trendStyle(k.st, sd.trend)})
	}
	if s := r.Suffix(); s != "" {
		spans = append(spans, ansi.Span{Text: s, Style: r.SuffixStyle(*k.st)})
	}
	out = append(out, c.WrapSpans(spans, c.Width)...)
	return k.withMarkers(out, c.Width)
}

// statFields is what a stat shows: the fields of its bound data r, which
// its value, label, delta and trend attributes override.
func (k *kit) statFields(r Resolved) statData {
	var sd statData
	if r.HasValue() {
		sd = k.statOf(r.Value)
	}
	if v, ok := k.attr("value"); ok {
		sd.value, sd.hasValue = v, true
	}
	sd.label = k.str("label", sd.label)
	sd.delta = k.str("delta", sd.delta)
	if _, ok := k.attr("trend"); ok {
		sd.trend = k.enum("trend", "flat", "up", "down", "flat")
	}
	return sd
}

// numberOf reads a number from a value: a number or a numeric string.
func numberOf(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, !math.IsNaN(t) && !math.IsInf(t, 0)
	case string:
		return valuefmt.ParseNumber(t)
	}
	return 0, false
}

// statData is what a stat's bound data says.
type statData struct {
	value               any
	hasValue            bool
	label, delta, trend string
}

// statOf reads a stat's bound data: an object's value, label, delta and
// trend, or any other value as the value.
func (k *kit) statOf(v any) statData {
	o, ok := v.(valuefmt.Object)
	if !ok {
		return statData{value: v, hasValue: true}
	}
	var sd statData
	sd.value, sd.hasValue = o.Get("value")
	if v, ok := o.Get("label"); ok {
		sd.label = k.text(v, "", "")
	}
	if v, ok := o.Get("delta"); ok {
		sd.delta = k.text(v, "", "")
	}
	if v, ok := o.Get("trend"); ok {
		sd.trend, _ = v.(string)
	}
	return sd
}

// trendStyle is the style of a delta: success up, danger down, muted
// otherwise.
func trendStyle(st *Styles, trend string) ansi.Style {
	switch trend {
	case "up":
		return st.Success
	case "down":
		return st.Danger
	}
	return st.Muted
}

// progress draws `label ` + a bar of `█`/`░` + ` NN%`, plus the data's
// state suffix; with no value (no data yet, none written) the bar is empty
// and the number is "—". The bar is 3 to 30 cells, as wide as the line allows.
func progress(c *Context) []ansi.Line {
	k := newKit(c)
	format := k.format()
	_, hasFormat := k.attr("format")
	decimals := k.str("decimals", "")
	r := k.bound()
	value, maxV, known := progressValue(k, r)
	if maxV <= 0 {
		maxV = 1
	}
	value = min(max(value, 0), maxV)
	frac := value / maxV
	pct := frac * 100
	pctText := valuefmt.NumberString(math.Floor(pct+0.5)) + "%"
	if hasFormat {
		pctText = k.text(pct/100, format, decimals)
	}
	if !known {
		pctText = "—"
	}
	label, _ := k.attr("label")
	suffix := r.Suffix()
	overhead := 1 + ansi.Width(pctText) + ansi.Width(suffix)
	if label != "" {
		overhead += ansi.Width(label) + 1
	}
	barW := min(max(c.Width-overhead, 3), 30)
	filled := int(math.Floor(frac*float64(barW) + 0.5))
	var spans []ansi.Span
	if label != "" {
		spans = append(spans, ansi.Span{Text: label + " "})
	}
	spans = append(spans,
		ansi.Span{Text: strings.Repeat("█", filled), Style: k.st.Accent},
		ansi.Span{Text: strings.Repeat("░", barW-filled), Style: k.st.Dim},
		ansi.Span{Text: " " + pctText})
	if suffix != "" {
		spans = append(spans, ansi.Span{Text: suffix, Style: r.SuffixStyle(*k.st)})
	}
	return k.withMarkers(c.WrapSpans(spans, c.Width), c.Width)
}

// progressValue reads a progress bar's value and maximum: from the bound
// data (a number, or an object's value and max), then from the value and
// max attributes, which win. known is set once a value was read: without
// one the bar is empty and says "—", never a 0% the note does not have.
func progressValue(k *kit, r Resolved) (value, maxV float64, known bool) {
	value, maxV = 0, 1
	if r.HasValue() {
		value, maxV, known = progressData(r.Value)
	}
	if n, ok := numberAttr(k, "value"); ok {
		value, known = n, true
	}
	if n, ok := numberAttr(k, "max"); ok {
		maxV = n
	}
	return value, maxV, known
}

// progressData reads a progress bar's value and maximum from bound data.
func progressData(v any) (value, maxV float64, known bool) {
	value, maxV = 0, 1
	o, isObject := v.(valuefmt.Object)
	if !isObject {
		n, ok := numberOf(v)
		if !ok {
			return value, maxV, false
		}
		return n, maxV, true
	}
	if x, ok := o.Get("value"); ok {
		if n, ok := numberOf(x); ok {
			value, known = n, true
		}
	}
	if x, ok := o.Get("max"); ok {
		if n, ok := numberOf(x); ok {
			maxV = n
		}
	}
	return value, maxV, known
}

// numberAttr reads attribute key as a number.
func numberAttr(k *kit, key string) (float64, bool) {
	if v, ok := k.attr(key); ok {
		return valuefmt.ParseNumber(v)
	}
	return 0, false
}

// maxChartPoints is the most points a chart draws.
const maxChartPoints = 200

// chartPoint is one point of a chart.
type chartPoint struct {
	value float64
	label string
}

// chartPoints reads the bound array (numbers, numeric strings, {value}
// objects), or else the `values` attribute.
func chartPoints(k *kit) ([]chartPoint, Resolved) {
	var pts []chartPoint
	r := k.bound()
	if arr, ok := r.Value.([]any); r.HasValue() && ok {
		for _, e := range arr {
			p := chartPoint{}
			var n float64
			var good bool
			if o, ok := e.(valuefmt.Object); ok {
				v, _ := o.Get("value")
				n, good = numberOf(v)
				if l, ok := o.Get("label"); ok {
					p.label = k.text(l, "", "")
				}
			} else {
				n, good = numberOf(e)
			}
			if good {
				p.value = n
				pts = append(pts, p)
			}
		}
		return capPoints(pts), r
	}
	for _, f := range strings.Split(k.str("values", ""), ",") {
		if n, ok := valuefmt.ParseNumber(f); ok {
			pts = append(pts, chartPoint{value: n})
		}
	}
	return capPoints(pts), r
}

func capPoints(pts []chartPoint) []chartPoint {
	if len(pts) > maxChartPoints {
		return pts[:maxChartPoints]
	}
	return pts
}

// round2 rounds to two decimals the way Math.round(x*100)/100 does.
func round2(x float64) string { return valuefmt.NumberString(math.Floor(x*100+0.5) / 100) }

var sparkLevels = [...]rune{'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// chart draws a sparkline (`min ▁▂▃ max`) or one bar per point, with the
// data's state suffix; without points it shows a dim `no data`.
func chart(c *Context) []ansi.Line {
	k := newKit(c)
	kind := k.enum("kind", "line", "line", "bar")
	pts, r := chartPoints(k)
	var suffix []ansi.Span
	if s := r.Suffix(); s != "" {
		suffix = []ansi.Span{{Text: s, Style: r.SuffixStyle(*k.st)}}
	}
	if len(pts) == 0 {
		return k.withMarkers(c.WrapSpans(append([]ansi.Span{{Text: "no data", Style: k.st.Dim}}, suffix...), c.Width), c.Width)
	}
	lo, hi := pts[0].value, pts[0].value
	for _, p := range pts {
		lo, hi = math.Min(lo, p.value), math.Max(hi, p.value)
	}
	var out []ansi.Line
	if kind == "line" {
		loText, hiText := round2(lo), round2(hi)
		room := c.Width - ansi.Width(loText) - ansi.Width(hiText) - 2
		spark := sparkline(pts, lo, hi, max(room, 1))
		spans := []ansi.Span{
			{Text: loText + " ", Style: k.st.Dim},
			{Text: spark, Style: k.st.Accent},
			{Text: " " + hiText, Style: k.st.Dim},
		}
		out = c.WrapSpans(append(spans, suffix...), c.Width)
	} else {
		out = bars(k, pts, c.Width)
		if len(suffix) > 0 {
			out = append(out, c.WrapSpans(suffix, c.Width)...)
		}
	}
	return k.withMarkers(out, c.Width)
}

// sparkline draws one level glyph per point, averaging neighbours when
// there are more points than room.
func sparkline(pts []chartPoint, lo, hi float64, room int) string {
	vals := make([]float64, len(pts))
	for i, p := range pts {
		vals[i] = p.value
	}
	if len(vals) > room {
		squeezed := make([]float64, room)
		for i := range squeezed {
			a, b := i*len(vals)/room, (i+1)*len(vals)/room
			sum := 0.0
			for _, v := range vals[a:b] {
				sum += v
			}
			squeezed[i] = sum / float64(b-a)
		}
		vals = squeezed
	}
	var b strings.Builder
	for _, v := range vals {
		i := 3
		if hi > lo {
			i = int(math.Floor((v-lo)/(hi-lo)*7 + 0.5))
		}
		b.WriteRune(sparkLevels[min(max(i, 0), 7)])
	}
	return b.String()
}

// bars draws one line per point: the right-aligned label (the point's own
// label, else its value), a space and a bar scaled to the largest
// magnitude.
func bars(k *kit, pts []chartPoint, width int) []ansi.Line {
	labels := make([]string, len(pts))
	labelW := 0
	for i, p := range pts {
		labels[i] = p.label
		if labels[i] == "" {
			labels[i] = valuefmt.NumberString(p.value)
		}
		labelW = max(labelW, ansi.Width(labels[i]))
	}
	labelW = min(labelW, max(width/3, 1))
	room := max(width-labelW-1, 1)
	peak := 0.0
	for _, p := range pts {
		peak = math.Max(peak, math.Abs(p.value))
	}
	out := make([]ansi.Line, 0, len(pts))
	for i, p := range pts {
		l := truncate(labels[i], labelW)
		n := 0
		if peak > 0 {
			n = int(math.Floor(math.Abs(p.value)/peak*float64(room) + 0.5))
		}
		st := k.st.Accent
		if p.value < 0 {
			st = k.st.Danger
		}
		ln := ansi.Line{{Text: blank(labelW-ansi.Width(l)) + l, Style: k.st.Muted}}
		if width > labelW {
			ln = append(ln, ansi.Span{Text: " "}, ansi.Span{Text: strings.Repeat("█", n), Style: st})
		}
		out = append(out, ln)
	}
	return out
}

// tableData turns a bound value into a header (nil for none) and rows of
// cell values, per the table shapes: array of objects, array of arrays,
// array of primitives, single object.
func tableData(v any, columns []string) (header []string, rows [][]any) {
	switch t := v.(type) {
	case []any:
		if len(t) == 0 {
			return nil, nil
		}
		if _, ok := t[0].(valuefmt.Object); ok {
			return objectRows(t, columns)
		}
		_, nested := t[0].([]any)
		for _, e := range t {
			row, ok := e.([]any)
			if !nested || !ok {
				row = []any{e}
			}
			rows = append(rows, row)
		}
		return nil, rows
	case valuefmt.Object:
		for _, m := range t {
			rows = append(rows, []any{m.Key, m.Value})
		}
		return nil, rows
	}
	return nil, nil
}

// objectRows makes a list of objects rows under the given columns, or,
// with none, under every key in the order the objects first have them.
func objectRows(list []any, columns []string) (header []string, rows [][]any) {
	header = columns
	if header == nil {
		header = objectKeys(list)
	}
	for _, e := range list {
		row := make([]any, len(header))
		o, _ := e.(valuefmt.Object)
		for i, h := range header {
			row[i], _ = o.Get(h)
		}
		rows = append(rows, row)
	}
	return header, rows
}

// objectKeys returns the keys of the objects in list, each once, in the
// order they first appear.
func objectKeys(list []any) []string {
	var keys []string
	seen := map[string]bool{}
	for _, e := range list {
		o, _ := e.(valuefmt.Object)
		for _, m := range o {
			if !seen[m.Key] {
				seen[m.Key] = true
				keys = append(keys, m.Key)
			}
		}
	}
	return keys
}

// table draws bound data as a grid (SPEC §7.5) under a bold caption; with
// nothing to show it draws a dim `no data`.
func table(c *Context) []ansi.Line {
	k := newKit(c)
	format := k.format()
	_, hasFormat := k.attr("format")
	decimals := k.str("decimals", "")
	align := k.textAlign()
	caption, _ := k.attr("caption")
	r := k.bound()
	header, rows := tableRows(k, r)
	var out []ansi.Line
	if caption != "" {
		out = append(out, c.WrapSpans([]ansi.Span{{Text: caption, Style: ansi.Style{Bold: true}}}, c.Width)...)
	}
	var suffix []ansi.Span
	if s := r.Suffix(); s != "" {
		suffix = []ansi.Span{{Text: strings.TrimPrefix(s, " "), Style: r.SuffixStyle(*k.st)}}
	}
	if len(rows) == 0 {
		out = append(out, c.WrapSpans(append([]ansi.Span{{Text: "no data ", Style: k.st.Dim}}, suffix...), c.Width)...)
		return k.withMarkers(trimLines(out), c.Width)
	}
	if !hasFormat {
		format, decimals = "", ""
	}
	head, body := tableCells(header, rows, func(v any) string { return k.text(v, format, decimals) })
	box := c.BoxWidth(gridNatural(head, body))
	out = append(out, drawGrid(c, head, body, box, align)...)
	if len(suffix) > 0 {
		out = append(out, c.WrapSpans(suffix, c.Width)...)
	}
	return k.withMarkers(out, c.Width)
}

// tableRows reads a table's header and rows from its bound data r, cut
// at its limit.
func tableRows(k *kit, r Resolved) (header []string, rows [][]any) {
	if r.HasValue() {
		header, rows = tableData(r.Value, tableColumns(k))
	}
	if limit := tableLimit(k); limit > 0 && len(rows) > limit {
		rows = rows[:limit]
	}
	return header, rows
}

// tableColumns reads the columns attribute: the names between commas,
// blanks dropped.
func tableColumns(k *kit) []string {
	v, ok := k.attr("columns")
	if !ok {
		return nil
	}
	var columns []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			columns = append(columns, f)
		}
	}
	return columns
}

// tableLimit reads the limit attribute: a positive count of rows, or -1.
func tableLimit(k *kit) int {
	if v, ok := k.attr("limit"); ok {
		if n, ok := parseInt(v); ok && n > 0 {
			return n
		}
	}
	return -1
}

// tableCells writes the header and rows as cell text, every row as wide
// as the widest: the header sanitized (nil for none), each value through
// cell.
func tableCells(header []string, rows [][]any, cell func(any) string) (head []string, body [][]string) {
	cols := len(header)
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	if header != nil {
		head = make([]string, cols)
		for i, h := range header {
			head[i] = sanitize.Inline(h)
		}
	}
	body = make([][]string, len(rows))
	for i, row := range rows {
		body[i] = make([]string, cols)
		for j, v := range row {
			body[i][j] = cell(v)
		}
	}
	return head, body
}

// trimLines drops trailing spaces of the last span of each line.
func trimLines(lines []ansi.Line) []ansi.Line {
	for _, ln := range lines {
		if n := len(ln); n > 0 {
			ln[n-1].Text = strings.TrimRight(ln[n-1].Text, " ")
		}
	}
	return lines
}

// gridNatural is the width of a grid whose columns all get their natural
// width.
func gridNatural(head []string, body [][]string) int {
	widths := naturalWidths(head, body)
	total := len(widths) + 1
	for _, w := range widths {
		total += w + 2
	}
	return total
}

func naturalWidths(head []string, body [][]string) []int {
	cols := len(head)
	for _, r := range body {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	for i := range widths {
		widths[i] = 1
	}
	for i, h := range head {
		widths[i] = max(widths[i], ansi.Width(h))
	}
	for _, r := range body {
		for i, s := range r {
			widths[i] = max(widths[i], ansi.Width(s))
		}
	}
	return widths
}

// drawGrid lays a table out within width: natural column widths, shrinking
// the widest column (leftmost on ties) until the grid fits or every column
// is down to 3 cells; cells wrap inside their column.
func drawGrid(c *Context, head []string, body [][]string, width int, align string) []ansi.Line {
	g := grid{c: c, frame: c.Styles().Frame, widths: naturalWidths(head, body), align: align}
	g.fit(width)
	out := []ansi.Line{g.edge("┌", "┬", "┐")}
	if head != nil {
		out = append(out, g.row(head, ansi.Style{Bold: true})...)
		out = append(out, g.edge("├", "┼", "┤"))
	}
	for _, r := range body {
		out = append(out, g.row(r, ansi.Style{})...)
	}
	return append(out, g.edge("└", "┴", "┘"))
}

// grid draws a table's frame and rows at its column widths.
type grid struct {
	c      *Context
	frame  ansi.Style
	widths []int
	align  string
}

// total is the grid's width.
func (g *grid) total() int {
	t := len(g.widths) + 1
	for _, w := range g.widths {
		t += w + 2
	}
	return t
}

// fit shrinks the widest column (leftmost on ties) until the grid fits
// width or every column is down to 3 cells.
func (g *grid) fit(width int) {
	for g.total() > width {
		wi := -1
		for i, w := range g.widths {
			if w > 3 && (wi < 0 || w > g.widths[wi]) {
				wi = i
			}
		}
		if wi < 0 {
			return
		}
		g.widths[wi]--
	}
}

// edge draws a frame line from its left, middle and right corners.
func (g *grid) edge(l, m, r string) ansi.Line {
	var b strings.Builder
	b.WriteString(l)
	for i, w := range g.widths {
		if i > 0 {
			b.WriteString(m)
		}
		b.WriteString(strings.Repeat("─", w+2))
	}
	b.WriteString(r)
	return line(b.String(), g.frame)
}

// row draws one row of cells, each wrapped inside its column.
func (g *grid) row(cells []string, cellStyle ansi.Style) []ansi.Line {
	wrapped := make([][]ansi.Line, len(g.widths))
	height := 1
	for i, w := range g.widths {
		if i < len(cells) {
			wrapped[i] = g.cell(cells[i], cellStyle, w)
		}
		height = max(height, len(wrapped[i]))
	}
	out := make([]ansi.Line, height)
	for y := range out {
		ln := ansi.Line{{Text: "│", Style: g.frame}}
		for i, w := range g.widths {
			var cell ansi.Line
			if y < len(wrapped[i]) {
				cell = wrapped[i][y]
			}
			ln = append(ln, ansi.Span{Text: " "})
			ln = append(ln, cell...)
			ln = append(ln, ansi.Span{Text: blank(w - cell.Width() + 1)}, ansi.Span{Text: "│", Style: g.frame})
		}
		out[y] = ln
	}
	return out
}

// cell wraps one cell's text at width w and aligns it.
func (g *grid) cell(text string, st ansi.Style, w int) []ansi.Line {
	switch {
	case text == "":
		return nil
	case ansi.Width(text) <= w && text == strings.TrimSpace(text) && !strings.Contains(text, "  "):
		// Fits as it is: the wrapper would return it unchanged.
		return alignText([]ansi.Line{{{Text: text, Style: st}}}, g.align, w)
	}
	return alignText(g.c.WrapSpans([]ansi.Span{{Text: text, Style: st}}, w), g.align, w)
}
