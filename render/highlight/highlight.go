// Package highlight splits code into classified tokens for markii's code
// blocks. The most common languages are lexed by a small native lexer in
// one linear pass; every other language chroma knows is lexed by chroma's
// own lexer registry. Only chroma's lexing is used, never its formatters
// or styles: colors are not chosen here; the caller maps each Kind to its
// theme.
//
// chroma's lexers package builds its registry in its package init (it
// reads the configuration of every embedded lexer; the rules of a lexer are
// compiled on its first use). Go runs the init of every linked package
// when a process starts, so that cost is paid by every markii process.
package highlight

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
)

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

// Token is a piece of code and its kind. Text may contain line feeds.
type Token struct {
	Kind Kind
	Text string
}

// supported reports whether lang has a lexer.
func supported(lang string) bool {
	return nativeSpec(lang) != nil || lexer(lang) != nil
}

// lexer returns the untimed copy (see untimed.go) of chroma's lexer for lang (a fence's language word, any
// case): by name or alias, then by file extension (`kt`, `ex`); nil when
// chroma has none. Only a plain word is looked up, never a path or a
// pattern, and chroma's plain-text fallback does not count as a lexer.
func lexer(lang string) chroma.Lexer {
	if !plainWord(lang) {
		return nil
	}
	lx := untimedRegistry().Get(lang)
	if lx == nil {
		return nil
	}
	return lx
}

// plainWord reports whether lang is a language word: letters, digits and
// `+#-_.`, not starting with a dot.
func plainWord(lang string) bool {
	if lang == "" || len(lang) > 40 || lang[0] == '.' {
		return false
	}
	for i := 0; i < len(lang); i++ {
		c := lang[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '+', c == '#', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// A chroma lexer may take at most maxStepsPerByte tokens per byte of code
// plus maxStepsSlack before it is given up on as looping.
const (
	maxStepsPerByte = 4
	maxStepsSlack   = 256
)

// Tokens splits code into classified tokens for lang (a fence's language
// word, any case). ok is false when the language is unknown or the lexer
// fails; the caller then draws the code unhighlighted.
//
// A first line starting with `#!` (an interpreter line) is a comment in
// every language.
func Tokens(lang, code string) (tokens []Token, ok bool) {
	if strings.HasPrefix(code, "#!") {
		end := strings.IndexByte(code, '\n')
		if end < 0 {
			end = len(code)
		}
		rest, ok := Tokens(lang, code[end:])
		if !ok {
			return nil, false
		}
		return append([]Token{{Kind: Comment, Text: code[:end]}}, rest...), true
	}
	if spec := nativeSpec(lang); spec != nil {
		return lexNative(spec, code), true
	}
	lx := lexer(lang)
	if lx == nil {
		return nil, false
	}
	defer func() {
		if recover() != nil {
			tokens, ok = nil, false
		}
	}()
	it, err := lx.Tokenise(nil, code)
	if err != nil {
		return nil, false
	}
	if tokens, ok = collect(it, code); !ok {
		return nil, false
	}
	// Some lexers end their input with a line feed; give back exactly the
	// text that came in.
	if n := len(tokens); n > 0 && !strings.HasSuffix(code, "\n") && strings.HasSuffix(tokens[n-1].Text, "\n") {
		tokens[n-1].Text = strings.TrimSuffix(tokens[n-1].Text, "\n")
		if tokens[n-1].Text == "" {
			tokens = tokens[:n-1]
		}
	}
	return tokens, true
}

// collect reads a chroma lexer's tokens of code into ours, joining
// adjacent tokens of one kind.
func collect(it chroma.Iterator, code string) ([]Token, bool) {
	var tokens []Token
	// A lexer whose rule matches without consuming anything can emit
	// tokens for ever (chroma's JSONata does on ordinary text); the work
	// is bounded by the code's length, never by a clock, so the result is
	// the same on every machine.
	steps, size := 0, 0
	for t := it(); t != chroma.EOF; t = it() {
		if steps++; steps > maxStepsPerByte*len(code)+maxStepsSlack {
			return nil, false
		}
		if t.Value == "" {
			continue
		}
		if size += len(t.Value); size > len(code)+1 {
			return nil, false
		}
		k := kindOf(t.Type)
		if n := len(tokens); n > 0 && tokens[n-1].Kind == k {
			// Adjacent tokens of one kind are joined; they are always
			// consecutive bytes of code, so this is a re-slice, not a copy,
			// whenever chroma returned substrings.
			tokens[n-1].Text += t.Value
			continue
		}
		tokens = append(tokens, Token{Kind: k, Text: t.Value})
	}
	return tokens, true
}

// kindOf maps a chroma token type to our kinds.
func kindOf(t chroma.TokenType) Kind {
	switch {
	case t == chroma.KeywordType, t == chroma.NameClass, t == chroma.NameBuiltin,
		t == chroma.NameNamespace, t == chroma.NameAttribute:
		return Type
	case t == chroma.KeywordConstant:
		return Number
	case t == chroma.CommentPreproc, t == chroma.CommentPreprocFile, t == chroma.NameTag:
		return Keyword
	case t.InCategory(chroma.Keyword):
		return Keyword
	case t == chroma.NameFunction, t == chroma.NameFunctionMagic, t == chroma.NameDecorator:
		return Function
	case t.InSubCategory(chroma.LiteralNumber), t == chroma.LiteralDate:
		return Number
	case t.InCategory(chroma.Literal):
		// Strings and plain scalars (a YAML value).
		return String
	case t.InCategory(chroma.Comment):
		return Comment
	case t.InCategory(chroma.Operator):
		return Operator
	case t == chroma.GenericInserted:
		return Inserted
	case t == chroma.GenericDeleted:
		return Deleted
	case t == chroma.GenericHeading, t == chroma.GenericSubheading:
		return Heading
	}
	return Plain
}
