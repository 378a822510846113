package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// htmlCases hold each allowlisted element and the fallbacks: what markii's
// tree makes of raw HTML.
var htmlCases = []struct{ name, src, want string }{
	{"details across blank lines",
		"<details>\n<summary>Click me</summary>\n\nHidden.\n\n</details>\n",
		`(container:details {title="Click me"} (p "Hidden."))`},
	{"details open, summary with tags",
		"<details open><summary>Open <b>this</b></summary>\nBody <i>text</i>\n</details>\n",
		`(container:details {title="Open this" open} (p "Body " (em "text")))`},
	{"table with header",
		"<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>\n",
		`(table [- -] (tr (td "A") (td "B")) (tr (td "1") (td "2")))`},
	{"table without th: first row heads it",
		"<table><tr><td>cell one</td></tr></table>\n",
		`(table [-] (tr (td "cell one")))`},
	{"centred block with an image and links",
		"<p align=\"center\"><img src=\"logo.png\" alt=\"Logo\" width=\"100\"><br><a href=\"https://x.org\">Docs</a></p>\n",
		`(container:center (p (img "logo.png" "Logo") hb (a "https://x.org" "Docs")))`},
	{"heading",
		"<h2>Title <code>x</code></h2>\n",
		`(h2 "Title " (code "x"))`},
	{"lists",
		"<ul><li>one</li><li>two</li></ul>\n\n<ol start=\"3\"><li>three</li></ol>\n",
		`(ul (li (p "one")) (li (p "two"))) (ol start=3 (li (p "three")))`},
	{"quote, rule and pre",
		"<blockquote>q</blockquote>\n\n<hr>\n\n<pre>\n  a  b\n</pre>\n",
		`(quote (p "q")) (hr) (code "" "  a  b")`},
	{"inline formatting",
		"a <kbd>Ctrl</kbd> <b>b</b> <em>c</em> <del>d</del> <span>e</span> x<br>y\n",
		`(p "a " (code "Ctrl") " " (strong "b") " " (em "c") " " (del "d") " " "e" " x" hb "y")`},
	{"unsafe link is text",
		"<a href=\"javascript:alert(1)\">bad</a> <a href=\"data:text/html,x\">data</a> <a href=\"https://ok.org\" onclick=\"x()\">ok</a>\n",
		`(p (a "" "bad") " " (a "" "data") " " (a "https://ok.org" "ok"))`},
	{"an encoded javascript: or data: href is never a link",
		"<p><a href=\"&#106;avascript:alert(1)\">a</a> <a href=\"java&#x09;script:x\">b</a> <a href=\"java&#x0A;script:x\">c</a> <a href=\"JaVa&#83;cript:x\">d</a> <a href=\"data&colon;text/html,x\">e</a></p>\n\nx <a href=\"&#106;avascript:alert(1)\">f</a> <img alt=\"&#27;[31m&#7;\" src=\"&#x6a;avascript:x\" width=\"&#49;0\">\n",
		`(p (a "" "a") " " (a "" "b") " " (a "" "c") " " (a "" "d") " " (a "" "e")) (p "x " (a "" "f") " " (img "" "[31m"))`},
	{"dropped content",
		"<script>alert(1)</script>\n<style>p{}</style>\n\n<iframe src=x>frame</iframe>\n\n<template>t</template>\n\n<!-- c -->\n\nkept <script>no</script>text <!-- no -->\n",
		`(p "kept " "text ")`},
	{"embed is void and skips nothing after it",
		"<p><embed src=x></p>\n\nafter\n",
		`(p "after")`},
	{"an unclosed iframe drops only its own HTML block",
		"<iframe src=x>\nframe\n\nafter iframe\n\n<object data=x>\n<param>\n\nafter object\n\n<template><p>t\n\nafter template\n\n<noscript>\n\nlast\n",
		`(p "after iframe") (p "after object") (p "after template") (p "last")`},
	{"a script block ends at its end tag, blank lines and all",
		"<script>\nvar x;\n\nhidden\n</script>\n\nshown\n",
		`(p "shown")`},
	{"sub and sup keep their text as written, links and all",
		"H<sub>2</sub>O x<sup>n+1</sup> <sub>Built by <b>us</b></sub> r<sup><a href=\"https://x.org\">1</a></sup>\n",
		`(p "H" "2" "O x" "n+1" " " "Built by " (strong "us") " r" (a "https://x.org" "1"))`},
	{"a p ends at the next block start tag or markdown block, as in a browser",
		"<p align=\"center\">\nA\n<p>\n<p align=\"center\">B\n\n<p align=\"center\">\n\nmarkdown\n\n</p>\n\n- item\n",
		`(container:center (p "A")) (container:center (p "B")) (p "markdown") (ul (li (p "item")))`},
	{"unknown element keeps its text",
		"<custom-tag a=1>inside</custom-tag>\n",
		`(p "inside")`},
	// HTML5 reads &#x9b; as Windows-1252's › (as GitHub's page shows it).
	{"entities decode, then sanitize",
		"<p>&amp; &#27;[31m &#x9b;2J &#7;&#x202e; &lt;b&gt;</p>\n",
		"(p \"& [31m ›2J ⟨U+202E⟩ <b>\")"},
	{"unclosed elements close with the container",
		"<details><summary>s</summary>\n\nbody\n",
		`(container:details {title="s"} (p "body"))`},
	{"nested inside a directive stays inside",
		":::note\n<div align=\"center\">\n\nx\n:::\n\nafter\n",
		`(container:note (container:center (p "x"))) (p "after")`},
}

func TestHTMLSubset(t *testing.T) {
	for _, c := range htmlCases {
		t.Run(c.name, func(t *testing.T) {
			if got := dump(Parse([]byte(c.src))); got != c.want {
				t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
			}
		})
	}
}

// TestHTMLNestingIsBounded: ten thousand nested quotes and bold tags
// make a tree no deeper than MaxDepth, and all the text is there.
func TestHTMLNestingIsBounded(t *testing.T) {
	src := strings.Repeat("<blockquote><b>", 10000) + "deep" + strings.Repeat("</b></blockquote>", 10000) + "\n"
	doc := Parse([]byte(src))
	if d := treeDepth(doc); d > MaxDepth+2 {
		t.Errorf("tree depth %d, over MaxDepth", d)
	}
	page := Layout(doc, Options{Width: 80, Level: ansi.None, Theme: theme.Dark})
	var text strings.Builder
	for _, ln := range page.Lines {
		text.WriteString(ln.Text())
	}
	if !strings.Contains(text.String(), "deep") {
		t.Error("the text inside was lost")
	}
}

// TestSimpleHTMLReadsAsTheTokenizer: the HTML simpleHTML reads itself
// makes the same tree as the HTML5 tokenizer makes of it.
func TestSimpleHTMLReadsAsTheTokenizer(t *testing.T) {
	srcs := []string{
		"<p align=\"center\"><img src=\"logo.png\" alt=\"A &amp; B\" width=120 height='40'/><br>\n<a href=\"https://x.org/?a=1&amp;b=2\">Docs</a> &middot; <A HREF=#usage>Usage</A></p>\n",
		"<div>\n\ntext &#27;[31m &#x9b; &#x202e; &lt;b&gt;\n\n</div>\n",
		"a <kbd>Ctrl</kbd>+<b class=x>b</b> <img alt=\"x\" src=y.png > <span title=\"a>b\">t</span>\n",
		"<table><tr><th>A</th></tr><tr><td><code>x</code></td></tr></table>\n",
		"<details open><summary>S</summary>\n\nbody\n\n</details>\n",
		"<ol start=\"3\"><li>x</li></ol>\n\n<h2 id=\"a\">T</h2>\n",
		"<p>unclosed <b>bold\n\n<p a=1 a=2 b>dup</p>\n",
	}
	for _, c := range htmlCases {
		srcs = append(srcs, c.src)
	}
	for _, src := range srcs {
		simple := dump(Parse([]byte(src)))
		tokenizerOnly = true
		full := dump(Parse([]byte(src)))
		tokenizerOnly = false
		if simple != full {
			t.Errorf("%q\nsimple:    %s\ntokenizer: %s", src, simple, full)
		}
	}
	for _, b := range []string{"<p align=center>", "<img src=x alt='y'/>", "</div>", "a &amp; b <br>"} {
		if !simpleHTML([]byte(b), nil) {
			t.Errorf("%q should be read without the tokenizer", b)
		}
	}
	for _, b := range []string{"<script>x</script>", "<!-- c -->", "<p a=\"x>", "a < b", "<textarea>", "<p/a>", "</p x>"} {
		if simpleHTML([]byte(b), nil) {
			t.Errorf("%q should go to the tokenizer", b)
		}
	}
}
