package render

import (
	"bytes"
	"strings"
)

// splitFrontmatter finds a YAML frontmatter block at the very start of src
// (SPEC §1.6): a `---` line, YAML text, a closing `---` line. It returns the
// YAML text and the offset where the markdown body starts, or ok=false when
// src does not start with a closed frontmatter block (an unclosed opening
// fence is ordinary markdown).
func splitFrontmatter(src []byte) (yaml []byte, body int, ok bool) {
	first, next := cutLine(src, 0)
	if !isFrontmatterFence(first) {
		return nil, 0, false
	}
	for at := next; at < len(src); {
		line, after := cutLine(src, at)
		if isFrontmatterFence(line) {
			return src[next:at], after, true
		}
		at = after
	}
	return nil, 0, false
}

// cutLine returns the line starting at src[at] without its line ending, and
// the offset of the next line.
func cutLine(src []byte, at int) (line []byte, next int) {
	i := bytes.IndexByte(src[at:], '\n')
	if i < 0 {
		return src[at:], len(src)
	}
	return src[at : at+i], at + i + 1
}

func isFrontmatterFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// readUses reads the `uses:` key of frontmatter YAML without a YAML
// library, in the two shapes the format defines: a flow list
// `uses: [a, b]` or a block list of `- name` lines with one indent. A
// missing or duplicate key, any other shape, or any item that is not a pack
// name gives nil; it never returns part of a list and never fails. An
// empty flow list gives an empty, non-nil slice.
func readUses(yaml []byte) []string {
	lines := strings.Split(strings.ReplaceAll(string(yaml), "\r\n", "\n"), "\n")
	found := usesLine(lines)
	if found < 0 {
		return nil
	}
	if rest := strings.TrimSpace(lines[found][len("uses:"):]); rest != "" {
		return flowUses(rest)
	}
	return blockUses(lines[found+1:])
}

// usesLine returns the index of the one line that starts the `uses:`
// key, or -1 when there is none or more than one.
func usesLine(lines []string) int {
	found := -1
	for k, l := range lines {
		if !strings.HasPrefix(l, "uses:") {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = k
	}
	return found
}

// flowUses reads a flow list `[a, b]`.
func flowUses(rest string) []string {
	if len(rest) < 2 || rest[0] != '[' || rest[len(rest)-1] != ']' {
		return nil
	}
	inner := strings.TrimSpace(rest[1 : len(rest)-1])
	if inner == "" {
		return []string{}
	}
	var names []string
	for _, item := range strings.Split(inner, ",") {
		name, ok := packName(item)
		if !ok {
			return nil
		}
		names = append(names, name)
	}
	return names
}

// blockUses reads a block list of `- name` lines, all with one indent,
// from the lines after the key.
func blockUses(lines []string) []string {
	var names []string
	indent := -1
	k := 0
	for ; k < len(lines); k++ {
		l := strings.TrimRight(lines[k], " \t")
		trimmed := strings.TrimLeft(l, " ")
		if !strings.HasPrefix(trimmed, "- ") && trimmed != "-" {
			break
		}
		w := len(l) - len(trimmed)
		if indent >= 0 && w != indent {
			return nil
		}
		indent = w
		name, ok := packName(strings.TrimPrefix(trimmed, "-"))
		if !ok {
			return nil
		}
		names = append(names, name)
	}
	// The list must end at a new top-level key or the end of the block;
	// anything still indented under it is a shape we do not read.
	if len(names) == 0 || k < len(lines) && indentedLine(lines[k]) {
		return nil
	}
	return names
}

// indentedLine reports whether l has text and starts with white space.
func indentedLine(l string) bool {
	return strings.TrimSpace(l) != "" && (l[0] == ' ' || l[0] == '\t')
}

// packNameByte reports whether c may stand in a pack name, first or
// after the first.
func packNameByte(c byte, first bool) bool {
	if isASCIILetter(c) || isASCIIDigit(c) || c == '_' {
		return true
	}
	return !first && (c == '.' || c == '-')
}

// packName trims an item, strips one pair of matching quotes and checks it
// against ^[A-Za-z0-9_][A-Za-z0-9._-]*$.
func packName(item string) (string, bool) {
	s, _ := unquoted(strings.TrimSpace(item))
	if s == "" {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if !packNameByte(s[i], i == 0) {
			return "", false
		}
	}
	return s, true
}

// unquoted returns s inside one pair of matching single or double quotes,
// and whether it had them.
func unquoted(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1], true
	}
	return s, false
}
