package viewer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/value"
)

// reader is the model of the note on screen: the page, the reader's
// place and focus in it, the search over it, the notes followed to from
// it, and the long note's layout under way. The root Model routes keys
// and messages to it; update says what the root should do beyond the
// reader (quit, open a pane, run the scripts, go back to the list).
type reader struct {
	// opt is the root's options, shared: the library swaps the runner.
	opt    *Options
	chrome *chrome
	note   *Note
	// first is the note the viewer was opened with; only its scripts run.
	first  *Note
	pg     *page
	values value.Values

	// width is the terminal's width and height the rows the note gets,
	// both set by the root; pageWidth is the width the note is laid out
	// at (see pageWidthFor).
	width, height int
	pageWidth     int
	// top is the first visible row.
	top int
	// focus is the focused target's index, -1 when focus mode is off.
	focus int

	search  searcher
	message string
	// shown is a link address shown in full above the status bar until
	// the next key.
	shown string
	// confirm is a linked note outside the first note's folder tree that
	// waits for a second Enter.
	confirm string
	history []place
	// listed says the note was opened from a library's list, which
	// Backspace returns to.
	listed bool
	// reload counts the reloads of the first note.
	reload int

	// loading is set while a long note's full page is laid out in the
	// background; loadGen tells its result from an older note's.
	loading bool
	loadGen int
	// liveVersion counts changes of the live state and values, so a page
	// laid out in the background for an older state is not shown.
	liveVersion int
	// pending is what is still to be done once the page being laid out
	// arrives, in the order it is done (see pendingList).
	pending pendingList

	// prefix is the first key of a two-key command (m, ', :) waiting
	// for its second.
	prefix string
	// marks are the places m<letter> marked; the mark ' is where the
	// last jump started.
	marks map[rune]markPlace
	// file and files say which of the notes named on the command line is
	// on screen (files is 0 for one note).
	file, files int

	// count is a number typed before a key (less's N prefix); counted
	// says one was typed.
	count   int
	counted bool
	// halfPage is the rows d and u scroll once a count set it (as in
	// less); 0 means half the screen.
	halfPage int
	// hoff is how far wide blocks are scrolled sideways (read it through
	// shift, which keeps it in range); hstep is the columns ← and →
	// scroll once a count set it, 0 meaning half the screen.
	hoff, hstep int
}

// readerAction is what the reader asks the root model to do.
type readerAction int

const (
	readerNone readerAction = iota
	readerQuit
	// readerEscape is esc: the root cancels a run under way, else the
	// reader closes what it has open (see escape).
	readerEscape
	readerHelp
	readerContents
	readerDiagnostics
	readerRun
	// readerList goes back to the library's list.
	readerList
	// readerNextFile and readerPrevFile go to the next and previous note
	// named on the command line (:n, :p).
	readerNextFile
	readerPrevFile
	// readerPageArrived says the whole note's page replaced the partial
	// one; an open table of contents grows to it.
	readerPageArrived
)

// newReader returns the reader of opt's first note.
func newReader(opt *Options, c *chrome) *reader {
	rd := &reader{opt: opt, chrome: c, note: opt.Note, first: opt.Note, width: opt.Width, pageWidth: opt.Width, height: 23, focus: -1, listed: opt.Library != nil, files: len(opt.Files)}
	rd.show(opt.Note)
	return rd
}

// update handles a message for the note on screen and says what the
// root should do besides.
func (rd *reader) update(msg tea.Msg) (readerAction, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if rd.search.editing {
			return readerNone, rd.searchKey(msg)
		}
		return rd.key(msg)
	case tea.MouseWheelMsg:
		if d, ok := wheelRows[msg.Button]; ok {
			rd.scrollTo(rd.top + d)
		}
	case fullPageMsg:
		return rd.fullPage(msg)
	case picturesMsg:
		return readerNone, rd.picturesDecoded(msg)
	case editedMsg:
		return readerNone, rd.edited(msg)
	case statusMsg:
		rd.message = string(msg)
	}
	return readerNone, nil
}

// wheelRows are the rows a turn of the mouse wheel scrolls.
var wheelRows = map[tea.MouseButton]int{tea.MouseWheelDown: 3, tea.MouseWheelUp: -3}

// open makes n the note on screen as if the viewer had been started on
// it (a library's entry).
func (rd *reader) open(n *Note) {
	rd.note, rd.first, rd.history = n, n, nil
	rd.top, rd.focus, rd.message, rd.shown, rd.confirm = 0, -1, "", "", ""
	rd.count, rd.counted = 0, false
	rd.pending.drop(pendingJump)
	rd.show(n)
	rd.search.run(rd.pg, "")
}

// close forgets the layout under way and the hit being revealed: the
// note is left for the list.
func (rd *reader) close() {
	rd.pending.drop(pendingReveal)
	rd.loading = false
	rd.loadGen++
}

// goHeading scrolls heading i (of the table of contents) to the top,
// unfolding it.
func (rd *reader) goHeading(i int) {
	if i < len(rd.pg.laid.Headings) {
		ln := rd.pg.laid.Headings[i].Line
		rd.pg.unfoldLine(ln)
		rd.scrollTo(rd.pg.rowOf(ln))
	}
}

// contents are the table of contents' rows and the one the screen is in.
func (rd *reader) contents() (items []string, cur int) {
	top := rd.topLine()
	for i, h := range rd.pg.laid.Headings {
		items = append(items, strings.Repeat("  ", max(h.Level-1, 0))+h.Text)
		if h.Line <= top {
			cur = i
		}
	}
	return items, cur
}

// storeValue keeps a script's new value and shows it when the first
// note is on screen.
func (rd *reader) storeValue(name string, e value.Entry) tea.Cmd {
	rd.values[name] = e
	if rd.note == rd.first {
		return rd.relayout(func() { rd.pg.opt.Values = rd.values }, -1)
	}
	return nil
}

// firstPage is the first note's page, also while a linked note is on
// screen.
func (rd *reader) firstPage() *page {
	if rd.note != rd.first {
		for _, h := range rd.history {
			if h.note == rd.first {
				return h.pg
			}
		}
	}
	return rd.pg
}

// show lays out n as the viewer's first note: a long note's first part
// now and the rest in the background (see Init).
func (rd *reader) show(n *Note) {
	rd.hoff = 0
	rd.values = storedValues(n.Values)
	if src := n.Source; len(src) >= progressiveFrom {
		if first, ok := render.FirstFrameSource(src, prefixBytes); ok {
			rd.loadGen++
			rd.pg = newPage(first, rd.pageOptions(rd.values), rd.opt.Memory)
			rd.loading = true
			return
		}
	}
	rd.pg = rd.newPage(n, rd.values)
}

// earlierValues reports whether the note on screen shows values stored
// by an earlier session that no run of this one (ran) has refreshed.
func (rd *reader) earlierValues(ran bool) bool {
	if rd.note == rd.first && ran {
		return false
	}
	for _, e := range rd.pg.opt.Values {
		if e.Status == value.Fresh {
			return true
		}
	}
	return false
}

func (rd *reader) newPage(n *Note, values value.Values) *page {
	rd.loadGen++
	rd.loading = false
	opt := rd.pageOptions(values)
	opt.Images = n.Images
	return newPage(n.Source, opt, rd.opt.Memory)
}

func (rd *reader) pageOptions(values value.Values) render.Options {
	return render.Options{
		Width:     rd.pageWidth,
		Level:     rd.opt.Level,
		Theme:     rd.opt.Theme,
		Values:    values,
		Now:       rd.opt.Now(),
		Images:    rd.note.Images,
		Packs:     rd.opt.Packs,
		ShowURLs:  rd.opt.ShowURLs,
		NoEmoji:   rd.opt.NoEmoji,
		WikiLinks: wikiResolver(rd.opt.Library, rd.note.Path),

		// Tables and code wider than the screen scroll sideways.
		ScrollWidth: scrollWidth,
	}
}

// bodyHeight is the number of rows the note gets.
func (rd *reader) bodyHeight() int { return rd.height }

func (rd *reader) maxTop() int { return max(len(rd.pg.rows)-rd.bodyHeight(), 0) }

func (rd *reader) scrollTo(r int) { rd.top = max(0, min(r, rd.maxTop())) }

// topLine is the page line at the top of the screen.
func (rd *reader) topLine() int { return rd.pg.lineOf(rd.top) }

// pageWidthFor is the width the note is laid out at in a terminal w
// cells wide: a --width always, else the terminal's width up to the cap.
func (rd *reader) pageWidthFor(w int) int {
	switch {
	case rd.opt.FixedWidth:
		return rd.opt.Width
	case rd.opt.MaxWidth > 0:
		return min(w, rd.opt.MaxWidth)
	}
	return w
}

// resize takes the terminal's width w and the h rows the note gets,
// and lays the note out again when the page width changes, keeping the
// reader's place.
func (rd *reader) resize(w, h int) tea.Cmd {
	// The sideways offset stays inside the new screen's range.
	defer func() { rd.hoff = rd.shift() }()
	pw := rd.pageWidthFor(w)
	rd.width = w
	if pw == rd.pageWidth {
		rd.height = h
		rd.scrollTo(rd.top)
		return nil
	}
	if len(rd.pg.src) > keepTreeUpTo {
		rd.pageWidth, rd.height = pw, h
		rd.scrollTo(rd.top)
		return rd.resizeLater()
	}
	anchor := rd.anchor()
	rd.pageWidth, rd.height = pw, h
	rd.pg.opt.Width = pw
	rd.pg.layout()
	rd.search.rerun(rd.pg)
	rd.restore(anchor)
	return nil
}

func (rd *reader) anchor() anchor {
	ln := rd.topLine()
	a := anchor{heading: -1}
	n := rd.pg.lineCount()
	if n > 0 {
		a.fraction = float64(ln) / float64(n)
	}
	hs := rd.pg.laid.Headings
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

func (rd *reader) restore(a anchor) {
	hs := rd.pg.laid.Headings
	n := rd.pg.lineCount()
	ln := int(a.fraction * float64(n))
	if a.heading >= 0 && a.heading < len(hs) {
		next := n
		if a.heading+1 < len(hs) {
			next = hs[a.heading+1].Line
		}
		ln = hs[a.heading].Line + int(a.offset*float64(next-hs[a.heading].Line)+0.5)
	}
	rd.top = rd.pg.rowOf(ln)
	rd.scrollTo(rd.top)
}

func (rd *reader) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch rd.search.update(msg) {
	case searchChanged:
		return rd.searchChanged()
	case searchCancel:
		rd.search.run(rd.pg, "")
	case searchDone:
		rd.setMarkAt('\'', rd.search.from)
		if len(rd.search.input) == 0 && rd.search.last != "" {
			return rd.repeatSearch(rd.search.dir())
		}
		if err := rd.search.err; err != nil {
			rd.message = "invalid pattern: " + err.Error()
		}
		return rd.showMatch()
	}
	return nil
}

// repeatSearch searches for the last query again, as an empty `/` and
// an `n` or `N` after esc do: from the match after (d < 0: before) the
// current one while its marks are shown, else from the top of the
// screen.
func (rd *reader) repeatSearch(d int) tea.Cmd {
	if rd.search.query == rd.search.last && len(rd.search.matches) > 0 {
		rd.search.step(d)
	} else {
		rd.search.run(rd.pg, rd.search.last)
		rd.search.firstFrom(rd.topLine())
		if d < 0 {
			rd.search.step(-1)
		}
	}
	if len(rd.search.matches) == 0 {
		rd.message = "no matches for " + rd.search.last
	}
	return rd.showMatch()
}

// searchChanged finds the prompt's text as it is typed, from the top of
// the screen when the prompt opened on (before it, searching backward).
func (rd *reader) searchChanged() tea.Cmd {
	rd.search.run(rd.pg, string(rd.search.input))
	rd.search.firstFrom(rd.search.from)
	if rd.search.backward {
		rd.search.step(-1)
	}
	return rd.showMatch()
}

// openSearch opens the search prompt, searching backward or forward.
func (rd *reader) openSearch(backward bool) {
	rd.search.editing, rd.search.input, rd.search.backward = true, nil, backward
	rd.search.from = rd.topLine()
}

// showMatch scrolls the current match into view, unfolding its section;
// a match in a closed details body or an inactive tab opens the body or
// switches to the tab first (see reveal).
func (rd *reader) showMatch() tea.Cmd {
	if len(rd.search.matches) == 0 {
		return nil
	}
	mt := rd.search.matches[rd.search.current]
	if mt.hidden != nil {
		return rd.reveal(*mt.hidden)
	}
	ln := mt.line
	rd.pg.unfoldLine(ln)
	r := rd.pg.rowOf(ln)
	if r < rd.top || r >= rd.top+rd.bodyHeight() {
		rd.scrollTo(r - rd.bodyHeight()/3)
	}
	rd.revealColumns(ln, mt.start, mt.end)
	return nil
}

// key handles a key on the note itself: a digit adds to the count, any
// other key ends it and does what readerKeys binds it to.
func (rd *reader) key(msg tea.KeyPressMsg) (readerAction, tea.Cmd) {
	rd.shown = ""
	k := msg.String()
	if rd.confirm != "" && k != "enter" {
		rd.confirm = ""
	}
	if p := rd.prefix; p != "" {
		// The second key of m<letter>, '<letter> or :n.
		rd.prefix, rd.message = "", ""
		rd.count, rd.counted = 0, false
		return rd.prefixed(p, k)
	}
	if len(k) == 1 && k[0] >= '0' && k[0] <= '9' {
		rd.count = min(rd.count*10+int(k[0]-'0'), 1<<30)
		rd.counted = true
		return readerNone, nil
	}
	c := count{n: rd.count, typed: rd.counted}
	rd.count, rd.counted = 0, false
	// A message stays until the next key, as less's do.
	rd.message = ""
	for _, b := range readerKeys {
		if key.Matches(msg, *b.keys) {
			return b.do(rd, c)
		}
	}
	return readerNone, nil
}

// halfPageRows is how far d and u scroll: half the screen, or the
// count typed before one of them, which stays their distance from then
// on, as in less.
func (rd *reader) halfPageRows(n int, counted bool) int {
	if counted {
		rd.halfPage = n
	}
	if rd.halfPage > 0 {
		return rd.halfPage
	}
	return max(rd.bodyHeight()/2, 1)
}

// escape closes what the reader has open, the most recent first: the
// search marks, the focus (a message goes with any key). It never quits;
// the root cancels a run under way first.
func (rd *reader) escape() {
	switch {
	case rd.search.query != "":
		rd.search.run(rd.pg, "")
	case rd.focus >= 0:
		rd.setFocus(-1)
	}
}

// scrollBy scrolls d rows down (up when negative).
func (rd *reader) scrollBy(d int) {
	rd.pending.drop(pendingJump)
	rd.scrollTo(rd.top + d)
}

// goPercent scrolls to p percent of the note (0 the top, 100 the end).
// While a long note is still loading, the jump is done again once the
// whole note is there.
func (rd *reader) goPercent(p int) {
	p = max(0, min(p, 100))
	rd.pending.drop(pendingJump)
	if rd.loading {
		rd.pending.put(pendingAction{kind: pendingJump, jump: jump{percent: p}})
	}
	rd.scrollTo(percentRow(p, rd.maxTop()))
}

// goLine scrolls page line n (counted from 1, as the status bar shows
// it) to the top, unfolding it. While a long note is still loading, the
// jump is done again once the whole note is there.
func (rd *reader) goLine(n int) {
	rd.pending.drop(pendingJump)
	if rd.loading {
		rd.pending.put(pendingAction{kind: pendingJump, jump: jump{line: max(n, 1)}})
	}
	ln := max(min(n, rd.pg.lineCount()), 1) - 1
	rd.pg.unfoldLine(ln)
	rd.scrollTo(rd.pg.rowOf(ln))
}

// nextMatch goes to the next (d > 0) or previous match.
func (rd *reader) nextMatch(d int) tea.Cmd {
	switch {
	case rd.search.query == "" && rd.search.last == "":
		rd.message = "no search yet: / searches"
		return nil
	case rd.search.query == "":
		return rd.repeatSearch(d)
	case len(rd.search.matches) == 0:
		rd.message = "no matches for " + rd.search.query
		return nil
	}
	rd.jumped()
	rd.search.step(d)
	return rd.showMatch()
}

// where describes the reader's place, as less's = does.
func (rd *reader) where() string {
	n := rd.pg.lineCount()
	if n == 0 {
		return "empty note"
	}
	first := rd.topLine() + 1
	last := rd.pg.lineOf(min(rd.top+rd.bodyHeight(), len(rd.pg.rows))-1) + 1
	out := fmt.Sprintf("lines %d-%d of %d  %d%%", first, last, n, rd.percent())
	if rd.loading {
		out += "  (still loading)"
	}
	return out
}

// jumpHeading scrolls to the next or previous heading.
func (rd *reader) jumpHeading(d int) {
	top := rd.topLine()
	hs := rd.pg.laid.Headings
	if d > 0 {
		for _, h := range hs {
			if r := rd.pg.rowOf(h.Line); r > rd.top && int(rd.pg.rows[r].fold) < 0 && h.Line > top {
				rd.scrollTo(r)
				return
			}
		}
		return
	}
	for i := len(hs) - 1; i >= 0; i-- {
		if r := rd.pg.rowOf(hs[i].Line); r < rd.top {
			rd.scrollTo(r)
			return
		}
	}
	rd.scrollTo(0)
}

// fold folds or unfolds the section at the top of the screen; the
// section's heading stays where the reader is.
func (rd *reader) fold() {
	r := rd.pg.rows
	if len(r) == 0 {
		return
	}
	var si int
	if f := r[rd.top].fold; f >= 0 {
		si = int(f)
	} else {
		si = rd.pg.sectionAt(rd.topLine())
	}
	if si < 0 {
		rd.message = "no section here to fold"
		return
	}
	s := rd.pg.sections[si]
	if s.body >= s.end {
		rd.message = "this section has nothing to fold"
		return
	}
	wasTop := rd.top
	headRow := rd.pg.rowOf(s.line)
	if rd.pg.folded[si] {
		delete(rd.pg.folded, si)
	} else {
		rd.pg.folded[si] = true
	}
	rd.pg.buildRows()
	// Keep the heading on the same screen row when it was on screen, else
	// bring it to the top.
	if headRow >= wasTop && headRow < wasTop+rd.bodyHeight() {
		rd.scrollTo(rd.pg.rowOf(s.line) - (headRow - wasTop))
	} else {
		rd.scrollTo(rd.pg.rowOf(s.line))
	}
}

// foldAll folds every section, or unfolds all when any is folded. A
// heading alone at the top level (a note's one title) is not folded:
// the sections below it are, so the note reads as its outline.
func (rd *reader) foldAll() {
	ln := rd.topLine()
	if len(rd.pg.folded) > 0 {
		clear(rd.pg.folded)
	} else {
		lone := loneTopLevels(rd.pg.sections)
		for i, s := range rd.pg.sections {
			if s.body < s.end && !lone[s.level] {
				rd.pg.folded[i] = true
			}
		}
	}
	rd.pg.buildRows()
	r := rd.pg.rowOf(ln)
	if f := rd.pg.rows[r].fold; f >= 0 {
		r = rd.pg.rowOf(rd.pg.sections[f].line)
	}
	rd.scrollTo(r)
}

// view draws the visible rows of the note and, below them, the shown
// link address; rows is how many of the lines are the note's.
func (rd *reader) view() (lines []string, rows int) {
	h := rd.bodyHeight()
	var shown []string
	if rd.shown != "" {
		shown = rd.chrome.wrapped("→ "+rd.shown, rd.width, max(h-1, 1))
		h -= len(shown)
	}
	return append(rd.body(h), shown...), h
}

// body encodes h visible rows of the note.
func (rd *reader) body(h int) []string {
	out := make([]string, 0, h)
	var ft *target
	if rd.focus >= 0 && rd.focus < len(rd.pg.targets) {
		t := rd.pg.target(rd.focus)
		ft = &t
	}
	buf := make([]byte, 0, 256)
	off := rd.shift()
	for r := rd.top; r < len(rd.pg.rows) && len(out) < h; r++ {
		rw := rd.pg.rows[r]
		if rw.fold >= 0 {
			s := rd.pg.sections[rw.fold]
			out = append(out, rd.chrome.dim(fmt.Sprintf("  ⋯ %d lines folded (z to unfold)", s.end-s.body), rd.width))
			continue
		}
		ln := int(rw.line)
		line := rd.pg.line(ln)
		noColor := rd.opt.Level == ansi.None
		if noColor {
			line = plainLine(line)
		}
		line = rd.cutWide(rd.mark(line, ln, ft), ln, off)
		if noColor {
			// The note's own styles are gone; the marks drawn over the
			// plain line are the viewer's, in attributes only.
			buf = ansi.AppendLine(buf[:0], rd.chrome.cellSafe(attributesOnly(line)), ansi.Color16)
		} else {
			buf = ansi.AppendLine(buf[:0], rd.chrome.cellSafe(line), rd.opt.Level)
		}
		out = append(out, string(buf))
	}
	for len(out) < h {
		out = append(out, "")
	}
	return out
}

// statusBar draws the bottom line: the prompt or the note's name and the
// last message on the left; matches, the script run's state (run, and
// ran once a run reported a value) and position on the right.
func (rd *reader) statusBar(run string, ran bool) string {
	if rd.search.editing {
		return rd.chrome.bar(rd.search.prompt(), rd.matchCount(), rd.width)
	}
	left, says := rd.statusLeft()
	right := rd.statusRight(run, ran)
	sig := rd.note.Signature
	tail := append(rd.sidewaysSegment(left, right, says), rd.position())
	withSig := strings.Join(append(append(right, sig.Short()), tail...), "  ") + " "
	if sig.State == signature.Unsigned && !fitsStatus(rd.note.Name, left, withSig, rd.width) {
		// A signed note's signer always shows; "unsigned" gives way to
		// the name, the message and the position when they need the room.
		return rd.chrome.status(rd.note.Name, left, strings.Join(append(right, tail...), "  ")+" ", rd.width)
	}
	return rd.chrome.status(rd.note.Name, left, withSig, rd.width)
}

// statusLeft is the status bar's left part after the note's name: which
// file, where backspace goes, and the message or the focus target; says
// reports whether a message or target is there.
func (rd *reader) statusLeft() (left string, says bool) {
	if rd.files > 1 {
		left += fmt.Sprintf(" (file %d of %d)", rd.file+1, rd.files)
	}
	if len(rd.history) > 0 {
		left += " (backspace returns)"
	} else if rd.listed {
		left += " (backspace: the list)"
	}
	shown := rd.message
	if shown == "" {
		shown = rd.focusLabel()
	}
	if shown == "" {
		return left, false
	}
	return left + " · " + shown, true
}

// statusRight is the status bar's right part before the signature and the
// position: the count typed, loading, matches, the run's state and
// whether the values shown are from an earlier run.
func (rd *reader) statusRight(run string, ran bool) []string {
	var right []string
	if rd.counted {
		right = append(right, strconv.Itoa(rd.count))
	}
	if rd.loading {
		right = append(right, "loading…")
	}
	if rd.search.query != "" {
		right = append(right, rd.matchCount())
	}
	if run != "" {
		right = append(right, run)
	}
	if rd.earlierValues(ran) {
		right = append(right, "values from earlier")
	}
	return right
}

// sidewaysSegment is the sideways position for the status bar, if the
// view is scrolled sideways and it fits. It goes before the focus target
// or a message would lose anything (the name's middle goes first).
func (rd *reader) sidewaysSegment(left string, right []string, says bool) []string {
	cols := rd.columns()
	if cols == "" {
		return nil
	}
	with := slices.Clone(right)
	if sig := rd.note.Signature; sig.State != signature.Unsigned {
		with = append(with, sig.Short())
	}
	with = append(with, cols, rd.position())
	if says && 2+min(ansi.Width(rd.note.Name), minName)+ansi.Width(left)+ansi.Width(strings.Join(with, "  "))+1 > rd.width {
		return nil
	}
	return []string{cols}
}

// fitsStatus reports whether a status bar of name, rest and right shows
// all of them, uncut, in width cells.
func fitsStatus(name, rest, right string, width int) bool {
	return 1+ansi.Width(sanitize.Inline(name))+ansi.Width(sanitize.Inline(rest))+1+ansi.Width(sanitize.Inline(right)) <= width
}

func (rd *reader) matchCount() string {
	n := len(rd.search.matches)
	switch {
	case rd.search.query == "" && len(rd.search.input) == 0:
		return ""
	case rd.search.err != nil && rd.search.editing:
		return "invalid pattern: " + rd.search.err.Error()
	case rd.search.err != nil:
		// The message says what is wrong.
		return ""
	case n == 0:
		return "no matches"
	}
	return fmt.Sprintf("%d/%d matches", rd.search.current+1, n)
}

// percent is how far the screen is into the note: 0 at the top, 100
// at the end, as N% and p take it (percentRow is its inverse).
func (rd *reader) percent() int {
	if rd.maxTop() == 0 {
		return 100
	}
	return rd.top * 100 / rd.maxTop()
}

// position is "line X/Y P%" of the last visible row.
func (rd *reader) position() string {
	n := len(rd.pg.rows)
	if n == 0 {
		return "empty"
	}
	bottom := min(rd.top+rd.bodyHeight(), n)
	pos := "line " + strconv.Itoa(rd.topLine()+1) + "/" + strconv.Itoa(rd.pg.lineCount()) + " " + strconv.Itoa(rd.percent()) + "%"
	if bottom == n && n > rd.bodyHeight() {
		pos += " (end)"
	}
	return pos
}

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

// anchor records the top line relative to the heading above it.
type anchor struct {
	heading  int
	offset   float64
	fraction float64
}

// jump is a place given as a share of the whole note, a line of it
// (from 1), or a heading's anchor.
type jump struct {
	percent int
	line    int
	anchor  string
}

// percentRow is the top row p percent of the way to last, rounded up so
// the status bar, which rounds down, shows p again.
func percentRow(p, last int) int { return (p*last + 99) / 100 }

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

// mark draws the reader's marks over page line ln: the focused target
// ft (when not nil) and the search matches. Byte ranges count on the
// line as laid out: the focused link and the matches keep its bytes, the
// widget mark comes last.
func (rd *reader) mark(line ansi.Line, ln int, ft *target) ansi.Line {
	if ft != nil && ft.kind == render.FocusLink {
		for _, r := range ft.ranges {
			if r.Line == ln {
				line = overRange(line, r, rd.chrome.linkFocus)
			}
		}
	}
	if ms, first := rd.search.onLine(ln); len(ms) > 0 {
		line = highlight(line, ms, first, rd.search.current, rd.chrome.match, rd.chrome.current)
	}
	if ft != nil && ft.kind != render.FocusLink {
		line = rd.markWidget(line, ln, *ft)
	}
	return line
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

// storedValues copies the values stored for a note, for the viewer to
// update as runs report. Values a run of an earlier session left fresh
// are drawn as they are; the status bar says once that they are from
// earlier (see earlierValues) instead of a stale mark on every value.
func storedValues(v value.Values) value.Values {
	out := make(value.Values, len(v))
	for k, e := range v {
		out[k] = e
	}
	return out
}

// lineKey moves the focus to the next (dir > 0) or previous block in
// focus mode, else scrolls c lines (one without a count).
func (rd *reader) lineKey(dir int, c count) {
	if rd.focus >= 0 {
		rd.moveFocus(dir)
		return
	}
	rd.scrollBy(dir * c.or(1))
}

// goLineOrPercent goes to the line counted, else p percent into the note.
func (rd *reader) goLineOrPercent(c count, p int) {
	if c.typed {
		rd.goLine(c.n)
		return
	}
	rd.goPercent(p)
}

// enterKey acts on the focused block, else scrolls c lines down.
func (rd *reader) enterKey(c count) tea.Cmd {
	if rd.focus < 0 {
		rd.scrollBy(c.or(1))
		return nil
	}
	return rd.enter()
}

// goBack returns to where a link or anchor was followed, or asks for
// the library's list when the note was opened from it.
func (rd *reader) goBack() readerAction {
	if rd.listed && len(rd.history) == 0 {
		return readerList
	}
	rd.back()
	return readerNone
}

// markPlace is a marked place: a note and a line of its page.
type markPlace struct {
	note *Note
	line int
}

// jumped remembers the place before a jump (g, G, %, a search, a mark,
// the table of contents) as the mark ', which ” returns to, as in less.
func (rd *reader) jumped() {
	rd.setMark('\'')
}

// setMark marks the top of the screen as c.
func (rd *reader) setMark(c rune) { rd.setMarkAt(c, rd.topLine()) }

// setMarkAt marks page line ln of the note on screen as c.
func (rd *reader) setMarkAt(c rune, ln int) {
	if rd.marks == nil {
		rd.marks = map[rune]markPlace{}
	}
	rd.marks[c] = markPlace{note: rd.note, line: ln}
}

// goMark goes to the place marked c; ” goes to where the last jump
// started (the top before any jump), and remembers this place for the
// next ”.
func (rd *reader) goMark(c rune) {
	mk, ok := rd.marks[c]
	switch {
	case !ok && c == '\'':
		mk = markPlace{note: rd.note}
	case !ok:
		rd.message = "no mark " + string(c) + " (m" + string(c) + " marks a place)"
		return
	case mk.note != rd.note && (mk.note.Path == "" || mk.note.Path != rd.note.Path):
		rd.message = "mark " + string(c) + " is in " + mk.note.Name
		return
	}
	rd.jumped()
	rd.pending.drop(pendingJump)
	ln := min(mk.line, max(rd.pg.lineCount()-1, 0))
	rd.pg.unfoldLine(ln)
	rd.scrollTo(rd.pg.rowOf(ln))
}

// fileKeys are the second keys of :n and :p.
var fileKeys = map[string]readerAction{"n": readerNextFile, "p": readerPrevFile}

// isLetter reports whether the key k types an ASCII letter, a mark's name.
func isLetter(k string) bool {
	return len(k) == 1 && 'a' <= k[0]|0x20 && k[0]|0x20 <= 'z'
}

// prefixed does the two-key command whose first key was p and second k:
// m<letter> marks, '<letter> and ” go to a mark, :n and :p change file.
func (rd *reader) prefixed(p, k string) (readerAction, tea.Cmd) {
	switch {
	case p == "m" && isLetter(k):
		rd.setMark(rune(k[0]))
	case p == "'" && (isLetter(k) || k == "'"):
		rd.goMark(rune(k[0]))
	case p == ":" && fileKeys[k] != readerNone:
		return fileKeys[k], nil
	case k != "esc":
		rd.message = p + k + " is not a command (m<letter>, '<letter>, '', :n, :p)"
	}
	return readerNone, nil
}
