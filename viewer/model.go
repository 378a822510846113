package viewer

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
)

// paneKind names the open pane.
type paneKind int

const (
	noPane paneKind = iota
	helpPane
	tocPane
	diagPane
)

// place is where the reader is in a note, to come back to it. A place in
// the open note (left by an in-note anchor) keeps its page line instead
// of a page, as the page may be laid out again meanwhile.
type place struct {
	note     *Note
	pg       *page
	top      int
	focus    int
	message  string
	sameNote bool
	line     int
}

// Model is the viewer's root model. It composes the reader (scrolling and
// focus over the page), the search prompt, the panes (help, table of
// contents, diagnostics), the grant dialog and the script run.
type Model struct {
	opt    Options
	chrome *chrome
	note   *Note
	// first is the note the viewer was opened with; only its scripts run.
	first  *Note
	pg     *page
	values render.Values

	// width and height are the terminal's size, which the chrome uses;
	// pageWidth is the width the note is laid out at (see pageWidthFor).
	width, height int
	pageWidth     int
	// top is the first visible row.
	top int
	// focus is the focused target's index, -1 when focus mode is off.
	focus int

	search   searcher
	paneKind paneKind
	pane     *pane
	message  string
	// shown is a link address shown in full above the status bar until
	// the next key.
	shown string
	// confirm is a linked note outside the first note's folder tree that
	// waits for a second Enter.
	confirm string
	history []place

	run    runState
	watch  *watcher
	reload int
	// loading is set while a long note's full page is laid out in the
	// background; loadGen tells its result from an older note's.
	loading bool
	loadGen int
	// liveVersion counts changes of the live state and values, so a page
	// laid out in the background for an older state is not shown.
	liveVersion int
	// pending is the place to restore when a background layout for a new
	// width arrives; pendingBlock when one for a changed block arrives.
	pending      *anchor
	pendingBlock *blockPlace

	// count is a number typed before a key (less's N prefix); counted
	// says one was typed.
	count   int
	counted bool
	// halfPage is the rows d and u scroll once a count set it (as in
	// less); 0 means half the screen.
	halfPage int
	// after is where a G, %, Ng or anchor followed while a long note is
	// still loading goes once the whole note is laid out.
	after *jump
	// revealing is a search match in hidden text whose block is being
	// opened, to land on once the page is laid out again.
	revealing *revealing

	// library is the list of a folder's notes (markii view DIR), nil for
	// a single note; browsing is set while it is on screen.
	library  *libraryList
	browsing bool

	// failure is an internal error that ended the program.
	failure error
}

// New returns a viewer model for opt.
func New(opt Options) *Model {
	if opt.Note == nil {
		opt.Note = &Note{Name: "note"}
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Width <= 0 {
		opt.Width = 80
	}
	if opt.RefreshInterval > 0 && opt.RefreshInterval < MinRefresh {
		opt.RefreshInterval = MinRefresh
	}
	m := &Model{opt: opt, chrome: newChrome(opt.Level, opt.Theme), note: opt.Note, first: opt.Note, width: opt.Width, pageWidth: opt.Width, height: 24, focus: -1}
	if opt.Library != nil {
		m.library, m.browsing = newLibraryList(opt.Library), true
	}
	m.show(opt.Note)
	return m
}

// show lays out n as the viewer's first note: a long note's first part
// now and the rest in the background (see Init).
func (m *Model) show(n *Note) {
	m.values = storedValues(n.Values)
	if src := n.Source; len(src) >= progressiveFrom {
		if first, ok := render.FirstFrameSource(src, prefixBytes); ok {
			m.loadGen++
			m.pg = newPage(first, m.pageOptions(m.values))
			m.loading = true
			return
		}
	}
	m.pg = m.newPage(n, m.values)
}

// storedValues copies the values stored for a note, for the viewer to
// update as runs report. Values a run of an earlier session left fresh
// are drawn as they are; the status bar says once that they are from
// earlier (see earlierValues) instead of a stale mark on every value.
func storedValues(v render.Values) render.Values {
	out := make(render.Values, len(v))
	for k, e := range v {
		out[k] = e
	}
	return out
}

// earlierValues reports whether the note on screen shows values stored
// by an earlier session that no run of this one has refreshed.
func (m *Model) earlierValues() bool {
	if m.note == m.first && m.run.ran {
		return false
	}
	for _, e := range m.pg.opt.Values {
		if e.Status == render.Fresh {
			return true
		}
	}
	return false
}

func (m *Model) newPage(n *Note, values render.Values) *page {
	m.loadGen++
	m.loading = false
	opt := m.pageOptions(values)
	opt.Images = n.Images
	return newPage(n.Source, opt)
}

func (m *Model) pageOptions(values render.Values) render.Options {
	return render.Options{
		Width:    m.pageWidth,
		Level:    m.opt.Level,
		Theme:    m.opt.Theme,
		Values:   values,
		Now:      m.opt.Now(),
		Images:   m.note.Images,
		Packs:    m.opt.Packs,
		ShowURLs: m.opt.ShowURLs,
		NoEmoji:  m.opt.NoEmoji,
	}
}

// Init starts the unattended runs the user's settings ask for and the
// file watcher.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.loading {
		// Let the first frame reach the terminal before the whole note
		// is parsed alongside the reader.
		full := m.layoutFull()
		cmds = append(cmds, afterFirstFrame(func() tea.Msg { return startFullMsg{full} }))
	}
	if n := m.note; n.Pictures != nil && n.Images == nil {
		decode := n.Pictures
		cmds = append(cmds, afterFirstFrame(func() tea.Msg {
			images, refused := decode()
			return picturesMsg{note: n, images: images, refused: refused}
		}))
	}
	if m.opt.Watch && m.opt.Load != nil && m.note.Path != "" {
		m.watch = newWatcher(m.note.Watch)
		cmds = append(cmds, m.watch.wait())
	}
	if !m.opt.ScriptsDisabled && m.opt.Runner != nil {
		if p, ok := m.opt.Runner.(Preparer); ok {
			cmds = append(cmds, afterFirstFrame(func() tea.Msg {
				p.Prepare()
				return nil
			}))
		}
		if m.opt.RunOnOpen {
			note := m.run.note
			cmds = append(cmds, func() tea.Msg { return autoRunMsg{note: note} })
		} else if m.opt.RefreshInterval > 0 {
			cmds = append(cmds, m.scheduleRefresh())
		}
	}
	return tea.Batch(cmds...)
}

// bodyHeight is the number of rows the note gets.
func (m *Model) bodyHeight() int { return max(m.height-1, 1) }

func (m *Model) maxTop() int { return max(len(m.pg.rows)-m.bodyHeight(), 0) }

func (m *Model) scrollTo(r int) { m.top = max(0, min(r, m.maxTop())) }

// topLine is the page line at the top of the screen.
func (m *Model) topLine() int { return m.pg.lineOf(m.top) }

// Update handles one message. An internal error ends the program with the
// terminal restored and the error kept for one line on exit.
func (m *Model) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			m.failure = fmt.Errorf("the viewer stopped after an internal error (%v); please report it", r)
			model, cmd = m, tea.Quit
		}
	}()
	return m, m.update(msg)
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		cmd := m.resize(msg.Width, msg.Height)
		if m.paneKind == diagPane {
			m.openPane(diagPane)
		}
		return cmd
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelDown:
			m.scrollTo(m.top + 3)
		case tea.MouseWheelUp:
			m.scrollTo(m.top - 3)
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		return m.paste(msg.Content)
	case panicMsg:
		m.failure = msg.err
		return tea.Quit
	case fullPageMsg:
		return m.fullPage(msg)
	case startFullMsg:
		return msg.cmd
	case picturesMsg:
		return m.picturesDecoded(msg)
	case editedMsg:
		return m.edited(msg)
	}
	if cmd, ok := m.runUpdate(msg); ok {
		return cmd
	}
	if cmd, ok := m.reloadUpdate(msg); ok {
		return cmd
	}
	return nil
}

// pageWidthFor is the width the note is laid out at in a terminal w
// cells wide: a --width always, else the terminal's width up to the cap.
func (m *Model) pageWidthFor(w int) int {
	switch {
	case m.opt.FixedWidth:
		return m.opt.Width
	case m.opt.MaxWidth > 0:
		return min(w, m.opt.MaxWidth)
	}
	return w
}

// resize takes the terminal's new size and lays the note out again when
// the page width changes, keeping the reader's place.
func (m *Model) resize(w, h int) tea.Cmd {
	w, h = max(w, 1), max(h, 2)
	pw := m.pageWidthFor(w)
	m.width = w
	if pw == m.pageWidth {
		m.height = h
		m.scrollTo(m.top)
		return nil
	}
	if len(m.pg.src) > keepTreeUpTo {
		m.pageWidth, m.height = pw, h
		m.scrollTo(m.top)
		return m.resizeLater()
	}
	anchor := m.anchor()
	m.pageWidth, m.height = pw, h
	m.pg.opt.Width = pw
	m.pg.layout()
	m.search.rerun(m.pg)
	m.restore(anchor)
	return nil
}

// anchor records the top line relative to the heading above it.
type anchor struct {
	heading  int
	offset   float64
	fraction float64
}

func (m *Model) anchor() anchor {
	ln := m.topLine()
	a := anchor{heading: -1}
	n := m.pg.lineCount()
	if n > 0 {
		a.fraction = float64(ln) / float64(n)
	}
	hs := m.pg.laid.Headings
	for i := len(hs) - 1; i >= 0; i-- {
		if hs[i].Line <= ln {
			a.heading = i
			next := n
			if i+1 < len(hs) {
				next = hs[i+1].Line
			}
			if span := next - hs[i].Line; span > 0 {
				a.offset = float64(ln-hs[i].Line) / float64(span)
			}
			break
		}
	}
	return a
}

func (m *Model) restore(a anchor) {
	hs := m.pg.laid.Headings
	n := m.pg.lineCount()
	ln := int(a.fraction * float64(n))
	if a.heading >= 0 && a.heading < len(hs) {
		next := n
		if a.heading+1 < len(hs) {
			next = hs[a.heading+1].Line
		}
		ln = hs[a.heading].Line + int(a.offset*float64(next-hs[a.heading].Line)+0.5)
	}
	m.top = m.pg.rowOf(ln)
	m.scrollTo(m.top)
}

// key handles one key press: the dialog first, then the search prompt,
// then an open pane, then the reader.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.Mod == tea.ModAlt {
		// A terminal sends alt+x as Esc then x, so Esc then x typed
		// fast (or over a slow link) arrives as alt+x. The viewer binds
		// no alt keys: it is what the reader typed, Esc and then x.
		esc := m.key(tea.KeyPressMsg{Code: tea.KeyEscape})
		msg.Mod = 0
		if msg.Text == "" && msg.Code >= 0x20 && msg.Code < tea.KeyExtended {
			msg.Text = string(msg.Code)
		}
		then := m.key(msg)
		if esc == nil {
			return then
		}
		return tea.Batch(esc, then)
	}
	if m.run.asking != nil {
		return m.dialogKey(msg)
	}
	if m.search.editing {
		return m.searchKey(msg)
	}
	if m.pane != nil {
		return m.paneKey(msg)
	}
	if m.browsing {
		return m.libraryKey(msg)
	}
	return m.readerKey(msg)
}

// paste handles bracketed paste: the open search prompt takes the text
// as typed (line breaks become spaces); anywhere else each character is
// a key, as a terminal without bracketed paste would deliver it.
func (m *Model) paste(text string) tea.Cmd {
	if m.search.editing && m.run.asking == nil {
		m.search.insert(text)
		return m.searchChanged()
	}
	var cmds []tea.Cmd
	for _, r := range text {
		if k := runeKey(r); k.Code != 0 {
			cmds = append(cmds, m.key(k))
		}
	}
	return tea.Batch(cmds...)
}

// runeKey is the key press that types r.
func runeKey(r rune) tea.KeyPressMsg {
	switch r {
	case '\n', '\r':
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case '\t':
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case 0x7f, '\b':
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case 0x1b:
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	if r < 0x20 || (r >= 0x80 && r <= 0x9f) {
		return tea.KeyPressMsg{}
	}
	return tea.KeyPressMsg{Code: r, Text: string(r)}
}

func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.search.update(msg) {
	case searchChanged:
		return m.searchChanged()
	case searchCancel:
		m.search.run(m.pg, "")
	case searchDone:
		if len(m.search.input) == 0 && m.search.last != "" {
			return m.repeatSearch(1)
		}
		return m.showMatch()
	}
	return nil
}

// repeatSearch searches for the last query again, as an empty `/` and
// an `n` or `N` after esc do: from the match after (d < 0: before) the
// current one while its marks are shown, else from the top of the
// screen.
func (m *Model) repeatSearch(d int) tea.Cmd {
	if m.search.query == m.search.last && len(m.search.matches) > 0 {
		m.search.step(d)
	} else {
		m.search.run(m.pg, m.search.last)
		m.search.firstFrom(m.topLine())
		if d < 0 {
			m.search.step(-1)
		}
	}
	if len(m.search.matches) == 0 {
		m.message = "no matches for " + m.search.last
	}
	return m.showMatch()
}

// searchChanged finds the prompt's text as it is typed, from the top of
// the screen on.
func (m *Model) searchChanged() tea.Cmd {
	m.search.run(m.pg, string(m.search.input))
	m.search.firstFrom(m.topLine())
	return m.showMatch()
}

// showMatch scrolls the current match into view, unfolding its section;
// a match in a closed details body or an inactive tab opens the body or
// switches to the tab first (see reveal).
func (m *Model) showMatch() tea.Cmd {
	if len(m.search.matches) == 0 {
		return nil
	}
	mt := m.search.matches[m.search.current]
	if mt.hidden != nil {
		return m.reveal(*mt.hidden)
	}
	ln := mt.line
	m.pg.unfoldLine(ln)
	r := m.pg.rowOf(ln)
	if r < m.top || r >= m.top+m.bodyHeight() {
		m.scrollTo(r - m.bodyHeight()/3)
	}
	return nil
}

func (m *Model) paneKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	switch m.pane.update(msg, m.bodyHeight()-1) {
	case paneClose:
		m.pane, m.paneKind = nil, noPane
	case paneChoose:
		if m.paneKind == tocPane {
			i := m.pane.cursor
			if i < len(m.pg.laid.Headings) {
				ln := m.pg.laid.Headings[i].Line
				m.pg.unfoldLine(ln)
				m.scrollTo(m.pg.rowOf(ln))
			}
		}
		m.pane, m.paneKind = nil, noPane
	}
	return nil
}

func (m *Model) openPane(k paneKind) {
	switch k {
	case helpPane:
		rows := helpRows()
		if m.library != nil {
			rows = append(rows, [2]string{"", ""}, [2]string{"In the list", ""})
			rows = append(rows, libraryHelpRows()...)
		}
		items := make([]string, len(rows))
		for i, r := range rows {
			items[i] = fmt.Sprintf("%-14s %s", r[0], r[1])
		}
		m.pane = newPane("Keys", items, false)
	case tocPane:
		var items []string
		cur := 0
		top := m.topLine()
		for i, h := range m.pg.laid.Headings {
			items = append(items, strings.Repeat("  ", max(h.Level-1, 0))+h.Text)
			if h.Line <= top {
				cur = i
			}
		}
		title := "Contents"
		if m.loading {
			title = "Contents (more as the note loads)"
		}
		m.pane = newPane(title, items, true)
		m.pane.cursor = cur
		m.pane.offset = max(cur-m.bodyHeight()/2, 0)
	case diagPane:
		// Each entry in full: wrapped to the pane, scrolled by row.
		m.pane = newPane("Diagnostics", m.chrome.wrapEntries(m.diagnostics(), m.width-2), false)
	}
	m.paneKind = k
}

// readerKey handles a key on the note itself.
func (m *Model) readerKey(msg tea.KeyPressMsg) tea.Cmd {
	h := m.bodyHeight()
	m.shown = ""
	k := msg.String()
	if m.confirm != "" && k != "enter" {
		m.confirm = ""
	}
	if len(k) == 1 && k[0] >= '0' && k[0] <= '9' {
		m.count = min(m.count*10+int(k[0]-'0'), 1<<30)
		m.counted = true
		return nil
	}
	n, counted := m.count, m.counted
	m.count, m.counted = 0, false
	// A message stays until the next key, as less's do.
	m.message = ""
	// by is the count, or def when none was typed.
	by := func(def int) int {
		if counted {
			return n
		}
		return def
	}
	switch {
	case k == "ctrl+c":
		return m.quit()
	case k == "esc":
		m.escape()
	case key.Matches(msg, keys.Quit):
		return m.quit()
	case m.focus >= 0 && key.Matches(msg, keys.Down):
		m.moveFocus(1)
	case m.focus >= 0 && key.Matches(msg, keys.Up):
		m.moveFocus(-1)
	case key.Matches(msg, keys.Down):
		m.scrollBy(by(1))
	case key.Matches(msg, keys.Up):
		m.scrollBy(-by(1))
	case key.Matches(msg, keys.PageDown):
		m.scrollBy(by(h))
	case key.Matches(msg, keys.PageUp):
		m.scrollBy(-by(h))
	case key.Matches(msg, keys.HalfDown):
		m.scrollBy(m.halfPageRows(n, counted))
	case key.Matches(msg, keys.HalfUp):
		m.scrollBy(-m.halfPageRows(n, counted))
	case key.Matches(msg, keys.Top):
		if counted {
			m.goLine(n)
		} else {
			m.goPercent(0)
		}
	case key.Matches(msg, keys.Bottom):
		if counted {
			m.goLine(n)
		} else {
			m.goPercent(100)
		}
	case key.Matches(msg, keys.Percent):
		m.goPercent(by(0))
	case key.Matches(msg, keys.Search):
		m.search.editing = true
		m.search.input = nil
	case key.Matches(msg, keys.Next):
		return m.nextMatch(1)
	case key.Matches(msg, keys.Prev):
		return m.nextMatch(-1)
	case key.Matches(msg, keys.TOC):
		m.openPane(tocPane)
	case key.Matches(msg, keys.Help):
		m.openPane(helpPane)
	case key.Matches(msg, keys.Diagnostics):
		m.openPane(diagPane)
	case key.Matches(msg, keys.NextHeading):
		m.jumpHeading(1)
	case key.Matches(msg, keys.PrevHeading):
		m.jumpHeading(-1)
	case key.Matches(msg, keys.Focus):
		m.moveFocus(1)
	case key.Matches(msg, keys.FocusBack):
		m.moveFocus(-1)
	case key.Matches(msg, keys.Left):
		return m.switchTab(-1)
	case key.Matches(msg, keys.Right):
		return m.switchTab(1)
	case key.Matches(msg, keys.Enter):
		if m.focus < 0 {
			m.scrollBy(by(1))
			return nil
		}
		return m.enter()
	case key.Matches(msg, keys.Fold):
		m.fold()
	case key.Matches(msg, keys.FoldAll):
		m.foldAll()
	case key.Matches(msg, keys.Run):
		return m.startRun(manualTrigger)
	case key.Matches(msg, keys.ShowURL):
		return m.showURL()
	case key.Matches(msg, keys.Back):
		if !m.toLibrary() {
			m.back()
		}
	case key.Matches(msg, keys.Edit):
		return m.edit()
	case key.Matches(msg, keys.Position):
		m.message = m.where()
	}
	return nil
}

// halfPageRows is how far d and u scroll: half the screen, or the
// count typed before one of them, which stays their distance from then
// on, as in less.
func (m *Model) halfPageRows(n int, counted bool) int {
	if counted {
		m.halfPage = n
	}
	if m.halfPage > 0 {
		return m.halfPage
	}
	return max(m.bodyHeight()/2, 1)
}

// escape closes what is open, the most recent first: a run, the search
// marks, the focus (a message goes with any key). It never quits.
func (m *Model) escape() {
	switch {
	case m.run.active():
		m.cancelRun("run cancelled")
	case m.search.query != "":
		m.search.run(m.pg, "")
	case m.focus >= 0:
		m.setFocus(-1)
	}
}

// scrollBy scrolls d rows down (up when negative).
func (m *Model) scrollBy(d int) {
	m.after = nil
	m.scrollTo(m.top + d)
}

// jump is a place given as a share of the whole note, a line of it
// (from 1), or a heading's anchor.
type jump struct {
	percent int
	line    int
	anchor  string
}

// goPercent scrolls to p percent of the note (0 the top, 100 the end).
// While a long note is still loading, the jump is done again once the
// whole note is there.
func (m *Model) goPercent(p int) {
	p = max(0, min(p, 100))
	m.after = nil
	if m.loading {
		m.after = &jump{percent: p}
	}
	m.scrollTo(percentRow(p, m.maxTop()))
}

// percentRow is the top row p percent of the way to last, rounded up so
// the status bar, which rounds down, shows p again.
func percentRow(p, last int) int { return (p*last + 99) / 100 }

// goLine scrolls page line n (counted from 1, as the status bar shows
// it) to the top, unfolding it. While a long note is still loading, the
// jump is done again once the whole note is there.
func (m *Model) goLine(n int) {
	m.after = nil
	if m.loading {
		m.after = &jump{line: max(n, 1)}
	}
	ln := max(min(n, m.pg.lineCount()), 1) - 1
	m.pg.unfoldLine(ln)
	m.scrollTo(m.pg.rowOf(ln))
}

// nextMatch goes to the next (d > 0) or previous match.
func (m *Model) nextMatch(d int) tea.Cmd {
	switch {
	case m.search.query == "" && m.search.last == "":
		m.message = "no search yet: / searches"
		return nil
	case m.search.query == "":
		return m.repeatSearch(d)
	case len(m.search.matches) == 0:
		m.message = "no matches for " + m.search.query
		return nil
	}
	m.search.step(d)
	return m.showMatch()
}

// where describes the reader's place, as less's = does.
func (m *Model) where() string {
	n := m.pg.lineCount()
	if n == 0 {
		return "empty note"
	}
	first := m.topLine() + 1
	last := m.pg.lineOf(min(m.top+m.bodyHeight(), len(m.pg.rows))-1) + 1
	out := fmt.Sprintf("lines %d-%d of %d  %d%%", first, last, n, m.percent())
	if m.loading {
		out += "  (still loading)"
	}
	return out
}

func (m *Model) quit() tea.Cmd {
	m.shutdown()
	return tea.Quit
}

// shutdown stops a run, the refresh timer and the watcher.
func (m *Model) shutdown() {
	m.cancelRun("")
	m.run.closed = true
	if m.watch != nil {
		m.watch.close()
		m.watch = nil
	}
}

// jumpHeading scrolls to the next or previous heading.
func (m *Model) jumpHeading(d int) {
	top := m.topLine()
	hs := m.pg.laid.Headings
	if d > 0 {
		for _, h := range hs {
			if r := m.pg.rowOf(h.Line); r > m.top && int(m.pg.rows[r].fold) < 0 && h.Line > top {
				m.scrollTo(r)
				return
			}
		}
		return
	}
	for i := len(hs) - 1; i >= 0; i-- {
		if r := m.pg.rowOf(hs[i].Line); r < m.top {
			m.scrollTo(r)
			return
		}
	}
	m.scrollTo(0)
}

// fold folds or unfolds the section at the top of the screen; the
// section's heading stays where the reader is.
func (m *Model) fold() {
	r := m.pg.rows
	if len(r) == 0 {
		return
	}
	var si int
	if f := r[m.top].fold; f >= 0 {
		si = int(f)
	} else {
		si = m.pg.sectionAt(m.topLine())
	}
	if si < 0 {
		m.message = "no section here to fold"
		return
	}
	s := m.pg.sections[si]
	if s.body >= s.end {
		m.message = "this section has nothing to fold"
		return
	}
	wasTop := m.top
	headRow := m.pg.rowOf(s.line)
	if m.pg.folded[si] {
		delete(m.pg.folded, si)
	} else {
		m.pg.folded[si] = true
	}
	m.pg.buildRows()
	// Keep the heading on the same screen row when it was on screen, else
	// bring it to the top.
	if headRow >= wasTop && headRow < wasTop+m.bodyHeight() {
		m.scrollTo(m.pg.rowOf(s.line) - (headRow - wasTop))
	} else {
		m.scrollTo(m.pg.rowOf(s.line))
	}
}

// foldAll folds every section, or unfolds all when any is folded. A
// heading alone at the top level (a note's one title) is not folded:
// the sections below it are, so the note reads as its outline.
func (m *Model) foldAll() {
	ln := m.topLine()
	if len(m.pg.folded) > 0 {
		clear(m.pg.folded)
	} else {
		lone := loneTopLevels(m.pg.sections)
		for i, s := range m.pg.sections {
			if s.body < s.end && !lone[s.level] {
				m.pg.folded[i] = true
			}
		}
	}
	m.pg.buildRows()
	r := m.pg.rowOf(ln)
	if f := m.pg.rows[r].fold; f >= 0 {
		r = m.pg.rowOf(m.pg.sections[f].line)
	}
	m.scrollTo(r)
}

// loneTopLevels are the heading levels, from the top, that each hold a
// single heading (a title, a subtitle under it): folding there would fold
// the whole note into one line. A note whose every level is lone keeps
// none, so that Z still folds it.
func loneTopLevels(ss []section) map[int]bool {
	count := map[int]int{}
	for _, s := range ss {
		count[s.level]++
	}
	lone := map[int]bool{}
	for lv := 1; lv <= 6; lv++ {
		switch count[lv] {
		case 0:
			continue
		case 1:
			lone[lv] = true
			continue
		}
		return lone
	}
	return nil
}

// View draws the frame on the alternate screen, with the mouse wheel
// reported.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

// frame draws the visible window of the note (or the open pane) and the
// status bar.
func (m *Model) frame() (out string) {
	defer func() {
		if r := recover(); r != nil {
			m.failure = fmt.Errorf("the viewer stopped after an internal error (%v); please report it", r)
			out = ""
		}
	}()
	h := m.bodyHeight()
	var shown []string
	if m.shown != "" && m.pane == nil {
		shown = m.chrome.wrapped("→ "+m.shown, m.width, max(h-1, 1))
		h -= len(shown)
	}
	var lines []string
	if m.pane != nil {
		lines = m.pane.view(m.chrome, m.width, h)
	} else if m.browsing {
		lines = m.library.view(m.chrome, m.width, h)
	} else {
		lines = append(m.body(h), shown...)
	}
	if q := m.run.asking; q != nil {
		// The grant dialog is drawn over whatever is open.
		box := m.chrome.dialog(q.lines(), m.width)
		at := max((h-len(box))/2, 0)
		for i, l := range box {
			if at+i < len(lines) {
				lines[at+i] = l
			}
		}
		q.drawn = true
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.statusBar())
	return b.String()
}

// body encodes the visible rows of the note.
func (m *Model) body(h int) []string {
	out := make([]string, 0, h)
	var ft *target
	if m.focus >= 0 && m.focus < len(m.pg.targets) {
		t := m.pg.target(m.focus)
		ft = &t
	}
	buf := make([]byte, 0, 256)
	for r := m.top; r < len(m.pg.rows) && len(out) < h; r++ {
		rw := m.pg.rows[r]
		if rw.fold >= 0 {
			s := m.pg.sections[rw.fold]
			out = append(out, m.chrome.dim(fmt.Sprintf("  ⋯ %d lines folded (z to unfold)", s.end-s.body), m.width))
			continue
		}
		ln := int(rw.line)
		line := m.pg.line(ln)
		noColor := m.opt.Level == ansi.None
		if noColor {
			line = plainLine(line)
		}
		// Byte ranges count on the line as laid out: the focused link and
		// the matches keep its bytes, the widget mark comes last.
		if ft != nil && ft.kind == render.FocusLink {
			for _, r := range ft.ranges {
				if r.Line == ln {
					line = overRange(line, r, m.chrome.linkFocus)
				}
			}
		}
		if ms, first := m.search.onLine(ln); len(ms) > 0 {
			line = highlight(line, ms, first, m.search.current, m.chrome.match, m.chrome.current)
		}
		if ft != nil && ft.kind != render.FocusLink {
			line = m.markWidget(line, ln, *ft)
		}
		if noColor {
			// The note's own styles are gone; the marks drawn over the
			// plain line are the viewer's, in attributes only.
			buf = ansi.AppendLine(buf[:0], attributesOnly(line), ansi.Color16)
		} else {
			buf = ansi.AppendLine(buf[:0], line, m.opt.Level)
		}
		out = append(out, string(buf))
	}
	for len(out) < h {
		out = append(out, "")
	}
	return out
}

// plainLine is line without the note's styles and hyperlinks, as the
// no-color level shows it.
func plainLine(line ansi.Line) ansi.Line {
	out := make(ansi.Line, len(line))
	for i, s := range line {
		out[i] = ansi.Span{Text: s.Text}
	}
	return out
}

// attributesOnly keeps bold, underline and reverse video of a plain line
// the viewer marked, so that at the no-color level a search match and the
// focus stay visible without a color.
func attributesOnly(line ansi.Line) ansi.Line {
	for i, s := range line {
		line[i] = ansi.Span{Text: s.Text, Style: ansi.Style{Bold: s.Style.Bold, Underline: s.Style.Underline, Inverse: s.Style.Inverse}}
	}
	return line
}

// statusBar draws the bottom line: the prompt or the note's name and the
// last message on the left; matches, script state and position on the
// right.
func (m *Model) statusBar() string {
	if m.browsing {
		return m.library.statusBar(m.chrome, m.width)
	}
	if m.search.editing {
		return m.chrome.bar("/"+string(m.search.input), m.matchCount(), m.width)
	}
	left := " " + m.note.Name
	if len(m.history) > 0 {
		left += " (backspace returns)"
	} else if m.library != nil {
		left += " (backspace: the list)"
	}
	if m.message != "" {
		left += " · " + m.message
	} else if t := m.focusLabel(); t != "" {
		left += " · " + t
	}
	var right []string
	if m.counted {
		right = append(right, strconv.Itoa(m.count))
	}
	if m.loading {
		right = append(right, "loading…")
	}
	if m.search.query != "" {
		right = append(right, m.matchCount())
	}
	if s := m.runStatus(); s != "" {
		right = append(right, s)
	}
	if m.earlierValues() {
		right = append(right, "values from earlier")
	}
	right = append(right, m.position())
	return m.chrome.bar(left, strings.Join(right, "  ")+" ", m.width)
}

func (m *Model) matchCount() string {
	n := len(m.search.matches)
	switch {
	case m.search.query == "" && len(m.search.input) == 0:
		return ""
	case n == 0:
		return "no matches"
	}
	return fmt.Sprintf("%d/%d matches", m.search.current+1, n)
}

// percent is how far the screen is into the note: 0 at the top, 100
// at the end, as N% and p take it (percentRow is its inverse).
func (m *Model) percent() int {
	if m.maxTop() == 0 {
		return 100
	}
	return m.top * 100 / m.maxTop()
}

// position is "line X/Y P%" of the last visible row.
func (m *Model) position() string {
	n := len(m.pg.rows)
	if n == 0 {
		return "empty"
	}
	bottom := min(m.top+m.bodyHeight(), n)
	pos := "line " + strconv.Itoa(m.topLine()+1) + "/" + strconv.Itoa(m.pg.lineCount()) + " " + strconv.Itoa(m.percent()) + "%"
	if bottom == n && n > m.bodyHeight() {
		pos += " (end)"
	}
	return pos
}
