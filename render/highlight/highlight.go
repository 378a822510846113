// Package highlight splits code into classified tokens for markii's code
// blocks. The most common languages are lexed by a small native lexer in
// one linear pass; the others use chroma's lexing engine with a curated set
// of chroma's lexer definitions embedded here (see lexers/COPYING), loaded
// lazily, one language at a time, on first use. It never imports chroma's
// lexers or styles packages, whose package init parses every lexer and
// style and would slow every start of the markii binary. Colors are not
// chosen here; the caller maps each Kind to its theme.
package highlight

import (
	"embed"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed lexers/*.xml
var lexerFiles embed.FS

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

// lexerFile maps a language name or alias (lowercase) to its chroma lexer
// file, for the languages the native lexer does not handle. The JavaScript,
// JSON and Bash files also serve the lexers that delegate to them.
var lexerFile = map[string]string{
	"css":  "css",
	"diff": "diff", "udiff": "diff", "patch": "diff",
	"docker": "docker", "dockerfile": "docker", "containerfile": "docker",
	"elixir": "elixir", "ex": "elixir", "exs": "elixir",
	"graphql": "graphql", "graphqls": "graphql", "gql": "graphql",
	"haskell": "haskell", "hs": "haskell",
	"html": "html", "htm": "html",
	"ini": "ini", "cfg": "ini", "dosini": "ini",
	"make": "makefile", "makefile": "makefile", "mf": "makefile",
	"nix": "nix", "nixos": "nix",
	"perl": "perl", "pl": "perl",
	"powershell": "powershell", "posh": "powershell", "ps1": "powershell", "pwsh": "powershell",
	"protobuf": "protocol_buffer", "proto": "protocol_buffer",
	"r":    "r",
	"ruby": "ruby", "rb": "ruby",
	"scala":     "scala",
	"swift":     "swift",
	"terraform": "terraform", "tf": "terraform", "hcl": "terraform",
	"toml": "toml",
	"xml":  "xml", "svg": "xml",
	"yaml": "yaml", "yml": "yaml",
	"zig": "zig",
}

// needs lists the lexers a lexer delegates parts of its input to.
var needs = map[string][]string{
	"html":     {"css", "javascript"},
	"docker":   {"bash", "json"},
	"makefile": {"bash"},
}

var (
	mu       sync.Mutex
	registry = chroma.NewLexerRegistry()
	loaded   = map[string]chroma.Lexer{}
)

// Supported reports whether lang has a lexer.
func Supported(lang string) bool {
	l := strings.ToLower(lang)
	_, chromaLexer := lexerFile[l]
	_, native := nativeLangs[l]
	return chromaLexer || native
}

// lexer returns the chroma lexer for lang, loading it on first use; nil
// when the language is unknown or its definition does not load.
func lexer(lang string) chroma.Lexer {
	file, ok := lexerFile[strings.ToLower(lang)]
	if !ok {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	return load(file)
}

// load returns the lexer defined by file, loading it and the lexers it
// delegates to. The caller holds mu.
func load(file string) chroma.Lexer {
	if lx, ok := loaded[file]; ok {
		return lx
	}
	rl, err := chroma.NewXMLLexer(lexerFiles, "lexers/"+file+".xml")
	if err != nil {
		loaded[file] = nil
		return nil
	}
	rl.SetRegistry(registry)
	var lx chroma.Lexer = rl
	loaded[file] = lx
	registry.Register(lx)
	for _, dep := range needs[file] {
		load(dep)
	}
	return lx
}

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
	if spec, ok := nativeLangs[strings.ToLower(lang)]; ok {
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
	for t := it(); t != chroma.EOF; t = it() {
		if t.Value == "" {
			continue
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
