package snapshot

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/sanitize"
)

// ReviewResult counts what a review did.
type ReviewResult struct {
	Accepted, Rejected, Skipped int
	// Failed are the pending files that could not be accepted or
	// rejected, with why.
	Failed []error
}

// Review walks the pending files full-screen on the terminal in/out: each
// one's diff against its stored snapshot, drawn as the terminal shows it
// (colors applied, re-encoded by markii's own encoder from what the files
// hold: no byte of a file reaches the terminal as it is); t shows every
// escape sequence as a token instead, with the changed parts marked. a
// accepts, r rejects, s skips, q ends the review; arrows and PgUp/PgDn
// scroll.
func Review(in io.Reader, out io.Writer, pending []string) (ReviewResult, error) {
	m := &reviewModel{pending: pending, height: 24, width: 80}
	m.load()
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out))
	if _, err := p.Run(); err != nil {
		return m.res, err
	}
	return m.res, nil
}

// reviewModel is the review screen.
type reviewModel struct {
	pending       []string
	i             int
	tokens        bool
	top           int
	width, height int
	// colour and token are the current item's diff lines in both forms.
	colour, token []string
	res           ReviewResult
	status        string
}

func (m *reviewModel) Init() tea.Cmd { return nil }

// load reads the current pending file and its stored snapshot.
func (m *reviewModel) load() {
	m.top, m.colour, m.token = 0, nil, nil
	if m.i >= len(m.pending) {
		return
	}
	p := m.pending[m.i]
	newer, err := readRegular(p, maxSnapshotBytes)
	if err != nil {
		m.token = []string{"cannot read it: " + sanitize.Line(err.Error())}
		m.colour = m.token
		return
	}
	older, err := readRegular(strings.TrimSuffix(p, PendingExt), maxSnapshotBytes)
	if err != nil {
		older = nil // a new snapshot: everything is added
	}
	newer, older = body(newer), body(older)
	name := filepath.Base(strings.TrimSuffix(p, PendingExt))
	m.token = strings.Split(strings.TrimSuffix(Diff(name, older, newer), "\n"), "\n")
	m.colour = colourDiff(older, newer)
}

func (m *reviewModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 20), max(msg.Height, 4)
	case tea.KeyPressMsg:
		return m, m.key(msg.String())
	}
	return m, nil
}

// reviewKeys is what each key of the review screen does; an action
// returns tea.Quit to end the review. A slice of pairs, not a map, so the
// linker lays it out and the package's init allocates nothing.
var reviewKeys = []struct {
	keys string // the keys, space-separated
	act  func(*reviewModel) tea.Cmd
}{
	{"a", (*reviewModel).accept},
	{"r", (*reviewModel).reject},
	{"s n right", (*reviewModel).skip},
	{"t", (*reviewModel).toggleTokens},
	{"q ctrl+c esc", (*reviewModel).quit},
	{"down j", (*reviewModel).lineDown},
	{"up k", (*reviewModel).lineUp},
	{"pgdown space", (*reviewModel).pageDown},
	{"pgup", (*reviewModel).pageUp},
}

// reviewAction is what key k does on the review screen, or nil.
func reviewAction(k string) func(*reviewModel) tea.Cmd {
	for _, b := range reviewKeys {
		for key := range strings.FieldsSeq(b.keys) {
			if key == k {
				return b.act
			}
		}
	}
	return nil
}

// key handles one key press.
func (m *reviewModel) key(k string) tea.Cmd {
	if m.i >= len(m.pending) {
		return tea.Quit
	}
	if act := reviewAction(k); act != nil {
		if cmd := act(m); cmd != nil {
			return cmd
		}
	}
	if m.i >= len(m.pending) {
		return tea.Quit
	}
	return nil
}

func (m *reviewModel) accept() tea.Cmd {
	m.settle(Accept(m.pending[m.i]), &m.res.Accepted, "accepted")
	return nil
}

func (m *reviewModel) reject() tea.Cmd {
	m.settle(Reject(m.pending[m.i]), &m.res.Rejected, "rejected")
	return nil
}

func (m *reviewModel) skip() tea.Cmd {
	m.res.Skipped++
	m.status = "skipped " + filepath.Base(m.pending[m.i])
	m.next()
	return nil
}

func (m *reviewModel) toggleTokens() tea.Cmd {
	m.tokens = !m.tokens
	return nil
}

// quit ends the review, counting what is left as skipped.
func (m *reviewModel) quit() tea.Cmd {
	m.res.Skipped += len(m.pending) - m.i
	return tea.Quit
}

func (m *reviewModel) lineDown() tea.Cmd { m.scroll(1); return nil }
func (m *reviewModel) lineUp() tea.Cmd   { m.scroll(-1); return nil }
func (m *reviewModel) pageDown() tea.Cmd { m.scroll(m.height - 2); return nil }
func (m *reviewModel) pageUp() tea.Cmd   { m.scroll(-(m.height - 2)); return nil }

// settle counts an accept or reject and moves on.
func (m *reviewModel) settle(err error, n *int, verb string) {
	if err != nil {
		m.res.Failed = append(m.res.Failed, err)
		m.status = sanitize.Line(err.Error())
	} else {
		*n++
		m.status = verb + " " + filepath.Base(m.pending[m.i])
	}
	m.next()
}

func (m *reviewModel) next() {
	m.i++
	m.load()
}

func (m *reviewModel) scroll(d int) {
	lines := m.lines()
	m.top = max(0, min(m.top+d, len(lines)-(m.height-2)))
}

func (m *reviewModel) lines() []string {
	if m.tokens {
		return m.token
	}
	return m.colour
}

func (m *reviewModel) View() tea.View {
	var b strings.Builder
	if m.i >= len(m.pending) {
		b.WriteString("review done\n")
		return tea.NewView(b.String())
	}
	mode := "colors"
	if m.tokens {
		mode = "tokens"
	}
	head := fmt.Sprintf("%d/%d %s  (%s)  a accept · r reject · s skip · t %s · q quit", m.i+1, len(m.pending), filepath.Base(m.pending[m.i]), mode, map[bool]string{true: "colors", false: "tokens"}[m.tokens])
	b.Write(ansi.AppendLine(nil, ansi.Line{{Text: clip(sanitize.Line(head), m.width), Style: ansi.Style{Inverse: true}}}, ansi.Color16))
	b.WriteByte('\n')
	lines := m.lines()
	for i := m.top; i < len(lines) && i < m.top+m.height-2; i++ {
		line := lines[i]
		if m.tokens {
			line = clip(line, m.width)
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	b.WriteString(clip(m.status, m.width))
	return tea.NewView(b.String())
}

// body is a snapshot file without its header line.
func body(file []byte) []byte {
	if i := strings.IndexByte(string(file), '\n'); i >= 0 && strings.HasPrefix(string(file), headerPrefix) {
		return file[i+1:]
	}
	return file
}

// clip cuts plain text to width characters.
func clip(s string, width int) string {
	r := []rune(s)
	if len(r) > width {
		return string(r[:width])
	}
	return s
}

// colourDiff is the line diff of two snapshot files drawn with their
// colors: each line is read back into styled spans and encoded again by
// package ansi at truecolor, behind a -, + or space mark.
func colourDiff(older, newer []byte) []string {
	a, b := string(older), string(newer)
	edits := udiff.Lines(a, b)
	u, err := udiff.ToUnifiedDiff("stored", "now", a, edits, 2)
	if err != nil {
		return []string{"the diff could not be computed"}
	}
	var out []string
	mark := map[udiff.OpKind]ansi.Span{
		udiff.Delete: {Text: "-", Style: ansi.Style{FG: ansi.Color{R: 0xf8, G: 0x71, B: 0x71, ANSI16: 91, Set: true}}},
		udiff.Insert: {Text: "+", Style: ansi.Style{FG: ansi.Color{R: 0x4a, G: 0xde, B: 0x80, ANSI16: 92, Set: true}}},
		udiff.Equal:  {Text: " "},
	}
	for _, h := range u.Hunks {
		out = append(out, string(ansi.AppendLine(nil, ansi.Line{{Text: "@@ line " + strconv.Itoa(h.FromLine) + " @@", Style: ansi.Style{Dim: true}}}, ansi.TrueColor)))
		for _, l := range h.Lines {
			line := append(ansi.Line{mark[l.Kind]}, decodeLine(strings.TrimSuffix(l.Content, "\n"))...)
			out = append(out, string(ansi.AppendLine(nil, line, ansi.TrueColor)))
			if len(out) > 20*maxDiffLines {
				return out
			}
		}
	}
	return out
}

// decodeLine reads one line of a snapshot into styled spans: SGR
// sequences set the style, hyperlinks are dropped (their text stays), any
// other escape or control character becomes its visible token, and the
// text is sanitized.
func decodeLine(s string) ansi.Line {
	var line ansi.Line
	var st ansi.Style
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			line = append(line, ansi.Span{Text: sanitize.Inline(text.String()), Style: st})
			text.Reset()
		}
	}
	b := []byte(s)
	for i := 0; i < len(b); {
		if n, _ := escapeToken(b[i:]); n > 0 {
			flush()
			if b[i+1] == '[' {
				st = applySGR(st, string(b[i+2:i+n-1]))
			}
			i += n
			continue
		}
		next := i + 1
		for next < len(b) && b[next] != 0x1b {
			next++
		}
		text.WriteString(Visible(b[i:next]))
		i = next
	}
	flush()
	return line
}

// setSGRAttr applies SGR code n to st when it is one of the attribute
// codes markii writes, and reports whether it was.
func setSGRAttr(st *ansi.Style, n int) bool {
	switch n {
	case 0:
		*st = ansi.Style{}
	case 1:
		st.Bold = true
	case 2:
		st.Dim = true
	case 3:
		st.Italic = true
	case 4:
		st.Underline = true
	case 7:
		st.Inverse = true
	case 9:
		st.Strikethru = true
	default:
		return false
	}
	return true
}

// applySGR is st after an SGR's parameters.
func applySGR(st ansi.Style, params string) ansi.Style {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, _ := strconv.Atoi(ps[i])
		switch {
		case setSGRAttr(&st, n):
		case n == 38 || n == 48:
			i += setRGB(&st, n, ps[i+1:])
		case (n >= 30 && n <= 37) || (n >= 90 && n <= 97):
			st.FG = ansi16(n)
		}
	}
	return st
}

// setRGB applies a 38 (foreground) or 48 (background) color given as
// 2;R;G;B in rest, and returns how many parameters of rest it took.
func setRGB(st *ansi.Style, n int, rest []string) int {
	if len(rest) < 4 || rest[0] != "2" {
		return 0
	}
	c := ansi.Color{R: atoi8(rest[1]), G: atoi8(rest[2]), B: atoi8(rest[3]), Set: true}
	if n == 38 {
		st.FG = c
	} else {
		st.BG = c
	}
	return 4
}

// ansi16 is an approximate color for a 16-color foreground code.
func ansi16(n int) ansi.Color {
	base := [8][3]uint8{{0, 0, 0}, {205, 49, 49}, {13, 188, 121}, {229, 229, 16}, {36, 114, 200}, {188, 63, 188}, {17, 168, 205}, {229, 229, 229}}
	c := base[n%10]
	return ansi.Color{R: c[0], G: c[1], B: c[2], ANSI16: uint8(n), Set: true}
}

func atoi8(s string) uint8 {
	n, _ := strconv.Atoi(s)
	return uint8(min(max(n, 0), 255))
}
