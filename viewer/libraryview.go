package viewer

import (
	"fmt"
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/sanitize"
)

// Opener opens a library entry as if the viewer had been started on it:
// the note, and the runner of its scripts (nil when they cannot run).
type Opener func(path string) (*Note, Runner, error)

// libraryKeys are the keys of a library's list; the help lists them.
var libraryKeys = struct {
	Down, Up, PageDown, PageUp, Top, Bottom, Filter, Open, Clear, Quit key.Binding
}{
	Down:     key.NewBinding(key.WithKeys("j", "down", "ctrl+n"), key.WithHelp("j ↓", "next note")),
	Up:       key.NewBinding(key.WithKeys("k", "up", "ctrl+p"), key.WithHelp("k ↑", "previous note")),
	PageDown: key.NewBinding(key.WithKeys("space", "pgdown", "f", "ctrl+f", "d", "ctrl+d"), key.WithHelp("space f", "a page down")),
	PageUp:   key.NewBinding(key.WithKeys("b", "pgup", "ctrl+b", "u", "ctrl+u"), key.WithHelp("b", "a page up")),
	Top:      key.NewBinding(key.WithKeys("g", "home", "<"), key.WithHelp("g G", "first, last note")),
	Bottom:   key.NewBinding(key.WithKeys("G", "end", ">")),
	Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter the list as you type (fuzzy; ↑ ↓ move, enter opens)")),
	Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open the note (backspace in it returns to the list)")),
	Clear:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear the filter (never quits)")),
	Quit:     key.NewBinding(key.WithKeys("q", "Q", "ctrl+c"), key.WithHelp("q", "quit")),
}

// libraryHelpRows are the help rows of a library's list.
func libraryHelpRows() [][2]string {
	var out [][2]string
	for _, b := range []key.Binding{libraryKeys.Down, libraryKeys.Up, libraryKeys.PageDown, libraryKeys.PageUp, libraryKeys.Top,
		libraryKeys.Filter, libraryKeys.Open, libraryKeys.Clear, libraryKeys.Quit} {
		h := b.Help()
		out = append(out, [2]string{h.Key, h.Desc})
	}
	return out
}

// libraryAction is what the list asks the viewer to do.
type libraryAction int

const (
	libraryNone libraryAction = iota
	libraryOpen
	libraryQuit
	libraryHelp
)

// shownEntry is an entry of the list as filtered: its index in the
// library and the bytes of its label the filter matched.
type shownEntry struct {
	index   int
	matched []int
}

// libraryList is the list of a library's notes with a fuzzy filter.
type libraryList struct {
	lib *Library
	// labels are the entries' inert texts the filter matches: the title,
	// two spaces, the path (or the path alone).
	labels []string
	// titleEnd is where each label's path starts (0 without a title).
	titleEnd []int
	// filter is the filter prompt (the search prompt's editor).
	filter searcher
	shown  []shownEntry
	cursor int
	offset int
	// message is the last failure to open an entry.
	message string
}

// LibrarySignature is an entry's signature segment in the list: its
// status (see signature.Status.Short), or that it was not checked.
func LibrarySignature(s *signature.Status) string {
	if s == nil {
		return "signature not checked"
	}
	return s.Short()
}

func newLibraryList(lib *Library) *libraryList {
	l := &libraryList{lib: lib}
	for _, e := range lib.Entries {
		label, at := sanitize.Visible(e.Rel), 0
		if e.Title != "" {
			title := sanitize.Visible(e.Title)
			label, at = title+"  "+label, len(title)+2
		}
		label += "  · " + sanitize.Visible(LibrarySignature(e.Signature))
		l.labels = append(l.labels, label)
		l.titleEnd = append(l.titleEnd, at)
	}
	l.refilter()
	return l
}

// query is the filter text.
func (l *libraryList) query() string { return string(l.filter.input) }

// refilter shows the entries that match the filter, best first; every
// entry in path order when the filter is empty.
func (l *libraryList) refilter() {
	l.shown = l.shown[:0]
	if q := l.query(); q != "" {
		for _, m := range fuzzy.Find(q, l.labels) {
			l.shown = append(l.shown, shownEntry{index: m.Index, matched: m.MatchedIndexes})
		}
	} else {
		for i := range l.labels {
			l.shown = append(l.shown, shownEntry{index: i})
		}
	}
	l.cursor, l.offset = 0, 0
}

// selected is the entry under the cursor.
func (l *libraryList) selected() (LibraryEntry, bool) {
	if l.cursor >= len(l.shown) {
		return LibraryEntry{}, false
	}
	return l.lib.Entries[l.shown[l.cursor].index], true
}

// update handles a key; height is the number of entry rows shown.
func (l *libraryList) update(msg tea.KeyPressMsg, height int) libraryAction {
	height = max(height, 1)
	k := msg.String()
	switch {
	case k == "ctrl+c":
		return libraryQuit
	case key.Matches(msg, libraryKeys.Open):
		l.filter.editing = false
		if _, ok := l.selected(); ok {
			return libraryOpen
		}
		return libraryNone
	}
	if mv, ok := promptMoves[k]; ok {
		d := mv.dir
		if mv.page {
			d *= height
		}
		l.move(d, height)
		return libraryNone
	}
	if l.filter.editing {
		l.editFilter(msg)
		return libraryNone
	}
	l.message = ""
	return l.listKey(msg, height)
}

// promptMoves are the keys that move the cursor also while the filter
// is typed: a note or a page down (dir 1) or up.
var promptMoves = map[string]struct {
	dir  int
	page bool
}{"down": {1, false}, "ctrl+n": {1, false}, "up": {-1, false}, "ctrl+p": {-1, false}, "pgdown": {1, true}, "pgup": {-1, true}}

// editFilter gives a key to the filter prompt and filters again.
func (l *libraryList) editFilter(msg tea.KeyPressMsg) {
	before := l.query()
	if l.filter.update(msg) == searchCancel {
		l.filter.input = nil
	}
	if l.query() != before {
		l.refilter()
	}
}

// listKey handles a key on the list while no filter is typed.
func (l *libraryList) listKey(msg tea.KeyPressMsg, height int) libraryAction {
	if d, ok := moveOf(libraryMoves, msg, height, len(l.shown)); ok {
		l.move(d, height)
		return libraryNone
	}
	switch {
	case key.Matches(msg, libraryKeys.Quit):
		return libraryQuit
	case key.Matches(msg, libraryKeys.Clear) && l.query() != "":
		l.filter.input = nil
		l.refilter()
	case key.Matches(msg, libraryKeys.Filter):
		l.filter.editing = true
	case key.Matches(msg, keys.Help):
		return libraryHelp
	}
	return libraryNone
}

// libraryMoves are the keys that move in the list.
var libraryMoves = []moveKey{
	{&libraryKeys.Down, lineDown}, {&libraryKeys.Up, lineUp}, {&libraryKeys.PageDown, pageDown},
	{&libraryKeys.PageUp, pageUp}, {&libraryKeys.Top, toFirst}, {&libraryKeys.Bottom, toLast},
}

// move moves the cursor d entries, keeping it on screen.
func (l *libraryList) move(d, height int) {
	l.cursor = max(0, min(l.cursor+d, len(l.shown)-1))
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+height {
		l.offset = l.cursor - height + 1
	}
}

// view draws the list into height rows of width cells: a title row, then
// one row per entry, the title in the default style and the path dim, the
// bytes the filter matched marked.
func (l *libraryList) view(c *chrome, width, height int) []string {
	out := make([]string, 0, height)
	head := " Notes in " + l.lib.Root
	if l.lib.Capped {
		head += "  (a limit stopped the scan: some notes are not listed)"
	}
	out = append(out, c.title(head, width))
	for i := l.offset; i < len(l.shown) && len(out) < height; i++ {
		out = append(out, l.row(c, i, width))
	}
	if len(l.shown) == 0 && len(out) < height {
		out = append(out, c.dim(l.emptyLine(), width))
	}
	for len(out) < height {
		out = append(out, "")
	}
	return out
}

// row draws the list's ith entry as shown.
func (l *libraryList) row(c *chrome, i, width int) string {
	s := l.shown[i]
	label, at := l.labels[s.index], l.titleEnd[s.index]
	base, path := ansi.Style{}, c.st.Dim
	lead := "  "
	if i == l.cursor {
		base, path = ansi.Style{Inverse: true}, ansi.Style{Inverse: true}
		lead = "› "
	}
	if at == 0 {
		// Without a title the path is the row's main text.
		path = base
	}
	segs := []segment{{text: lead, style: base}}
	for _, r := range segmentsOf(label, s.matched, at) {
		st := base
		switch {
		case r.marked:
			st = c.match
		case r.from >= at:
			st = path
		}
		segs = append(segs, segment{text: label[r.from:r.to], style: st})
	}
	return c.row(segs, width)
}

// emptyLine is what the list says when it shows no entry.
func (l *libraryList) emptyLine() string {
	if len(l.lib.Entries) == 0 {
		return "  (no notes here: .mk.md files, .mkz archives and bundle folders are listed)"
	}
	return "  (no note matches the filter; esc clears it)"
}

// statusBar is the list's bottom line: the filter prompt or the folder
// and the last message; the count on the right.
func (l *libraryList) statusBar(c *chrome, width int) string {
	right := notesCount(len(l.shown)) + " "
	if l.query() != "" {
		right = fmt.Sprintf("%d of %d notes ", len(l.shown), len(l.lib.Entries))
	}
	if l.filter.editing {
		return c.bar("/"+l.query(), right, width)
	}
	left := " " + l.lib.Root
	if l.query() != "" {
		left += " · filter: " + l.query() + " (esc clears)"
	}
	if l.message != "" {
		left += " · " + l.message
	}
	return c.bar(left, right, width)
}

// notesCount is "1 note" or "N notes".
func notesCount(n int) string {
	if n == 1 {
		return "1 note"
	}
	return strconv.Itoa(n) + " notes"
}

// byteRun is a run of a label's bytes, marked or not.
type byteRun struct {
	from, to int
	marked   bool
}

// segmentsOf splits s into runs at cut and at the bytes fuzzy matched
// (the first byte of each matched character), each matched character a
// marked run of its own bytes.
func segmentsOf(s string, matched []int, cut int) []byteRun {
	var out []byteRun
	at := 0
	plain := func(to int) {
		if cut > at && cut < to {
			out = append(out, byteRun{from: at, to: cut})
			at = cut
		}
		if to > at {
			out = append(out, byteRun{from: at, to: to})
		}
		at = to
	}
	for _, i := range matched {
		if i < at || i >= len(s) {
			continue
		}
		plain(i)
		end := i + 1
		for end < len(s) && s[end]&0xc0 == 0x80 {
			end++
		}
		out = append(out, byteRun{from: i, to: end, marked: true})
		at = end
	}
	plain(len(s))
	return out
}

// libraryKey handles a key on a library's list.
func (m *Model) libraryKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.library.update(msg, m.bodyHeight()-1) {
	case libraryQuit:
		return m.quit()
	case libraryHelp:
		m.openPane(helpPane)
	case libraryOpen:
		return m.openEntry()
	}
	return nil
}

// openEntry opens the selected entry of the list as the viewer's note,
// as if the viewer had been started on it: its scripts run on `r`, it
// reloads when it changes, and the settings' unattended runs apply.
func (m *Model) openEntry() tea.Cmd {
	e, ok := m.library.selected()
	if !ok {
		return nil
	}
	if m.opt.Open == nil {
		m.library.message = "opening notes is not available here"
		return nil
	}
	n, runner, err := m.opt.Open(e.Path)
	if err != nil {
		m.library.message = err.Error()
		return nil
	}
	m.browsing = false
	return m.openNote(n, runner)
}

// openNote closes the open note and shows n as if the viewer had been
// started on it, its scripts run by runner.
func (m *Model) openNote(n *Note, runner Runner) tea.Cmd {
	m.closeNote()
	m.opt.Runner = runner
	m.reader.open(n)
	return m.Init()
}

// switchFile goes d notes on among those named on the command line
// (:n, :p).
func (m *Model) switchFile(d int) tea.Cmd {
	rd := m.reader
	i := rd.file + d
	switch {
	case len(m.opt.Files) < 2:
		rd.message = "only one file was named"
		return nil
	case i < 0:
		rd.message = "no previous file"
		return nil
	case i >= len(m.opt.Files):
		rd.message = "no next file"
		return nil
	case m.opt.Open == nil:
		rd.message = "opening notes is not available here"
		return nil
	}
	n, runner, err := m.opt.Open(m.opt.Files[i])
	if err != nil {
		rd.message = err.Error()
		return nil
	}
	cmd := m.openNote(n, runner)
	rd.file = i
	return cmd
}

// toLibrary leaves the note for the list it was opened from.
func (m *Model) toLibrary() {
	m.closeNote()
	m.browsing = true
}

// closeNote stops what the open note started: its run (which ends its
// worker), its refresh timer and its watcher.
func (m *Model) closeNote() {
	m.cancelRun("")
	m.run.note++
	m.run.last, m.run.planned, m.run.done, m.run.notices = "", nil, nil, nil
	m.run.ran = false
	if m.watch != nil {
		m.watch.close()
		m.watch = nil
	}
	m.reader.close()
}
