package viewer

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/ansi"
)

// match is one search hit: a byte range of a page line's visible text,
// or, with hidden set, a hit in text a tabs or details block does not
// show, placed at the block's first line (start and end are -1 then).
type match struct {
	line       int
	start, end int
	hidden     *hiddenMatch
}

// hiddenMatch is where a hit in hidden text is: the nth hit in panel of
// the page's target target, of count hits there.
type hiddenMatch struct {
	target, panel int
	nth, count    int
}

// pattern is a query compiled as less takes it: a regular expression
// (Go's RE2 syntax), with smart case: a query in lowercase only matches
// either case. A query without metacharacters is matched as a string,
// on text case-folded by foldCase when the case is ignored.
type pattern struct {
	query string
	// fold says the case is ignored.
	fold bool
	// lit is the query as a string (case-folded with fold); re is the
	// expression when the query is not a plain string.
	lit string
	re  *regexp.Regexp
}

// maxPattern bounds a query's length in bytes: RE2 compiles in time and
// memory linear in it, and a prompt longer than this is no search.
const maxPattern = 1000

// compilePattern compiles query; an invalid expression is an error that
// says what is wrong with it.
func compilePattern(query string) (pattern, error) {
	pt := pattern{query: query, fold: !hasUpper(query)}
	if len(query) > maxPattern {
		return pt, fmt.Errorf("the pattern is longer than %d bytes", maxPattern)
	}
	if regexp.QuoteMeta(query) == query {
		pt.lit = query
		if pt.fold {
			pt.lit = foldCase(query)
		}
		return pt, nil
	}
	expr := query
	if pt.fold {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		var perr *syntax.Error
		if errors.As(err, &perr) {
			// The expression as typed, without the case flag added here.
			return pt, fmt.Errorf("%s: `%s`", perr.Code, strings.TrimPrefix(perr.Expr, "(?i)"))
		}
		return pt, err
	}
	pt.re = re
	return pt, nil
}

// hasUpper reports whether s holds an uppercase letter.
func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// literal reports whether the pattern is matched as a string.
func (pt pattern) literal() bool { return pt.re == nil }

// text is the form of line t the pattern matches on.
func (pt pattern) text(t string) string {
	if pt.literal() && pt.fold {
		return foldCase(t)
	}
	return t
}

// each calls f with the byte range of every match in t (already in the
// form text gives); empty matches of an expression are skipped.
func (pt pattern) each(t string, f func(start, end int)) {
	if pt.re != nil {
		for _, m := range pt.re.FindAllStringIndex(t, -1) {
			if m[1] > m[0] {
				f(m[0], m[1])
			}
		}
		return
	}
	for off := 0; ; {
		i := strings.Index(t[off:], pt.lit)
		if i < 0 {
			return
		}
		f(off+i, off+i+len(pt.lit))
		off += i + len(pt.lit)
	}
}

// narrows reports whether every line pt matches also matches prev, so
// that only prev's lines need searching: both plain strings of the same
// case rule, pt extending prev.
func (pt pattern) narrows(prev pattern) bool {
	return prev.query != "" && pt.literal() && prev.literal() && pt.fold == prev.fold && strings.HasPrefix(pt.lit, prev.lit)
}

// hiddenMatches finds pt in the text p's blocks hide.
func hiddenMatches(p *page, pt pattern) []match {
	var out []match
	for ti, ref := range p.targets {
		if ref.link {
			continue
		}
		t := p.target(ti)
		for _, hp := range t.hidden {
			first := len(out)
			for _, l := range hp.Lines {
				pt.each(pt.text(l), func(int, int) {
					out = append(out, match{line: t.line, start: -1, end: -1, hidden: &hiddenMatch{target: ti, panel: hp.Panel, nth: len(out) - first}})
				})
			}
			for i := first; i < len(out); i++ {
				out[i].hidden.count = len(out) - first
			}
		}
	}
	return out
}

// searcher finds text in the rendered page (not the source) and keeps
// results per query, narrowing the previous result when a query grows.
type searcher struct {
	// editing is set while the `/` prompt takes keys.
	editing bool
	input   []rune
	query   string
	// last is the last query searched for, kept after the marks are
	// cleared so an empty `/` repeats it.
	last string
	// backward is set when the search goes up the note (`?`): n then
	// goes to the match before, N to the one after, as in less.
	backward bool
	// from is the page line the prompt was opened on: the search, as
	// it is typed, goes from there.
	from int
	// err is what is wrong with the query as an expression; it finds
	// nothing then.
	err     error
	pattern pattern
	matches []match
	current int
	// folded is each line's case-folded text, made on first search; nil
	// entries mean the line is not yet folded.
	folded []string
	cache  map[string][]match
	// cacheFor is the page the cache belongs to.
	cacheFor *page
}

// dir is 1 for a forward search, -1 for a backward one.
func (s *searcher) dir() int {
	if s.backward {
		return -1
	}
	return 1
}

// prompt is the prompt's text as the status bar shows it.
func (s *searcher) prompt() string {
	if s.backward {
		return "?" + string(s.input)
	}
	return "/" + string(s.input)
}

// reset forgets results (the page changed).
func (s *searcher) reset() {
	s.folded = nil
	s.cache = nil
	s.cacheFor = nil
	s.matches = nil
	s.current = 0
}

// foldCase lowercases ASCII letters; text whose lowercase changes length
// is compared as is, so byte offsets always index the original text.
func foldCase(t string) string {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c >= 0x80 {
			if l := strings.ToLower(t); len(l) == len(t) {
				return l
			}
			return t
		} else if c >= 'A' && c <= 'Z' {
			return asciiLower(t)
		}
	}
	return t
}

func asciiLower(t string) string {
	b := []byte(t)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		} else if c >= 0x80 {
			return strings.ToLower(t)
		}
	}
	return string(b)
}

// run sets the query and finds its matches in p.
func (s *searcher) run(p *page, query string) {
	if s.cacheFor != p {
		s.reset()
		s.cacheFor = p
	}
	prev := s.pattern
	s.query = query
	if query != "" {
		s.last = query
	}
	pt, err := compilePattern(query)
	s.pattern, s.err = pt, err
	if query == "" || err != nil {
		s.matches = nil
		s.current = 0
		return
	}
	q := query
	n := p.lineCount()
	if s.folded == nil {
		s.folded = make([]string, n)
	}
	if s.cache == nil {
		s.cache = map[string][]match{}
	}
	if m, ok := s.cache[q]; ok {
		s.matches = m
		s.clampCurrent()
		return
	}
	found := s.find(p, pt, prev)
	if len(s.cache) > 64 {
		clear(s.cache)
	}
	s.cache[q] = found
	s.matches = found
	s.clampCurrent()
}

// find finds pt on p's lines and in the text its blocks hide; when pt
// narrows the previous pattern prev, only the lines that matched prev
// are searched.
func (s *searcher) find(p *page, pt, prev pattern) []match {
	var found []match
	if pm, ok := s.cache[prev.query]; ok && pt.narrows(prev) {
		found = s.findAgain(p, pt, pm)
	} else {
		for ln := range p.lineCount() {
			found = s.findOn(p, pt, ln, found)
		}
	}
	if hm := hiddenMatches(p, pt); len(hm) > 0 {
		found = append(found, hm...)
		// In line order, a block's hidden hits after the hits shown on
		// its first line.
		sort.SliceStable(found, func(i, j int) bool { return found[i].line < found[j].line })
	}
	return found
}

// findAgain finds pt on the lines shown that have a match in pm, the
// matches of a pattern pt narrows.
func (s *searcher) findAgain(p *page, pt pattern, pm []match) []match {
	var found []match
	last := -1
	for _, m := range pm {
		if m.hidden == nil && m.line != last {
			found = s.findOn(p, pt, m.line, found)
			last = m.line
		}
	}
	return found
}

// findOn appends to found the matches of pt on line ln of p; a literal
// pattern that ignores case is found in the line's folded text, folded
// once.
func (s *searcher) findOn(p *page, pt pattern, ln int, found []match) []match {
	t := p.lineText(ln)
	if pt.literal() && pt.fold {
		if t = s.folded[ln]; t == "" {
			t = foldCase(p.lineText(ln))
			s.folded[ln] = t
		}
	}
	pt.each(t, func(start, end int) { found = append(found, match{line: ln, start: start, end: end}) })
	return found
}

func (s *searcher) clampCurrent() {
	if s.current >= len(s.matches) {
		s.current = 0
	}
}

// firstFrom makes the first match at or after line ln current.
func (s *searcher) firstFrom(ln int) {
	i := sort.Search(len(s.matches), func(i int) bool { return s.matches[i].line >= ln })
	if i >= len(s.matches) {
		i = 0
	}
	s.current = i
}

// step moves to the next (+1) or previous (-1) match, wrapping.
func (s *searcher) step(d int) {
	if len(s.matches) == 0 {
		return
	}
	s.current = (s.current + d + len(s.matches)) % len(s.matches)
}

// onLine returns the matches on line ln and the index of the first.
func (s *searcher) onLine(ln int) ([]match, int) {
	i := sort.Search(len(s.matches), func(i int) bool { return s.matches[i].line >= ln })
	j := i
	for j < len(s.matches) && s.matches[j].line == ln {
		j++
	}
	return s.matches[i:j], i
}

// searchAction is what the prompt asks the parent to do.
type searchAction int

const (
	searchNone searchAction = iota
	searchChanged
	searchDone
	searchCancel
)

// update handles a key while the prompt is open.
func (s *searcher) update(msg tea.KeyPressMsg) searchAction {
	switch msg.String() {
	case "enter":
		s.editing = false
		return searchDone
	case "esc", "ctrl+c":
		s.editing = false
		s.input = nil
		return searchCancel
	case "backspace":
		if len(s.input) == 0 {
			s.editing = false
			return searchCancel
		}
		s.input = s.input[:len(s.input)-1]
		return searchChanged
	case "ctrl+u":
		s.input = nil
		return searchChanged
	}
	if msg.Text != "" && msg.Mod&^tea.ModShift == 0 {
		return s.insert(msg.Text)
	}
	return searchNone
}

// insert adds typed or pasted text to the prompt: printable characters
// only, a line break or tab becoming a space.
func (s *searcher) insert(text string) searchAction {
	for _, r := range text {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			s.input = append(s.input, ' ')
		case r >= 0x20 && r != 0x7f && !(r >= 0x80 && r <= 0x9f):
			s.input = append(s.input, r)
		}
	}
	return searchChanged
}

// highlight returns line with the matches on it drawn in hl (cur for the
// current match, whose index is curIdx among all matches).
func highlight(line ansi.Line, ms []match, first, curIdx int, hl, cur ansi.Style) ansi.Line {
	if len(ms) == 0 {
		return line
	}
	out := make(ansi.Line, 0, len(line)+2*len(ms))
	pos := 0
	mi := 0
	for _, sp := range line {
		text := sp.Text
		start := pos
		pos += len(text)
		for len(text) > 0 {
			for mi < len(ms) && ms[mi].end <= start {
				mi++
			}
			if mi >= len(ms) || ms[mi].start >= start+len(text) {
				out = append(out, ansi.Span{Text: text, Style: sp.Style, Link: sp.Link})
				break
			}
			m := ms[mi]
			if m.start > start {
				k := m.start - start
				out = append(out, ansi.Span{Text: text[:k], Style: sp.Style, Link: sp.Link})
				text, start = text[k:], m.start
				continue
			}
			k := min(m.end-start, len(text))
			st := hl
			if first+mi == curIdx {
				st = cur
			}
			out = append(out, ansi.Span{Text: text[:k], Style: st, Link: sp.Link})
			text, start = text[k:], start+k
		}
	}
	return out
}

// rerun finds the current query again in a page laid out anew.
func (s *searcher) rerun(p *page) {
	q, cur := s.query, s.current
	s.reset()
	s.run(p, q)
	if cur < len(s.matches) {
		s.current = cur
	}
}
