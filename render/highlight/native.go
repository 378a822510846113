package highlight

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is markii's lexer: one linear pass over the code, driven by
// a table per language (langSpec) or, for the languages whose structure
// is in their lines or tags, by a small hand-written routine (lines.go,
// markup.go). Nothing is built when a process starts: the tables are
// composite literals of constants, laid out by the linker.

// langSpec describes a language for the native lexer.
type langSpec struct {
	lineComments []string
	blockOpen    string
	blockClose   string
	// quotes are the string delimiters; a backtick string may span lines.
	quotes string
	// tripleQuotes enables Python's """ and ''' strings.
	tripleQuotes bool
	// foldCase matches keywords without regard to case (SQL).
	foldCase bool
	// keywords, types and constants are word lists, each sorted (by
	// byte) for a binary search and, with foldCase, lowercase.
	keywords, types, constants []string

	// lex, when set, lexes code[from:to] in place of the table-driven
	// lexer (a language with line rules or tags); it is given its spec.
	lex func(spec *langSpec, e *emitter, from, to int)
	// spans are further delimited pieces (Nix's '' strings), each of
	// one kind, tried after the block comment.
	spans []span
	// lineStartComments are bytes that open a comment only as the first
	// thing on a line (Vim's ").
	lineStartComments string
	// identExtra are bytes allowed in a word after its first letter
	// (the hyphen of Lisp and CSS, the prime of Haskell, Ruby's ?!).
	identExtra string
	// sigils start a variable ($x, @x); the variable is plain unless it
	// is one of the constants ($true).
	sigils string
	// annotation, when not zero, is the byte that makes the word after
	// it a decorator or builtin (@Override, @import): a Function.
	annotation byte
	// hashWords lexes #word as one word (C's #include, Swift's #if).
	hashWords bool
	// symbols lexes :word as a symbol (Ruby, Elixir, Clojure): a String.
	symbols bool
	// capsTypes makes a word that starts with a capital letter a Type.
	capsTypes bool
	// lispCall makes the word right after an opening parenthesis a
	// Function, instead of a word before one.
	lispCall bool
	// assignKeys makes a word followed by = (or :=, ?=, +=) a Type: a
	// key (TOML, HCL, Nix, make).
	assignKeys bool
	// sections makes a [bracketed] line a Keyword (TOML's tables).
	sections bool
}

// span is a delimited piece of code of one kind.
type span struct {
	open, close string
	kind        Kind
}

// emitter collects the tokens of one piece of code. Every token is a
// substring of code, they are consecutive, and neighbours of one kind are
// joined.
type emitter struct {
	code string
	out  []Token
}

// add appends code[i:j] as a token of kind k; i is where the previous
// token ended. An empty piece adds nothing.
func (e *emitter) add(k Kind, i, j int) {
	if j <= i {
		return
	}
	if n := len(e.out); n > 0 && e.out[n-1].Kind == k {
		// Tokens are consecutive, so the previous one ends at i.
		prev := len(e.out[n-1].Text)
		e.out[n-1].Text = e.code[i-prev : j]
		return
	}
	e.out = append(e.out, Token{Kind: k, Text: e.code[i:j]})
}

// lexRange lexes code[from:to] into e with spec.
func (spec *langSpec) lexRange(e *emitter, from, to int) {
	if spec.lex != nil {
		spec.lex(spec, e, from, to)
		return
	}
	spec.lexTable(e, from, to)
}

// lexTable lexes code[from:to] into e with spec's tables alone.
func (spec *langSpec) lexTable(e *emitter, from, to int) {
	code := e.code[:to]
	for i := from; i < to; {
		k, end := nativeToken(spec, code, i)
		if end <= i {
			end = i + 1
		}
		e.add(k, i, end)
		i = end
	}
}

// has reports whether the sorted list holds w.
func has(list []string, w string) bool {
	_, found := slices.BinarySearch(list, w)
	return found
}

// The specs are composite literals of constants, laid out by the linker:
// nothing is built for them when a process starts or on first use. The C
// family's lists share break, case, continue, default, do, else, for,
// goto, if, return, switch and while.
var (
	goSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'`",
		keywords: []string{
			"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
			"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
			"return", "select", "struct", "switch", "type", "var",
		},
		types: []string{
			"any", "bool", "byte", "comparable", "complex128", "complex64", "error", "float32",
			"float64", "int", "int16", "int32", "int64", "int8", "rune", "string", "uint", "uint16",
			"uint32", "uint64", "uint8", "uintptr",
		},
		constants: []string{
			"false", "iota", "nil", "true",
		},
	}
	pythonSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", tripleQuotes: true,
		keywords: []string{
			"and", "as", "assert", "async", "await", "break", "case", "class", "continue", "def", "del",
			"elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
			"lambda", "match", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
			"with", "yield",
		},
		types: []string{
			"bool", "bytes", "cls", "dict", "enumerate", "filter", "float", "int", "isinstance", "len",
			"list", "map", "object", "open", "print", "range", "self", "set", "str", "super", "tuple",
			"type", "zip",
		},
		constants: []string{
			"False", "None", "True",
		},
	}
	jsSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'`",
		keywords: []string{
			"abstract", "as", "async", "await", "break", "case", "catch", "class", "const", "continue",
			"debugger", "declare", "default", "delete", "do", "else", "enum", "export", "extends",
			"finally", "for", "from", "function", "if", "implements", "import", "in", "instanceof",
			"interface", "keyof", "let", "namespace", "new", "of", "package", "private", "protected",
			"public", "readonly", "return", "static", "super", "switch", "this", "throw", "try", "type",
			"typeof", "var", "void", "while", "with", "yield",
		},
		types: []string{
			"Array", "Boolean", "Date", "Error", "JSON", "Map", "Math", "Number", "Object", "Promise",
			"Set", "String", "any", "boolean", "console", "never", "number", "object", "string",
			"unknown", "void",
		},
		constants: []string{
			"Infinity", "NaN", "false", "null", "true", "undefined",
		},
	}
	luaSpec = langSpec{
		lineComments: []string{"--"}, blockOpen: "--[[", blockClose: "]]", quotes: "\"'",
		keywords: []string{
			"and", "break", "do", "else", "elseif", "end", "for", "function", "goto", "if", "in",
			"local", "not", "or", "repeat", "return", "then", "until", "while",
		},
		types: []string{
			"cache", "doc", "error", "io", "ipairs", "json", "math", "net", "os", "pairs", "pcall",
			"require", "select", "string", "table", "tonumber", "tostring", "type", "unpack",
		},
		constants: []string{
			"false", "nil", "true",
		},
	}
	rustSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"",
		keywords: []string{
			"Self", "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
			"extern", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
			"pub", "ref", "return", "self", "static", "struct", "super", "trait", "type", "unsafe",
			"use", "where", "while",
		},
		types: []string{
			"Box", "Option", "Result", "String", "Vec", "bool", "char", "f32", "f64", "i128", "i16",
			"i32", "i64", "i8", "isize", "str", "u128", "u16", "u32", "u64", "u8", "usize",
		},
		constants: []string{
			"Err", "None", "Ok", "Some", "false", "true",
		},
	}
	cSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", hashWords: true,
		keywords: []string{
			"#define", "#else", "#endif", "#if", "#ifdef", "#ifndef", "#include", "#pragma", "break",
			"case", "const", "continue", "default", "do", "else", "enum", "extern", "for", "goto", "if",
			"inline", "register", "restrict", "return", "sizeof", "static", "struct", "switch",
			"typedef", "union", "volatile", "while",
		},
		types: []string{
			"FILE", "bool", "char", "double", "float", "int", "int16_t", "int32_t", "int64_t", "int8_t",
			"long", "short", "signed", "size_t", "uint16_t", "uint32_t", "uint64_t", "uint8_t",
			"unsigned", "void",
		},
		constants: []string{
			"NULL", "false", "true",
		},
	}
	cppSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", hashWords: true,
		keywords: []string{
			"#define", "#else", "#endif", "#if", "#ifdef", "#ifndef", "#include", "#pragma", "auto",
			"break", "case", "catch", "class", "const", "constexpr", "continue", "default", "delete",
			"do", "else", "enum", "explicit", "extern", "final", "for", "friend", "goto", "if",
			"inline", "mutable", "namespace", "new", "noexcept", "operator", "override", "private",
			"protected", "public", "return", "sizeof", "static", "struct", "switch", "template", "this",
			"throw", "try", "typedef", "typename", "union", "using", "virtual", "volatile", "while",
		},
		types: []string{
			"bool", "char", "double", "float", "int", "long", "map", "set", "shared_ptr", "short",
			"signed", "size_t", "std", "string", "unique_ptr", "unsigned", "vector", "void",
		},
		constants: []string{
			"NULL", "false", "nullptr", "true",
		},
	}
	javaSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
		keywords: []string{
			"abstract", "assert", "async", "await", "break", "case", "catch", "class", "continue",
			"default", "do", "else", "extends", "final", "finally", "for", "goto", "if", "implements",
			"import", "instanceof", "interface", "namespace", "native", "new", "override", "package",
			"permits", "private", "protected", "public", "readonly", "record", "return", "sealed",
			"static", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
			"using", "var", "virtual", "volatile", "while", "yield",
		},
		types: []string{
			"Integer", "List", "Map", "Object", "String", "bool", "boolean", "byte", "char", "double",
			"float", "int", "long", "short", "string", "var", "void",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	shSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'",
		keywords: []string{
			"case", "do", "done", "elif", "else", "esac", "exit", "export", "fi", "for", "function",
			"if", "in", "local", "readonly", "return", "select", "then", "time", "until", "while",
		},
		types: []string{
			"alias", "awk", "cat", "cd", "chmod", "cp", "curl", "echo", "eval", "exec", "git", "go",
			"grep", "ls", "make", "mkdir", "mv", "printf", "read", "rm", "sed", "set", "shift",
			"source", "sudo", "test", "trap", "unset",
		},
		constants: []string{
			"false", "true",
		},
	}
	sqlSpec = langSpec{
		lineComments: []string{"--"}, blockOpen: "/*", blockClose: "*/", quotes: "'\"", foldCase: true,
		keywords: []string{
			"add", "all", "alter", "and", "as", "asc", "between", "by", "case", "create", "default",
			"delete", "desc", "distinct", "drop", "else", "end", "exists", "foreign", "from", "full",
			"group", "having", "in", "index", "inner", "insert", "into", "is", "join", "key", "left",
			"like", "limit", "not", "offset", "on", "or", "order", "outer", "primary", "references",
			"returning", "right", "select", "set", "table", "then", "union", "unique", "update",
			"values", "view", "when", "where", "with",
		},
		types: []string{
			"avg", "bigint", "blob", "boolean", "char", "count", "date", "decimal", "double", "float",
			"int", "integer", "max", "min", "numeric", "real", "serial", "smallint", "sum", "text",
			"timestamp", "varchar",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	jsonSpec = langSpec{
		quotes: "\"",
		constants: []string{
			"false", "null", "true",
		},
	}
)

// nativeToken is the kind and end of the token at code[i].
func nativeToken(spec *langSpec, code string, i int) (Kind, int) {
	c := code[i]
	if isCodeSpace(c) {
		return Plain, codeSpaceEnd(code, i+1)
	}
	if k, end := delimitedToken(spec, code, i); end > i {
		return k, end
	}
	if isNumberStart(code, i) {
		return Number, numberEnd(code, i+1)
	}
	if isWordStart(code, i) || c == '#' && spec.hashWords {
		j := wordEnd(spec, code, i+1)
		return wordKind(spec, code, i, j), j
	}
	// A mark is punctuation, so it starts no word.
	if k, end := markedWord(spec, code, i); end > i {
		return k, end
	}
	if strings.IndexByte("+-*/%=<>!&|^~?:", c) >= 0 {
		return Operator, i + 1
	}
	_, size := utf8.DecodeRuneInString(code[i:])
	return Plain, i + size
}

// codeSpaceEnd is the end of the spaces, tabs and line endings from j on.
func codeSpaceEnd(code string, j int) int {
	for j < len(code) && isCodeSpace(code[j]) {
		j++
	}
	return j
}

// isNumberStart reports whether a number starts at code[i]: a digit, or
// a dot before one.
func isNumberStart(code string, i int) bool {
	return isDigitByte(code[i]) || code[i] == '.' && digitAt(code, i+1)
}

// numberEnd is the end of the number whose rest starts at code[j]:
// letters, digits and underscores (0x1F, 1e3, 1_000) and a dot before a
// digit.
func numberEnd(code string, j int) int {
	for j < len(code) && (isWordByte(code[j]) || code[j] == '.' && digitAt(code, j+1)) {
		j++
	}
	return j
}

// delimitedToken is the comment, section or string that starts at
// code[i], or an end of i when none does.
func delimitedToken(spec *langSpec, code string, i int) (Kind, int) {
	c := code[i]
	switch {
	case spec.lineStartComments != "" && strings.IndexByte(spec.lineStartComments, c) >= 0 && atLineStart(code, i):
		return Comment, lineEnd(code, i)
	case spec.sections && c == '[' && atLineStart(code, i):
		return Keyword, sectionEnd(code, i)
	}
	if sp, ok := spanAt(spec, code, i); ok {
		return sp.kind, closeAfter(code, i+len(sp.open), sp.close)
	}
	if lineComment(spec, code[i:]) {
		return Comment, lineEnd(code, i)
	}
	if strings.IndexByte(spec.quotes, c) >= 0 {
		return String, stringEnd(spec, code, i)
	}
	return Plain, i
}

// markedWord is the decorator (@name), symbol (:name) or variable ($name)
// that starts at code[i], or an end of i when none does.
func markedWord(spec *langSpec, code string, i int) (Kind, int) {
	c := code[i]
	if i+1 >= len(code) || !isWordStart(code, i+1) {
		return Plain, i
	}
	switch {
	case spec.annotation != 0 && c == spec.annotation:
		return Function, wordEnd(spec, code, i+2)
	case spec.symbols && c == ':' && symbolStart(code, i):
		return String, wordEnd(spec, code, i+2)
	case strings.IndexByte(spec.sigils, c) >= 0:
		j := wordEnd(spec, code, i+2)
		if has(spec.constants, spec.fold(code[i:j])) {
			return Number, j
		}
		return Plain, j
	}
	return Plain, i
}

// symbolStart reports whether the colon at code[i] starts a symbol: it
// follows no colon (Ruby's ::) and no word (a key's colon).
func symbolStart(code string, i int) bool {
	return i == 0 || code[i-1] != ':' && !isWordByte(code[i-1])
}

// fold is w as the spec's word lists spell it: lowercase when the
// language ignores case.
func (spec *langSpec) fold(w string) string {
	if spec.foldCase {
		return strings.ToLower(w)
	}
	return w
}

// isCodeSpace reports whether c is a space, tab or line ending.
func isCodeSpace(c byte) bool { return codeSpaces[c] }

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// digitAt reports whether code has an ASCII digit at i.
func digitAt(code string, i int) bool { return i < len(code) && isDigitByte(code[i]) }

// wordEnd is the end of the letters, digits, underscores and the spec's
// identExtra bytes from j on.
func wordEnd(spec *langSpec, code string, j int) int {
	for j < len(code) {
		if c := code[j]; c < utf8.RuneSelf {
			if !isWordByte(c) && (spec.identExtra == "" || strings.IndexByte(spec.identExtra, c) < 0) {
				break
			}
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(code[j:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		j += size
	}
	return j
}

// atLineStart reports whether only spaces and tabs come before code[i]
// on its line.
func atLineStart(code string, i int) bool {
	for i > 0 {
		i--
		switch code[i] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// lineEnd is the index of the line feed that ends code[i]'s line, or
// len(code).
func lineEnd(code string, i int) int {
	if j := strings.IndexByte(code[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(code)
}

// closeAfter is the end of the first close at or after j, or len(code).
func closeAfter(code string, j int, close string) int {
	if k := strings.Index(code[j:], close); k >= 0 {
		return j + k + len(close)
	}
	return len(code)
}

// spanAt is the block comment or other span of the spec that opens at
// code[i], and whether one does.
func spanAt(spec *langSpec, code string, i int) (span, bool) {
	if spec.blockOpen != "" && strings.HasPrefix(code[i:], spec.blockOpen) {
		return span{spec.blockOpen, spec.blockClose, Comment}, true
	}
	for _, sp := range spec.spans {
		if strings.HasPrefix(code[i:], sp.open) {
			return sp, true
		}
	}
	return span{}, false
}

// sectionEnd is the end of the [section] header at code[i]: its last
// closing bracket before a comment or the line's end.
func sectionEnd(code string, i int) int {
	end := lineEnd(code, i)
	line := code[i:end]
	if h := strings.IndexByte(line, '#'); h >= 0 {
		line = line[:h]
	}
	if k := strings.LastIndexByte(line, ']'); k >= 0 {
		return i + k + 1
	}
	return end
}

func lineComment(spec *langSpec, s string) bool {
	for _, p := range spec.lineComments {
		if strings.HasPrefix(s, p) {
			if p == "--" && spec.blockOpen == "--[[" && strings.HasPrefix(s, "--[[") {
				return false
			}
			return true
		}
	}
	return false
}

// stringEnd returns the end of the string literal starting at i: a
// triple-quoted string or a backtick string runs to its close over lines
// and without escapes, any other to its close or its line's end.
func stringEnd(spec *langSpec, code string, i int) int {
	switch {
	case spec.tripleQuotes && isTripleQuote(code, i):
		return closeAfter(code, i+3, code[i:i+3])
	case code[i] == '`':
		return closeAfter(code, i+1, "`")
	}
	return escapedStringEnd(code, i+1, code[i])
}

// isTripleQuote reports whether code[i] is the first of three equal
// quotes.
func isTripleQuote(code string, i int) bool {
	return i+2 < len(code) && code[i+1] == code[i] && code[i+2] == code[i]
}

// escapedStringEnd is the end of a string closed by q whose rest starts
// at code[j]: after q, or at the line feed that ends it unclosed; a
// backslash escapes the byte after it.
func escapedStringEnd(code string, j int, q byte) int {
	for ; j < len(code); j++ {
		switch code[j] {
		case '\\':
			j++
		case '\n':
			return j
		case q:
			return j + 1
		}
	}
	return len(code)
}

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool { return wordBytes.has(c) }

// isWordStart reports whether a word starts at code[i]: an ASCII letter,
// an underscore or a letter of any script.
func isWordStart(code string, i int) bool {
	if c := code[i]; c < utf8.RuneSelf {
		return wordStarts.has(c)
	}
	r, _ := utf8.DecodeRuneInString(code[i:])
	return unicode.IsLetter(r)
}

// wordKind classifies the identifier code[i:j].
func wordKind(spec *langSpec, code string, i, j int) Kind {
	w := spec.fold(code[i:j])
	switch {
	case has(spec.keywords, w):
		return Keyword
	case has(spec.constants, w):
		return Number
	case has(spec.types, w):
		return Type
	}
	if spec.lispCall {
		if i > 0 && code[i-1] == '(' {
			return Function
		}
		return Plain
	}
	return wordContext(spec, code, w, j)
}

// wordContext classifies the identifier w that ends at code[j] and is no
// listed word, by what follows it: a call, a capitalized type, a key.
func wordContext(spec *langSpec, code, w string, j int) Kind {
	k := spacesEnd(code, j, len(code))
	caps := spec.capsTypes && isUpperStart(w)
	switch {
	case byteAt(code, k) == '(' && (!caps || k == j):
		// A capitalized word before a space and a parenthesis is a
		// type applied (Haskell's IO ()), not a call.
		return Function
	case caps || spec.assignKeys && isAssign(code, k):
		return Type
	}
	return Plain
}

// isUpperStart reports whether w starts with an upper-case letter.
func isUpperStart(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// isAssign reports whether code[k:] starts with an assignment: = (not
// ==), :=, ?= or +=.
func isAssign(code string, k int) bool {
	if k < len(code) && strings.IndexByte(":?+", code[k]) >= 0 {
		k++
	}
	return k < len(code) && code[k] == '=' && (k+1 == len(code) || code[k+1] != '=')
}
