package highlight

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is a small hand-written lexer for the most common languages
// of notes. chroma's regular-expression lexers cost milliseconds to load
// and about a millisecond per small block; these languages are lexed in
// one linear pass instead, which keeps `markii render` of a short note
// within a few milliseconds. Other languages go through chroma.

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
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
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
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
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

// nativeAlias is one name of a native language.
type nativeAlias struct {
	name string
	spec *langSpec
}

// nativeLangs maps a lowercase language name to its native spec, sorted
// by name for a binary search; an array of constants, so nothing is built
// when a process starts.
var nativeLangs = [...]nativeAlias{
	{"bash", &shSpec},
	{"c", &cSpec},
	{"c++", &cppSpec},
	{"cc", &cppSpec},
	{"cjs", &jsSpec},
	{"console", &shSpec},
	{"cpp", &cppSpec},
	{"cxx", &cppSpec},
	{"go", &goSpec},
	{"golang", &goSpec},
	{"h", &cSpec},
	{"hpp", &cppSpec},
	{"java", &javaSpec},
	{"javascript", &jsSpec},
	{"js", &jsSpec},
	{"json", &jsonSpec},
	{"jsonc", &jsonSpec},
	{"jsonl", &jsonSpec},
	{"jsx", &jsSpec},
	{"ksh", &shSpec},
	{"lua", &luaSpec},
	{"mjs", &jsSpec},
	{"py", &pythonSpec},
	{"py3", &pythonSpec},
	{"python", &pythonSpec},
	{"python3", &pythonSpec},
	{"rs", &rustSpec},
	{"rust", &rustSpec},
	{"sh", &shSpec},
	{"shell", &shSpec},
	{"sql", &sqlSpec},
	{"ts", &jsSpec},
	{"tsx", &jsSpec},
	{"typescript", &jsSpec},
	{"zsh", &shSpec},
}

// nativeSpec returns the native spec for lang (any case), or nil.
func nativeSpec(lang string) *langSpec {
	l := strings.ToLower(lang)
	i, found := slices.BinarySearchFunc(nativeLangs[:], l, func(e nativeAlias, l string) int {
		return strings.Compare(e.name, l)
	})
	if !found {
		return nil
	}
	return nativeLangs[i].spec
}

// lexNative splits code into tokens with spec in one pass. Every token is
// a substring of code and together they are exactly code.
func lexNative(spec *langSpec, code string) []Token {
	var out []Token
	for i := 0; i < len(code); {
		k, end := nativeToken(spec, code, i)
		if end <= i {
			break
		}
		if n := len(out); n > 0 && out[n-1].Kind == k {
			// Tokens are consecutive, so the previous one ends at i.
			prev := len(out[n-1].Text)
			out[n-1].Text = code[i-prev : end]
		} else {
			out = append(out, Token{Kind: k, Text: code[i:end]})
		}
		i = end
	}
	return out
}

// nativeToken is the kind and end of the token at code[i].
func nativeToken(spec *langSpec, code string, i int) (Kind, int) {
	c := code[i]
	switch {
	case isCodeSpace(c):
		j := i + 1
		for j < len(code) && isCodeSpace(code[j]) {
			j++
		}
		return Plain, j
	case spec.blockOpen != "" && strings.HasPrefix(code[i:], spec.blockOpen):
		if j := strings.Index(code[i+len(spec.blockOpen):], spec.blockClose); j >= 0 {
			return Comment, i + len(spec.blockOpen) + j + len(spec.blockClose)
		}
		return Comment, len(code)
	case lineComment(spec, code[i:]):
		if j := strings.IndexByte(code[i:], '\n'); j >= 0 {
			return Comment, i + j
		}
		return Comment, len(code)
	case strings.IndexByte(spec.quotes, c) >= 0:
		return String, stringEnd(spec, code, i)
	case isDigitByte(c) || c == '.' && digitAt(code, i+1):
		j := i + 1
		for j < len(code) && (isWordByte(code[j]) || code[j] == '.' && digitAt(code, j+1)) {
			j++
		}
		return Number, j
	case isWordStart(code, i) || c == '#' && (spec == &cSpec || spec == &cppSpec):
		j := wordEnd(code, i+1)
		return wordKind(spec, code, i, j), j
	case strings.IndexByte("+-*/%=<>!&|^~?:", c) >= 0:
		return Operator, i + 1
	}
	_, size := utf8.DecodeRuneInString(code[i:])
	return Plain, i + size
}

// isCodeSpace reports whether c is a space, tab or line ending.
func isCodeSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isDigitByte reports whether c is an ASCII digit.
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// digitAt reports whether code has an ASCII digit at i.
func digitAt(code string, i int) bool { return i < len(code) && isDigitByte(code[i]) }

// wordEnd is the end of the letters, digits and underscores from j on.
func wordEnd(code string, j int) int {
	for j < len(code) {
		r, size := utf8.DecodeRuneInString(code[j:])
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		j += size
	}
	return j
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

// stringEnd returns the end of the string literal starting at i.
func stringEnd(spec *langSpec, code string, i int) int {
	q := code[i]
	if spec.tripleQuotes && i+2 < len(code) && code[i+1] == q && code[i+2] == q {
		triple := code[i : i+3]
		j := strings.Index(code[i+3:], triple)
		if j < 0 {
			return len(code)
		}
		return i + 3 + j + 3
	}
	for j := i + 1; j < len(code); j++ {
		switch code[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case '\n':
			if q != '`' {
				return j
			}
		case q:
			return j + 1
		}
	}
	return len(code)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isWordStart(code string, i int) bool {
	c := code[i]
	if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		return true
	}
	if c < 0x80 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(code[i:])
	return unicode.IsLetter(r)
}

// wordKind classifies the identifier code[i:j].
func wordKind(spec *langSpec, code string, i, j int) Kind {
	w := code[i:j]
	if spec.foldCase {
		w = strings.ToLower(w)
	}
	switch {
	case has(spec.keywords, w):
		return Keyword
	case has(spec.constants, w):
		return Number
	case has(spec.types, w):
		return Type
	}
	k := j
	for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
		k++
	}
	if k < len(code) && code[k] == '(' {
		return Function
	}
	return Plain
}

// Fast reports whether lang is lexed by the native lexer, whose cost is a
// linear pass with no start-up; other languages pay for chroma.
func Fast(lang string) bool {
	return nativeSpec(lang) != nil
}
