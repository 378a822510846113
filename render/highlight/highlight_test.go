package highlight

import (
	"strings"
	"sync"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// joined returns the concatenated token text.
func joined(toks []Token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.Text)
	}
	return b.String()
}

// kinds maps each token's trimmed text to its kind.
func kinds(toks []Token) map[string]Kind {
	m := map[string]Kind{}
	for _, t := range toks {
		m[strings.TrimSpace(t.Text)] = t.Kind
	}
	return m
}

func TestTokensLanguages(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		want       map[string]Kind
	}{
		{"go", "func main() {\n\treturn \"hi\" // done\n}", map[string]Kind{"func": Keyword, "main": Function, `"hi"`: String, "// done": Comment}},
		{"Golang", "x := 42", map[string]Kind{"42": Number}},
		{"python", "def f(x):\n    return 'a'  # c", map[string]Kind{"def": Keyword, "'a'": String, "# c": Comment}},
		{"lua", "local x = 1 -- note", map[string]Kind{"local": Keyword, "1": Number, "-- note": Comment}},
		{"js", "const s = `t`;", map[string]Kind{"const": Keyword}},
		{"json", `{"a": 1}`, map[string]Kind{"1": Number}},
		{"yaml", "key: value # c\nn: 3", map[string]Kind{"key": Keyword, "value": String, "# c": Comment, "3": Number}},
		{"diff", "+added\n-removed", map[string]Kind{"+added": Inserted, "-removed": Deleted}},
		{"sh", "echo \"$HOME\"", map[string]Kind{"echo": Type}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			toks, ok := Tokens(tc.lang, tc.code)
			if !ok {
				t.Fatalf("no lexer for %s", tc.lang)
			}
			if joined(toks) != tc.code {
				t.Fatalf("tokens changed the text: %q", joined(toks))
			}
			got := kinds(toks)
			for text, k := range tc.want {
				if got[text] != k {
					t.Errorf("%q is kind %d, want %d (tokens %+v)", text, got[text], k, toks)
				}
			}
		})
	}
}

// TestTokensDelegation checks a lexer that hands parts of its input to
// other lexers (HTML to CSS and JavaScript) loads them.
func TestTokensDelegation(t *testing.T) {
	code := "<style>p { color: red; }</style><script>var x = 1;</script>"
	toks, ok := Tokens("html", code)
	if !ok || joined(toks) != code {
		t.Fatalf("html: ok %v tokens %+v", ok, toks)
	}
	if kinds(toks)["var"] != Keyword {
		t.Fatalf("script body not lexed as JavaScript: %+v", toks)
	}
}

func TestTokensUnknownLanguage(t *testing.T) {
	for _, lang := range []string{"", "klingon", "../../etc/passwd", "go/../python", "cmake", strings.Repeat("go", 100)} {
		if toks, ok := Tokens(lang, "x"); ok || toks != nil {
			t.Errorf("Tokens(%q) = %v, %v", lang, toks, ok)
		}
		if Supported(lang) {
			t.Errorf("Supported(%q)", lang)
		}
	}
}

func TestTokensConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, lang := range []string{"rust", "c", "yaml", "go"} {
				if _, ok := Tokens(lang, "x: 1"); !ok {
					t.Errorf("%s failed", lang)
				}
			}
		}()
	}
	wg.Wait()
}

func TestNativeLexerCases(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		want       map[string]Kind
	}{
		{"python", "s = \"\"\"multi\nline\"\"\"\nx = None", map[string]Kind{"\"\"\"multi\nline\"\"\"": String, "None": Number}},
		{"lua", "--[[ block\ncomment ]] local t = {}", map[string]Kind{"--[[ block\ncomment ]]": Comment, "local": Keyword}},
		{"sql", "SELECT name FROM users WHERE id = 1", map[string]Kind{"SELECT": Keyword, "FROM": Keyword, "1": Number}},
		{"c", "#include <stdio.h>\nint main(void) { return 0; }", map[string]Kind{"#include": Keyword, "int": Type, "main": Function}},
		{"go", "s := \"unterminated\nnext", map[string]Kind{"\"unterminated": String, "next": Plain}},
		{"go", "r := `raw\nstring` + 'c' + 0x1F + 1.5e3", map[string]Kind{"`raw\nstring`": String, "'c'": String, "0x1F": Number, "1.5e3": Number}},
		{"js", "const x = a => a /* c */ + 1", map[string]Kind{"/* c */": Comment, "=>": Operator}},
		{"rust", "fn main() { let v: Vec<u8> = vec![]; }", map[string]Kind{"fn": Keyword, "Vec": Type, "u8": Type}},
		{"go", "名前 := \"日本\" // コメント", map[string]Kind{"名前": Plain, "\"日本\"": String, "// コメント": Comment}},
	} {
		toks, ok := Tokens(tc.lang, tc.code)
		if !ok || joined(toks) != tc.code {
			t.Fatalf("%s %q: ok %v, text %q", tc.lang, tc.code, ok, joined(toks))
		}
		got := kinds(toks)
		for text, k := range tc.want {
			if got[text] != k {
				t.Errorf("%s: %q is kind %d, want %d (tokens %+v)", tc.lang, text, got[text], k, toks)
			}
		}
	}
}

// TestNativeLexerKeepsText feeds every native language hostile input and
// checks the tokens are exactly the input, in order.
func TestNativeLexerKeepsText(t *testing.T) {
	inputs := []string{
		"", "\"", "'", "`", "/*", "--[[", "\"\"\"", "\\", "a\\", "\"\\", "1.", ".5", "#", "é", "\xff\xfe",
		"x = \"a\\\"b\" /* c */ // d\n# e\n-- f\n'g'",
		strings.Repeat("(\"", 100),
	}
	for _, a := range nativeLangs {
		lang := a.name
		for _, in := range inputs {
			toks, ok := Tokens(lang, in)
			if !ok || joined(toks) != in {
				t.Fatalf("%s %q: ok %v, got %q", lang, in, ok, joined(toks))
			}
			for i := 1; i < len(toks); i++ {
				if toks[i].Kind == toks[i-1].Kind {
					t.Fatalf("%s %q: adjacent tokens of one kind not joined: %+v", lang, in, toks)
				}
			}
		}
	}
}

// BenchmarkNative lexes 6 KB of Go.
func BenchmarkNative(b *testing.B) {
	code := strings.Repeat("func f1(x int) int {\n    return x * 1 // comment\n}\n", 120)
	b.SetBytes(int64(len(code)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Tokens("go", code)
	}
}

func TestInterpreterLineIsComment(t *testing.T) {
	for _, lang := range []string{"sh", "js", "lua", "python", "ruby", "go"} {
		for _, code := range []string{"#!/usr/bin/env x\nrun()\n", "#!/bin/sh"} {
			toks, ok := Tokens(lang, code)
			if !ok || len(toks) == 0 {
				t.Fatalf("%s: no tokens", lang)
			}
			first := strings.SplitN(code, "\n", 2)[0]
			if toks[0].Kind != Comment || toks[0].Text != first {
				t.Errorf("%s: first token %+v, want the comment %q", lang, toks[0], first)
			}
			var all strings.Builder
			for _, tk := range toks {
				all.WriteString(tk.Text)
			}
			if all.String() != code {
				t.Errorf("%s: tokens give back %q, want %q", lang, all.String(), code)
			}
		}
	}
	if _, ok := Tokens("no-such-language", "#!/bin/sh\nx"); ok {
		t.Error("an unknown language with an interpreter line was highlighted")
	}
}

// TestAliasTablesSorted keeps the native alias table sorted and unique, which
// their binary search needs, and every alias lowercase.
func TestAliasTablesSorted(t *testing.T) {
	var native []string
	for _, a := range nativeLangs {
		native = append(native, a.name)
	}
	for i, n := range native {
		if n != strings.ToLower(n) {
			t.Errorf("alias %q is not lowercase", n)
		}
		if i > 0 && native[i-1] >= n {
			t.Errorf("aliases %q and %q are out of order or repeated", native[i-1], n)
		}
	}
	for _, lang := range []string{"Go", "PYTHON", "Yaml", "C++"} {
		if !Supported(lang) {
			t.Errorf("Supported(%q) is false", lang)
		}
	}
}

// TestWordListsSorted keeps every native word list sorted and unique, as
// its binary search needs, and lowercase where the language folds case.
func TestWordListsSorted(t *testing.T) {
	for _, a := range nativeLangs {
		spec := a.spec
		for _, list := range [][]string{spec.keywords, spec.types, spec.constants} {
			for i, w := range list {
				if i > 0 && list[i-1] >= w {
					t.Errorf("%s: words %q and %q are out of order or repeated", a.name, list[i-1], w)
				}
				if spec.foldCase && w != strings.ToLower(w) {
					t.Errorf("%s: %q is not lowercase in a case-folding language", a.name, w)
				}
			}
		}
	}
	for _, tc := range []struct {
		lang, code, word string
		want             Kind
	}{
		{"java", "while (x) {}", "while", Keyword},
		{"cpp", "constexpr int x;", "constexpr", Keyword},
		{"cpp", "constexpr int x;", "int", Type},
		{"sql", "Select COUNT(*) from t where x is NULL", "Select", Keyword},
		{"sql", "Select COUNT(*) from t where x is NULL", "COUNT", Type},
		{"sql", "Select COUNT(*) from t where x is NULL", "NULL", Number},
		{"python", `x = '''a''' + """b""" + None`, `'''a'''`, String},
		{"python", `x = '''a''' + """b""" + None`, `"""b"""`, String},
		{"python", `x = '''a''' + """b""" + None`, "None", Number},
		{"python", "s = ''", "''", String},
	} {
		toks, _ := Tokens(tc.lang, tc.code)
		if got := kinds(toks)[tc.word]; got != tc.want {
			t.Errorf("%s %q: %q is kind %d, want %d", tc.lang, tc.code, tc.word, got, tc.want)
		}
	}
}
