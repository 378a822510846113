package render

import (
	"strings"
	"testing"
)

// TestDirectiveGrammarMatchesReference pins the text-directive cases where
// markii follows remark-directive (micromark-extension-directive) to the
// parse the reference's own test suite expects: an unclosed label or a
// malformed attribute block ends the directive where it starts and stays
// text, classes accumulate, a label's extent is fixed before its content
// is parsed, a directive may follow an escaped colon, and a lazy line
// closes a container directive.
func TestDirectiveGrammarMatchesReference(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		// micromark: `:a[` → <p>[</p>, `:a[b` → <p>[b</p>.
		{"x :a[\n", `(p "x " (:a) "[")`},
		{"x :a[b\n", `(p "x " (:a) "[b")`},
		{"A :badge[abc d.\n", `(p "A " (:badge) "[abc d.")`},
		// micromark: `:a{` → <p>{</p>, `:a{b` → <p>{b</p>,
		// `:a{b="c` → <p>{b="c</p>, `:a{b=}` → <p>{b=}</p>.
		{"x :a{\n", `(p "x " (:a) "{")`},
		{"x :a{b=\"c\n", `(p "x " (:a) "{b=\"c")`},
		{"x :a{b=}\n", `(p "x " (:a) "{b=}")`},
		{"x :a{..b}\n", `(p "x " (:a) "{..b}")`},
		// A good label before a bad attribute block keeps the label.
		{"T :badge[x]{a=b t\n", `(p "T " (:badge "x") "{a=b t")`},
		// mdast-util-directive: `{class=a class="b c" .d.e}` → class "a b c d e".
		{":span{class=a class=\"b c\" .d.e}\n", `(p (:span {class="a b c d e"}))`},
		{"::leaf{class=a .b class=\"c d\"}\n", `(leaf:leaf {class="a b c d"})`},
		// Leaf and container forms stay literal when malformed (fixture 31).
		{"::a{b=\"c\n", `(p "::a{b=\"c")`},
		{"::a[b\n", `(p "::a[b")`},
		// A label is found by its brackets before its content is parsed:
		// a code span cannot take the label's `]` (the reference reads
		// ":badge[`]`]" as the label "`" then "`]").
		{"x :badge[`]`]\n", `(p "x " (:badge "` + "`" + `") "` + "`" + `]")`},
		{"x :a[`b]` c]\n", `(p "x " (:a "` + "`" + `b") "` + "`" + ` c]")`},
		{"x :badge[`a` b]\n", `(p "x " (:badge (code "a") " b"))`},
		{"x :a[y :b[`z]`] w]\n", `(p "x " (:a "y " (:b "` + "`" + `z") "` + "`" + `") " w]")`},
		// micromark: `\::a` → <p>:</p>, a directive after an escaped
		// colon; `a ::b` → <p>a ::b</p>, none after a plain one.
		{"\\::a\n", `(p ":" (:a))`},
		{"x \\::a[l]\n", `(p "x :" (:a "l"))`},
		{"\\\\::a\n", `(p "\\::a")`},
		{"a ::b\n", `(p "a ::b")`},
		// A lazy line ends a container opened inside a block quote or a
		// list item, as it ends fenced code there; a lazy line inside the
		// container's own quote still continues that quote's paragraph.
		{"> :::note\n> a\nb\n", `(quote (container:note (p "a"))) (p "b")`},
		{"- :::note\n  a\nb\n", `(ul (li (container:note (p "a")))) (p "b")`},
		{"> :::note\n> a\n:::\n", `(quote (container:note (p "a"))) (p ":::")`},
		{":::note\n> a\nb\n:::\n", `(container:note (quote (p "a" sb "b")))`},
		{"> a\nb\n", `(quote (p "a" sb "b"))`},
	} {
		if got := dump(Parse([]byte(c.src))); got != c.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
		}
	}
}

// TestCodeBlockKeepsTrailingBlankLinesAndTabs pins SPEC §7.2 for code
// block bodies through a real parse and layout: every line of the body is
// drawn, blank ones at the end included, and a tab is 4 spaces wherever
// it stands.
func TestCodeBlockKeepsTrailingBlankLinesAndTabs(t *testing.T) {
	// The block's frame at width 40, without a language.
	top, bottom := "╭"+strings.Repeat("─", 39)+"\n", "╰"+strings.Repeat("─", 39)+"\n"
	for _, c := range []struct{ src, want string }{
		{"```\na\n\n\n```\nafter\n", top + "│ a\n│\n│\n" + bottom + "\nafter\n"},
		{"```\na\n```\nafter\n", top + "│ a\n" + bottom + "\nafter\n"},
		{"```\na\tb\n\tc\nab\tc\n```\n", top + "│ a    b\n│     c\n│ ab    c\n" + bottom},
		{"    a\tb\n\n\n    c\n", top + "│ a    b\n│\n│\n│ c\n" + bottom},
	} {
		doc := Parse([]byte(c.src))
		if got := plainLayout(t, doc, 40); got != c.want {
			t.Errorf("%q drew\n%q, want\n%q", c.src, got, c.want)
		}
	}
}
