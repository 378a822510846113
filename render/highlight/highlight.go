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
	"slices"
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

// chromaAlias is one name of a language lexed by chroma.
type chromaAlias struct {
	name, file string
}

// lexerAliases maps a language name or alias (lowercase) to its chroma lexer
// file, for the languages the native lexer does not handle, sorted by name
// for a binary search; an array of constants, so nothing is built when a
// process starts. The JavaScript, JSON and Bash files also serve the
// lexers that delegate to them.
var lexerAliases = [...]chromaAlias{
	{"cfg", "ini"},
	{"containerfile", "docker"},
	{"css", "css"},
	{"diff", "diff"},
	{"docker", "docker"},
	{"dockerfile", "docker"},
	{"dosini", "ini"},
	{"elixir", "elixir"},
	{"ex", "elixir"},
	{"exs", "elixir"},
	{"gql", "graphql"},
	{"graphql", "graphql"},
	{"graphqls", "graphql"},
	{"haskell", "haskell"},
	{"hcl", "terraform"},
	{"hs", "haskell"},
	{"htm", "html"},
	{"html", "html"},
	{"ini", "ini"},
	{"make", "makefile"},
	{"makefile", "makefile"},
	{"mf", "makefile"},
	{"nix", "nix"},
	{"nixos", "nix"},
	{"patch", "diff"},
	{"perl", "perl"},
	{"pl", "perl"},
	{"posh", "powershell"},
	{"powershell", "powershell"},
	{"proto", "protocol_buffer"},
	{"protobuf", "protocol_buffer"},
	{"ps1", "powershell"},
	{"pwsh", "powershell"},
	{"r", "r"},
	{"rb", "ruby"},
	{"ruby", "ruby"},
	{"scala", "scala"},
	{"svg", "xml"},
	{"swift", "swift"},
	{"terraform", "terraform"},
	{"tf", "terraform"},
	{"toml", "toml"},
	{"udiff", "diff"},
	{"xml", "xml"},
	{"yaml", "yaml"},
	{"yml", "yaml"},
	{"zig", "zig"},
}

// lexerFile returns the chroma lexer file for lang (any case), or "".
func lexerFile(lang string) string {
	l := strings.ToLower(lang)
	i, found := slices.BinarySearchFunc(lexerAliases[:], l, func(e chromaAlias, l string) int {
		return strings.Compare(e.name, l)
	})
	if !found {
		return ""
	}
	return lexerAliases[i].file
}

// needs lists the lexers a lexer delegates parts of its input to.
func needs(file string) []string {
	switch file {
	case "html":
		return []string{"css", "javascript"}
	case "docker":
		return []string{"bash", "json"}
	case "makefile":
		return []string{"bash"}
	}
	return nil
}

// The chroma registry and the loaded lexers are made on the first chroma
// lexing, under mu; most processes never lex with chroma.
var (
	mu       sync.Mutex
	registry *chroma.LexerRegistry
	loaded   map[string]chroma.Lexer
)

// Supported reports whether lang has a lexer.
func Supported(lang string) bool {
	return lexerFile(lang) != "" || nativeSpec(lang) != nil
}

// lexer returns the chroma lexer for lang, loading it on first use; nil
// when the language is unknown or its definition does not load.
func lexer(lang string) chroma.Lexer {
	file := lexerFile(lang)
	if file == "" {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	if registry == nil {
		registry = chroma.NewLexerRegistry()
		loaded = map[string]chroma.Lexer{}
	}
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
	for _, dep := range needs(file) {
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
