// Package highlight splits code into classified tokens for markii's code
// blocks. Every language is lexed by markii's own table-driven lexer in
// one linear pass (native.go, with line rules for the languages that need
// them in lines.go and markup.go); a language it does not know is drawn
// plain by the caller. Colors are not chosen here; the caller maps each
// Kind to its theme.
//
// markii links no regular-expression lexer library: chroma's lexers
// package, for one, builds its registry of some 290 lexers in its package
// initializer, which Go runs in every process that links it whatever the
// command (half of markii's start-up), and its backtracking rules are
// slow on some inputs and carry a match timeout that makes a result
// depend on machine load. The native lexer costs nothing at start-up, and
// its work is linear in the code's length and the same on every machine.
package highlight

import "strings"

// Kind classifies a token for coloring.
type Kind uint8

// Token kinds, from plain text to diff lines.
const (
	Plain Kind = iota
	Keyword
	String
	Number
	Comment
	Function
	Type
	Operator
	Inserted
	Deleted
	Heading
)

// maxPresized is the most tokens Tokens makes room for before it lexes.
const maxPresized = 4096

// Token is a piece of code and its kind. Text may contain line feeds.
type Token struct {
	Kind Kind
	Text string
}

// Supported reports whether lang (a fence's language word, any case) has
// a lexer.
func Supported(lang string) bool {
	return nativeSpec(lang) != nil
}

// Tokens splits code into classified tokens for lang (a fence's language
// word, any case). ok is false when the language is unknown; the caller
// then draws the code unhighlighted. The tokens are consecutive pieces of
// code that together are exactly code, and no two neighbours have the
// same kind.
//
// A first line starting with `#!` (an interpreter line) is a comment in
// every language.
func Tokens(lang, code string) (tokens []Token, ok bool) {
	spec := nativeSpec(lang)
	if spec == nil {
		return nil, false
	}
	// A token every three bytes or so is usual for code: the list is
	// made once rather than grown by doubling, up to maxPresized tokens,
	// so that a long block of few tokens (a run of blanks) does not pay
	// for a list it never fills.
	e := emitter{code: code, out: make([]Token, 0, min(len(code)/3+4, maxPresized))}
	from := 0
	if strings.HasPrefix(code, "#!") {
		from = strings.IndexByte(code, '\n')
		if from < 0 {
			from = len(code)
		}
		e.add(Comment, 0, from)
		// The line feed starts the code proper, so a comment the
		// language opens on the next line is not joined to this one.
		if from < len(code) {
			e.out = append(e.out, Token{Kind: Plain, Text: code[from : from+1]})
			from++
		}
	}
	spec.lexRange(&e, from, len(code))
	return e.out, true
}
