package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/markii/markii/runtime/engine/internal/luapattern"
	lua "github.com/yuin/gopher-lua"
)

// maxPatternBytes caps a Lua pattern's length.
const maxPatternBytes = 16 << 10

func (r *scriptRun) strMap(fn func(string) string) lua.LGFunction {
	return func(L *lua.LState) int {
		s := L.CheckString(1)
		r.reserve(int64(len(s)) * 2)
		r.chargeLoop(1, float64(len(s)))
		L.Push(lua.LString(fn(s)))
		return 1
	}
}

// strRep is string.rep(s, n [, sep]) with the result size checked first.
func (r *scriptRun) strRep(L *lua.LState) int {
	s := L.CheckString(1)
	n := float64(L.CheckNumber(2))
	sep := L.OptString(3, "")
	if n < 1 || math.IsNaN(n) {
		L.Push(lua.LString(""))
		return 1
	}
	size := float64(len(s))*n + float64(len(sep))*(n-1)
	if size > float64(r.limits.Memory) {
		r.reserve(-1)
	}
	r.reserve(int64(size))
	// Each repetition is one iteration, even of an empty string: 2^53
	// empty repetitions are 2^53 steps of work, not a free call.
	r.chargeLoop(math.Floor(n), size)
	count := int(n)
	var b strings.Builder
	b.Grow(int(size))
	for i := 0; i < count; i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s)
	}
	L.Push(lua.LString(b.String()))
	return 1
}

func (r *scriptRun) strChar(L *lua.LState) int {
	n := L.GetTop()
	r.chargeLoop(float64(n), 0)
	b := make([]byte, n)
	for i := 1; i <= n; i++ {
		c := L.CheckInt(i)
		if c < 0 || c > 255 {
			L.ArgError(i, "invalid value")
		}
		b[i-1] = byte(c)
	}
	L.Push(lua.LString(b))
	return 1
}

func (r *scriptRun) strByte(L *lua.LState) int {
	s := L.CheckString(1)
	i := L.OptInt(2, 1)
	j := L.OptInt(3, i)
	l := len(s)
	if i < 0 {
		i = l + i + 1
	}
	if j < 0 {
		j = l + j + 1
	}
	if i < 1 {
		i = 1
	}
	if j > l {
		j = l
	}
	if i > j {
		return 0
	}
	if j-i+1 > maxResults {
		L.RaiseError("string.byte: at most %d bytes at a time", maxResults)
	}
	r.chargeLoop(float64(j-i+1), 0)
	for k := i; k <= j; k++ {
		L.Push(lua.LNumber(s[k-1]))
	}
	return j - i + 1
}

// strFormat is string.format with Lua's verbs only (no Go verbs such as
// %p or %T, which would leak addresses and type names) and Lua 5.1's
// two-digit cap on width and precision.
func (r *scriptRun) strFormat(L *lua.LState) int {
	format := L.CheckString(1)
	var out strings.Builder
	arg := 1
	for i := 0; i < len(format); i++ {
		// One iteration per literal run and per conversion, plus the bytes
		// each writes.
		before := out.Len()
		if c := format[i]; c != '%' {
			run := strings.IndexByte(format[i:], '%')
			if run < 0 {
				run = len(format) - i
			}
			r.chargeLoop(1, float64(run))
			out.WriteString(format[i : i+run])
			i += run - 1
			continue
		}
		i++
		if i >= len(format) {
			L.RaiseError("invalid format string to 'format' (ends with '%%')")
		}
		if format[i] == '%' {
			out.WriteByte('%')
			continue
		}
		spec, hasPrec, end := formatSpec(L, format, i)
		i = end
		verb := format[i]
		arg++
		if arg > L.GetTop() && verb != '%' {
			L.ArgError(arg, "no value")
		}
		r.formatArg(L, &out, arg, verb, spec, hasPrec)
		r.chargeLoop(conversionCost, float64(out.Len()-before))
		if out.Len() > bigAllocation {
			r.reserve(int64(out.Len()))
		}
	}
	L.Push(lua.LString(out.String()))
	return 1
}

// formatSpec reads the flags, width and precision of the conversion
// whose first byte after '%' is format[i], raising Lua's errors for
// repeated flags and for a width or precision over two digits. It
// returns them as a Go format's, whether a precision was given, and the
// index of the verb.
func formatSpec(L *lua.LState, format string, i int) (spec string, hasPrec bool, verb int) {
	start := i
	for i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0 {
		i++
	}
	if i-start > 5 {
		L.RaiseError("invalid format (repeated flags)")
	}
	i, digits := skipASCIIDigits(format, i)
	if i < len(format) && format[i] == '.' {
		hasPrec = true
		var pd int
		if i, pd = skipASCIIDigits(format, i+1); pd > 2 {
			digits = 3
		}
	}
	if digits > 2 {
		L.RaiseError("invalid format (width or precision too long)")
	}
	if i >= len(format) {
		L.RaiseError("invalid format string to 'format'")
	}
	return format[start:i], hasPrec, i
}

// skipASCIIDigits is the index past the digits of s from i on, and how
// many there were.
func skipASCIIDigits(s string, i int) (int, int) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, i - start
}

// formatArg writes argument arg converted by verb with spec.
func (r *scriptRun) formatArg(L *lua.LState, out *strings.Builder, arg int, verb byte, spec string, hasPrec bool) {
	switch verb {
	case 'd', 'i':
		fmt.Fprintf(out, "%"+spec+"d", toInt(L.CheckNumber(arg)))
	case 'u':
		fmt.Fprintf(out, "%"+spec+"d", uint64(toInt(L.CheckNumber(arg))))
	case 'c':
		out.WriteByte(byte(toInt(L.CheckNumber(arg))))
	case 'x', 'X', 'o':
		fmt.Fprintf(out, "%"+spec+string(verb), uint64(toInt(L.CheckNumber(arg))))
	case 'e', 'E', 'f', 'g', 'G':
		formatFloat(out, float64(L.CheckNumber(arg)), verb, spec, hasPrec)
	case 'q':
		s := L.CheckString(arg)
		r.reserve(int64(out.Len()) + int64(len(s))*4)
		writeLuaQuoted(out, s)
	case 's':
		s := r.formatString(L.CheckAny(arg))
		r.reserve(int64(out.Len()) + int64(len(s)) + 100)
		fmt.Fprintf(out, "%"+spec+"s", s)
	default:
		L.RaiseError("invalid option '%%%c' to 'format'", verb)
	}
}

// formatFloat writes f converted by a floating-point verb with spec, at
// precision 6 unless spec sets one; an infinity or NaN as Lua writes it.
func formatFloat(out *strings.Builder, f float64, verb byte, spec string, hasPrec bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		out.WriteString(luaNonFinite(f))
		return
	}
	if !hasPrec {
		spec += ".6"
	}
	fmt.Fprintf(out, "%"+spec+string(verb), f)
}

// formatString is what %s shows of v: its text for a string, number,
// boolean or nil, else an opaque name.
func (r *scriptRun) formatString(v lua.LValue) string {
	switch v.(type) {
	case lua.LString, lua.LNumber, lua.LBool, *lua.LNilType:
		return v.String()
	}
	return r.opaqueName(v)
}

func toInt(n lua.LNumber) int64 {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

func luaNonFinite(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case f > 0:
		return "inf"
	}
	return "-inf"
}

func writeLuaQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString("\\\n")
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// budget meters one pattern call against the script's instruction budget
// and stop flag.
func (r *scriptRun) budget() *luapattern.Budget {
	return &luapattern.Budget{Charge: r.meter.charge}
}

// checkPattern refuses a pattern over the length cap.
func checkPattern(L *lua.LState, pattern string) {
	if len(pattern) > maxPatternBytes {
		L.RaiseError("pattern is longer than %d bytes", maxPatternBytes)
	}
}

// patternDone charges one match call and raises its error, if any: the
// breached limit when the budget stopped it (the meter holds the record),
// else the malformed pattern's message.
func (r *scriptRun) patternDone(L *lua.LState, matches int, err error) {
	r.chargeLoop(float64(matches+1)*matchCost, 0)
	if err == nil {
		return
	}
	if r.meter.tripped.Load() {
		L.RaiseError("%s", limitMessage(r.meter.breach()))
	}
	L.RaiseError("%s", err.Error())
}

func (r *scriptRun) strFind(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	init := stringIndex(str, L.OptInt(3, 1))
	if init > len(str) {
		L.Push(lua.LNil)
		return 1
	}
	plain := lua.LVAsBool(L.Get(4))
	if plain || !strings.ContainsAny(pattern, "^$*+?.([%-") {
		r.chargeLoop(1, float64(len(str)-init))
		pos := strings.Index(str[init:], pattern)
		if pos < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + pos + 1))
		L.Push(lua.LNumber(init + pos + len(pattern)))
		return 2
	}
	checkPattern(L, pattern)
	m, found, err := luapattern.Find(r.budget(), pattern, str, init)
	r.patternDone(L, 1, err)
	if !found {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LNumber(m.Start + 1))
	L.Push(lua.LNumber(m.End))
	return 2 + pushCaptures(L, m, str, false)
}

func (r *scriptRun) strMatch(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	init := stringIndex(str, L.OptInt(3, 1))
	if init > len(str) {
		L.Push(lua.LNil)
		return 1
	}
	checkPattern(L, pattern)
	m, found, err := luapattern.Find(r.budget(), pattern, str, init)
	r.patternDone(L, 1, err)
	if !found {
		L.Push(lua.LNil)
		return 1
	}
	return pushCaptures(L, m, str, true)
}

// pushCaptures pushes a match's captures; with whole set, a match without
// captures pushes the whole match.
func pushCaptures(L *lua.LState, m luapattern.Match, str string, whole bool) int {
	if len(m.Captures) == 0 {
		if !whole {
			return 0
		}
		L.Push(lua.LString(str[m.Start:m.End]))
		return 1
	}
	for _, c := range m.Captures {
		L.Push(captureValue(c, str))
	}
	return len(m.Captures)
}

// captureValue is a capture as Lua sees it: its text, or for a position
// capture its 1-based position.
func captureValue(c luapattern.Capture, str string) lua.LValue {
	if c.Position {
		return lua.LNumber(c.Start + 1)
	}
	return lua.LString(str[c.Start:c.End])
}

// strGmatch finds one match per iterator call, so a loop is metered step
// by step. As in Lua, '^' is an ordinary character here.
func (r *scriptRun) strGmatch(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	checkPattern(L, pattern)
	pos := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if pos > len(str) {
			return 0
		}
		m, found, err := luapattern.Scan(r.budget(), pattern, str, pos)
		r.patternDone(L, 1, err)
		if !found {
			pos = len(str) + 1
			return 0
		}
		if m.End > m.Start {
			pos = m.End
		} else {
			pos = m.Start + 1
		}
		return pushCaptures(L, m, str, true)
	}))
	return 1
}

// strGsub builds its result once, as the matches are found, with a size
// check (gopher-lua's copies the whole subject per replacement). An
// explicit count below 1 replaces nothing, as in Lua.
func (r *scriptRun) strGsub(L *lua.LState) int {
	str := L.CheckString(1)
	pattern := L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTNumber, lua.LTTable, lua.LTFunction)
	repl := L.Get(3)
	limit := -1
	if L.Get(4) != lua.LNil {
		limit = max(0, L.CheckInt(4))
	}
	checkPattern(L, pattern)
	var out strings.Builder
	last := 0
	n, err := luapattern.Each(r.budget(), pattern, str, limit, func(m luapattern.Match) {
		r.chargeLoop(matchCost, float64(m.End-last))
		out.WriteString(str[last:m.Start])
		writeReplacement(L, &out, replacement(L, repl, m, str), str[m.Start:m.End])
		last = m.End
		if out.Len() > bigAllocation {
			r.reserve(int64(out.Len()) + int64(len(str)-last))
		}
	})
	r.patternDone(L, 0, err)
	out.WriteString(str[last:])
	L.Push(lua.LString(out.String()))
	L.Push(lua.LNumber(n))
	return 2
}

// replacement is what gsub's repl gives for match m: a string expanded,
// a table looked up by the first capture, a function called with the
// captures.
func replacement(L *lua.LState, repl lua.LValue, m luapattern.Match, str string) lua.LValue {
	switch rv := repl.(type) {
	case lua.LString, lua.LNumber:
		return lua.LString(expandReplacement(L, rv.String(), m, str))
	case *lua.LTable:
		return L.GetTable(rv, firstCapture(m, str))
	case *lua.LFunction:
		L.Push(rv)
		L.Call(pushCaptures(L, m, str, true), 1)
		rep := L.Get(-1)
		L.Pop(1)
		return rep
	}
	return nil
}

// writeReplacement writes a replacement value: a string or number as
// text, nil or false as the match itself (whole); anything else is an
// error.
func writeReplacement(L *lua.LState, out *strings.Builder, rep lua.LValue, whole string) {
	switch v := rep.(type) {
	case lua.LString, lua.LNumber:
		out.WriteString(v.String())
	case *lua.LNilType:
		out.WriteString(whole)
	case lua.LBool:
		if v {
			L.RaiseError("invalid replacement value (a boolean)")
		}
		out.WriteString(whole)
	default:
		L.RaiseError("invalid replacement value (a %s)", rep.Type().String())
	}
}

// firstCapture is the key gsub looks up in a replacement table: the first
// capture, or the whole match.
func firstCapture(m luapattern.Match, str string) lua.LValue {
	if len(m.Captures) == 0 {
		return lua.LString(str[m.Start:m.End])
	}
	return captureValue(m.Captures[0], str)
}

// expandReplacement expands a gsub replacement string: %0 is the whole
// match, %1 to %9 the captures (%1 is the whole match when there are
// none), %% a percent sign.
func expandReplacement(L *lua.LState, repl string, m luapattern.Match, str string) string {
	if !strings.Contains(repl, "%") {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '%' || i+1 >= len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		writeReplacementItem(L, &b, repl[i], m, str)
	}
	return b.String()
}

// writeReplacementItem writes what %d stands for in a gsub replacement:
// %0 the whole match, %1 to %9 a capture, any other d itself.
func writeReplacementItem(L *lua.LState, b *strings.Builder, d byte, m luapattern.Match, str string) {
	switch {
	case d == '0':
		b.WriteString(str[m.Start:m.End])
	case d >= '1' && d <= '9':
		b.WriteString(captureText(L, int(d-'1'), m, str))
	default:
		b.WriteByte(d)
	}
}

// captureText is capture idx (from 0) of m as gsub's replacement writes
// it: a position capture as its number, %1 without captures as the whole
// match.
func captureText(L *lua.LState, idx int, m luapattern.Match, str string) string {
	switch {
	case idx < len(m.Captures):
		c := m.Captures[idx]
		if c.Position {
			return strconv.Itoa(c.Start + 1)
		}
		return str[c.Start:c.End]
	case idx == 0 && len(m.Captures) == 0:
		return str[m.Start:m.End]
	}
	L.RaiseError("invalid capture index")
	return ""
}

// stringIndex converts a 1-based (possibly negative) Lua index into a
// 0-based start offset.
func stringIndex(s string, i int) int {
	if i < 0 {
		i = len(s) + i + 1
	}
	if i < 1 {
		i = 1
	}
	return i - 1
}

// tableConcat is table.concat with a strings.Builder and the result size
// checked before it is built.
func (r *scriptRun) tableConcat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	i := L.OptInt(3, 1)
	j := L.OptInt(4, t.Len())
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	r.chargeLoop(float64(j)-float64(i)+1, 0)
	if float64(j)-float64(i) > float64(r.limits.Memory) {
		r.reserve(-1)
	}
	size := int64(0)
	for k := i; k <= j; k++ {
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			size += int64(len(v))
		case lua.LNumber:
			size += 24
		default:
			L.RaiseError("invalid value (at index %d) in table for 'concat'", k)
		}
		size += int64(len(sep))
	}
	r.reserve(size)
	r.chargeLoop(0, float64(size))
	var b strings.Builder
	b.Grow(int(size))
	for k := i; k <= j; k++ {
		if k > i {
			b.WriteString(sep)
		}
		b.WriteString(t.RawGetInt(k).String())
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// unpack is table.unpack(t [, i [, j]]) with the count capped.
func (r *scriptRun) unpack(L *lua.LState) int {
	t := L.CheckTable(1)
	i := L.OptInt(2, 1)
	j := L.OptInt(3, t.Len())
	if i > j {
		return 0
	}
	if float64(j)-float64(i)+1 > maxResults {
		L.RaiseError("too many results to unpack (at most %d)", maxResults)
	}
	r.chargeLoop(float64(j)-float64(i)+1, 0)
	for k := i; k <= j; k++ {
		L.Push(t.RawGetInt(k))
	}
	return j - i + 1
}

// tablePack is Lua 5.2's table.pack.
func (r *scriptRun) tablePack(L *lua.LState) int {
	n := L.GetTop()
	r.chargeLoop(float64(n), 0)
	t := L.CreateTable(n, 1)
	for i := 1; i <= n; i++ {
		t.RawSetInt(i, L.Get(i))
	}
	t.RawSetString("n", lua.LNumber(n))
	L.Push(t)
	return 1
}

// tableMove is Lua 5.3's table.move(a1, f, e, t [, a2]).
func (r *scriptRun) tableMove(L *lua.LState) int {
	a1 := L.CheckTable(1)
	f := L.CheckInt(2)
	e := L.CheckInt(3)
	t := L.CheckInt(4)
	a2 := a1
	if L.GetTop() >= 5 {
		a2 = L.CheckTable(5)
	}
	if e >= f {
		count := int64(e) - int64(f) + 1
		if count > int64(r.limits.MarshalNodes)*100 {
			L.RaiseError("table.move: too many elements")
		}
		r.charge(count)
		if t > e || t <= f || a1 != a2 {
			for i := 0; i <= e-f; i++ {
				a2.RawSetInt(t+i, a1.RawGetInt(f+i))
			}
		} else {
			for i := e - f; i >= 0; i-- {
				a2.RawSetInt(t+i, a1.RawGetInt(f+i))
			}
		}
	}
	L.Push(a2)
	return 1
}
