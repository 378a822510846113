package render

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// streamWhole renders src the way Stream does after a whole Parse.
func streamWhole(t *testing.T, src []byte, opt Options) string {
	t.Helper()
	var out bytes.Buffer
	diags, err := Stream(Parse(src), opt, func(lines []ansi.Line) error {
		out.Write(ansi.AppendLines(nil, lines, opt.Level))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String() + strings.Join(diags, "\n")
}

// streamChunked renders src a chunk at a time, cutting at every place the
// scanner allows (min bytes apart), and reports how many chunks it used.
func streamChunked(t *testing.T, src []byte, opt Options, min int) (string, int) {
	t.Helper()
	var out bytes.Buffer
	s := NewStreamer(opt, func(lines []ansi.Line) error {
		out.Write(ansi.AppendLines(nil, lines, opt.Level))
		return nil
	})
	chunks := 0
	if err := parseChunks(src, min, func(doc *Document) error {
		chunks++
		return s.Add(doc)
	}); err != nil {
		t.Fatal(err)
	}
	return out.String() + strings.Join(s.Diagnostics(), "\n"), chunks
}

func chunkOptions() Options {
	return Options{Width: 80, Level: ansi.TrueColor, Theme: theme.Dark}
}

func TestParseChunksMatchesWholeParseOnFixtures(t *testing.T) {
	paths, err := filepath.Glob("../fixtures/*.mk.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	cut := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := streamWhole(t, src, chunkOptions())
		got, chunks := streamChunked(t, src, chunkOptions(), 1)
		if got != want {
			t.Errorf("%s: chunked render (%d chunks) differs from the whole parse", filepath.Base(p), chunks)
		}
		if chunks > 1 {
			cut++
		}
	}
	if cut < len(paths)/3 {
		t.Errorf("only %d of %d fixtures were cut at all; the scanner is too timid to be tested", cut, len(paths))
	}
}

func TestParseChunksMatchesWholeParseOnLongNote(t *testing.T) {
	src := realisticNote(300 << 10)
	want := streamWhole(t, src, chunkOptions())
	got, chunks := streamChunked(t, src, chunkOptions(), 4<<10)
	if chunks < 10 {
		t.Fatalf("a 300 KB note was cut into %d chunks, want many", chunks)
	}
	if got != want {
		t.Fatal("chunked render of the long note differs from the whole parse")
	}
	// Tiny chunks: a cut at every allowed place.
	if got, _ := streamChunked(t, src[:40<<10], chunkOptions(), 1); got != streamWhole(t, src[:40<<10], chunkOptions()) {
		t.Fatal("chunked render with a cut at every allowed place differs")
	}
}

// chunkFragments are pieces of notes whose blocks can span blank lines or
// depend on what follows them; joined at random they probe every way a
// cut could change the parse.
var chunkFragments = []string{
	"para one\n", "para *two*\ncontinued\n", "", "", "", "\n", "  \n", "\t\n", "\r\n",
	"```\n", "```go\n", "````\n", "~~~\n", "~~~~ x\n", "``` a`b\n", "  ```\n", "   ~~~\n", "    ```\n",
	":::note\n", "::::card{title=x}\n", ":::\n", "::::\n", "  :::\n", ":::bad name\n", "::leaf[x]\n", "  :::note\n",
	"- item\n", "- [x] task\n", "1. one\n", "2) two\n", "  indented\n", "    code\n", "\tcode\n",
	"> quote\n", "> ```\n", ">\n", "lazy\n", "* star\n", "+ plus\n", "---\n", "===\n", "# head\n",
	"| a | b |\n", "|---|:-:|\n", "| 1 | 2 |\n", "<div>\n", "<!--\n", "-->\n", "</div>\n",
	"[ref]: /url\n", "see [ref] and [x](y)\n", ":inline[x]{a=1} text\n", "www.example.com\n",
	"- ```\n", "  - nested\n", "10. ten\n", "text <b>x</b>\n", "```lua {name=s}\n", "return 1\n",
	"<p align=\"center\">\n", "<img src=x>\n", "  <div>\n", "<script>\n", "</script>\n", "<pre>\n", "</pre>\n",
	"<?php\n", "?>\n", "<!DOCTYPE x>\n", "<textarea>\n", "<del>\n", "</del>\n",
	"<![CDATA[\n", "]]>\n", "<!-- x -->\n", "  <!--\n", "    -->\n", "\t-->\n", "<style>\n", "</STYLE>\n",
	"<!x\n", ">\n", "> <!--\n", "- <!--\n", "<!-->\n", "text --> more\n",
	"> [ref]: /quoted\n", "- [ref]: /listed\n", "[Ref]:\n", "/next-line \"title\"\n", "[REF]\n", "[ref]: /a [b]:\n",
}

// TestParseChunksMatchesWholeParseOnRandomNotes renders notes joined at
// random from chunkFragments with a cut at every allowed place. The soak:
// MARKII_SOAK=1 (200,000 notes), MARKII_SOAK_SEED=N for other notes.
func TestParseChunksMatchesWholeParseOnRandomNotes(t *testing.T) {
	runs := 3000
	if testing.Short() {
		runs = 500
	}
	if os.Getenv("MARKII_SOAK") != "" {
		runs = 200000
	}
	seed := uint64(7)
	if v, err := strconv.ParseUint(os.Getenv("MARKII_SOAK_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	opt := Options{Width: 40, Level: ansi.Color256, Theme: theme.Dark}
	cut := 0
	for i := 0; i < runs; i++ {
		var b strings.Builder
		for n := 1 + rng.IntN(40); n > 0; n-- {
			b.WriteString(chunkFragments[rng.IntN(len(chunkFragments))])
			if rng.IntN(3) == 0 {
				b.WriteString("\n")
			}
		}
		src := []byte(b.String())
		want := streamWhole(t, src, opt)
		got, chunks := streamChunked(t, src, opt, 1)
		if chunks > 1 {
			cut++
		}
		if got != want {
			t.Fatalf("chunked render (%d chunks) differs from the whole parse for:\n%q", chunks, src)
		}
	}
	if cut < runs/10 {
		t.Errorf("only %d of %d random notes were cut", cut, runs)
	}
}

// TestParseChunksSeeEveryReferenceDefinition: a reference used pieces
// before or after its definition resolves as in a whole parse, and the
// first of two definitions of a label wins.
func TestParseChunksSeeEveryReferenceDefinition(t *testing.T) {
	filler := strings.Repeat("Some words to fill a piece of the note.\n\n", 40)
	src := []byte("See [early] and [twice] and [Late One].\n\n" + filler +
		"[twice]: https://first.example/\n\n" + filler +
		"[early]: https://early.example/ \"Early\"\n[late one]: <https://late.example/>\n\n" + filler +
		"[twice]: https://second.example/\n\nAnd [early] again, [missing] stays text.\n")
	want := streamWhole(t, src, chunkOptions())
	got, chunks := streamChunked(t, src, chunkOptions(), 1<<10)
	if chunks < 4 {
		t.Fatalf("the note was cut into %d chunks, want at least 4", chunks)
	}
	if got != want {
		t.Fatalf("chunked render differs from the whole parse:\n%s\nwant:\n%s", got, want)
	}
	for _, url := range []string{"https://early.example/", "https://first.example/", "https://late.example/"} {
		if !strings.Contains(got, url) {
			t.Errorf("the render does not link %s", url)
		}
	}
	if strings.Contains(got, "second.example") {
		t.Error("the second definition of [twice] won over the first")
	}
}

func TestChunkCutsRefuseDocumentWideConstructs(t *testing.T) {
	body := []byte(strings.Repeat("para\n\n", 100))
	if len(chunkCuts(body, 1)) == 0 {
		t.Fatal("plain paragraphs should be cut")
	}
	// An HTML block that runs past blank lines and never ends takes the
	// rest of the note; so does a fence never closed.
	for _, extra := range []string{"<!-- a\n\nb\n", "<script>\n", "<PRE\n", "<style type=x>\n", "<?php\n", "<!DOCTYPE html\n", "<![CDATA[\n", "  <!--\n\n-->\n", "  ```\n"} {
		if cuts := chunkCuts(append([]byte(extra), body...), 1); cuts != nil {
			t.Errorf("a note with %q was cut %d times; it must be parsed whole", extra, len(cuts))
		}
	}
	// One that ends is followed to its end, and the note is cut after it,
	// never inside.
	for _, block := range []string{"<!-- a\n\n    b\n\nc -->\n", "<!-- one line -->\n", "<script>\n\nx\n\n</SCRIPT>\n", "<pre>\n\ny\n\n</textarea>\n",
		"<?php\n\nz\n\n?>\n", "<!DOCTYPE html>\n", "<!DOCTYPE\n\n>\n", "<![CDATA[\n\nw\n\n]]>\n", "<!-->\n"} {
		src := append([]byte(block), body...)
		cuts := chunkCuts(src, 1)
		if len(cuts) == 0 {
			t.Errorf("a note starting with %q was not cut", block)
			continue
		}
		if cuts[0] < len(block) {
			t.Errorf("a note starting with %q was cut at %d, inside the block", block, cuts[0])
		}
	}
	// An element a raw HTML block opens holds the markdown blocks up to
	// its end tag, as a browser reads GitHub's output: the note is cut
	// before it and not after.
	for _, extra := range []string{"<div>\n", "<p align=\"center\">\n", "<details>\n", "x\n<TABLE>\n", "<img src=x><td>\n"} {
		src := append(append(append([]byte(nil), body...), extra...), body...)
		cuts := chunkCuts(src, 1)
		if len(cuts) == 0 || cuts[len(cuts)-1] >= len(body)+len(extra) {
			t.Errorf("a note with %q in its middle was cut %v; it must be cut before it only", extra, cuts[max(len(cuts)-1, 0):])
		}
	}
	// HTML blocks of inline elements, or of an element whose content is
	// dropped, that end at a blank line do not stop the cutting.
	for _, extra := range []string{"<template>\n", "<object data=x>\n", "<iframe>\n", "<img src=x>\n", "<scripts>\n", "</pre-x>\n", "<a href=x><b>x</b></a>\n", "<br>\n", "</div>\n"} {
		if len(chunkCuts(append([]byte(extra), body...), 1)) == 0 {
			t.Errorf("a note with %q was not cut", extra)
		}
	}
}

// TestParseChunksStopsAtTheFirstError: when fn fails, ParseChunks returns
// that error, hands over no later piece, and every parse it started ahead
// has ended by the time it returns, leaving no goroutine behind.
func TestParseChunksStopsAtTheFirstError(t *testing.T) {
	src := realisticNote(300 << 10)
	stop := errors.New("stop here")
	before := runtime.NumGoroutine()
	for _, at := range []int{1, 2, 5} {
		calls := 0
		err := parseChunks(src, 4<<10, func(doc *Document) error {
			calls++
			if calls == at {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Fatalf("stop at %d: got error %v, want %v", at, err, stop)
		}
		if calls != at {
			t.Fatalf("stop at %d: fn was called %d times", at, calls)
		}
		// A parse goroutine that has signalled its end may still be
		// leaving; none may stay.
		deadline := time.Now().Add(time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			t.Fatalf("stop at %d: %d goroutines a second after ParseChunks returned, %d before", at, n, before)
		}
	}
}

// TestPrefixEndCutsWhereParseChunksCuts checks the viewer's first-frame
// prefix on every fixture: it is cut at one of the places ParseChunks may
// cut the note, at or after the bytes asked for, and the prefix draws as
// the same leading lines as the whole note.
func TestPrefixEndCutsWhereParseChunksCuts(t *testing.T) {
	paths, err := filepath.Glob("../fixtures/*.mk.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	opt := chunkOptions()
	opt.Level = ansi.None
	prefixes := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		offset, _ := bodyStart(src)
		cuts, places := map[int]bool{}, map[int]bool{}
		for _, c := range scanCuts(src[offset:], 1, -1) {
			cuts[offset+c] = true
		}
		for _, c := range scanPlaces(src[offset:], 1, -1, true) {
			places[offset+c] = true
		}
		whole := Layout(Parse(src), opt).Lines
		for want := 0; want < len(src); want += 97 {
			cut := PrefixEnd(src, want)
			if cut == len(src) {
				continue
			}
			prefixes++
			// A note ParseChunks parses whole (the scanner could not
			// follow a later line) still has a first frame.
			if cut < want || len(cuts) > 0 && !cuts[cut] && !places[cut] {
				t.Fatalf("%s: PrefixEnd(%d) = %d, not a cut of ParseChunks at or after it", filepath.Base(p), want, cut)
			}
			firstFrameDrawsAsWhole(t, filepath.Base(p), src, want, whole, opt)
		}
	}
	if prefixes < 20 {
		t.Errorf("only %d prefixes were cut; the test shows nothing", prefixes)
	}
}

// A definition on the line after a setext heading's underline, or after
// a one-line comment, is the note's in a chunked parse as in a whole one.
func TestParseChunksSeeDefinitionsAfterSetextHeadingsAndComments(t *testing.T) {
	filler := strings.Repeat("Some words to fill a piece of the note.\n\n", 40)
	for _, def := range []string{"Title\n---\n[ref]: /url\n", "Title\n===\n[ref]: /url\n", "<!-- note -->\n[ref]: /url\n", "<!--\n\n-->\n[ref]: /url\n"} {
		src := []byte("See [ref].\n\n" + filler + def + "\n" + filler + "And [ref] again.\n")
		want := streamWhole(t, src, chunkOptions())
		got, chunks := streamChunked(t, src, chunkOptions(), 1<<10)
		if chunks < 2 {
			t.Fatalf("%q: the note was not cut", def)
		}
		if got != want || !strings.Contains(got, "/url") {
			t.Errorf("%q: chunked render differs from the whole parse:\n%s\nwant:\n%s", def, got, want)
		}
	}
}

// FuzzParseChunks checks that a note parsed in pieces, with a cut at
// every place the scanner allows, renders as the whole note does. CI runs
// the seeds; run it longer with:
// go test ./render -run '^$' -fuzz FuzzParseChunks -fuzztime 10m
func FuzzParseChunks(f *testing.F) {
	for i, s := range chunkFragments {
		f.Add([]byte(s + "\npara\n\n" + chunkFragments[(i*7+3)%len(chunkFragments)] + "\nend [ref]\n"))
	}
	opt := Options{Width: 40, Level: ansi.Color256, Theme: theme.Dark}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 8<<10 {
			return
		}
		want := streamWhole(t, src, opt)
		if got, chunks := streamChunked(t, src, opt, 1); got != want {
			t.Fatalf("chunked render (%d chunks) differs from the whole parse for:\n%q\ngot:\n%s\nwant:\n%s", chunks, src, got, want)
		}
	})
}

// withoutFootnotes is blocks without the footnote section.
func withoutFootnotes(blocks []Block) []Block {
	var out []Block
	for _, b := range blocks {
		if _, ok := b.(*Footnotes); !ok {
			out = append(out, b)
		}
	}
	return out
}

// firstFrameDrawsAsWhole checks the first frame FirstFrameSource gives
// for want bytes of src: it starts with the prefix PrefixEnd cuts, and
// the prefix's own blocks draw as the first lines of whole, the whole
// note laid out with opt. The runs of definitions joined after the
// prefix, and the footnote section they make, come after those lines.
func firstFrameDrawsAsWhole(t *testing.T, name string, src []byte, want int, whole []ansi.Line, opt Options) {
	t.Helper()
	cut := PrefixEnd(src, want)
	first, ok := FirstFrameSource(src, want)
	if cut == len(src) {
		if ok {
			t.Fatalf("%s: FirstFrameSource(%d) has a prefix where PrefixEnd has none", name, want)
		}
		return
	}
	if !ok || !bytes.HasPrefix(first, src[:cut]) {
		t.Fatalf("%s: FirstFrameSource(%d) does not start with the prefix of %d bytes", name, want, cut)
	}
	own := len(withoutFootnotes(Parse(src[:cut]).Blocks))
	doc := Parse(first)
	blocks := withoutFootnotes(doc.Blocks)
	if len(blocks) < own {
		t.Fatalf("%s: the first frame of %d bytes has %d blocks, its prefix alone %d", name, len(first), len(blocks), own)
	}
	doc.Blocks = blocks[:own]
	head := Layout(doc, opt).Lines
	for i, ln := range head {
		if i >= len(whole) || ln.Text() != whole[i].Text() {
			t.Fatalf("%s: the prefix of %d bytes draws line %d as %q, the whole note as %q", name, cut, i, ln.Text(), whole[min(i, len(whole)-1)].Text())
		}
	}
}

// FuzzFirstFrameSource checks firstFrameDrawsAsWhole on any note and
// any prefix length: the viewer's first frame shows what the whole
// note shows.
func FuzzFirstFrameSource(f *testing.F) {
	for i, s := range chunkFragments {
		f.Add([]byte(s+"\n\npara [ref] and[^n]\n\n"+chunkFragments[(i*5+1)%len(chunkFragments)]+"\n\n[ref]: /u\n\n[^n]: note\n"), uint16(i*3))
	}
	opt := chunkOptions()
	opt.Level = ansi.None
	f.Fuzz(func(t *testing.T, src []byte, want uint16) {
		if len(src) > 8<<10 {
			return
		}
		whole := Layout(Parse(src), opt).Lines
		firstFrameDrawsAsWhole(t, "fuzz", src, int(want)%(len(src)+1), whole, opt)
	})
}

// A note that is one long list has a first-frame prefix all the same: it
// ends between two items, and draws as the whole note's leading lines.
func TestPrefixEndCutsInsideOneLongList(t *testing.T) {
	for _, marker := range []string{"- ", "* ", "+ "} {
		var b strings.Builder
		b.WriteString("# One list\n\n")
		for i := 0; b.Len() < 200<<10; i++ {
			fmt.Fprintf(&b, "%sitem %d of the long list\n", marker, i)
		}
		src := []byte(b.String())
		if cuts := scanCuts(src, 1, -1); len(cuts) > 0 {
			t.Fatalf("%q: the list was cut for ParseChunks at %v", marker, cuts)
		}
		want := 16 << 10
		cut := PrefixEnd(src, want)
		if cut == len(src) || cut < want || cut > 2*want {
			t.Fatalf("%q: PrefixEnd(%d) = %d of %d", marker, want, cut, len(src))
		}
		if !bytes.HasPrefix(src[cut:], []byte(marker)) {
			t.Fatalf("%q: the prefix ends at %q, not before an item", marker, src[cut:cut+20])
		}
		opt := chunkOptions()
		opt.Level = ansi.None
		whole := Layout(Parse(src), opt).Lines
		for i, ln := range Layout(Parse(src[:cut]), opt).Lines {
			if ln.Text() != whole[i].Text() {
				t.Fatalf("%q: the prefix draws line %d as %q, the whole note as %q", marker, i, ln.Text(), whole[i].Text())
			}
		}
	}
	// A thematic break is not an item, and an ordered list, whose
	// markers are as wide as its largest number, is not cut.
	for _, line := range []string{"- - -\n", "* * *\n", "1. one\n", "-\n", "-item\n"} {
		if bulletItem([]byte(line)) {
			t.Errorf("bulletItem(%q) is true", line)
		}
	}
}
