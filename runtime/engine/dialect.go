package engine

import (
	"fmt"
	"strings"
)

// dialectError looks for Lua 5.3+ syntax in a source that failed to
// compile and names the first construct and its line, or returns "".
func dialectError(src string) string {
	line := 1
	for i := 0; i < len(src); {
		if src[i] == '\n' {
			line++
			i++
			continue
		}
		if end, lines, ok := skipInert(src, i); ok {
			line += lines
			i = end
			continue
		}
		if what, hint := newerSyntax(src, i); what != "" {
			return construct(line, what, hint)
		}
		i++
	}
	return ""
}

// skipInert skips the comment or string at src[i], where no operator
// counts: it returns the index after it and the lines it ends, or ok
// false when none starts there. A line comment ends before its line
// feed; a short string that is not closed ends with its line.
func skipInert(src string, i int) (end, lines int, ok bool) {
	switch c := src[i]; {
	case c == '-' && strings.HasPrefix(src[i:], "--"):
		end, lines = skipComment(src, i+2)
	case c == '[' && longBracket(src[i:]) > 0:
		end, lines = skipLong(src, i, longBracket(src[i:]))
	case c == '"' || c == '\'':
		end, lines = skipShortString(src, i)
	default:
		return i, 0, false
	}
	return end, lines, true
}

// skipComment skips the text of a comment whose "--" ends before src[i].
func skipComment(src string, i int) (end, lines int) {
	if n := longBracket(src[i:]); n > 0 {
		return skipLong(src, i, n)
	}
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j, 0
	}
	return len(src), 0
}

// skipLong skips the long bracket of length open at src[i] and what it
// holds, up to its closing bracket.
func skipLong(src string, i, open int) (end, lines int) {
	end = i + closeLongBracket(src[i:], open)
	return end, strings.Count(src[i:end], "\n")
}

// skipShortString skips the quoted string at src[i], which a line feed
// ends when it is not closed.
func skipShortString(src string, i int) (end, lines int) {
	q := src[i]
	for i++; i < len(src) && src[i] != q && src[i] != '\n'; i++ {
		if src[i] == '\\' && i+1 < len(src) {
			if src[i+1] == '\n' {
				lines++
			}
			i++
		}
	}
	return i + 1, lines
}

// newerSyntax names the Lua 5.3+ construct at src[i] and what to write
// instead, or returns "".
func newerSyntax(src string, i int) (what, hint string) {
	const noBitwise = "bitwise operators do not exist in Lua 5.1"
	rest := src[i:]
	switch c := src[i]; {
	case strings.HasPrefix(rest, "//"):
		return "the floor division operator //", "use math.floor(a / b)"
	case strings.HasPrefix(rest, "<<"), strings.HasPrefix(rest, ">>"):
		return "the shift operator " + rest[:2], noBitwise
	case c == '&' || c == '|':
		return "the bitwise operator " + string(c), noBitwise
	case c == '~' && !strings.HasPrefix(rest, "~="):
		return "the bitwise operator ~", noBitwise
	case c == '<':
		return variableAttribute(rest[1:])
	}
	return "", ""
}

// variableAttribute names the Lua 5.4 variable attribute (<const> or
// <close>) that rest starts with, after its "<", or returns "".
func variableAttribute(rest string) (what, hint string) {
	rest = strings.TrimLeft(rest, " \t")
	for _, attr := range []string{"const", "close"} {
		if after, ok := strings.CutPrefix(rest, attr); ok && strings.HasPrefix(strings.TrimLeft(after, " \t"), ">") {
			return "the variable attribute <" + attr + ">", "declare a plain local"
		}
	}
	return "", ""
}

func construct(line int, what, hint string) string {
	return fmt.Sprintf("line %d: %s is Lua 5.3+ syntax, which markii does not support (scripts run as Lua 5.1); %s", line, what, hint)
}

// longBracket returns the length of an opening long bracket ([[, [=[, …)
// at the start of s, or 0.
func longBracket(s string) int {
	if len(s) < 2 || s[0] != '[' {
		return 0
	}
	j := 1
	for j < len(s) && s[j] == '=' {
		j++
	}
	if j < len(s) && s[j] == '[' {
		return j + 1
	}
	return 0
}

// closeLongBracket returns the offset just past the long bracket that
// closes the one of length open at the start of s (or len(s)).
func closeLongBracket(s string, open int) int {
	closing := "]" + strings.Repeat("=", open-2) + "]"
	if k := strings.Index(s[open:], closing); k >= 0 {
		return open + k + len(closing)
	}
	return len(s)
}
