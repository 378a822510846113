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
func (m *Model) moveFocus(d int) {
	n := len(m.pg.targets)
	if n == 0 {
		m.message = "nothing focusable"
		return
	}
	next := 0
	if m.focus < 0 {
		// Start at the first target on screen (or after it).
		top := m.topLine()
		next = -1
		for i := range m.pg.targets {
			if m.pg.target(i).end > top {
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
		next = (m.focus + d + n) % n
	}
	m.setFocus(next)
}

// setFocus focuses target i (-1 for none) and scrolls it into view. The
// focus mark is drawn over the visible window (see markWidget), so moving
// the focus never lays the note out again.
func (m *Model) setFocus(i int) {
	m.message = ""
	m.focus = min(i, len(m.pg.targets)-1)
	if m.focus >= 0 {
		t := m.pg.target(m.focus)
		m.pg.unfoldLine(t.line)
		r := m.pg.rowOf(t.line)
		if r < m.top || r >= m.top+m.bodyHeight() {
			m.scrollTo(r - 2)
		}
		if t.kind == render.FocusLink && ansi.Width(t.url) > m.width/2 {
			// A long address is shown in full above the status bar at
			// once, where the terminal shows no hyperlink target.
			m.shown = t.url
		}
	}
}

// markWidget draws the focus mark of a tabs or details block on line ln,
// where layout left the block's gutter: `› ` in the accent color, the
// active tab or the details title in the accent too, and a details block
// gets its enter hint when it fits.
func (m *Model) markWidget(line ansi.Line, ln int, t target) ansi.Line {
	if t.mark.Line != ln || t.mark.Empty() {
		return line
	}
	st := m.chrome.st
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
		if m.isOpen(t) {
			hint = "  enter to close"
		}
		if out.Width()+ansi.Width(hint) <= m.width {
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
func (m *Model) relayout(change func(), block int) tea.Cmd {
	bp := blockPlace{top: m.topLine(), block: block}
	if block >= 0 {
		bp.before = m.pg.target(block)
	}
	change()
	m.liveVersion++
	if len(m.pg.src) > keepTreeUpTo {
		if m.pending == nil && m.pendingBlock == nil {
			m.pendingBlock = &bp
		}
		m.loadGen++
		m.loading = true
		return m.layoutFull()
	}
	m.pg.layout()
	m.search.rerun(m.pg)
	m.top = m.pg.rowOf(bp.after(m.pg))
	m.scrollTo(m.top)
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
func (m *Model) focused() (target, bool) {
	if m.focus < 0 || m.focus >= len(m.pg.targets) {
		return target{}, false
	}
	return m.pg.target(m.focus), true
}

// focusLabel describes the focused block for the status bar.
func (m *Model) focusLabel() string {
	t, ok := m.focused()
	if !ok {
		return ""
	}
	switch t.kind {
	case render.FocusTabs:
		return fmt.Sprintf("tabs %q  ←→ switch", t.label)
	case render.FocusDetails:
		if m.isOpen(t) {
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
func (m *Model) isOpen(t target) bool {
	if o, ok := m.pg.live.Open[t.id]; ok {
		return o
	}
	return t.open
}

// switchTab moves the focused tabs block to the next or previous panel.
func (m *Model) switchTab(d int) tea.Cmd {
	t, ok := m.focused()
	if !ok || t.kind != render.FocusTabs {
		return nil
	}
	panels := t.panels
	if len(panels) < 2 {
		return nil
	}
	cur := m.pg.live.ActiveTab[t.id]
	next := (cur + d + len(panels)) % len(panels)
	return m.relayout(func() { m.pg.live.ActiveTab[t.id] = next }, m.focus)
}

// enter toggles a focused details block or follows a focused note link.
func (m *Model) enter() tea.Cmd {
	t, ok := m.focused()
	if !ok {
		return nil
	}
	switch t.kind {
	case render.FocusDetails:
		open := !m.isOpen(t)
		return m.relayout(func() { m.pg.live.Open[t.id] = open }, m.focus)
	case render.FocusTabs:
		return m.switchTab(1)
	case render.FocusLink:
		m.follow(t.url)
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
	return strings.HasSuffix(p, ".mk.md") || strings.HasSuffix(p, ".mkz") || strings.HasSuffix(p, ".md")
}

// resolveNote finds the file a note link names: relative to the open
// note's folder, and `x.mk.md` as `x.mkz` when that bundle exists.
func (m *Model) resolveNote(u string) (string, error) {
	if m.note.Path == "" {
		return "", fmt.Errorf("this note has no folder to resolve %s against", u)
	}
	p := strings.SplitN(strings.SplitN(u, "#", 2)[0], "?", 2)[0]
	if dec, err := url.PathUnescape(p); err == nil {
		p = dec
	}
	abs := filepath.Join(filepath.Dir(m.note.Path), filepath.FromSlash(p))
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
func (m *Model) inTree(path string) bool {
	if m.first.Path == "" {
		return false
	}
	root := filepath.Dir(m.first.Path)
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// follow opens a linked note; its scripts never run. A note outside the
// first note's folder tree is opened only after its path was shown and
// Enter pressed again.
func (m *Model) follow(u string) {
	if frag, ok := strings.CutPrefix(u, "#"); ok {
		m.followAnchor(frag)
		return
	}
	if !isNoteLink(u) {
		m.message = "not a note link: " + u
		return
	}
	if m.opt.Load == nil {
		m.message = "opening linked notes is not available here"
		return
	}
	path, err := m.resolveNote(u)
	if err != nil {
		m.message = err.Error()
		return
	}
	if !m.inTree(path) && m.confirm != path {
		m.confirm = path
		m.message = "outside this note's folder: " + path + "  enter opens it"
		return
	}
	m.confirm = ""
	n, err := m.opt.Load(path)
	if err != nil {
		m.message = err.Error()
		return
	}
	m.history = append(m.history, place{note: m.note, pg: m.pg, top: m.top, focus: m.focus})
	m.note = n
	m.pg = m.newPage(n, storedValues(n.Values))
	m.search.run(m.pg, "")
	m.top, m.focus = 0, -1
	m.message = "scripts of linked notes do not run"
	if _, frag := splitFragment(u); frag != "" {
		m.goAnchor(frag)
	}
}

// back returns to the note and place the reader came from.
func (m *Model) back() {
	if len(m.history) == 0 {
		m.message = "no earlier note"
		return
	}
	p := m.history[len(m.history)-1]
	m.history = m.history[:len(m.history)-1]
	m.message = ""
	if p.sameNote {
		// Back from an anchor in this note: its page stays.
		m.after = nil
		m.focus = min(p.focus, len(m.pg.targets)-1)
		m.pg.unfoldLine(p.line)
		m.scrollTo(m.pg.rowOf(p.line))
		return
	}
	m.note, m.pg, m.focus, m.top = p.note, p.pg, p.focus, p.top
	m.loadGen++
	m.loading = false
	if m.pg.opt.Width != m.pageWidth {
		// The terminal was resized while the linked note was open.
		a := m.anchor()
		m.pg.opt.Width = m.pageWidth
		m.pg.layout()
		m.restore(a)
	}
	m.scrollTo(m.top)
	m.search.run(m.pg, "")
	m.message = ""
}

// showURL shows the focused link's full address, and opens it in a
// browser when the user turned that on (http and https only).
func (m *Model) showURL() tea.Cmd {
	t, ok := m.focused()
	if !ok || t.kind != render.FocusLink {
		m.message = "focus a link first (tab)"
		return nil
	}
	m.shown = t.url
	if m.opt.OpenBrowser == nil {
		return nil
	}
	lu := strings.ToLower(t.url)
	if !strings.HasPrefix(lu, "http://") && !strings.HasPrefix(lu, "https://") {
		return nil
	}
	open, u := m.opt.OpenBrowser, t.url
	return func() tea.Msg {
		if err := open(u); err != nil {
			return statusMsg("could not open a browser: " + err.Error())
		}
		return statusMsg("opened " + u)
	}
}

// statusMsg sets the status bar message.
type statusMsg string
