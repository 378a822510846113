package viewer

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// paneKind names the open pane.
type paneKind int

const (
	noPane paneKind = iota
	helpPane
	tocPane
	diagPane
)

// Model is the viewer's root model. It owns the terminal's size, the
// panes (help, table of contents, diagnostics), the grant dialog and the
// script run, and routes each key and message: the dialog first, then
// an open pane, then the library's list, then the reader (the note on
// screen, see reader).
type Model struct {
	opt    Options
	chrome *chrome
	reader *reader

	// width and height are the terminal's size.
	width, height int

	paneKind paneKind
	pane     *pane

	run   runState
	watch *watcher

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
	m := &Model{opt: opt, chrome: newChrome(opt.Level, opt.Theme), width: opt.Width, height: 24}
	if opt.Library != nil {
		m.library, m.browsing = newLibraryList(opt.Library), true
	}
	m.reader = newReader(&m.opt, m.chrome)
	return m
}

// Init starts the unattended runs the user's settings ask for and the
// file watcher.
func (m *Model) Init() tea.Cmd {
	// tmux says which version it is: from 3.3 it draws ZWJ sequences
	// whole (see terminalVersion).
	cmds := append([]tea.Cmd{tea.RequestTerminalVersion}, m.reader.startCmds()...)
	if m.opt.Watch && m.opt.Load != nil && m.reader.note.Path != "" {
		m.watch = newWatcher(m.reader.note.Watch)
		cmds = append(cmds, m.watch.wait())
	}
	return tea.Batch(append(cmds, m.run.startCmds(&m.opt)...)...)
}

// bodyHeight is the number of rows the note gets.
func (m *Model) bodyHeight() int { return max(m.height-1, 1) }

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
		return m.resize(msg.Width, msg.Height)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		return m.paste(msg.Content)
	case panicMsg:
		m.failure = msg.err
		return tea.Quit
	case startFullMsg:
		return msg.cmd
	case changedMsg:
		return m.reloadUpdate(msg)
	case tea.TerminalVersionMsg:
		return m.chrome.terminalVersion(msg.Name)
	case tea.ModeReportMsg:
		m.chrome.modeReport(msg)
		return nil
	}
	if cmd, ok := m.runUpdate(msg); ok {
		return cmd
	}
	return m.act(m.reader.update(msg))
}

// resize takes the terminal's new size; the reader lays the note out
// again when the page width changes, and an open diagnostics pane wraps
// its entries again.
func (m *Model) resize(w, h int) tea.Cmd {
	m.width, m.height = max(w, 1), max(h, 2)
	cmd := m.reader.resize(m.width, m.bodyHeight())
	if m.paneKind == diagPane {
		m.openPane(diagPane)
	}
	return cmd
}

// key handles one key press: the dialog first, then the search prompt,
// then an open pane, then the library's list, then the reader.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	if msg.Mod == tea.ModAlt {
		// A terminal sends alt+x as Esc then x, so Esc then x typed
		// fast (or over a slow link) arrives as alt+x. The viewer binds
		// no alt keys: it is what the reader typed, Esc and then x.
		esc := m.key(tea.KeyPressMsg{Code: tea.KeyEscape})
		return tea.Batch(esc, m.key(withoutAlt(msg)))
	}
	switch {
	case m.run.asking != nil:
		return m.dialogKey(msg)
	case m.reader.search.editing:
		return m.act(m.reader.update(msg))
	case m.pane != nil:
		return m.paneKey(msg)
	case m.browsing:
		return m.libraryKey(msg)
	}
	return m.act(m.reader.update(msg))
}

// withoutAlt is the key press msg without its alt modifier.
func withoutAlt(msg tea.KeyPressMsg) tea.KeyPressMsg {
	msg.Mod = 0
	if msg.Text == "" && msg.Code >= 0x20 && msg.Code < tea.KeyExtended {
		msg.Text = string(msg.Code)
	}
	return msg
}

// act does what the reader asked for (see rootActions), then runs the
// reader's command.
func (m *Model) act(a readerAction, cmd tea.Cmd) tea.Cmd {
	return rootActions[a](m, cmd)
}

// rootActions is what the root does for each readerAction, given the
// reader's command: quitting, a run and a change of file replace it.
var rootActions = [...]func(m *Model, cmd tea.Cmd) tea.Cmd{
	readerNone:        keep(func(*Model) {}),
	readerQuit:        func(m *Model, _ tea.Cmd) tea.Cmd { return m.quit() },
	readerEscape:      keep((*Model).escape),
	readerHelp:        keep(func(m *Model) { m.openPane(helpPane) }),
	readerContents:    keep(func(m *Model) { m.openPane(tocPane) }),
	readerDiagnostics: keep(func(m *Model) { m.openPane(diagPane) }),
	readerRun:         func(m *Model, _ tea.Cmd) tea.Cmd { return m.startRun(manualTrigger) },
	readerList:        keep((*Model).toLibrary),
	readerNextFile:    func(m *Model, _ tea.Cmd) tea.Cmd { return m.switchFile(1) },
	readerPrevFile:    func(m *Model, _ tea.Cmd) tea.Cmd { return m.switchFile(-1) },
	readerPageArrived: keep((*Model).growContents),
}

// keep returns a root action that does f and keeps the reader's command.
func keep(f func(m *Model)) func(*Model, tea.Cmd) tea.Cmd {
	return func(m *Model, cmd tea.Cmd) tea.Cmd {
		f(m)
		return cmd
	}
}

// escape closes what is open, the most recent first: a run, then what
// the reader has open. It never quits.
func (m *Model) escape() {
	if m.run.active() {
		m.cancelRun("run cancelled")
		return
	}
	m.reader.escape()
}

// growContents makes an open table of contents the whole note's, once
// its page arrived, keeping the cursor.
func (m *Model) growContents() {
	if m.paneKind != tocPane {
		return
	}
	cur := m.pane.cursor
	m.openPane(tocPane)
	m.pane.cursor = min(cur, max(len(m.pane.items)-1, 0))
	m.pane.offset = max(m.pane.cursor-m.bodyHeight()/2, 0)
}

// paste handles bracketed paste: the open search prompt takes the text
// as typed (line breaks become spaces); anywhere else each character is
// a key, as a terminal without bracketed paste would deliver it.
func (m *Model) paste(text string) tea.Cmd {
	if m.reader.search.editing && m.run.asking == nil {
		m.reader.search.insert(text)
		return m.reader.searchChanged()
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

func (m *Model) paneKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	switch m.pane.update(msg, m.bodyHeight()-1) {
	case paneClose:
		m.pane, m.paneKind = nil, noPane
	case paneChoose:
		if m.paneKind == tocPane {
			m.reader.goHeading(m.pane.cursor)
		}
		m.pane, m.paneKind = nil, noPane
	}
	return nil
}

func (m *Model) openPane(k paneKind) {
	switch k {
	case helpPane:
		// The keys of the screen the help was opened on come first.
		rows := helpRows(m.opt.Mouse)
		if m.library != nil {
			list := append([][2]string{{"In the list", ""}}, libraryHelpRows()...)
			if m.browsing {
				rows = append(append(list, [2]string{"", ""}, [2]string{"In a note", ""}), rows...)
			} else {
				rows = append(append(rows, [2]string{"", ""}), list...)
			}
		}
		if !m.browsing {
			rows = append([][2]string{{"Signature", m.reader.note.Signature.String()}, {"", ""}}, rows...)
		}
		items := make([]string, len(rows))
		for i, r := range rows {
			items[i] = fmt.Sprintf("%-14s %s", r[0], r[1])
		}
		m.pane = newPane("Keys", items, false)
	case tocPane:
		items, cur := m.reader.contents()
		title := "Contents"
		if m.reader.loading {
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

// View draws the frame on the alternate screen. The mouse is left to
// the terminal, so that text can be selected, unless Options.Mouse asks
// for the wheel to scroll.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true
	if m.opt.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

// frame draws the visible window of the note (or the open pane, or the
// library's list), the grant dialog over it, and the status bar.
func (m *Model) frame() (out string) {
	defer func() {
		if r := recover(); r != nil {
			m.failure = fmt.Errorf("the viewer stopped after an internal error (%v); please report it", r)
			out = ""
		}
	}()
	h := m.bodyHeight()
	var lines []string
	switch {
	case m.pane != nil:
		lines = m.pane.view(m.chrome, m.width, h)
	case m.browsing:
		lines = m.library.view(m.chrome, m.width, h)
	default:
		lines, h = m.reader.view()
	}
	if q := m.run.asking; q != nil {
		// The grant dialog is drawn over whatever is open.
		q.drawOver(lines, m.chrome, m.width)
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.statusBar())
	return b.String()
}

// statusBar draws the bottom line: the list's, or the reader's with the
// script run's state.
func (m *Model) statusBar() string {
	if m.browsing {
		return m.library.statusBar(m.chrome, m.width)
	}
	return m.reader.statusBar(m.runStatus(), m.run.ran)
}
