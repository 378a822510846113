package render

import "testing"

// TestDirectiveGrammarMatchesReference pins the text-directive cases where
// markii follows remark-directive (micromark-extension-directive) to the
// parse the reference's own test suite expects: an unclosed label or a
// malformed attribute block ends the directive where it starts and stays
// text, and classes accumulate.
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
	} {
		if got := dump(Parse([]byte(c.src))); got != c.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
		}
	}
}
