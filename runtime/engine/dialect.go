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
	c := src[i]
	switch {
	case c == '-' && strings.HasPrefix(src[i:], "--"):
		i += 2
		if n := longBracket(src[i:]); n > 0 {
			end := i + closeLongBracket(src[i:], n)
			return end, strings.Count(src[i:end], "\n"), true
		}
		if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
			return i + j, 0, true
		}
		return len(src), 0, true
	case c == '[' && longBracket(src[i:]) > 0:
		end := i + closeLongBracket(src[i:], longBracket(src[i:]))
		return end, strings.Count(src[i:end], "\n"), true
	case c == '"' || c == '\'':
		for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
			if src[i] == '\\' && i+1 < len(src) {
				if src[i+1] == '\n' {
					lines++
				}
				i++
			}
		}
		return i + 1, lines, true
	}
	return i, 0, false
}

// newerSyntax names the Lua 5.3+ construct at src[i] and what to write
// instead, or returns "".
func newerSyntax(src string, i int) (what, hint string) {
	const noBitwise = "bitwise operators do not exist in Lua 5.1"
	switch c := src[i]; {
	case c == '/' && strings.HasPrefix(src[i:], "//"):
		return "the floor division operator //", "use math.floor(a / b)"
	case c == '<' && strings.HasPrefix(src[i:], "<<"), c == '>' && strings.HasPrefix(src[i:], ">>"):
		return "the shift operator " + src[i:i+2], noBitwise
	case c == '&' || c == '|':
		return "the bitwise operator " + string(c), noBitwise
	case c == '~' && !strings.HasPrefix(src[i:], "~="):
		return "the bitwise operator ~", noBitwise
	case c == '<':
		rest := strings.TrimLeft(src[i+1:], " \t")
		for _, attr := range []string{"const", "close"} {
			if strings.HasPrefix(rest, attr) && strings.HasPrefix(strings.TrimLeft(rest[len(attr):], " \t"), ">") {
				return "the variable attribute <" + attr + ">", "declare a plain local"
			}
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
