package viewer

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
)

// moveFocus focuses the next (d > 0) or previous target, wrapping, and
// scrolls it into view. With focus off it starts from the screen.
func (rd *reader) moveFocus(d int) {
	n := len(rd.pg.targets)
	if n == 0 {
		rd.message = "nothing focusable"
		return
	}
	next := 0
	if rd.focus < 0 {
		// Start at the first target on screen (or after it).
		top := rd.topLine()
		next = -1
		for i := range rd.pg.targets {
			if rd.pg.target(i).end > top {
				next = i
				break
			}
		}
		if next < 0 {
			next = 0
		}
		if d < 0 {
			next = (next - 1 + n) % n
		}
	} else {
		next = (rd.focus + d + n) % n
	}
	rd.setFocus(next)
}

// setFocus focuses target i (-1 for none) and scrolls it into view. The
// focus mark is drawn over the visible window (see markWidget), so moving
// the focus never lays the note out again.
func (rd *reader) setFocus(i int) {
	rd.message = ""
	rd.focus = min(i, len(rd.pg.targets)-1)
	if rd.focus >= 0 {
		t := rd.pg.target(rd.focus)
		rd.pg.unfoldLine(t.line)
		r := rd.pg.rowOf(t.line)
		if r < rd.top || r >= rd.top+rd.bodyHeight() {
			rd.scrollTo(r - 2)
		}
		if t.kind == render.FocusLink && len(t.ranges) > 0 {
			rg := t.ranges[0]
			rd.revealColumns(rg.Line, rg.From, rg.To)
		}
		if t.kind == render.FocusLink && ansi.Width(t.url) > rd.width/2 {
			// A long address is shown in full above the status bar at
			// once, where the terminal shows no hyperlink target.
			rd.shown = t.url
		}
	}
}

// markWidget draws the focus mark of a tabs or details block on line ln,
// where layout left the block's gutter: `› ` in the accent color, the
// active tab or the details title in the accent too, and a details block
// gets its enter hint when it fits.
func (rd *reader) markWidget(line ansi.Line, ln int, t target) ansi.Line {
	if t.mark.Line != ln || t.mark.Empty() {
		return line
	}
	st := rd.chrome.st
	if t.title.Line == ln {
		// The title first: the mark below changes the bytes after it.
		title := st.Accent
		if t.kind == render.FocusDetails {
			title = render.Over(st.Accent, ansi.Style{Bold: true})
		}
		line = overRange(line, t.title, title)
	}
	before, _, after := splitRange(line, t.mark)
	out := make(ansi.Line, 0, len(line)+3)
	out = append(append(append(out, before...), ansi.Span{Text: "› ", Style: st.Accent}), after...)
	if t.kind == render.FocusDetails {
		hint := "  enter to open"
		if rd.isOpen(t) {
			hint = "  enter to close"
		}
		if out.Width()+ansi.Width(hint) <= rd.width {
			out = append(out, ansi.Span{Text: hint, Style: st.Dim})
		}
	}
	return out
}

// splitRange cuts line into the spans before, inside and after bytes
// r.From to r.To of its text.
func splitRange(line ansi.Line, r render.Range) (before, inside, after ansi.Line) {
	pos := 0
	for i, s := range line {
		start, end := pos, pos+len(s.Text)
		pos = end
		switch {
		case end <= r.From:
			before = append(before, s)
		case start >= r.To:
			after = append(after, line[i:]...)
			return before, inside, after
		default:
			a, b := max(r.From, start)-start, min(r.To, end)-start
			if a > 0 {
				head := s
				head.Text = s.Text[:a]
				before = append(before, head)
			}
			mid := s
			mid.Text = s.Text[a:b]
			inside = append(inside, mid)
			if b < len(s.Text) {
				tail := s
				tail.Text = s.Text[b:]
				after = append(after, tail)
			}
		}
	}
	return before, inside, after
}

// overRange returns line with bytes r.From to r.To of its text drawn over
// st.
func overRange(line ansi.Line, r render.Range, st ansi.Style) ansi.Line {
	if r.Empty() {
		return line
	}
	before, inside, after := splitRange(line, r)
	out := make(ansi.Line, 0, len(before)+len(inside)+len(after))
	out = append(out, before...)
	for _, s := range inside {
		s.Style = render.Over(s.Style, st)
		out = append(out, s)
	}
	return append(out, after...)
}

// relayout changes the live state and lays the page out again. Lines
// above the changed block keep their place; lines below move by the
// block's change in height; a reader inside the block stays at its top.
// A long note is laid out in the background and the reader keeps the
// current page until the new one is ready.
func (rd *reader) relayout(change func(), block int) tea.Cmd {
	bp := blockPlace{top: rd.topLine(), block: block}
	if block >= 0 {
		bp.before = rd.pg.target(block)
	}
	change()
	rd.liveVersion++
	if len(rd.pg.src) > keepTreeUpTo {
		if rd.pending.find(pendingAnchor) == nil && rd.pending.find(pendingBlock) == nil {
			rd.pending.put(pendingAction{kind: pendingBlock, block: bp})
		}
		rd.loadGen++
		rd.loading = true
		return rd.layoutFull()
	}
	rd.pg.layout()
	rd.search.rerun(rd.pg)
	rd.top = rd.pg.rowOf(bp.after(rd.pg))
	rd.scrollTo(rd.top)
	return nil
}

// blockPlace is the reader's place around a block that changes height.
type blockPlace struct {
	top    int
	block  int
	before target
}

// after is the top line once the block was laid out again on p.
func (bp blockPlace) after(p *page) int {
	top := bp.top
	if bp.block >= 0 && bp.block < len(p.targets) {
		a := p.target(bp.block)
		switch {
		case top >= bp.before.end:
			top += a.end - bp.before.end
		case top > bp.before.line:
			top = a.line
		}
	}
	return top
}

// focused returns the focused target.
func (rd *reader) focused() (target, bool) {
	if rd.focus < 0 || rd.focus >= len(rd.pg.targets) {
		return target{}, false
	}
	return rd.pg.target(rd.focus), true
}

// focusLabel describes the focused block for the status bar.
func (rd *reader) focusLabel() string {
	t, ok := rd.focused()
	if !ok {
		return ""
	}
	switch t.kind {
	case render.FocusTabs:
		return fmt.Sprintf("tabs %q  ←→ switch", t.label)
	case render.FocusDetails:
		if rd.isOpen(t) {
			return fmt.Sprintf("details %q  enter closes", t.label)
		}
		return fmt.Sprintf("details %q  enter opens", t.label)
	}
	if isNoteLink(t.url) {
		return "link  enter opens " + t.url
	}
	if strings.HasPrefix(t.url, "#") {
		return "link  enter goes to " + t.url
	}
	return "link → " + t.url
}

// isOpen reports whether a details block is open: as the reader last
// set it, else as layout drew it.
func (rd *reader) isOpen(t target) bool {
	if o, ok := rd.pg.live.Open[t.id]; ok {
		return o
	}
	return t.open
}

// switchTab moves the focused tabs block to the next or previous panel.
func (rd *reader) switchTab(d int) tea.Cmd {
	t, ok := rd.focused()
	if !ok || t.kind != render.FocusTabs {
		return nil
	}
	panels := t.panels
	if len(panels) < 2 {
		return nil
	}
	cur := rd.pg.live.ActiveTab[t.id]
	next := (cur + d + len(panels)) % len(panels)
	return rd.relayout(func() { rd.pg.live.ActiveTab[t.id] = next }, rd.focus)
}

// enter toggles a focused details block or follows a focused note link.
func (rd *reader) enter() tea.Cmd {
	t, ok := rd.focused()
	if !ok {
		return nil
	}
	switch t.kind {
	case render.FocusDetails:
		open := !rd.isOpen(t)
		return rd.relayout(func() { rd.pg.live.Open[t.id] = open }, rd.focus)
	case render.FocusTabs:
		return rd.switchTab(1)
	case render.FocusLink:
		rd.follow(t.url)
	}
	return nil
}

// isNoteLink reports whether u is a relative link to another note.
func isNoteLink(u string) bool {
	if u == "" || strings.HasPrefix(u, "/") || strings.HasPrefix(u, "#") || strings.Contains(u, "://") {
		return false
	}
	if i := strings.IndexByte(u, ':'); i >= 0 && !strings.ContainsAny(u[:i], "/?#") {
		return false
	}
	p := strings.ToLower(strings.SplitN(strings.SplitN(u, "#", 2)[0], "?", 2)[0])
	return strings.HasSuffix(p, ".mkz") || isMarkdown(p)
}

// resolveNote finds the file a note link names: relative to the open
// note's folder, and `x.mk.md` as `x.mkz` when that bundle exists.
func (rd *reader) resolveNote(u string) (string, error) {
	if rd.note.Path == "" {
		return "", fmt.Errorf("this note has no folder to resolve %s against", u)
	}
	p := strings.SplitN(strings.SplitN(u, "#", 2)[0], "?", 2)[0]
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	abs := filepath.Join(filepath.Dir(rd.note.Path), filepath.FromSlash(p))
	if strings.HasSuffix(strings.ToLower(abs), ".mk.md") {
		mkz := abs[:len(abs)-len(".mk.md")] + ".mkz"
		if _, err := os.Stat(mkz); err == nil {
			return mkz, nil
		}
	}
	if _, err := os.Stat(abs); err != nil {
		return "", fmt.Errorf("%s does not exist", abs)
	}
	return abs, nil
}

// inTree reports whether path lies in the folder tree of the first note.
func (rd *reader) inTree(path string) bool {
	if rd.first.Path == "" {
		return false
	}
	root := filepath.Dir(rd.first.Path)
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// follow opens a linked note; its scripts never run. A note outside the
// first note's folder tree is opened only after its path was shown and
// Enter pressed again.
func (rd *reader) follow(u string) {
	if frag, ok := strings.CutPrefix(u, "#"); ok {
		rd.followAnchor(frag)
		return
	}
	if !isNoteLink(u) {
		rd.message = "not a note link: " + u
		return
	}
	if rd.opt.Load == nil {
		rd.message = "opening linked notes is not available here"
		return
	}
	path, err := rd.resolveNote(u)
	if err != nil {
		rd.message = err.Error()
		return
	}
	if !rd.inTree(path) && rd.confirm != path {
		rd.confirm = path
		rd.message = "outside this note's folder: " + path + "  enter opens it"
		return
	}
	rd.confirm = ""
	n, err := rd.opt.Load(path)
	if err != nil {
		rd.message = err.Error()
		return
	}
	rd.history = append(rd.history, place{note: rd.note, pg: rd.pg, top: rd.top, focus: rd.focus})
	rd.note = n
	rd.pg = rd.newPage(n, storedValues(n.Values))
	rd.search.run(rd.pg, "")
	rd.top, rd.focus = 0, -1
	rd.message = "scripts of linked notes do not run"
	if _, frag := splitFragment(u); frag != "" {
		rd.goAnchor(frag)
	}
}

// back returns to the note and place the reader came from.
func (rd *reader) back() {
	if len(rd.history) == 0 {
		rd.message = "no earlier note"
		return
	}
	p := rd.history[len(rd.history)-1]
	rd.history = rd.history[:len(rd.history)-1]
	rd.message = ""
	if p.sameNote {
		// Back from an anchor in this note: its page stays.
		rd.pending.drop(pendingJump)
		rd.focus = min(p.focus, len(rd.pg.targets)-1)
		rd.pg.unfoldLine(p.line)
		rd.scrollTo(rd.pg.rowOf(p.line))
		return
	}
	rd.note, rd.pg, rd.focus, rd.top = p.note, p.pg, p.focus, p.top
	rd.loadGen++
	rd.loading = false
	if rd.pg.opt.Width != rd.pageWidth {
		// The terminal was resized while the linked note was open.
		a := rd.anchor()
		rd.pg.opt.Width = rd.pageWidth
		rd.pg.layout()
		rd.restore(a)
	}
	rd.scrollTo(rd.top)
	rd.search.run(rd.pg, "")
	rd.message = ""
}

// showURL shows the focused link's full address, and opens it in a
// browser when the user turned that on (http and https only).
func (rd *reader) showURL() tea.Cmd {
	t, ok := rd.focused()
	if !ok || t.kind != render.FocusLink {
		rd.message = "focus a link first (tab)"
		return nil
	}
	rd.shown = t.url
	if rd.opt.OpenBrowser == nil {
		return nil
	}
	lu := strings.ToLower(t.url)
	if !strings.HasPrefix(lu, "http://") && !strings.HasPrefix(lu, "https://") {
		return nil
	}
	open, u := rd.opt.OpenBrowser, t.url
	return func() tea.Msg {
		if err := open(u); err != nil {
			return statusMsg("could not open a browser: " + err.Error())
		}
		return statusMsg("opened " + u)
	}
}

// statusMsg sets the status bar message.
type statusMsg string
