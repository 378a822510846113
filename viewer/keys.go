package viewer

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMap is every key the reader answers; the help overlay lists them all.
// Where a key of less does not clash with the note's own features it does
// what it does in less.
type keyMap struct {
	Down, Up, PageDown, PageUp, HalfDown, HalfUp, Top, Bottom, Percent key.Binding
	Search, SearchBack, Next, Prev, TOC, NextHeading, PrevHeading      key.Binding
	Mark, GoMark, Files, Repaint                                       key.Binding
	Focus, FocusBack, Left, Right, Enter, Fold, FoldAll                key.Binding
	ScrollLeft, ScrollRight                                            key.Binding
	Run, Diagnostics, ShowURL, Back, Edit, Position, Help, Quit        key.Binding
}

var keys = keyMap{
	Down:        key.NewBinding(key.WithKeys("j", "down", "ctrl+e", "ctrl+n"), key.WithHelp("j ↓ ctrl+e", "scroll down a line (next block in focus mode)")),
	Up:          key.NewBinding(key.WithKeys("k", "up", "y", "ctrl+y", "ctrl+p"), key.WithHelp("k ↑ y ctrl+y", "scroll up a line (previous block in focus mode)")),
	PageDown:    key.NewBinding(key.WithKeys("space", "pgdown", "f", "ctrl+f"), key.WithHelp("space f ctrl+f", "page down")),
	PageUp:      key.NewBinding(key.WithKeys("b", "pgup", "w", "ctrl+b"), key.WithHelp("b w ctrl+b PgUp", "page up")),
	HalfDown:    key.NewBinding(key.WithKeys("d", "ctrl+d"), key.WithHelp("d ctrl+d", "half a page down (Nd: N lines, and N from then on)")),
	HalfUp:      key.NewBinding(key.WithKeys("u", "ctrl+u"), key.WithHelp("u ctrl+u", "half a page up (Nu: likewise)")),
	Top:         key.NewBinding(key.WithKeys("g", "home", "<"), key.WithHelp("g < Home", "go to the top (Ng: to line N)")),
	Bottom:      key.NewBinding(key.WithKeys("G", "end", ">"), key.WithHelp("G > End", "go to the end (NG: to line N)")),
	Percent:     key.NewBinding(key.WithKeys("p", "%"), key.WithHelp("N% Np", "go N percent into the note")),
	Search:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search: a regexp, lowercase ignores case; in closed details and tabs too")),
	SearchBack:  key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "search backward")),
	Next:        key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match in the search's direction (after esc too)")),
	Prev:        key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "match in the other direction")),
	Mark:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m<letter>", "mark this place")),
	GoMark:      key.NewBinding(key.WithKeys("'"), key.WithHelp("'<letter> ''", "go to a mark; '' back to where the last jump started")),
	Files:       key.NewBinding(key.WithKeys(":"), key.WithHelp(":n :p", "next and previous file named on the command line")),
	Repaint:     key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "repaint the screen")),
	TOC:         key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "table of contents")),
	NextHeading: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next heading")),
	PrevHeading: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous heading")),
	Focus:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "focus the next tabs, details or link")),
	FocusBack:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "focus the previous one")),
	Left:        key.NewBinding(key.WithKeys("left"), key.WithHelp("← →", "scroll wide tables and code sideways (N→: by N); on focused tabs, switch panels")),
	Right:       key.NewBinding(key.WithKeys("right")),
	ScrollLeft:  key.NewBinding(key.WithKeys("shift+left"), key.WithHelp("shift+← →", "scroll sideways, on focused tabs too")),
	ScrollRight: key.NewBinding(key.WithKeys("shift+right")),
	Enter:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open/close details, follow a link or #anchor; else a line down")),
	Fold:        key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "fold or unfold this section")),
	FoldAll:     key.NewBinding(key.WithKeys("Z"), key.WithHelp("Z", "fold or unfold all sections (a lone title stays open)")),
	Run:         key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run the note's scripts")),
	Diagnostics: key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "diagnostics")),
	ShowURL:     key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "show the focused link's address")),
	Back:        key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "back to where a link or anchor was followed, or to the list")),
	Edit:        key.NewBinding(key.WithKeys("e", "v"), key.WithHelp("e v", "edit the note in $VISUAL or $EDITOR (vi), then reload")),
	Position:    key.NewBinding(key.WithKeys("=", "ctrl+g"), key.WithHelp("= ctrl+g", "where you are in the note")),
	Help:        key.NewBinding(key.WithKeys("h", "f1"), key.WithHelp("h F1", "this help")),
	Quit:        key.NewBinding(key.WithKeys("q", "Q", "ctrl+c"), key.WithHelp("q Q ctrl+c", "quit (esc closes a pane, search, focus or run, and never quits)")),
}

// helpRows are the help overlay's rows in order.
// mouse says the wheel scrolls (Options.Mouse).
func helpRows(mouse bool) [][2]string {
	var out [][2]string
	for _, b := range []key.Binding{
		keys.Down, keys.Up, keys.PageDown, keys.PageUp, keys.HalfDown, keys.HalfUp, keys.Top, keys.Bottom, keys.Percent,
		keys.TOC, keys.Search, keys.SearchBack, keys.Next, keys.Prev, keys.NextHeading, keys.PrevHeading, keys.Mark, keys.GoMark,
		keys.Focus, keys.FocusBack, keys.Left, keys.ScrollLeft, keys.Enter, keys.Fold, keys.FoldAll,
		keys.Run, keys.Diagnostics, keys.ShowURL, keys.Back, keys.Edit, keys.Position, keys.Files, keys.Repaint, keys.Help, keys.Quit,
	} {
		h := b.Help()
		out = append(out, [2]string{h.Key, h.Desc})
	}
	out = append(out, [2]string{"0-9", "a count for the next key (5j, 120g, 50%)"})
	if mouse {
		out = append(out, [2]string{"mouse wheel", "scroll"})
	}
	return out
}

// count is the number typed before a key, if one was.
type count struct {
	n     int
	typed bool
}

// or is the count, or def when none was typed.
func (c count) or(def int) int {
	if c.typed {
		return c.n
	}
	return def
}

// escKey closes what is open (see reader.escape); it is not listed in the
// help on its own, as keys.Quit's help names it.
var escKey = key.NewBinding(key.WithKeys("esc"))

// readerBinding is one row of the reader's key table: the keys and what
// they do to the reader, with the count typed before them.
type readerBinding struct {
	keys *key.Binding
	do   func(rd *reader, c count) (readerAction, tea.Cmd)
}

// ask returns a key action that only asks the root to do a.
func ask(a readerAction) func(*reader, count) (readerAction, tea.Cmd) {
	return func(*reader, count) (readerAction, tea.Cmd) { return a, nil }
}

// by returns a key action that only changes the reader.
func by(f func(rd *reader, c count)) func(*reader, count) (readerAction, tea.Cmd) {
	return func(rd *reader, c count) (readerAction, tea.Cmd) {
		f(rd, c)
		return readerNone, nil
	}
}

// cmd returns a key action that changes the reader and may start work.
func cmd(f func(rd *reader, c count) tea.Cmd) func(*reader, count) (readerAction, tea.Cmd) {
	return func(rd *reader, c count) (readerAction, tea.Cmd) { return readerNone, f(rd, c) }
}

// readerKeys is the reader's key table, in the order keys are matched.
var readerKeys = []readerBinding{
	{&keys.Quit, ask(readerQuit)},
	{&escKey, ask(readerEscape)},
	{&keys.Down, by(func(rd *reader, c count) { rd.lineKey(1, c) })},
	{&keys.Up, by(func(rd *reader, c count) { rd.lineKey(-1, c) })},
	{&keys.PageDown, by(func(rd *reader, c count) { rd.scrollBy(c.or(rd.bodyHeight())) })},
	{&keys.PageUp, by(func(rd *reader, c count) { rd.scrollBy(-c.or(rd.bodyHeight())) })},
	{&keys.HalfDown, by(func(rd *reader, c count) { rd.scrollBy(rd.halfPageRows(c.n, c.typed)) })},
	{&keys.HalfUp, by(func(rd *reader, c count) { rd.scrollBy(-rd.halfPageRows(c.n, c.typed)) })},
	{&keys.Top, by(func(rd *reader, c count) { rd.jumped(); rd.goLineOrPercent(c, 0) })},
	{&keys.Bottom, by(func(rd *reader, c count) { rd.jumped(); rd.goLineOrPercent(c, 100) })},
	{&keys.Percent, by(func(rd *reader, c count) { rd.jumped(); rd.goPercent(c.or(0)) })},
	{&keys.Search, by(func(rd *reader, _ count) { rd.openSearch(false) })},
	{&keys.SearchBack, by(func(rd *reader, _ count) { rd.openSearch(true) })},
	{&keys.Mark, by(func(rd *reader, _ count) { rd.prefix, rd.message = "m", "mark: type a letter" })},
	{&keys.GoMark, by(func(rd *reader, _ count) {
		rd.prefix, rd.message = "'", "go to mark: type a letter, or ' for the last jump"
	})},
	{&keys.Files, by(func(rd *reader, _ count) { rd.prefix, rd.message = ":", ":" })},
	{&keys.Repaint, func(*reader, count) (readerAction, tea.Cmd) { return readerNone, tea.ClearScreen }},
	{&keys.Next, cmd(func(rd *reader, _ count) tea.Cmd { return rd.nextMatch(rd.search.dir()) })},
	{&keys.Prev, cmd(func(rd *reader, _ count) tea.Cmd { return rd.nextMatch(-rd.search.dir()) })},
	{&keys.TOC, ask(readerContents)},
	{&keys.Help, ask(readerHelp)},
	{&keys.Diagnostics, ask(readerDiagnostics)},
	{&keys.NextHeading, by(func(rd *reader, _ count) { rd.jumpHeading(1) })},
	{&keys.PrevHeading, by(func(rd *reader, _ count) { rd.jumpHeading(-1) })},
	{&keys.Focus, by(func(rd *reader, _ count) { rd.moveFocus(1) })},
	{&keys.FocusBack, by(func(rd *reader, _ count) { rd.moveFocus(-1) })},
	{&keys.Left, cmd(func(rd *reader, c count) tea.Cmd { return rd.leftRight(-1, c) })},
	{&keys.Right, cmd(func(rd *reader, c count) tea.Cmd { return rd.leftRight(1, c) })},
	{&keys.ScrollLeft, by(func(rd *reader, c count) { rd.sideways(-1, c) })},
	{&keys.ScrollRight, by(func(rd *reader, c count) { rd.sideways(1, c) })},
	{&keys.Enter, cmd(func(rd *reader, c count) tea.Cmd { return rd.enterKey(c) })},
	{&keys.Fold, by(func(rd *reader, _ count) { rd.fold() })},
	{&keys.FoldAll, by(func(rd *reader, _ count) { rd.foldAll() })},
	{&keys.Run, ask(readerRun)},
	{&keys.ShowURL, cmd(func(rd *reader, _ count) tea.Cmd { return rd.showURL() })},
	{&keys.Back, func(rd *reader, _ count) (readerAction, tea.Cmd) { return rd.goBack(), nil }},
	{&keys.Edit, cmd(func(rd *reader, _ count) tea.Cmd { return rd.edit() })},
	{&keys.Position, by(func(rd *reader, _ count) { rd.message = rd.where() })},
}
