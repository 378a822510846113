package engine

import (
	"fmt"
	"strings"
)

// dialectError looks for Lua 5.3+ syntax in a source that failed to
// compile and names the first construct and its line, or returns "".
func dialectError(src string) string {
	line := 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
		case c == '-' && strings.HasPrefix(src[i:], "--"):
			i += 2
			if n := longBracket(src[i:]); n > 0 {
				end := closeLongBracket(src[i:], n)
				line += strings.Count(src[i:i+end], "\n")
				i += end - 1
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == '[' && longBracket(src[i:]) > 0:
			end := closeLongBracket(src[i:], longBracket(src[i:]))
			line += strings.Count(src[i:i+end], "\n")
			i += end - 1
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' && i+1 < len(src) {
					if src[i+1] == '\n' {
						line++
					}
					i++
				}
			}
		case c == '/' && strings.HasPrefix(src[i:], "//"):
			return construct(line, "the floor division operator //", "use math.floor(a / b)")
		case c == '<' && strings.HasPrefix(src[i:], "<<"), c == '>' && strings.HasPrefix(src[i:], ">>"):
			return construct(line, "the shift operator "+src[i:i+2], "bitwise operators do not exist in Lua 5.1")
		case c == '&':
			return construct(line, "the bitwise operator &", "bitwise operators do not exist in Lua 5.1")
		case c == '|':
			return construct(line, "the bitwise operator |", "bitwise operators do not exist in Lua 5.1")
		case c == '~' && !strings.HasPrefix(src[i:], "~="):
			return construct(line, "the bitwise operator ~", "bitwise operators do not exist in Lua 5.1")
		case c == '<':
			rest := strings.TrimLeft(src[i+1:], " \t")
			for _, attr := range []string{"const", "close"} {
				if strings.HasPrefix(rest, attr) && strings.HasPrefix(strings.TrimLeft(rest[len(attr):], " \t"), ">") {
					return construct(line, "the variable attribute <"+attr+">", "declare a plain local")
				}
			}
		}
	}
	return ""
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
