package viewer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/procmem"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// bigNote returns a realistic note of about size bytes: sections of
// paragraphs with emphasis, links and code, lists, tables, code blocks,
// quotes, and a few details and tabs blocks.
func bigNote(size int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("the of and to in is that for it as with was on be by this are from at or an which have not has but were all their more one can note terminal render layout width column value script sandbox grant table heading paragraph quickly carefully simple reliable portable readable")
	word := func() string { return words[rng.IntN(len(words))] }
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString("# Big note\n\n")
	for sec := 1; b.Len() < size; sec++ {
		fmt.Fprintf(&b, "## Section %d %s %s\n\n", sec, word(), word())
		for p := 0; p < 6; p++ {
			for s := 0; s < 40; s++ {
				switch rng.IntN(12) {
				case 0:
					fmt.Fprintf(&b, "**%s %s** ", word(), word())
				case 1:
					fmt.Fprintf(&b, "[%s %s](https://example.com/%s) ", word(), word(), word())
				case 2:
					fmt.Fprintf(&b, "`%s()` ", word())
				case 3:
					fmt.Fprintf(&b, "*%s* ", word())
				default:
					b.WriteString(word() + " ")
				}
			}
			b.WriteString("\n\n")
		}
		switch sec % 5 {
		case 0:
			b.WriteString("- one item " + word() + "\n- two items " + word() + "\n  - nested " + word() + "\n\n")
		case 1:
			b.WriteString("| name | value |\n|---|---|\n| " + word() + " | " + word() + " |\n| " + word() + " | 42 |\n\n")
		case 2:
			b.WriteString("```go\nfunc sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n```\n\n")
		case 3:
			b.WriteString("> a quoted " + word() + " " + word() + " line\n\n")
		case 4:
			if sec%20 == 4 {
				b.WriteString(":::details{title=\"More\"}\nHidden " + word() + ".\n:::\n\n::::tabs\n:::tab{label=\"A\"}\nPanel a.\n:::\n:::tab{label=\"B\"}\nPanel b.\n:::\n::::\n\n")
			}
		}
	}
	return []byte(b.String())
}

// perfOn runs the 10 MB measurements only when asked: they take several
// seconds and want a quiet machine.
func perfOn(t *testing.T) {
	if os.Getenv("MARKII_VIEWER_PERF") == "" {
		t.Skip("set MARKII_VIEWER_PERF=1 to measure the 10 MB figures")
	}
}

// TestPerf10MB measures a 10 MB note: open to first frame (≤ 50 ms),
// keypress to frame p99 (≤ 16 ms) at positions through the whole note,
// and the heap the page keeps (≤ 5× the note, the source not counted).
//
//	MARKII_VIEWER_PERF=1 go test ./viewer -run Perf10MB -v
func TestPerf10MB(t *testing.T) {
	perfOn(t)
	src := bigNote(10 << 20)
	base := procmem.LiveHeap()
	start := time.Now()
	m := New(Options{Note: &Note{Name: "big.mk.md", Source: src}, Level: ansi.TrueColor, Theme: theme.Dark, Width: 100, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	frame := m.frame()
	open := time.Since(start)
	if !strings.Contains(frame, "Big note") || !m.reader.loading {
		t.Fatal("first frame lacks the note or did not come from the prefix")
	}
	start = time.Now()
	m.Update(m.reader.layoutFull()())
	full := time.Since(start)
	if m.reader.loading {
		t.Fatal("the full page did not replace the prefix")
	}
	mem := procmem.LiveHeap() - base
	runtime.KeepAlive(src)
	t.Logf("note %d bytes, %d lines; open to first frame %v; whole note laid out after %v more; heap %.1f MB (%.1fx the note)",
		len(src), m.reader.pg.lineCount(), open, full, float64(mem)/1e6, float64(mem)/float64(len(src)))

	rng := rand.New(rand.NewPCG(3, 4))
	keysToPress := []string{"j", "k", "space", "b", "ctrl+d", "ctrl+u", "]", "[", "pgdown", "pgup", "down", "up", "tab", "shift+tab", "z", "z"}
	var lat []time.Duration
	for i := 0; i < 2000; i++ {
		if i%100 == 0 {
			// Jump to a random place through the whole note.
			m.reader.scrollTo(rng.IntN(len(m.reader.pg.rows)))
		}
		k := keysToPress[rng.IntN(len(keysToPress))]
		s := time.Now()
		m.Update(keyMsg(k))
		_ = m.frame()
		lat = append(lat, time.Since(s))
	}
	// Jumps to the ends and search steps.
	for _, k := range []string{"G", "g", "end", "home"} {
		s := time.Now()
		m.Update(keyMsg(k))
		_ = m.frame()
		lat = append(lat, time.Since(s))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p50, p99, worst := lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	t.Logf("keypress to frame over %d keys: p50 %v, p99 %v, max %v", len(lat), p50, p99, worst)

	// Search over the whole rendered text, then n/N through the cached
	// results.
	s := time.Now()
	press(m, "/")
	typeText(m, "portable")
	press(m, "enter")
	t.Logf("typing an 8-letter search into 10 MB: %v total, %d matches", time.Since(s), len(m.reader.search.matches))
	var nlat []time.Duration
	for i := 0; i < 200; i++ {
		s := time.Now()
		m.Update(keyMsg("n"))
		_ = m.frame()
		nlat = append(nlat, time.Since(s))
	}
	sort.Slice(nlat, func(i, j int) bool { return nlat[i] < nlat[j] })
	t.Logf("n to frame: p99 %v", nlat[len(nlat)*99/100])

	if open > 50*time.Millisecond {
		t.Errorf("open to first frame took %v, over 50 ms", open)
	}
	if p99 > 16*time.Millisecond {
		t.Errorf("keypress p99 %v, over 16 ms", p99)
	}
	if mem > uint64(5*len(src)) {
		t.Errorf("heap %d bytes, over 5x the note's %d", mem, len(src))
	}
	m.Update(keyMsg("esc"))
}

func TestLongNoteOpensFromPrefixThenWhole(t *testing.T) {
	src := bigNote(progressiveFrom + 200<<10)
	m := New(Options{Note: &Note{Name: "big.mk.md", Source: src}, Level: ansi.TrueColor, Theme: theme.Dark, Width: 80, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	if !m.reader.loading || len(m.reader.pg.src) >= len(src) {
		t.Fatal("a long note was laid out whole before the first frame")
	}
	if !strings.Contains(screen(m), "Big note") || !strings.Contains(status(m), "loading…") {
		t.Fatalf("first frame:\n%s", screen(m))
	}
	press(m, "j", "j", "j")
	want := firstRow(m)
	d := newDriver(m)
	d.exec(m.Init())
	d.until(t, "the whole note", func() bool { return !m.reader.loading })
	if got := firstRow(m); got != want {
		t.Fatalf("the swap moved the reader: %q, want %q", got, want)
	}
	press(m, "G")
	last := bigNote(progressiveFrom + 200<<10)
	if m.reader.pg.src == nil || len(m.reader.pg.src) != len(last) {
		t.Fatalf("page holds %d bytes of %d", len(m.reader.pg.src), len(last))
	}
	if strings.Contains(status(m), "loading") {
		t.Fatal("status still says loading")
	}
}

// The first frame of a long note is laid out from a prefix only; that
// prefix must still fill the tallest, widest terminal a reader has, or the
// first screen shows a gap until the whole note arrives.
func TestLongNotePrefixFillsATallWideScreen(t *testing.T) {
	src := bigNote(4 * progressiveFrom)
	m := New(Options{Note: &Note{Name: "big.mk.md", Source: src}, Level: ansi.TrueColor, Theme: theme.Dark, Width: 240, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 240, Height: 120})
	if !m.reader.loading || len(m.reader.pg.src) >= len(src) {
		t.Fatal("a note four times the progressive size was laid out whole before the first frame")
	}
	body := rows(m)[:m.bodyHeight()]
	last := len(body) - 1
	for last >= 0 && strings.TrimSpace(body[last]) == "" {
		last--
	}
	// The gap between two blocks may fall on the bottom rows; more blank
	// rows than that down to the bottom mean the prefix ran out.
	if blank := len(body) - 1 - last; blank > 2 {
		t.Fatalf("the prefix (%d bytes of %d) ends on screen: the last %d of %d rows are blank", len(m.reader.pg.src), len(src), blank, len(body))
	}
}

func TestPrefixCutRespectsFencesAndContainers(t *testing.T) {
	src := []byte("# A\n\n```\ncode\n\nstill code\n```\n\n:::details\ninside\n\nstill inside\n:::\n\nafter\n\nend\n")
	for want := 1; want < len(src); want++ {
		cut := render.PrefixEnd(src, want)
		head := string(src[:cut])
		if strings.Count(head, "```")%2 != 0 {
			t.Fatalf("cut %d (want %d) inside a fence: %q", cut, want, head)
		}
		if strings.Count(head, ":::")%2 != 0 {
			t.Fatalf("cut %d (want %d) inside a container: %q", cut, want, head)
		}
		if cut < len(src) && (cut < want || src[cut-1] != '\n' || src[cut-2] != '\n') {
			t.Fatalf("cut %d (want %d) not at a blank line", cut, want)
		}
	}
}

// BenchmarkOpen10MB is open to first frame for a 10 MB note.
func BenchmarkOpen10MB(b *testing.B) {
	src := bigNote(10 << 20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		m := New(Options{Note: &Note{Name: "big", Source: src}, Now: fixedNow})
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
		_ = m.frame()
	}
}

// BenchmarkScrollFrame is one keypress and frame deep in a 10 MB note.
func BenchmarkScrollFrame(b *testing.B) {
	src := bigNote(10 << 20)
	m := New(Options{Note: &Note{Name: "big", Source: src}, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	m.reader.scrollTo(len(m.reader.pg.rows) / 2)
	ks := []tea.KeyPressMsg{keyMsg("j"), keyMsg("k"), keyMsg("space"), keyMsg("b")}
	i := 0
	for b.Loop() {
		m.Update(ks[i%len(ks)])
		_ = m.frame()
		i++
	}
}

// BenchmarkSearchNext is `n` and its frame deep in a 10 MB note.
func BenchmarkSearchNext(b *testing.B) {
	src := bigNote(10 << 20)
	m := New(Options{Note: &Note{Name: "big", Source: src}, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	m.Update(m.reader.layoutFull()())
	press(m, "/")
	typeText(m, "portable")
	press(m, "enter")
	n := keyMsg("n")
	for b.Loop() {
		m.Update(n)
		_ = m.frame()
	}
}

func TestLongNoteResizesInBackground(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out a 2 MB note several times")
	}
	src := bigNote(keepTreeUpTo + 100<<10)
	m := New(Options{Note: &Note{Name: "big.mk.md", Source: src}, Level: ansi.TrueColor, Theme: theme.Dark, Width: 100, Now: fixedNow})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	d := newDriver(m)
	d.exec(m.Init())
	d.until(t, "the whole note", func() bool { return !m.reader.loading })
	m.reader.scrollTo(len(m.reader.pg.rows) / 2)
	press(m, "]")
	want := firstRow(m)
	old := m.reader.pg
	d.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	if m.reader.pg != old || !m.reader.loading {
		t.Fatal("a long note was laid out again inside the resize")
	}
	press(m, "j", "k") // the reader keeps reading meanwhile
	d.until(t, "the page at the new width", func() bool { return !m.reader.loading })
	if m.reader.pg.opt.Width != 60 || m.reader.pg == old {
		t.Fatalf("page width %d after the resize", m.reader.pg.opt.Width)
	}
	if got := firstRow(m); got != want {
		t.Fatalf("after the resize the top row is %q, want %q", got, want)
	}

	// Opening a details block lays the long note out in the background
	// too, and the reader stays on the block.
	press(m, "g", "tab")
	for tg, _ := m.reader.focused(); tg.kind != render.FocusDetails; tg, _ = m.reader.focused() {
		press(m, "tab")
	}
	tg, _ := m.reader.focused()
	old = m.reader.pg
	d.key("enter")
	if m.reader.pg != old || !m.reader.loading {
		t.Fatal("opening a details block in a long note laid it out inside the key press")
	}
	d.until(t, "the page with the details open", func() bool { return !m.reader.loading })
	if now := m.reader.pg.target(m.reader.focus); !m.reader.isOpen(now) || now.line != tg.line {
		t.Fatalf("details at line %d (was %d) open=%v", now.line, tg.line, m.reader.isOpen(now))
	}
	mustContain(t, m, "▾ More", "Hidden ")
}

// A note that is one long bullet list opens from a prefix of its first
// items too, and the whole list follows.
func TestOneLongListOpensFromAPrefix(t *testing.T) {
	var b strings.Builder
	b.WriteString("# One list\n\n")
	n := 0
	for ; b.Len() < 400<<10; n++ {
		fmt.Fprintf(&b, "- item %d of the long list\n", n)
	}
	m := newTest(t, b.String(), 80, 24, nil)
	if !m.reader.loading || len(m.reader.pg.src) >= progressiveFrom {
		t.Fatalf("the first page is %d bytes of %d (loading %v); want a prefix", len(m.reader.pg.src), b.Len(), m.reader.loading)
	}
	mustContain(t, m, "item 0 of the long list")
	d := newDriver(m)
	d.exec(m.Init())
	d.until(t, "the whole list", func() bool { return !m.reader.loading })
	m.key(keyMsg("G"))
	mustContain(t, m, fmt.Sprintf("item %d of the long list", n-1))
}
