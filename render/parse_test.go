package render

import (
	"strings"
	"testing"
)

// parseCase is one conformance case: a note and the exact tree it parses
// to, written as dump() prints it.
type parseCase struct {
	name, src, want string
}

// The cases follow the Markii parse corpus (SPEC §7.7) by number.
var parseCases = []parseCase{
	{"01-plain-markdown",
		"# Title\n\nSome *em*, **strong**, `code` and [a link](https://x.org \"t\").\n\n> quoted\n\n1. one\n2. two\n\n---\n\n    indented\n",
		`(h1 "Title") (p "Some " (em "em") ", " (strong "strong") ", " (code "code") " and " (a "https://x.org" "a link") ".") (quote (p "quoted")) (ol start=1 (li (p "one")) (li (p "two"))) (hr) (code "" "indented")`},
	{"01-setext-and-breaks",
		"Head\n===\n\nline one\\\nline two  \nline three\nline four\n",
		`(h1 "Head") (p "line one" hb "line two" hb "line three" sb "line four")`},
	{"02-inline-directive",
		"Some :badge[new]{color=green} text and :icon alone.\n",
		`(p "Some " (:badge {color="green"} "new") " text and " (:icon) " alone.")`},
	{"02-inline-label-markdown",
		":badge[*hot* `x`] and :tip[two\nlines]\n",
		`(p (:badge (em "hot") " " (code "x")) " and " (:tip "two" sb "lines"))`},
	{"02-inline-long-label-and-wrapped-attributes",
		":x[" + strings.Repeat("a", 300) + "]{k=1\nj=2} end\n",
		`(p (:x {k="1" j="2"} "` + strings.Repeat("a", 300) + `") " end")`},
	{"03-leaf",
		"::youtube[Intro **video**]{vid=abc123}\n\n::stat{data=stars}\n\n::  not-a-leaf\n",
		`(leaf:youtube {vid="abc123"} "Intro " (strong "video")) (leaf:stat {data="stars"}) (p "::  not-a-leaf")`},
	{"03-leaf-interrupts-paragraph",
		"text\n::divider\nmore\n",
		`(p "text") (leaf:divider) (p "more")`},
	{"04-container",
		":::note{type=warning}\nHello *there*.\n\n- a\n- b\n:::\nafter\n",
		`(container:note {type="warning"} (p "Hello " (em "there") ".") (ul (li (p "a")) (li (p "b")))) (p "after")`},
	{"04-container-label-is-first-paragraph",
		":::card[My *title*]{text=center}\nbody\n:::\n",
		`(container:card {text="center"} (p "My " (em "title")) (p "body"))`},
	{"04-container-closes-open-paragraph",
		":::note\nline one\nline two\n:::\n",
		`(container:note (p "line one" sb "line two"))`},
	{"05-attributes",
		"::x{a b=c d=\"e f\" g='h i' #ident .c1 .c2 b=last k = v empty=\"\"}\n",
		`(leaf:x {a b="last" d="e f" g="h i" id="ident" class="c1 c2" k="v" empty=""})`},
	{"05-attribute-entities-decoded",
		"::x{title=\"Tom &amp; Jerry &#65;\"}\n",
		`(leaf:x {title="Tom & Jerry A"})`},
	{"06-nested-directives",
		"::::card\n:::note\ninner :badge[:value[x.y]]\n:::\n::::\n",
		`(container:card (container:note (p "inner " (:badge (:value "x.y")))))`},
	{"06-nested-inline-with-attrs",
		":badge[:value[repo.stars]{format=compact} stars]{tone=info}\n",
		`(p (:badge {tone="info"} (:value {format="compact"} "repo.stars") " stars"))`},
	{"07-unknown-directive",
		"::totally-unknown{foo=bar}\n",
		`(leaf:totally-unknown {foo="bar"})`},
	{"08-code-fence-no-directives",
		"```\n:::note\n::leaf{a=1}\n:inline[x]\n```\n\nUse `:kbd[x]` here.\n\n    :::indented\n",
		`(code "" ":::note\n::leaf{a=1}\n:inline[x]") (p "Use " (code ":kbd[x]") " here.") (code "" ":::indented")`},
	{"09-malformed-container-unclosed",
		":::note\nruns to the end\n\n# still inside\n",
		`(container:note (p "runs to the end") (h1 "still inside"))`},
	{"09-malformed-container-lines",
		":::\n\n:::note trailing words\n\n:::note{a=\n",
		`(p ":::") (p ":::note trailing words") (p ":::note{a=")`},
	{"09-stray-fence-is-text",
		"para\n\n:::\n",
		`(p "para") (p ":::")`},
	{"10-prototype-like-names",
		"::constructor{__proto__=1 toString=x}\n\n:::__proto__\nx\n:::\n\n```lua {name=__proto__}\nreturn 1\n```\n",
		`(leaf:constructor {__proto__="1" toString="x"}) (p ":::" (strong "proto") sb "x" sb ":::") (script name=__proto__ lang="lua" label="lua" "return 1\n")`},
	{"11-script-block",
		"```lua {name=stars}\nreturn 42\n```\n\n```lua\nprint(1)\n```\n",
		`(script name=stars lang="lua" label="lua" "return 42\n") (code "lua" "print(1)")`},
	{"11-script-src",
		"```lua {name=data src=scripts/data.lua}\n```\n",
		`(script name=data lang="lua" label="scripts/data.lua" src="scripts/data.lua" "")`},
	{"12-gfm-table",
		"| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | *2* | 3 |\n",
		`(table [l c r -] (tr (td "a") (td "b") (td "c") (td "d")) (tr (td "1") (td (em "2")) (td "3") (td)))`},
	{"13-task-list",
		"- [ ] todo\n- [x] done\n- plain\n",
		`(ul (li[ ] (p "todo")) (li[x] (p "done")) (li (p "plain")))`},
	{"14-strikethrough",
		"~~gone~~ and ~also~\n",
		`(p (del "gone") " and " (del "also"))`},
	{"15-layout-attributes",
		"::divider{width=narrow align=right}\n",
		`(leaf:divider {width="narrow" align="right"})`},
	{"16-script-name-charset",
		"```lua {name=ok_1-x}\n```\n\n```lua {name=a.b}\n```\n\n```lua {name=1abc}\n```\n\n```lua {name=\"sp ace\"}\n```\n",
		`(script name=ok_1-x lang="lua" label="lua" "") (code "lua" "") (code "lua" "") (code "lua" "")`},
	{"17-fence-meta-grammar",
		"```lua {name=first} {name=second}\n```\n\n```lua {title=\"a}b\" name=q name=last} trailing {name=no}\n```\n\n```lua title=x {publish=true name=p}\n```\n",
		`(script name=first lang="lua" label="lua" "") (script name=last lang="lua" label="lua" "") (script name=p lang="lua" label="lua" "")`},
	{"17-fence-meta-unclosed-group",
		"```lua {name=x\n```\n",
		`(code "lua" "")`},
	{"18-layout-wrappers",
		":::left\n::stat{data=a}\n:::\n\n:::fit\ntext\n:::\n",
		`(container:left (leaf:stat {data="a"})) (container:fit (p "text"))`},
	{"19-frontmatter",
		"---\ntitle: Hello\n---\n# Body\n",
		`(frontmatter uses=nil) (h1 "Body")`},
	{"20-frontmatter-uses-flow",
		"---\nuses: [charts, 'gh.stats', \"x_y\"]\n---\ntext\n",
		`(frontmatter uses=[charts gh.stats x_y]) (p "text")`},
	{"21-frontmatter-uses-block",
		"---\ntitle: x\nuses:\n  - charts\n  - gh\nother: 1\n---\n",
		`(frontmatter uses=[charts gh])`},
	{"22-frontmatter-unclosed",
		"---\ntitle: x\n",
		`(hr) (p "title: x")`},
	{"23-frontmatter-not-first",
		"\n---\ntitle: x\n---\n",
		`(hr) (h2 "title: x")`},
	{"24-nested-containers-inverted",
		":::outer\n::::inner\ntext\n::::\n:::\n",
		`(container:outer (container:inner (p "text"))) (p ":::")`},
	{"24-equal-fences-omitted-close",
		":::a\n:::b\nx\n:::\n:::\n",
		`(container:a (container:b (p "x"))) (p ":::")`},
	{"24-grown-nesting",
		"::::card\n:::center\nx\n:::\ny\n::::\n",
		`(container:card (container:center (p "x")) (p "y"))`},
	{"24-fence-inside-code-closes-container",
		":::note\n```\n:::\n```\n",
		`(container:note (code "" "")) (code "" "")`},
	{"27-row-align-left-wrapper",
		"::::row{align=center}\n:::cell\none\n:::\n:::left\ntwo\n:::\n::::\n",
		`(container:row {align="center"} (container:cell (p "one")) (container:left (p "two")))`},
	{"28-word-start",
		"12:34 John 3:16 key:value word:kbd[x] (:kbd[x]) **:badge[y]** :kbd[z] x:1\n",
		`(p "12:34 John 3:16 key:value word:kbd[x] (" (:kbd "x") ") " (strong (:badge "y")) " " (:kbd "z") " x:1")`},
	{"28-word-start-offset-zero",
		":kbd[a]",
		`(p (:kbd "a"))`},
	{"29-raw-html-drawn",
		"<div>\nshown block\n</div>\n\na <b>bold</b> c<br>d <!-- c --><script>x()</script>\n",
		`(p "shown block") (p "a " (strong "bold") " c" hb "d ")`},
	{"30-colon-in-name",
		":::a:b\nx\n:::\n\n:a:b[label] and ::c:d\n",
		`(p ":::a:b" sb "x" sb ":::") (p ":a:b[label] and ::c:d")`},
	{"31-malformed-leaf-attributes",
		"::x{a=1\n\n::x{a=\"1}\n\n::x{a=1\nb=2}\n\n::x{a=1 =2}\n",
		`(p "::x{a=1") (p "::x{a=\"1}") (p "::x{a=1" sb "b=2}") (p "::x{a=1 =2}")`},
	// A text directive keeps its name (and label) before a malformed
	// attribute block, which stays text, as remark-directive parses it.
	{"31-malformed-inline-attributes",
		"a :x[y]{k=\"v} b\n",
		`(p "a " (:x "y") "{k=\"v} b")`},
	{"32-script-permissions",
		"```lua {name=gh permissions=\"api.github.com, example.org\" publish}\nreturn 1\n```\n",
		`(script name=gh lang="lua" label="lua" perms=["api.github.com" "example.org"] publish "return 1\n")`},
	{"32-publish-spelled-is-absent",
		"```lua {name=a publish=true}\n```\n",
		`(script name=a lang="lua" label="lua" "")`},
}

func TestParseConformance(t *testing.T) {
	for _, c := range parseCases {
		t.Run(c.name, func(t *testing.T) {
			got := dump(Parse([]byte(c.src)))
			if got != c.want {
				t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
			}
		})
	}
}

func TestParseScriptsListedInOrder(t *testing.T) {
	src := "```lua {name=a}\n```\n\n:::card\n> ```lua {name=b}\n> x = 1\n> ```\n:::\n\n- ```lua {name=c}\n  ```\n"
	doc := Parse([]byte(src))
	var names []string
	for _, s := range doc.Scripts {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "a,b,c" {
		t.Fatalf("Scripts = %s, want a,b,c", got)
	}
	if doc.Scripts[1].Source != "x = 1\n" {
		t.Errorf("nested Source = %q", doc.Scripts[1].Source)
	}
	// The same values appear in the tree.
	card := doc.Blocks[1].(*Directive)
	if card.Blocks[0].(*Quote).Blocks[0] != doc.Scripts[1] {
		t.Error("Scripts[1] is not the node in the tree")
	}
}

func TestParseScriptSourceKeptAsWritten(t *testing.T) {
	body := "local s = \"\x1b[2J\\t\"\r\n\treturn s -- &amp;\n"
	doc := Parse([]byte("```lua {name=x}\n" + body + "```\n"))
	if len(doc.Scripts) != 1 {
		t.Fatalf("scripts: %d", len(doc.Scripts))
	}
	if got := doc.Scripts[0].Source; got != body {
		t.Errorf("Source = %q, want %q", got, body)
	}
}
