package highlight

import (
	"fmt"
	"strings"
	"testing"
)

// TestCommonLanguages lexes a sample of every language commonly fenced in
// READMEs and notes, by each of the names people write, and checks that
// its keywords, strings, comments, numbers and types get their kinds.
func TestCommonLanguages(t *testing.T) {
	type want = map[string]Kind
	for _, tc := range []struct {
		langs string // names, space-separated; the first is checked with want, all with Supported
		code  string
		want  want
	}{
		{"go golang Go", "func main() { x := 42 // c\n\treturn \"s\" }", want{"func": Keyword, "42": Number, "// c": Comment, `"s"`: String, "main": Function}},
		{"python py python3 Python", "def f(x):\n    return 'a'  # c\n@cache\nclass A: pass", want{"def": Keyword, "'a'": String, "# c": Comment, "class": Keyword}},
		{"js javascript jsx mjs cjs", "const f = async () => { return `t` } // c", want{"const": Keyword, "async": Keyword, "`t`": String, "// c": Comment}},
		{"ts typescript tsx", "interface P { name: string }\nlet n: number = 1", want{"interface": Keyword, "string": Type, "number": Type, "1": Number}},
		{"json", `{"a": [1, true, null]}`, want{`"a"`: String, "1": Number, "true": Number, "null": Number}},
		{"jsonc json5", "{\n  // c\n  \"a\": 1, /* b */\n}", want{"// c": Comment, "/* b */": Comment, `"a"`: String, "1": Number}},
		{"yaml yml", "key: value # c\nn: 3\nlist:\n  - 'q'\n  - true\nanchor: &a x\ntext: |\n  block line\n  more\nnext: 1.5", want{"key": Keyword, "value": String, "# c": Comment, "3": Number, "'q'": String, "true": Number, "&a": Type, "block line": String, "more": String, "next": Keyword, "1.5": Number}},
		{"toml", "# c\n[package]\nname = \"markii\"\nversion = 2\nfast = true\n[[bin]]", want{"# c": Comment, "[package]": Keyword, "name": Type, `"markii"`: String, "2": Number, "true": Number, "[[bin]]": Keyword}},
		{"ini cfg dosini properties", "; c\n[core]\neditor = vim\n# d", want{"; c": Comment, "[core]": Keyword, "editor": Type, "=": Operator, "vim": String, "# d": Comment}},
		{"sh bash shell zsh ksh", "if [ -f x ]; then echo \"$HOME\"; fi # c", want{"if": Keyword, "then": Keyword, "echo": Type, `"$HOME"`: String, "# c": Comment}},
		{"console shell-session", "$ go build ./...\nok  output line\nuser@host:~/x$ ls -la \\\n  /tmp\n# apt-get install hyperfine", want{"$": Operator, "go": Type, "ok  output line": Plain, "user@host:~/x$": Operator, "ls": Type, "#": Operator}},
		{"fish", "function greet\n    set -l name $argv[1] # c\n    echo \"hi $name\"\nend", want{"function": Keyword, "set": Keyword, "# c": Comment, "echo": Type, "end": Keyword}},
		{"powershell pwsh ps1", "function Get-X { param($Path) # c\n  if ($true) { Write-Host \"hi\" } }", want{"function": Keyword, "param": Keyword, "# c": Comment, "$true": Number, "Write-Host": Type, `"hi"`: String}},
		{"c h", "#include <stdio.h>\nint main(void) { return 0; } /* c */", want{"#include": Keyword, "int": Type, "main": Function, "0": Number, "/* c */": Comment}},
		{"cpp c++ cc cxx hpp", "template <typename T> class A { std::vector<int> v; }; // c", want{"template": Keyword, "typename": Keyword, "class": Keyword, "vector": Type, "// c": Comment}},
		{"csharp c# cs C#", "using System;\npublic class A { public static void Main() { var s = \"x\"; } } // c", want{"using": Keyword, "public": Keyword, "class": Keyword, "void": Type, "Main": Function, `"x"`: String, "// c": Comment, "System": Type}},
		{"java", "public class A { @Override public String toString() { return null; } }", want{"public": Keyword, "class": Keyword, "String": Type, "null": Number}},
		{"kotlin kt kts", "@JvmStatic fun main() { val s: String = \"x\" } // c", want{"@JvmStatic": Function, "fun": Keyword, "val": Keyword, "String": Type, `"x"`: String, "// c": Comment}},
		{"swift", "import UIKit\nstruct P { let x: Int = 1 } // c", want{"import": Keyword, "struct": Keyword, "let": Keyword, "Int": Type, "1": Number, "// c": Comment}},
		{"rust rs", "fn main() { let v: Vec<u8> = vec![]; } // c", want{"fn": Keyword, "let": Keyword, "Vec": Type, "u8": Type, "// c": Comment}},
		{"ruby rb", "class A\n  def f(x) = x * 2 # c\n  @name = :sym\nend", want{"class": Keyword, "def": Keyword, "# c": Comment, "2": Number, ":sym": String, "end": Keyword, "A": Type}},
		{"php", "<?php\nfunction f($x) { return $x . 'a'; } // c", want{"php": Keyword, "function": Keyword, "return": Keyword, "'a'": String, "// c": Comment}},
		{"sql mysql postgresql", "SELECT name FROM users WHERE id = 1; -- c", want{"SELECT": Keyword, "FROM": Keyword, "WHERE": Keyword, "1": Number, "-- c": Comment}},
		{"lua", "local function f() return \"s\" end -- c", want{"local": Keyword, "function": Keyword, `"s"`: String, "-- c": Comment}},
		{"html htm xhtml", "<!-- c -->\n<a href=\"x\" hidden>t &amp;</a>", want{"<!-- c -->": Comment, "a": Keyword, "href": Type, `"x"`: String, "hidden": Type, "&amp;": Number}},
		{"xml svg", "<?xml version=\"1.0\"?>\n<svg width='10'><![CDATA[raw]]></svg>", want{"<?xml version=\"1.0\"?>": Keyword, "svg": Keyword, "width": Type, "'10'": String, "<![CDATA[raw]]>": String}},
		{"css", "/* c */\na.btn:hover, #id { color: #fff; margin: 0 4px !important; }\n@media (max-width: 600px) {}", want{"/* c */": Comment, "a": Keyword, ".btn": Type, ":hover": Function, "#id": Type, "color": Type, "#fff": Number, "4px": Number, "!important": Keyword, "@media": Keyword}},
		{"scss less", "$c: red; // c\n.a { &:hover { color: darken($c, 10%); } }", want{"// c": Comment, ".a": Type, ":hover": Function, "color": Type, "darken": Function, "10%": Number}},
		{"diff patch", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same", want{"diff --git a/x b/x": Heading, "--- a/x": Deleted, "+++ b/x": Inserted, "@@ -1 +1 @@": Heading, "-old": Deleted, "+new": Inserted, "same": Plain}},
		{"dockerfile docker", "# c\nFROM golang:1.26 AS build\nRUN go build \\\n    -o /x . && echo \"ok\"\nCOPY . .", want{"# c": Comment, "FROM": Keyword, "RUN": Keyword, "COPY": Keyword, "go": Type, `"ok"`: String}},
		{"makefile make mk", "# c\nCC := gcc\nall: main.o\n\t$(CC) -o x main.o # build\n.PHONY: clean\nifeq ($(X),1)\nendif", want{"# c": Comment, "CC": Type, "all": Function, ".PHONY": Function, "# build": Comment, "ifeq": Keyword, "endif": Keyword}},
		{"haskell hs", "module Main where\n-- c\nmain :: IO ()\nmain = putStrLn \"hi\" {- b -}", want{"module": Keyword, "where": Keyword, "-- c": Comment, "IO": Type, `"hi"`: String, "{- b -}": Comment}},
		{"elixir ex exs", "defmodule M do\n  @doc \"x\"\n  def f(:a), do: 1 # c\nend", want{"defmodule": Keyword, "M": Type, "@doc": Function, `"x"`: String, "def": Keyword, ":a": String, "1": Number, "# c": Comment, "end": Keyword}},
		{"erlang erl", "-module(m).\nf(X) when X > 0 -> {ok, \"s\"}; % c\nf(_) -> case 1 of _ -> ok end.", want{"when": Keyword, `"s"`: String, "% c": Comment, "case": Keyword, "end": Keyword}},
		{"scala", "object Main extends App { def f(x: Int): String = \"s\" } // c", want{"object": Keyword, "extends": Keyword, "def": Keyword, "Int": Type, "String": Type, `"s"`: String, "// c": Comment}},
		{"r R", "f <- function(x) { if (is.na(x)) NULL else x + 1 } # c", want{"function": Keyword, "if": Keyword, "NULL": Number, "1": Number, "# c": Comment, "is.na": Function}},
		{"perl pl", "use strict;\nmy $x = 'a'; # c\nsub f { return @_ }", want{"use": Keyword, "my": Keyword, "'a'": String, "# c": Comment, "sub": Keyword}},
		{"dart", "void main() { final x = 'a'; List<int> l = []; } // c", want{"void": Type, "final": Keyword, "'a'": String, "List": Type, "int": Type, "// c": Comment}},
		{"zig", "const std = @import(\"std\");\npub fn main() void {} // c", want{"const": Keyword, "@import": Function, `"std"`: String, "pub": Keyword, "fn": Keyword, "void": Type, "// c": Comment}},
		{"nix", "{ pkgs ? import <nixpkgs> {} }: # c\nlet x = ''\n  text\n''; in y", want{"import": Type, "# c": Comment, "let": Keyword, "x": Type, "''\n  text\n''": String, "in": Keyword}},
		{"hcl terraform tf", "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\" # c\n  count = 2\n}", want{"resource": Keyword, `"aws_s3_bucket"`: String, "bucket": Type, "# c": Comment, "2": Number}},
		{"protobuf proto", "syntax = \"proto3\";\nmessage Person { string name = 1; } // c", want{"syntax": Keyword, `"proto3"`: String, "message": Keyword, "Person": Type, "string": Type, "1": Number, "// c": Comment}},
		{"graphql gql", "query Q($id: ID!) { user(id: $id) @include(if: true) { name } } # c", want{"query": Keyword, "ID": Type, "@include": Function, "true": Number, "# c": Comment}},
		{"vim vimscript viml", "\" c\nset number\nlet g:x = 'a'\nfunction! F()\nendfunction", want{"\" c": Comment, "set": Keyword, "let": Keyword, "'a'": String, "function": Keyword, "endfunction": Keyword}},
		{"ocaml ml", "let rec f x = match x with | Some y -> \"s\" | None -> 0 (* c *)", want{"let": Keyword, "rec": Keyword, "match": Keyword, "with": Keyword, "Some": Type, `"s"`: String, "0": Number, "(* c *)": Comment}},
		{"clojure clj cljs edn", "(defn greet [name] ; c\n  (str \"hi \" name :k))", want{"defn": Keyword, "; c": Comment, "str": Function, `"hi "`: String, ":k": String}},
		{"elm", "module Main exposing (main)\nimport Html\nmain = Html.text \"hi\" -- c", want{"module": Keyword, "exposing": Keyword, "import": Keyword, "Html": Type, `"hi"`: String, "-- c": Comment}},
		{"markdown md", "# Title\n\nSome `code` here.\n- item\n> quote\n```go\nx := 1\n```", want{"# Title": Heading, "`code`": String, "-": Operator, "> quote": Comment, "```go": String, "x := 1": String}},
	} {
		names := strings.Fields(tc.langs)
		for _, lang := range names {
			if !Supported(lang) {
				t.Errorf("Supported(%q) is false", lang)
			}
		}
		lang := names[0]
		toks, ok := Tokens(lang, tc.code)
		if !ok || joined(toks) != tc.code {
			t.Errorf("%s: ok %v, tokens give back %q", lang, ok, joined(toks))
			continue
		}
		got := kinds(toks)
		for text, k := range tc.want {
			if got[text] != k {
				t.Errorf("%s: %q is kind %d, want %d\n%s", lang, text, got[text], k, dump(toks))
			}
		}
	}
}

// dump shows tokens one a line, for a failing test.
func dump(toks []Token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString("  ")
		b.WriteByte("PKSNCFTOIDH"[t.Kind])
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(t.Text, "\n", `\n`))
		b.WriteString("\n")
	}
	return b.String()
}

// hostileInputs are openings left unclosed, runs of one character and
// nests that a backtracking or rescanning lexer pays for quadratically.
var hostileInputs = []string{
	"\"", "'", "`", "/*", "<!--", "<", "<a ", "[", "{", "(", "$", "@", "#", "-", "--", "+", ":", "a:", "- ",
	"&", "<<", "\\", "\"\"\"", "''", "x = ", "a\t", "# ", "$ ", "\t", " ", "`x", "<script>", "<style>", "a{b:",
	"#!", "é", "\xff",
}

// BenchmarkHostile lexes each hostile input repeated to 4 KB and to 64 KB
// in every language: compare the ns/B of the two sizes (every scan of the
// lexer either consumes what it reads or is bounded by a constant, so the
// cost per byte stays flat but for the garbage collector's share).
func BenchmarkHostile(b *testing.B) {
	for _, size := range []int{4 << 10, 64 << 10} {
		b.Run(fmt.Sprint(size>>10, "KB"), func(b *testing.B) {
			var codes []string
			for _, in := range hostileInputs {
				codes = append(codes, strings.Repeat(in, size/len(in)))
			}
			seen := map[*langSpec]bool{}
			var langs []string
			for _, a := range nativeLangs {
				if !seen[a.spec] {
					seen[a.spec] = true
					langs = append(langs, a.name)
				}
			}
			b.SetBytes(int64(size * len(codes) * len(langs)))
			for b.Loop() {
				for _, lang := range langs {
					for _, code := range codes {
						Tokens(lang, code)
					}
				}
			}
		})
	}
}

// FuzzTokens checks every language gives back exactly its input, in
// tokens no two neighbours of which share a kind.
func FuzzTokens(f *testing.F) {
	for _, in := range hostileInputs {
		f.Add(in)
	}
	f.Add("key: |\n  x\n- [a, {b: 1}]\n")
	f.Add("$ echo hi \\\n  there\noutput\n")
	f.Add("<a href=x>&amp;</a><script>var x</script><style>a{b:c}</style>")
	f.Fuzz(func(t *testing.T, code string) {
		seen := map[*langSpec]bool{}
		for _, a := range nativeLangs {
			if seen[a.spec] {
				continue
			}
			seen[a.spec] = true
			toks, ok := Tokens(a.name, code)
			if !ok || joined(toks) != code {
				t.Fatalf("%s %q: ok %v, got %q", a.name, code, ok, joined(toks))
			}
			for i := range toks {
				if toks[i].Text == "" || i > 0 && toks[i].Kind == toks[i-1].Kind {
					t.Fatalf("%s %q: empty or unjoined tokens: %+v", a.name, code, toks)
				}
			}
		}
	})
}
