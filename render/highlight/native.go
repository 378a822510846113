package highlight

import (
	"strings"
	"sync"
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
	// keywords, types and constants are space-separated word lists.
	keywords, types, constants string

	once                 sync.Once
	kw, typ, constantSet map[string]bool
}

func words(s string, fold bool) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		if fold {
			w = strings.ToLower(w)
		}
		m[w] = true
	}
	return m
}

func (s *langSpec) load() {
	s.once.Do(func() {
		s.kw = words(s.keywords, s.foldCase)
		s.typ = words(s.types, s.foldCase)
		s.constantSet = words(s.constants, s.foldCase)
	})
}

var (
	cLike = "break case continue default do else for goto if return switch while"

	goSpec = &langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'`",
		keywords:  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var",
		types:     "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable",
		constants: "true false nil iota",
	}
	pythonSpec = &langSpec{
		lineComments: []string{"#"}, quotes: "\"'", tripleQuotes: true,
		keywords:  "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case",
		types:     "int float str bool list dict set tuple bytes object type self cls print len range open super isinstance enumerate zip map filter",
		constants: "True False None",
	}
	jsSpec = &langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'`",
		keywords:  "async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield as implements interface package private protected public type enum declare namespace readonly abstract keyof",
		types:     "string number boolean any unknown never void object Array Object String Number Boolean Promise Map Set Date Error JSON Math console",
		constants: "true false null undefined NaN Infinity",
	}
	luaSpec = &langSpec{
		lineComments: []string{"--"}, blockOpen: "--[[", blockClose: "]]", quotes: "\"'",
		keywords:  "and break do else elseif end for function goto if in local not or repeat return then until while",
		types:     "string table math os io json net doc cache require pairs ipairs tostring tonumber type pcall error select unpack",
		constants: "true false nil",
	}
	rustSpec = &langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"",
		keywords:  "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while",
		types:     "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result Box",
		constants: "true false None Some Ok Err",
	}
	cSpec = &langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
		keywords:  cLike + " sizeof typedef struct union enum static extern const volatile register inline restrict #include #define #if #ifdef #ifndef #endif #else #pragma",
		types:     "int char short long float double void unsigned signed bool size_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t FILE",
		constants: "NULL true false",
	}
	cppSpec = &langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
		keywords:  cLike + " sizeof typedef struct union enum static extern const volatile inline class namespace template typename public private protected virtual override final using new delete try catch throw auto constexpr noexcept operator this friend explicit mutable #include #define #if #ifdef #ifndef #endif #else #pragma",
		types:     "int char short long float double void unsigned signed bool size_t string vector map set unique_ptr shared_ptr std",
		constants: "NULL nullptr true false",
	}
	javaSpec = &langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
		keywords:  cLike + " abstract assert catch class extends final finally implements import instanceof interface native new package private protected public static super synchronized this throw throws transient try var volatile record sealed permits yield using namespace override virtual readonly async await",
		types:     "boolean byte char double float int long short void String Object Integer List Map string bool var",
		constants: "true false null",
	}
	shSpec = &langSpec{
		lineComments: []string{"#"}, quotes: "\"'",
		keywords:  "if then else elif fi for while until do done case esac in function return exit export local readonly select time",
		types:     "echo printf cd ls cat grep sed awk test read set unset source alias eval exec trap shift mkdir rm cp mv curl git go make sudo chmod",
		constants: "true false",
	}
	sqlSpec = &langSpec{
		lineComments: []string{"--"}, blockOpen: "/*", blockClose: "*/", quotes: "'\"", foldCase: true,
		keywords:  "select from where and or not insert into values update set delete create table drop alter add index view join inner left right outer full on as group by order having limit offset union all distinct case when then else end is in like between exists primary key foreign references default unique with returning asc desc",
		types:     "int integer bigint smallint text varchar char boolean date timestamp real float double numeric decimal blob serial count sum avg min max",
		constants: "null true false",
	}
	jsonSpec = &langSpec{
		quotes:    "\"",
		constants: "true false null",
	}
)

// nativeLangs maps a lowercase language name to its native spec.
var nativeLangs = map[string]*langSpec{
	"go": goSpec, "golang": goSpec,
	"python": pythonSpec, "py": pythonSpec, "python3": pythonSpec, "py3": pythonSpec,
	"js": jsSpec, "javascript": jsSpec, "jsx": jsSpec, "mjs": jsSpec, "cjs": jsSpec,
	"ts": jsSpec, "typescript": jsSpec, "tsx": jsSpec,
	"lua":  luaSpec,
	"rust": rustSpec, "rs": rustSpec,
	"c": cSpec, "h": cSpec,
	"cpp": cppSpec, "c++": cppSpec, "cc": cppSpec, "cxx": cppSpec, "hpp": cppSpec,
	"java": javaSpec, "csharp": javaSpec, "c#": javaSpec, "cs": javaSpec, "kotlin": javaSpec, "kt": javaSpec,
	"sh": shSpec, "bash": shSpec, "shell": shSpec, "zsh": shSpec, "ksh": shSpec, "console": shSpec,
	"sql":  sqlSpec,
	"json": jsonSpec, "jsonl": jsonSpec, "jsonc": jsonSpec,
}

// lexNative splits code into tokens with spec in one pass. Every token is
// a substring of code and together they are exactly code.
func lexNative(spec *langSpec, code string) []Token {
	spec.load()
	var out []Token
	emit := func(k Kind, start, end int) {
		if end <= start {
			return
		}
		if n := len(out); n > 0 && out[n-1].Kind == k {
			// Tokens are consecutive, so the previous one ends at start.
			prev := len(out[n-1].Text)
			out[n-1].Text = code[start-prev : end]
			return
		}
		out = append(out, Token{Kind: k, Text: code[start:end]})
	}
	i := 0
	for i < len(code) {
		c := code[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j := i + 1
			for j < len(code) && (code[j] == ' ' || code[j] == '\t' || code[j] == '\n' || code[j] == '\r') {
				j++
			}
			emit(Plain, i, j)
			i = j
			continue
		case spec.blockOpen != "" && strings.HasPrefix(code[i:], spec.blockOpen):
			j := strings.Index(code[i+len(spec.blockOpen):], spec.blockClose)
			end := len(code)
			if j >= 0 {
				end = i + len(spec.blockOpen) + j + len(spec.blockClose)
			}
			emit(Comment, i, end)
			i = end
			continue
		}
		if lc := lineComment(spec, code[i:]); lc {
			j := strings.IndexByte(code[i:], '\n')
			end := len(code)
			if j >= 0 {
				end = i + j
			}
			emit(Comment, i, end)
			i = end
			continue
		}
		switch {
		case strings.IndexByte(spec.quotes, c) >= 0:
			end := stringEnd(spec, code, i)
			emit(String, i, end)
			i = end
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(code) && code[i+1] >= '0' && code[i+1] <= '9':
			j := i + 1
			for j < len(code) && (isWordByte(code[j]) || code[j] == '.' && j+1 < len(code) && code[j+1] >= '0' && code[j+1] <= '9') {
				j++
			}
			emit(Number, i, j)
			i = j
		case isWordStart(code, i) || c == '#' && spec == cSpec || c == '#' && spec == cppSpec:
			j := i + 1
			for j < len(code) {
				r, size := utf8.DecodeRuneInString(code[j:])
				if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				j += size
			}
			emit(wordKind(spec, code, i, j), i, j)
			i = j
		case strings.IndexByte("+-*/%=<>!&|^~?:", c) >= 0:
			emit(Operator, i, i+1)
			i++
		default:
			_, size := utf8.DecodeRuneInString(code[i:])
			emit(Plain, i, i+size)
			i += size
		}
	}
	return out
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
	if spec.tripleQuotes && strings.HasPrefix(code[i:], strings.Repeat(string(q), 3)) {
		j := strings.Index(code[i+3:], strings.Repeat(string(q), 3))
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
	case spec.kw[w]:
		return Keyword
	case spec.constantSet[w]:
		return Number
	case spec.typ[w]:
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
	_, ok := nativeLangs[strings.ToLower(lang)]
	return ok
}
