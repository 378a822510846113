package highlight

import (
	"slices"
	"strings"
)

// The languages beyond the original few: tables for the table-driven
// lexer, and line or tag lexers (lines.go, markup.go) for the languages
// whose structure is in their lines or tags. Word lists are sorted by
// byte (TestWordListsSorted) and, where a language folds case, lowercase.

var (
	// jsoncSpec: JSON with comments (and JSON5's single quotes).
	jsoncSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'",
		constants: []string{
			"Infinity", "NaN", "false", "null", "true",
		},
	}
	// tomlSpec: TOML: [tables], keys, """ strings.
	tomlSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", tripleQuotes: true, sections: true, assignKeys: true, identExtra: "-",
		constants: []string{
			"false", "inf", "nan", "true",
		},
	}
	// fishSpec: the fish shell.
	fishSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", sigils: "$",
		keywords: []string{
			"and", "begin", "break", "case", "continue", "else", "end", "for", "function", "if", "in",
			"not", "or", "return", "set", "switch", "while",
		},
		types: []string{
			"abbr", "alias", "argparse", "cat", "cd", "contains", "count", "cp", "curl", "echo",
			"functions", "git", "grep", "ls", "mkdir", "mv", "printf", "read", "rm", "sed", "status",
			"string", "sudo", "test",
		},
		constants: []string{
			"false", "true",
		},
	}
	// powershellSpec: PowerShell (its words ignore case).
	powershellSpec = langSpec{
		lineComments: []string{"#"}, blockOpen: "<#", blockClose: "#>", quotes: "\"'", sigils: "$", identExtra: "-", foldCase: true,
		keywords: []string{
			"begin", "break", "catch", "class", "continue", "data", "do", "dynamicparam", "else",
			"elseif", "end", "enum", "exit", "filter", "finally", "for", "foreach", "function", "if",
			"in", "param", "process", "return", "switch", "throw", "trap", "try", "until", "using",
			"while", "workflow",
		},
		types: []string{
			"foreach-object", "get-childitem", "get-content", "get-item", "import-module",
			"invoke-webrequest", "new-item", "new-object", "out-file", "remove-item", "select-object",
			"set-content", "set-location", "start-process", "where-object", "write-error",
			"write-host", "write-output", "write-verbose",
		},
		constants: []string{
			"$false", "$null", "$true",
		},
	}
	// csharpSpec: C#.
	csharpSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", hashWords: true, capsTypes: true,
		keywords: []string{
			"#define", "#elif", "#else", "#endif", "#endregion", "#if", "#nullable", "#pragma",
			"#region", "abstract", "as", "async", "await", "base", "break", "case", "catch", "checked",
			"class", "const", "continue", "default", "delegate", "do", "else", "enum", "event",
			"explicit", "extern", "finally", "fixed", "for", "foreach", "get", "goto", "if",
			"implicit", "in", "init", "interface", "internal", "is", "lock", "namespace", "new",
			"operator", "out", "override", "params", "partial", "private", "protected", "public",
			"readonly", "record", "ref", "required", "return", "sealed", "set", "sizeof", "stackalloc",
			"static", "struct", "switch", "this", "throw", "try", "typeof", "unchecked", "unsafe",
			"using", "var", "virtual", "volatile", "when", "where", "while", "with", "yield",
		},
		types: []string{
			"bool", "byte", "char", "decimal", "double", "dynamic", "float", "int", "long", "nint",
			"nuint", "object", "sbyte", "short", "string", "uint", "ulong", "ushort", "void",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// kotlinSpec: Kotlin.
	kotlinSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", tripleQuotes: true, annotation: '@', capsTypes: true,
		keywords: []string{
			"abstract", "as", "break", "by", "catch", "class", "companion", "const", "constructor",
			"continue", "crossinline", "data", "do", "else", "enum", "external", "final", "finally",
			"for", "fun", "get", "if", "import", "in", "infix", "init", "inline", "inner", "interface",
			"internal", "is", "lateinit", "noinline", "object", "open", "operator", "out", "override",
			"package", "private", "protected", "public", "reified", "return", "sealed", "set", "super",
			"suspend", "tailrec", "this", "throw", "try", "typealias", "val", "var", "vararg",
			"when", "where", "while",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// swiftSpec: Swift.
	swiftSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"", tripleQuotes: true, annotation: '@', hashWords: true, capsTypes: true,
		keywords: []string{
			"#available", "#else", "#endif", "#if", "#selector", "Self", "actor", "any", "as",
			"associatedtype", "async", "await", "break", "case", "catch", "class", "continue",
			"convenience", "default", "defer", "deinit", "do", "else", "enum", "extension",
			"fallthrough", "fileprivate", "final", "for", "func", "guard", "if", "import", "in",
			"indirect", "init", "inout", "internal", "is", "lazy", "let", "mutating", "nonisolated",
			"open", "operator", "override", "private", "protocol", "public", "repeat", "required",
			"rethrows", "return", "self", "some", "static", "struct", "subscript", "super", "switch",
			"throw", "throws", "try", "typealias", "var", "weak", "where", "while",
		},
		constants: []string{
			"false", "nil", "true",
		},
	}
	// scalaSpec: Scala.
	scalaSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"", tripleQuotes: true, annotation: '@', capsTypes: true,
		keywords: []string{
			"abstract", "case", "catch", "class", "def", "do", "else", "enum", "export", "extends",
			"final", "finally", "for", "forSome", "given", "if", "implicit", "import", "lazy", "match",
			"new", "object", "override", "package", "private", "protected", "return", "sealed",
			"super", "then", "this", "throw", "trait", "try", "type", "using", "val", "var", "while",
			"with", "yield",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// dartSpec: Dart.
	dartSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", tripleQuotes: true, annotation: '@', capsTypes: true,
		keywords: []string{
			"abstract", "as", "assert", "async", "await", "base", "break", "case", "catch", "class",
			"const", "continue", "covariant", "default", "deferred", "do", "else", "enum", "export",
			"extends", "extension", "external", "factory", "final", "finally", "for", "get", "hide",
			"if", "implements", "import", "in", "interface", "is", "late", "library", "mixin", "new",
			"on", "operator", "part", "required", "rethrow", "return", "sealed", "set", "show",
			"static", "super", "switch", "sync", "this", "throw", "try", "typedef", "var", "when",
			"while", "with", "yield",
		},
		types: []string{
			"bool", "double", "dynamic", "int", "num", "void",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// rubySpec: Ruby.
	rubySpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'`", sigils: "@$", symbols: true, identExtra: "?!", capsTypes: true,
		keywords: []string{
			"BEGIN", "END", "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do",
			"else", "elsif", "end", "ensure", "for", "if", "in", "module", "next", "not", "or", "redo",
			"rescue", "retry", "return", "self", "super", "then", "undef", "unless", "until", "when",
			"while", "yield",
		},
		types: []string{
			"attr_accessor", "attr_reader", "attr_writer", "extend", "include", "lambda", "loop", "p",
			"private", "proc", "protected", "public", "puts", "raise", "require", "require_relative",
		},
		constants: []string{
			"false", "nil", "true",
		},
	}
	// phpSpec: PHP.
	phpSpec = langSpec{
		lineComments: []string{"//", "#"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", sigils: "$", capsTypes: true,
		keywords: []string{
			"abstract", "and", "array", "as", "break", "callable", "case", "catch", "class", "clone",
			"const", "continue", "declare", "default", "do", "echo", "else", "elseif", "empty",
			"enddeclare", "endfor", "endforeach", "endif", "endswitch", "endwhile", "enum", "extends",
			"final", "finally", "fn", "for", "foreach", "function", "global", "goto", "if",
			"implements", "include", "include_once", "instanceof", "insteadof", "interface", "isset",
			"list", "match", "namespace", "new", "or", "php", "print", "private", "protected",
			"public", "readonly", "require", "require_once", "return", "static", "switch", "throw",
			"trait", "try", "unset", "use", "var", "while", "xor", "yield",
		},
		types: []string{
			"bool", "float", "int", "iterable", "mixed", "never", "object", "string", "void",
		},
		constants: []string{
			"FALSE", "NULL", "TRUE", "false", "null", "true",
		},
	}
	// dockerSpec: Dockerfile: an instruction, then shell.
	dockerSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", foldCase: true, lex: lexDockerfile,
		keywords: []string{
			"add", "arg", "as", "cmd", "copy", "entrypoint", "env", "expose", "from", "healthcheck",
			"label", "maintainer", "onbuild", "run", "shell", "stopsignal", "user", "volume",
			"workdir",
		},
	}
	// makeSpec: make: targets, variables, recipes in shell.
	makeSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", identExtra: "-", assignKeys: true, lex: lexMakefile,
		keywords: []string{
			"-include", "define", "else", "endef", "endif", "export", "ifdef", "ifeq", "ifndef",
			"ifneq", "include", "override", "private", "sinclude", "undefine", "unexport", "vpath",
		},
		types: []string{
			"abspath", "addprefix", "addsuffix", "basename", "call", "dir", "error", "eval", "filter",
			"filter-out", "findstring", "firstword", "foreach", "info", "join", "lastword", "notdir",
			"origin", "patsubst", "realpath", "shell", "sort", "strip", "subst", "suffix", "warning",
			"wildcard", "word", "words",
		},
	}
	// haskellSpec: Haskell.
	haskellSpec = langSpec{
		lineComments: []string{"--"}, blockOpen: "{-", blockClose: "-}", quotes: "\"'", identExtra: "'", capsTypes: true,
		keywords: []string{
			"as", "case", "class", "data", "default", "deriving", "do", "else", "family", "forall",
			"foreign", "hiding", "if", "import", "in", "infix", "infixl", "infixr", "instance", "let",
			"module", "newtype", "of", "qualified", "then", "type", "where",
		},
		constants: []string{
			"False", "Nothing", "True",
		},
	}
	// elmSpec: Elm.
	elmSpec = langSpec{
		lineComments: []string{"--"}, blockOpen: "{-", blockClose: "-}", quotes: "\"'", tripleQuotes: true, capsTypes: true,
		keywords: []string{
			"alias", "as", "case", "else", "exposing", "if", "import", "in", "let", "module", "of",
			"port", "then", "type", "where",
		},
		constants: []string{
			"False", "Nothing", "True",
		},
	}
	// ocamlSpec: OCaml.
	ocamlSpec = langSpec{
		blockOpen: "(*", blockClose: "*)", quotes: "\"", identExtra: "'", capsTypes: true,
		keywords: []string{
			"and", "as", "assert", "begin", "class", "constraint", "do", "done", "downto", "else",
			"end", "exception", "external", "for", "fun", "function", "functor", "if", "in", "include",
			"inherit", "initializer", "lazy", "let", "match", "method", "module", "mutable", "new",
			"nonrec", "object", "of", "open", "or", "private", "rec", "sig", "struct", "then", "to",
			"try", "type", "val", "virtual", "when", "while", "with",
		},
		types: []string{
			"array", "bool", "char", "float", "int", "list", "option", "ref", "string", "unit",
		},
		constants: []string{
			"false", "true",
		},
	}
	// elixirSpec: Elixir.
	elixirSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", tripleQuotes: true, annotation: '@', symbols: true, identExtra: "?!", capsTypes: true,
		keywords: []string{
			"after", "alias", "and", "case", "catch", "cond", "def", "defdelegate", "defexception",
			"defguard", "defimpl", "defmacro", "defmacrop", "defmodule", "defp", "defprotocol",
			"defstruct", "do", "else", "end", "fn", "for", "if", "import", "in", "not", "or", "quote",
			"raise", "receive", "require", "reraise", "rescue", "try", "unless", "unquote", "use",
			"when", "with",
		},
		constants: []string{
			"false", "nil", "true",
		},
	}
	// erlangSpec: Erlang.
	erlangSpec = langSpec{
		lineComments: []string{"%"}, quotes: "\"'",
		keywords: []string{
			"after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
			"catch", "cond", "div", "end", "fun", "if", "let", "maybe", "not", "of", "or", "orelse",
			"receive", "rem", "try", "when", "xor",
		},
		types: []string{
			"erlang", "io", "lists", "maps", "self", "spawn",
		},
		constants: []string{
			"false", "true", "undefined",
		},
	}
	// rSpec: R.
	rSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", identExtra: ".",
		keywords: []string{
			"break", "else", "for", "function", "if", "in", "next", "repeat", "return", "while",
		},
		types: []string{
			"library", "list", "print", "require",
		},
		constants: []string{
			"FALSE", "Inf", "NA", "NA_character_", "NA_integer_", "NA_real_", "NULL", "NaN", "TRUE",
		},
	}
	// perlSpec: Perl.
	perlSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"'", sigils: "$@%",
		keywords: []string{
			"__END__", "else", "elsif", "for", "foreach", "if", "last", "local", "my", "next", "no",
			"our", "package", "redo", "require", "return", "sub", "unless", "until", "use", "while",
		},
		types: []string{
			"chomp", "die", "eval", "exists", "join", "keys", "open", "print", "printf", "push",
			"shift", "split", "sprintf", "values", "warn",
		},
	}
	// zigSpec: Zig.
	zigSpec = langSpec{
		lineComments: []string{"//"}, quotes: "\"'", annotation: '@',
		keywords: []string{
			"addrspace", "align", "allowzero", "and", "anyframe", "anytype", "asm", "async", "await",
			"break", "callconv", "catch", "comptime", "const", "continue", "defer", "else", "enum",
			"errdefer", "error", "export", "extern", "fn", "for", "if", "inline", "linksection",
			"noalias", "noinline", "nosuspend", "opaque", "or", "orelse", "packed", "pub", "resume",
			"return", "struct", "suspend", "switch", "test", "threadlocal", "try", "union",
			"unreachable", "usingnamespace", "var", "volatile", "while",
		},
		types: []string{
			"anyerror", "anyopaque", "bool", "c_int", "comptime_float", "comptime_int", "f128", "f16",
			"f32", "f64", "i128", "i16", "i32", "i64", "i8", "isize", "noreturn", "type", "u128",
			"u16", "u32", "u64", "u8", "usize", "void",
		},
		constants: []string{
			"false", "null", "true", "undefined",
		},
	}
	// nixSpec: Nix.
	nixSpec = langSpec{
		lineComments: []string{"#"}, blockOpen: "/*", blockClose: "*/", quotes: "\"", spans: []span{{"''", "''", String}}, identExtra: "-'", assignKeys: true,
		keywords: []string{
			"assert", "else", "if", "in", "inherit", "let", "or", "rec", "then", "with",
		},
		types: []string{
			"builtins", "derivation", "import", "toString",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// hclSpec: HCL and Terraform.
	hclSpec = langSpec{
		lineComments: []string{"#", "//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"", identExtra: "-", assignKeys: true,
		keywords: []string{
			"data", "dynamic", "else", "endfor", "endif", "for", "if", "in", "locals", "module",
			"output", "provider", "resource", "terraform", "variable",
		},
		types: []string{
			"any", "bool", "list", "map", "number", "object", "set", "string", "tuple",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// protobufSpec: Protocol Buffers.
	protobufSpec = langSpec{
		lineComments: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: "\"'", capsTypes: true,
		keywords: []string{
			"edition", "enum", "extend", "extensions", "import", "map", "message", "oneof", "option",
			"optional", "package", "public", "repeated", "required", "reserved", "returns", "rpc",
			"service", "stream", "syntax", "to", "weak",
		},
		types: []string{
			"bool", "bytes", "double", "fixed32", "fixed64", "float", "int32", "int64", "sfixed32",
			"sfixed64", "sint32", "sint64", "string", "uint32", "uint64",
		},
		constants: []string{
			"false", "true",
		},
	}
	// graphqlSpec: GraphQL.
	graphqlSpec = langSpec{
		lineComments: []string{"#"}, quotes: "\"", tripleQuotes: true, annotation: '@', sigils: "$", capsTypes: true,
		keywords: []string{
			"directive", "enum", "extend", "fragment", "implements", "input", "interface", "mutation",
			"on", "query", "repeatable", "scalar", "schema", "subscription", "type", "union",
		},
		constants: []string{
			"false", "null", "true",
		},
	}
	// vimSpec: Vim script.
	vimSpec = langSpec{
		lineStartComments: "\"", quotes: "\"'",
		keywords: []string{
			"abort", "augroup", "autocmd", "break", "call", "catch", "colorscheme", "command",
			"continue", "echo", "echoerr", "echom", "else", "elseif", "endfor", "endfunction", "endif",
			"endtry", "endwhile", "execute", "filetype", "finally", "for", "fu", "fun", "function",
			"highlight", "if", "in", "inoremap", "let", "map", "nnoremap", "noremap", "normal",
			"return", "set", "setlocal", "silent", "syntax", "throw", "try", "unlet", "vnoremap",
			"while",
		},
		types: []string{
			"empty", "exists", "expand", "get", "has", "len", "split", "strlen",
		},
	}
	// clojureSpec: Clojure.
	clojureSpec = langSpec{
		lineComments: []string{";"}, quotes: "\"", symbols: true, lispCall: true, identExtra: "-?!*+<>=/.'",
		keywords: []string{
			"case", "catch", "cond", "def", "defmacro", "defmethod", "defmulti", "defn", "defn-",
			"defprotocol", "defrecord", "defstruct", "deftype", "do", "doseq", "dotimes", "finally",
			"fn", "for", "if", "if-let", "if-not", "let", "letfn", "loop", "ns", "quote", "recur",
			"require", "throw", "try", "when", "when-let", "when-not",
		},
		constants: []string{
			"false", "nil", "true",
		},
	}
	// diffSpec: diffs and patches, by line.
	diffSpec = langSpec{
		lex: lexDiff,
	}
	// consoleSpec: a shell session: prompts, commands in shell, output.
	consoleSpec = langSpec{
		lex: lexConsole,
	}
	// yamlSpec: YAML, by line.
	yamlSpec = langSpec{
		lex: lexYAML,
	}
	// iniSpec: INI files, by line.
	iniSpec = langSpec{
		lex: lexINI,
	}
	// markdownSpec: Markdown, by line.
	markdownSpec = langSpec{
		lex: lexMarkdown,
	}
	// markupSpec: HTML, XML and SVG.
	markupSpec = langSpec{
		lex: lexMarkup,
	}
	// cssSpec: CSS, SCSS and Less.
	cssSpec = langSpec{
		lex: lexCSS,
	}
)

// nativeAlias is one name of a language.
type nativeAlias struct {
	name string
	spec *langSpec
}

// nativeLangs maps a lowercase language name to its spec, sorted by name
// for a binary search; an array of constants, so nothing is built when a
// process starts.
var nativeLangs = [...]nativeAlias{
	{"bash", &shSpec},
	{"bash-session", &consoleSpec},
	{"bsdmake", &makeSpec},
	{"bzl", &pythonSpec},
	{"c", &cSpec},
	{"c#", &csharpSpec},
	{"c++", &cppSpec},
	{"cc", &cppSpec},
	{"cfg", &iniSpec},
	{"cjs", &jsSpec},
	{"clj", &clojureSpec},
	{"cljc", &clojureSpec},
	{"cljs", &clojureSpec},
	{"clojure", &clojureSpec},
	{"console", &consoleSpec},
	{"containerfile", &dockerSpec},
	{"cpp", &cppSpec},
	{"cs", &csharpSpec},
	{"csharp", &csharpSpec},
	{"css", &cssSpec},
	{"cts", &jsSpec},
	{"cxx", &cppSpec},
	{"dart", &dartSpec},
	{"diff", &diffSpec},
	{"docker", &dockerSpec},
	{"dockerfile", &dockerSpec},
	{"dosini", &iniSpec},
	{"editorconfig", &iniSpec},
	{"edn", &clojureSpec},
	{"elixir", &elixirSpec},
	{"elm", &elmSpec},
	{"erl", &erlangSpec},
	{"erlang", &erlangSpec},
	{"ex", &elixirSpec},
	{"exs", &elixirSpec},
	{"fish", &fishSpec},
	{"gemfile", &rubySpec},
	{"geojson", &jsonSpec},
	{"gitconfig", &iniSpec},
	{"gnumake", &makeSpec},
	{"go", &goSpec},
	{"golang", &goSpec},
	{"gql", &graphqlSpec},
	{"graphql", &graphqlSpec},
	{"gyp", &pythonSpec},
	{"h", &cSpec},
	{"haskell", &haskellSpec},
	{"hcl", &hclSpec},
	{"hh", &cppSpec},
	{"hpp", &cppSpec},
	{"hrl", &erlangSpec},
	{"hs", &haskellSpec},
	{"htm", &markupSpec},
	{"html", &markupSpec},
	{"hxx", &cppSpec},
	{"ini", &iniSpec},
	{"java", &javaSpec},
	{"javascript", &jsSpec},
	{"js", &jsSpec},
	{"json", &jsonSpec},
	{"json5", &jsoncSpec},
	{"jsonc", &jsoncSpec},
	{"jsonl", &jsonSpec},
	{"jsx", &jsSpec},
	{"kotlin", &kotlinSpec},
	{"ksh", &shSpec},
	{"kt", &kotlinSpec},
	{"kts", &kotlinSpec},
	{"less", &cssSpec},
	{"lua", &luaSpec},
	{"luau", &luaSpec},
	{"make", &makeSpec},
	{"makefile", &makeSpec},
	{"markdown", &markdownSpec},
	{"md", &markdownSpec},
	{"mjs", &jsSpec},
	{"mk", &makeSpec},
	{"mkd", &markdownSpec},
	{"ml", &ocamlSpec},
	{"mli", &ocamlSpec},
	{"mts", &jsSpec},
	{"mysql", &sqlSpec},
	{"ndjson", &jsonSpec},
	{"nix", &nixSpec},
	{"nixos", &nixSpec},
	{"ocaml", &ocamlSpec},
	{"patch", &diffSpec},
	{"perl", &perlSpec},
	{"php", &phpSpec},
	{"php3", &phpSpec},
	{"php4", &phpSpec},
	{"php5", &phpSpec},
	{"php8", &phpSpec},
	{"pl", &perlSpec},
	{"plist", &markupSpec},
	{"plsql", &sqlSpec},
	{"pm", &perlSpec},
	{"podfile", &rubySpec},
	{"posh", &powershellSpec},
	{"postgres", &sqlSpec},
	{"postgresql", &sqlSpec},
	{"powershell", &powershellSpec},
	{"properties", &iniSpec},
	{"proto", &protobufSpec},
	{"proto3", &protobufSpec},
	{"protobuf", &protobufSpec},
	{"ps1", &powershellSpec},
	{"psm1", &powershellSpec},
	{"psql", &sqlSpec},
	{"pwsh", &powershellSpec},
	{"py", &pythonSpec},
	{"py3", &pythonSpec},
	{"python", &pythonSpec},
	{"python3", &pythonSpec},
	{"r", &rSpec},
	{"rake", &rubySpec},
	{"rb", &rubySpec},
	{"rs", &rustSpec},
	{"rscript", &rSpec},
	{"rss", &markupSpec},
	{"ruby", &rubySpec},
	{"rust", &rustSpec},
	{"sass", &cssSpec},
	{"sc", &scalaSpec},
	{"scala", &scalaSpec},
	{"scss", &cssSpec},
	{"sh", &shSpec},
	{"sh-session", &consoleSpec},
	{"shell", &shSpec},
	{"shell-session", &consoleSpec},
	{"shellsession", &consoleSpec},
	{"splus", &rSpec},
	{"sql", &sqlSpec},
	{"sqlite", &sqlSpec},
	{"starlark", &pythonSpec},
	{"svelte", &markupSpec},
	{"svg", &markupSpec},
	{"swift", &swiftSpec},
	{"terminal", &consoleSpec},
	{"terraform", &hclSpec},
	{"tf", &hclSpec},
	{"tfvars", &hclSpec},
	{"toml", &tomlSpec},
	{"ts", &jsSpec},
	{"tsx", &jsSpec},
	{"typescript", &jsSpec},
	{"udiff", &diffSpec},
	{"vim", &vimSpec},
	{"viml", &vimSpec},
	{"vimrc", &vimSpec},
	{"vimscript", &vimSpec},
	{"vue", &markupSpec},
	{"xhtml", &markupSpec},
	{"xml", &markupSpec},
	{"xsd", &markupSpec},
	{"xsl", &markupSpec},
	{"xslt", &markupSpec},
	{"yaml", &yamlSpec},
	{"yml", &yamlSpec},
	{"zig", &zigSpec},
	{"zsh", &shSpec},
}

// nativeSpec returns the spec for lang (any case), or nil.
func nativeSpec(lang string) *langSpec {
	if len(lang) > maxLangLen {
		return nil
	}
	l := strings.ToLower(lang)
	i, found := slices.BinarySearchFunc(nativeLangs[:], l, func(e nativeAlias, l string) int {
		return strings.Compare(e.name, l)
	})
	if !found {
		return nil
	}
	return nativeLangs[i].spec
}

// maxLangLen is longer than every language name; a longer word is looked
// up no further.
const maxLangLen = 40
