// Package luapattern matches Lua 5.1 patterns (the language of
// string.find, match, gmatch and gsub) with a step budget built in: every
// step of the backtracking matcher is charged to a Budget, so a pattern
// that backtracks for a long time ends when the script's instruction
// budget or clock runs out, inside the builtin call, instead of running
// unbounded until the process is killed. Recursion is capped at the depth
// Lua 5.4 allows, so no pattern can grow the Go stack without bound.
//
// Matching works on the pattern text directly, the way Lua's own string
// library does: there is no compiled form, and errors in a malformed
// pattern are found when the matcher reaches them.
//
// The matcher is a port of the one in Lua 5.1's lstrlib.c, function for
// function: doMatch is do_match (with match as its entry; its '%'
// escapes and repetitions are matchEscape and matchRepeat), maxExpand
// max_expand, minExpand min_expand, startCapture start_capture,
// endCapture end_capture, matchBalance matchbalance, matchCapture
// match_capture, classEnd classEnd, singleMatch singlematch,
// matchBracketClass matchbracketclass and matchClass match_class; the
// error messages are Lua's own, so scripts see what Lua would say. What
// is markii's is the step budget and the depth cap. Lua is distributed
// under the MIT licence, whose notice the port keeps:
//
//	Copyright (C) 1994-2012 Lua.org, PUC-Rio.
//
//	Permission is hereby granted, free of charge, to any person obtaining
//	a copy of this software and associated documentation files (the
//	"Software"), to deal in the Software without restriction, including
//	without limitation the rights to use, copy, modify, merge, publish,
//	distribute, sublicense, and/or sell copies of the Software, and to
//	permit persons to whom the Software is furnished to do so, subject to
//	the following conditions:
//
//	The above copyright notice and this permission notice shall be
//	included in all copies or substantial portions of the Software.
//
//	THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
//	EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
//	MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
//	IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
//	CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
//	TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
//	SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
package luapattern

import (
	"fmt"
)

const (
	// MaxCaptures is the most captures one pattern may open (Lua's
	// LUA_MAXCAPTURES).
	MaxCaptures = 32
	// maxDepth caps the matcher's recursion (Lua 5.4's MAXCCALLS).
	maxDepth = 200
	// ChargeEvery is how many matcher steps are batched into one Charge
	// call.
	ChargeEvery = 1024

	capUnfinished = -1
	capPosition   = -2
)

// Error is a malformed pattern, or a match the budget stopped.
type Error struct{ msg string }

func (e *Error) Error() string { return e.msg }

// ErrBudget is the error of a match stopped by its Budget.
var ErrBudget = &Error{"pattern matching stopped: the script ran out of budget"}

// Budget meters matcher steps. Charge is called every ChargeEvery steps
// with the steps taken; when it returns false (the budget ran out or the
// run was stopped) the match fails with ErrBudget.
type Budget struct {
	Charge func(steps int64) bool
	n      int64
}

func (b *Budget) step() {
	b.n++
	if b.n < ChargeEvery {
		return
	}
	n := b.n
	b.n = 0
	if b.Charge != nil && !b.Charge(n) {
		panic(ErrBudget)
	}
}

// flush charges the steps not yet charged.
func (b *Budget) flush() {
	if b.n > 0 && b.Charge != nil {
		b.Charge(b.n)
	}
	b.n = 0
}

// Capture is one parenthesized capture of a match: subject[Start:End],
// or, for a position capture "()", the position Start (0-based).
type Capture struct {
	Start, End int
	Position   bool
}

// Match is one match: subject[Start:End], and its explicit captures in
// order (none when the pattern has no parentheses).
type Match struct {
	Start, End int
	Captures   []Capture
}

// Find returns the first match of pattern in subject at or after byte
// offset init. A leading '^' anchors the match at init.
func Find(b *Budget, pattern, subject string, init int) (m Match, found bool, err error) {
	err = run(b, func() {
		ms := newState(b, pattern, subject)
		m, found = ms.scan(init, true)
	})
	return m, found, err
}

// Scan is Find without anchors: a leading '^' is an ordinary character,
// as it is for string.gmatch.
func Scan(b *Budget, pattern, subject string, init int) (m Match, found bool, err error) {
	err = run(b, func() {
		ms := newState(b, pattern, subject)
		m, found = ms.scan(init, false)
	})
	return m, found, err
}

// Each calls fn for every match string.gsub replaces, in order, at most
// limit of them (limit < 0 means all); it returns how many it found. A
// match never starts inside the previous one, an empty match is followed
// by one skipped character, and a leading '^' allows only a match at 0.
// An error fn raises (a Lua error, by panicking) passes through.
func Each(b *Budget, pattern, subject string, limit int, fn func(Match)) (n int, err error) {
	err = run(b, func() {
		ms := newState(b, pattern, subject)
		p := 0
		anchor := len(pattern) > 0 && pattern[0] == '^'
		if anchor {
			p = 1
		}
		for s := 0; limit < 0 || n < limit; {
			ms.reset()
			e := ms.match(s, p)
			if e >= 0 {
				n++
				fn(ms.result(s, e))
			}
			switch {
			case e > s:
				s = e
			case s < len(subject):
				s++
			default:
				return
			}
			if anchor {
				return
			}
		}
	})
	return n, err
}

// run runs a match, turning the matcher's own panics (a malformed pattern,
// the budget) into an error; any other panic passes through.
func run(b *Budget, match func()) (err error) {
	defer func() {
		if v := recover(); v != nil {
			e, ok := v.(*Error)
			if !ok {
				panic(v)
			}
			err = e
		}
		b.flush()
	}()
	match()
	return nil
}

type capture struct{ start, len int }

// state is one match in progress: indexes into pat and src throughout.
type state struct {
	b       *Budget
	src     string
	pat     string
	level   int
	depth   int
	capture [MaxCaptures]capture
}

func newState(b *Budget, pattern, subject string) *state {
	return &state{b: b, src: subject, pat: pattern}
}

func (ms *state) reset() { ms.level, ms.depth = 0, 0 }

func fail(format string, a ...any) { panic(&Error{fmt.Sprintf(format, a...)}) }

func (ms *state) scan(init int, anchored bool) (Match, bool) {
	p := 0
	anchor := anchored && len(ms.pat) > 0 && ms.pat[0] == '^'
	if anchor {
		p = 1
	}
	for s := init; ; s++ {
		ms.reset()
		if e := ms.match(s, p); e >= 0 {
			return ms.result(s, e), true
		}
		if anchor || s >= len(ms.src) {
			return Match{}, false
		}
	}
}

// result builds the Match of src[s:e] from the closed captures.
func (ms *state) result(s, e int) Match {
	m := Match{Start: s, End: e}
	if ms.level > 0 {
		m.Captures = make([]Capture, ms.level)
	}
	for i := 0; i < ms.level; i++ {
		c := ms.capture[i]
		switch c.len {
		case capUnfinished:
			fail("unfinished capture")
		case capPosition:
			m.Captures[i] = Capture{Start: c.start, End: c.start, Position: true}
		default:
			m.Captures[i] = Capture{Start: c.start, End: c.start + c.len}
		}
	}
	return m
}

// match matches pat[p:] at src[s:] and returns the end of the match, or
// -1. A single item followed by nothing special is matched in the loop;
// repetitions, optional items and captures recurse.
func (ms *state) match(s, p int) int {
	ms.depth++
	if ms.depth > maxDepth {
		fail("pattern too complex")
	}
	e := ms.doMatch(s, p)
	ms.depth--
	return e
}

func (ms *state) doMatch(s, p int) int {
	pat, src := ms.pat, ms.src
	for {
		ms.b.step()
		if p == len(pat) {
			return s
		}
		switch pat[p] {
		case '(':
			if p+1 < len(pat) && pat[p+1] == ')' {
				return ms.startCapture(s, p+2, capPosition)
			}
			return ms.startCapture(s, p+1, capUnfinished)
		case ')':
			return ms.endCapture(s, p+1)
		case '$':
			if p+1 == len(pat) {
				if s == len(src) {
					return s
				}
				return -1
			}
		case '%':
			if ns, np, ok := ms.matchEscape(s, p); ok {
				if ns < 0 {
					return -1
				}
				s, p = ns, np
				continue
			}
		}
		// A single character class, possibly followed by a repetition.
		ep := ms.classEnd(p)
		matched := s < len(src) && ms.singleMatch(src[s], p, ep)
		if ep < len(pat) {
			if e, np, done := ms.matchRepeat(s, p, ep, matched); done {
				return e
			} else if np >= 0 {
				p = np
				continue
			}
		}
		if !matched {
			return -1
		}
		s++
		p = ep
	}
}

// matchEscape is do_match's '%b', '%f' and back-reference cases at
// pat[p] == '%': the subject and pattern positions after them (s -1 when
// they do not match), or ok false for any other escape, which is a
// single character class.
func (ms *state) matchEscape(s, p int) (ns, np int, ok bool) {
	pat, src := ms.pat, ms.src
	if p+1 >= len(pat) {
		return s, p, false // classEnd reports the malformed pattern
	}
	switch c := pat[p+1]; {
	case c == 'b':
		return ms.matchBalance(s, p+2), p + 4, true
	case c == 'f':
		p += 2
		if p >= len(pat) || pat[p] != '[' {
			fail("missing '[' after '%%f' in pattern")
		}
		ep := ms.classEnd(p)
		var prev, cur byte
		if s > 0 {
			prev = src[s-1]
		}
		if s < len(src) {
			cur = src[s]
		}
		if ms.matchBracketClass(prev, p, ep-1) || !ms.matchBracketClass(cur, p, ep-1) {
			return -1, ep, true
		}
		return s, ep, true
	case c >= '0' && c <= '9':
		return ms.matchCapture(s, c), p + 2, true
	}
	return s, p, false
}

// matchRepeat is do_match's repetitions of the single class at
// pat[p:ep] (matched says whether it matches at s): done with the match's
// end e when the repetition decides it, else the pattern position np to
// go on from (-1 when pat[ep] is no repetition).
func (ms *state) matchRepeat(s, p, ep int, matched bool) (e, np int, done bool) {
	switch ms.pat[ep] {
	case '?':
		if matched {
			if e := ms.match(s+1, ep+1); e >= 0 {
				return e, 0, true
			}
		}
		return 0, ep + 1, false
	case '+':
		if !matched {
			return -1, 0, true
		}
		return ms.maxExpand(s+1, p, ep), 0, true
	case '*':
		return ms.maxExpand(s, p, ep), 0, true
	case '-':
		return ms.minExpand(s, p, ep), 0, true
	}
	return 0, -1, false
}

// maxExpand matches as many repetitions of the class at pat[p:ep] as it
// can, then gives them back one at a time until the rest matches.
func (ms *state) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(ms.src) && ms.singleMatch(ms.src[s+i], p, ep) {
		ms.b.step()
		i++
	}
	for ; i >= 0; i-- {
		if e := ms.match(s+i, ep+1); e >= 0 {
			return e
		}
	}
	return -1
}

// minExpand matches as few repetitions as it can, taking one more each
// time the rest fails.
func (ms *state) minExpand(s, p, ep int) int {
	for {
		if e := ms.match(s, ep+1); e >= 0 {
			return e
		}
		if s < len(ms.src) && ms.singleMatch(ms.src[s], p, ep) {
			s++
			continue
		}
		return -1
	}
}

func (ms *state) startCapture(s, p, what int) int {
	if ms.level >= MaxCaptures {
		fail("too many captures")
	}
	ms.capture[ms.level] = capture{start: s, len: what}
	ms.level++
	e := ms.match(s, p)
	if e < 0 {
		ms.level--
	}
	return e
}

func (ms *state) endCapture(s, p int) int {
	l := -1
	for i := ms.level - 1; i >= 0; i-- {
		if ms.capture[i].len == capUnfinished {
			l = i
			break
		}
	}
	if l < 0 {
		fail("invalid pattern capture")
	}
	ms.capture[l].len = s - ms.capture[l].start
	e := ms.match(s, p)
	if e < 0 {
		ms.capture[l].len = capUnfinished
	}
	return e
}

// matchBalance matches %bxy at src[s:]: an x, then text in which every x
// is closed by a y, then the closing y.
func (ms *state) matchBalance(s, p int) int {
	if p+1 >= len(ms.pat) {
		fail("missing arguments to '%%b'")
	}
	if s >= len(ms.src) || ms.src[s] != ms.pat[p] {
		return -1
	}
	open, close := ms.pat[p], ms.pat[p+1]
	depth := 1
	for i := s + 1; i < len(ms.src); i++ {
		ms.b.step()
		switch ms.src[i] {
		case close:
			depth--
			if depth == 0 {
				return i + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

// matchCapture matches a back reference %1-%9 to a closed capture.
func (ms *state) matchCapture(s int, c byte) int {
	l := int(c - '1')
	if l < 0 || l >= ms.level || ms.capture[l].len == capUnfinished {
		fail("invalid capture index")
	}
	cp := ms.capture[l]
	if cp.len < 0 || len(ms.src)-s < cp.len {
		return -1
	}
	for i := 0; i < cp.len; i++ {
		ms.b.step()
		if ms.src[cp.start+i] != ms.src[s+i] {
			return -1
		}
	}
	return s + cp.len
}

// classEnd returns the index just past the single character class that
// starts at pat[p].
func (ms *state) classEnd(p int) int {
	pat := ms.pat
	c := pat[p]
	p++
	switch c {
	case '%':
		if p >= len(pat) {
			fail("malformed pattern (ends with '%%')")
		}
		return p + 1
	case '[':
		if p < len(pat) && pat[p] == '^' {
			p++
		}
		// The first character is part of the set even when it is ']'.
		for {
			if p >= len(pat) {
				fail("malformed pattern (missing ']')")
			}
			c := pat[p]
			p++
			if c == '%' && p < len(pat) {
				p++
			}
			if p < len(pat) && pat[p] == ']' {
				return p + 1
			}
		}
	}
	return p
}

// singleMatch reports whether c matches the class at pat[p:ep].
func (ms *state) singleMatch(c byte, p, ep int) bool {
	switch ms.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, ms.pat[p+1])
	case '[':
		return ms.matchBracketClass(c, p, ep-1)
	}
	return ms.pat[p] == c
}

// matchBracketClass reports whether c is in the set pat[p:ec+1], where
// pat[p] is '[' and pat[ec] its ']'.
func (ms *state) matchBracketClass(c byte, p, ec int) bool {
	pat := ms.pat
	in := true
	if pat[p+1] == '^' {
		in = false
		p++
	}
	for p++; p < ec; p++ {
		switch {
		case pat[p] == '%':
			p++
			if matchClass(c, pat[p]) {
				return in
			}
		case pat[p+1] == '-' && p+2 < ec:
			if pat[p] <= c && c <= pat[p+2] {
				return in
			}
			p += 2
		case pat[p] == c:
			return in
		}
	}
	return !in
}

// matchClass reports whether c is in the class %cl (%a, %d, …; an upper
// case letter is the complement; any other cl stands for itself). The
// classes are the C locale's, byte by byte.
func matchClass(c, cl byte) bool {
	var res bool
	switch cl | 0x20 {
	case 'a':
		res = isAlpha(c)
	case 'c':
		res = c < 0x20 || c == 0x7f
	case 'd':
		res = isDigit(c)
	case 'l':
		res = 'a' <= c && c <= 'z'
	case 'p':
		res = isPunct(c)
	case 's':
		res = c == ' ' || ('\t' <= c && c <= '\r')
	case 'u':
		res = 'A' <= c && c <= 'Z'
	case 'w':
		res = isAlpha(c) || isDigit(c)
	case 'x':
		res = isDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'f')
	case 'z':
		res = c == 0
	default:
		return cl == c
	}
	if 'A' <= cl && cl <= 'Z' {
		return !res
	}
	return res
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isPunct(c byte) bool { return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c) }
