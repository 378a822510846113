package highlight

import "strings"

// The lexers of languages whose structure is in their lines: each reads
// code[from:to] one line at a time, in one pass, and hands a line's code
// part (a shell command, a Makefile's recipe) to a table-driven spec.

// lines calls f with the start and end (before its line feed) of every
// line of code[from:to], and emits each line feed as Plain.
func lines(e *emitter, from, to int, f func(i, end int)) {
	code := e.code[:to]
	for i := from; i < to; {
		end := lineEnd(code, i)
		f(i, end)
		if end < to {
			e.add(Plain, end, end+1)
		}
		i = end + 1
	}
}

// spacesEnd is the end of the spaces and tabs from i on, at most to end.
func spacesEnd(code string, i, end int) int {
	for i < end && isBlank(code[i]) {
		i++
	}
	return i
}

// isBlank reports whether c is a space or a tab.
func isBlank(c byte) bool { return blanks[c] }

// blankAt reports whether code[j] is a space or a tab, or j is end.
func blankAt(code string, j, end int) bool { return j == end || isBlank(code[j]) }

// blankBefore reports whether code[j] starts the code or follows a space
// or a tab.
func blankBefore(code string, j int) bool { return j == 0 || isBlank(code[j-1]) }

// endsWithBackslash reports whether code[i:end] ends with a backslash (a
// line continued on the next).
func endsWithBackslash(code string, i, end int) bool {
	return end > i && code[end-1] == '\\'
}

// lexDiff colours a diff by its lines: + inserted, - deleted, @@ hunk
// headers and the diff, index and === lines as headings, the rest plain.
func lexDiff(_ *langSpec, e *emitter, from, to int) {
	code := e.code
	lines(e, from, to, func(i, end int) {
		line := code[i:end]
		k := Plain
		switch {
		case line == "":
		case line[0] == '+':
			k = Inserted
		case line[0] == '-':
			k = Deleted
		case line[0] == '@', line[0] == '=',
			strings.HasPrefix(line, "diff "), strings.HasPrefix(line, "index "), strings.HasPrefix(line, "Index: "):
			k = Heading
		}
		e.add(k, i, end)
	})
}

// lexConsole colours a shell session: a line that starts with a prompt
// ($, #, %, >, ❯, optionally after user@host:dir or [user@host dir] or
// PS C:\dir) is the prompt (an Operator) and a command lexed as shell, as
// are the lines it continues with a backslash; every other line is the
// command's output, plain.
func lexConsole(_ *langSpec, e *emitter, from, to int) {
	code := e.code
	cont := false
	lines(e, from, to, func(i, end int) {
		if cont {
			shSpec.lexRange(e, i, end)
			cont = endsWithBackslash(code, i, end)
			return
		}
		p := promptEnd(code[i:end])
		if p < 0 {
			e.add(Plain, i, end)
			return
		}
		e.add(Operator, i, i+p)
		shSpec.lexRange(e, i+p, end)
		cont = endsWithBackslash(code, i, end)
	})
}

// maxPrompt bounds how far into a line a prompt is looked for.
const maxPrompt = 128

// promptEnd is the length of the prompt line starts with, the space after
// it included, or -1 when it starts with none.
func promptEnd(line string) int {
	head := line[:min(len(line), maxPrompt)]
	if strings.HasPrefix(head, "❯") {
		return afterPrompt(line, len("❯"))
	}
	j := promptIndex(head)
	if j < 0 || j >= len(head) || strings.IndexByte("$#%>", head[j]) < 0 {
		return -1
	}
	return afterPrompt(line, j+1)
}

// promptIndex is where head's prompt character would be, or -1.
func promptIndex(head string) int {
	switch {
	case strings.HasPrefix(head, "["): // [user@host dir]$
		if k := strings.IndexByte(head, ']'); k >= 0 {
			return k + 1
		}
		return -1
	case strings.HasPrefix(head, "PS "): // PS C:\dir>
		return strings.IndexByte(head, '>')
	}
	// $, or user@host:~/dir$: the byte before the first blank.
	k := strings.IndexAny(head, " \t")
	if k < 0 {
		k = len(head)
	}
	if k > 1 && !strings.ContainsAny(head[:k-1], "@:~") {
		return -1
	}
	return k - 1
}

// afterPrompt is the end of a prompt whose character ends at line[j]:
// the line's end, or after the space that follows it; else -1.
func afterPrompt(line string, j int) int {
	switch {
	case j == len(line):
		return j
	case line[j] == ' ' || line[j] == '\t':
		return j + 1
	}
	return -1
}

// lexYAML colours YAML by its lines: keys (Keyword), scalars (String, or
// Number for numbers, booleans and null), comments, anchors, aliases and
// tags (Type), the indicators (Operator), and the lines of a block scalar
// (| or >) as a String.
func lexYAML(_ *langSpec, e *emitter, from, to int) {
	code := e.code
	block := -1 // the indentation of the line that opened a block scalar
	lines(e, from, to, func(i, end int) {
		j := spacesEnd(code, i, end)
		indent := j - i
		if block >= 0 {
			if j == end || indent > block {
				e.add(Plain, i, j)
				e.add(String, j, end)
				return
			}
			block = -1
		}
		e.add(Plain, i, j)
		if yamlLine(e, code, j, end) {
			block = indent
		}
	})
}

// yamlLine lexes one line from its first non-blank byte and reports
// whether it opens a block scalar.
func yamlLine(e *emitter, code string, i, end int) bool {
	if i < end && code[i] == '#' {
		e.add(Comment, i, end)
		return false
	}
	i = yamlDocumentMarker(e, code, i, end)
	i = yamlSequenceDashes(e, code, i, end)
	if k := yamlKeyEnd(code, i, end); k > 0 {
		e.add(Keyword, i, k)
		e.add(Operator, k, k+1)
		i = k + 1
	}
	return yamlValue(e, code, i, end)
}

// yamlDocumentMarker lexes the --- or ... at code[i] when it is a
// document marker (at the line's very start, before a space or the
// line's end) and returns where the line goes on.
func yamlDocumentMarker(e *emitter, code string, i, end int) int {
	marker := code[i:min(i+3, end)]
	if (marker == "---" || marker == "...") && (i == 0 || code[i-1] == '\n') && (i+3 == end || code[i+3] == ' ') {
		e.add(Operator, i, i+3)
		return i + 3
	}
	return i
}

// yamlSequenceDashes lexes the sequence entries' dashes (each before a
// blank or the line's end) from code[i] on and returns where the line
// goes on.
func yamlSequenceDashes(e *emitter, code string, i, end int) int {
	for i < end && code[i] == '-' && blankAt(code, i+1, end) {
		e.add(Operator, i, i+1)
		j := spacesEnd(code, i+1, end)
		e.add(Plain, i+1, j)
		i = j
	}
	return i
}

// yamlKeyEnd is the index of the colon after a block mapping's key that
// starts at code[i] (a plain or quoted scalar), or -1.
func yamlKeyEnd(code string, i, end int) int {
	if i == end || strings.IndexByte("[]{}&*!|>%@`#,", code[i]) >= 0 {
		return -1
	}
	j := i
	if q := code[i]; q == '"' || q == '\'' {
		j = yamlQuoteEnd(code, i, end)
	}
	for ; j < end; j++ {
		switch {
		case code[j] == ':' && blankAt(code, j+1, end):
			return j
		case code[j] == '#' && blankBefore(code, j):
			return -1
		}
	}
	return -1
}

// yamlQuoteEnd is the end of the quoted scalar at code[i], within its line.
func yamlQuoteEnd(code string, i, end int) int {
	q := code[i]
	for j := i + 1; j < end; j++ {
		switch {
		case code[j] == '\\' && q == '"':
			j++
		case code[j] == q:
			if q == '\'' && j+1 < end && code[j+1] == '\'' {
				j++ // '' is a quote inside a single-quoted scalar
				continue
			}
			return j + 1
		}
	}
	return end
}

// yamlValue lexes the rest of a line after its key and reports whether
// it opens a block scalar.
func yamlValue(e *emitter, code string, i, end int) (block bool) {
	y := yamlLexer{e: e, code: code, end: end}
	for i < end {
		if i = y.token(i); i < 0 {
			break
		}
	}
	return y.block
}

// yamlLexer is the state of lexing a YAML value: how deep in flow
// collections ([ and {) on its line, and whether it opened a block scalar.
type yamlLexer struct {
	e     *emitter
	code  string
	end   int
	flow  int
	block bool
}

// token lexes the token at code[i] and returns its end, or -1 when a
// comment ended the line.
func (y *yamlLexer) token(i int) int {
	code, end := y.code, y.end
	c := code[i]
	switch {
	case isBlank(c):
		j := spacesEnd(code, i, end)
		y.e.add(Plain, i, j)
		return j
	case c == '#' && blankBefore(code, i):
		y.e.add(Comment, i, end)
		return -1
	case c == '"' || c == '\'':
		j := yamlQuoteEnd(code, i, end)
		y.e.add(yamlKeyOr(code, j, end, y.flow, String), i, j)
		return j
	}
	if j := y.indicator(i); j > i {
		return j
	}
	j := yamlScalarEnd(code, i, end, y.flow)
	y.e.add(yamlKeyOr(code, j, end, y.flow, yamlScalarKind(code[i:j])), i, j)
	return j
}

// indicator lexes the anchor, alias or tag (Type), block scalar
// indicator or flow punctuation (Operator) at code[i] and returns its
// end, or i when none is there.
func (y *yamlLexer) indicator(i int) int {
	code := y.code[:y.end]
	switch code[i] {
	case '&', '*', '!':
		if i+1 < len(code) && code[i+1] != ' ' {
			return y.add(Type, i, runEnd(code, i+1, " \t,[]{}", false))
		}
		return i
	case '|', '>':
		if y.flow == 0 {
			y.block = true
			return y.add(Operator, i, runEnd(code, i+1, "+-0123456789", true))
		}
		return i
	case '[', '{':
		y.flow++
	case ']', '}':
		y.flow = max(y.flow-1, 0)
	case ',', ':':
	default:
		return i
	}
	return y.add(Operator, i, i+1)
}

// add emits code[i:j] as a token of kind k and returns its end.
func (y *yamlLexer) add(k Kind, i, j int) int {
	y.e.add(k, i, j)
	return j
}

// yamlScalarEnd is the end of the plain scalar at code[i]: the line's
// end or a comment, and in a flow collection also , ] } or ": ". Trailing
// spaces are not part of it.
func yamlScalarEnd(code string, i, end, flow int) int {
	j := i
	for j < end && !(yamlScalarStops.has(code[j]) && yamlScalarStop(code, i, j, end, flow)) {
		j++
	}
	for j > i+1 && isBlank(code[j-1]) {
		j--
	}
	return max(j, i+1)
}

// yamlScalarStop reports whether code[j] ends the plain scalar that
// starts at code[i]: a comment, a colon before a blank (not its first
// byte), and in a flow collection , [ ] { or }.
func yamlScalarStop(code string, i, j, end, flow int) bool {
	switch c := code[j]; c {
	case '#':
		return blankBefore(code, j)
	case ':':
		return j > i && blankAt(code, j+1, end)
	case ',', '[', ']', '{', '}':
		return flow > 0
	}
	return false
}

// yamlKeyOr is Keyword when a flow mapping's key ends at code[j] (the
// scalar is followed by a colon), else k.
func yamlKeyOr(code string, j, end, flow int, k Kind) Kind {
	if flow > 0 && j < end && code[j] == ':' {
		return Keyword
	}
	return k
}

// yamlScalarKind is Number for a number, a boolean or null, else String.
func yamlScalarKind(s string) Kind {
	switch strings.ToLower(s) {
	case "true", "false", "null", "~", "yes", "no", "on", "off", ".inf", "-.inf", "+.inf", ".nan":
		return Number
	}
	t := strings.TrimLeft(s, "+-")
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0o") {
		if t = t[2:]; t != "" && isWordString(t) {
			return Number
		}
		return String
	}
	if isDecimal(t) {
		return Number
	}
	return String
}

// isWordString reports whether t is letters, digits and underscores.
func isWordString(t string) bool {
	for i := 0; i < len(t); i++ {
		if !isWordByte(t[i]) {
			return false
		}
	}
	return true
}

// isDecimal reports whether t is a decimal number: digits, with dots,
// underscores and an exponent.
func isDecimal(t string) bool {
	digits := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case isDigitByte(c):
			digits = true
		case c == '.' || c == '_' || (c == 'e' || c == 'E' || c == '+' || c == '-') && digits:
		default:
			return false
		}
	}
	return digits
}

// lexINI colours an INI file by its lines: ; and # comments, [sections]
// (Keyword), keys (Type), the = or : (Operator) and values (String).
func lexINI(_ *langSpec, e *emitter, from, to int) {
	code := e.code
	lines(e, from, to, func(i, end int) {
		j := spacesEnd(code, i, end)
		e.add(Plain, i, j)
		switch {
		case j == end:
		case code[j] == ';' || code[j] == '#':
			e.add(Comment, j, end)
		case code[j] == '[':
			e.add(Keyword, j, end)
		default:
			k := strings.IndexAny(code[j:end], "=:")
			if k < 0 {
				e.add(Plain, j, end)
				return
			}
			k += j
			key := k
			for key > j && (code[key-1] == ' ' || code[key-1] == '\t') {
				key--
			}
			e.add(Type, j, key)
			e.add(Plain, key, k)
			e.add(Operator, k, k+1)
			v := spacesEnd(code, k+1, end)
			e.add(Plain, k+1, v)
			e.add(String, v, end)
		}
	})
}

// lexMarkdown colours Markdown by its lines: headings, fenced code and
// `code spans` (String), block quotes (Comment) and list markers
// (Operator).
func lexMarkdown(_ *langSpec, e *emitter, from, to int) {
	code := e.code
	fence := "" // the open fence's marker run
	lines(e, from, to, func(i, end int) {
		j := spacesEnd(code, i, end)
		if fence != "" {
			e.add(String, i, end)
			fence = stillFenced(fence, code[j:end])
			return
		}
		e.add(Plain, i, j)
		fence = markdownLine(e, code, j, end)
	})
}

// stillFenced is the open fence after line, a line inside it: "" when
// line closes it.
func stillFenced(fence, line string) string {
	if strings.HasPrefix(line, fence) && strings.Trim(line, fence[:1]+" \t") == "" {
		return ""
	}
	return fence
}

// markdownLine lexes the line code[j:end] outside fenced code and
// returns the fence it opens, or "".
func markdownLine(e *emitter, code string, j, end int) (fence string) {
	line := code[j:end]
	switch {
	case strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~"):
		fence = line[:runEnd(line, 0, line[:1], true)]
		e.add(String, j, end)
	case isATXHeading(line):
		e.add(Heading, j, end)
	case strings.HasPrefix(line, ">"):
		e.add(Comment, j, end)
	default:
		m := listMarker(line)
		e.add(Operator, j, j+m)
		markdownInline(e, code, j+m, end)
	}
	return fence
}

// isATXHeading reports whether line is a # heading.
func isATXHeading(line string) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(line) || line[n] == ' ' || line[n] == '\t')
}

// listMarker is the length of the list marker line starts with (-, *, +
// or a number and . or ) before a space), or 0.
func listMarker(line string) int {
	n := 0
	for n < len(line) && n < 9 && isDigitByte(line[n]) {
		n++
	}
	marks := "-*+"
	if n > 0 {
		marks = ".)"
	}
	if n+1 < len(line) && line[n+1] == ' ' && strings.IndexByte(marks, line[n]) >= 0 {
		return n + 1
	}
	return 0
}

// maxCodeSpanRun is the longest backtick run that opens a code span.
const maxCodeSpanRun = 32

// markdownInline lexes code[i:end]: a code span (a run of backticks to
// the next run as long on the line) is a String, the rest plain.
func markdownInline(e *emitter, code string, i, end int) {
	// A run that found no match shows that no run as long or longer
	// follows, so it is not looked for again; with runs bounded this
	// keeps a line's searches linear.
	failed := maxCodeSpanRun + 1
	for i < end {
		k := strings.IndexByte(code[i:end], '`')
		if k < 0 {
			e.add(Plain, i, end)
			return
		}
		k += i
		e.add(Plain, i, k)
		n := k
		for n < end && code[n] == '`' {
			n++
		}
		run := code[k:n]
		c := -1
		if len(run) < failed {
			if c = strings.Index(code[n:end], run); c < 0 {
				failed = len(run)
			}
		}
		if c < 0 {
			e.add(Plain, k, n)
			i = n
			continue
		}
		e.add(String, k, n+c+len(run))
		i = n + c + len(run)
	}
}

// lexMakefile colours a Makefile by its lines: a recipe line (after a
// tab) is shell, a rule's targets are a Function, and the rest (variables,
// directives, functions) is lexed with spec.
func lexMakefile(spec *langSpec, e *emitter, from, to int) {
	code := e.code
	recipe := false // the previous line was a recipe line continued with a backslash
	lines(e, from, to, func(i, end int) {
		if recipe || i < end && code[i] == '\t' {
			shSpec.lexRange(e, i, end)
			recipe = endsWithBackslash(code, i, end)
			return
		}
		if k := targetEnd(code, i, end); k > 0 {
			e.add(Function, i, k)
			i = k
		}
		spec.lexTable(e, i, end)
	})
}

// targetEnd is the end of a rule's targets when code[i:end] is a rule
// (targets, a colon that is no := or ::=, prerequisites), or -1.
func targetEnd(code string, i, end int) int {
	// Of = # $ ( and :, a rule's first is a colon, which is not the
	// line's first byte.
	if strings.HasPrefix(code[i:end], " ") {
		return -1
	}
	j := strings.IndexAny(code[i:end], "=#$(:")
	if j <= 0 || code[i+j] != ':' {
		return -1
	}
	j += i
	if strings.HasPrefix(code[j+1:end], "=") || strings.HasPrefix(code[j:end], "::=") {
		return -1
	}
	return j
}

// lexDockerfile colours a Dockerfile by its lines: # comments, an
// instruction (Keyword, any case) and its arguments lexed as shell, as
// are the lines it continues with a backslash.
func lexDockerfile(spec *langSpec, e *emitter, from, to int) {
	code := e.code
	cont := false
	lines(e, from, to, func(i, end int) {
		j := spacesEnd(code, i, end)
		e.add(Plain, i, j)
		if !cont && j < end && code[j] == '#' {
			e.add(Comment, j, end)
			return
		}
		if !cont {
			k := j
			for k < end && isWordByte(code[k]) {
				k++
			}
			if has(spec.keywords, strings.ToLower(code[j:k])) {
				e.add(Keyword, j, k)
				j = k
			}
		}
		shSpec.lexRange(e, j, end)
		cont = endsWithBackslash(code, j, end)
	})
}
