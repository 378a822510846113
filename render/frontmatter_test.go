package render

import (
	"fmt"
	"testing"
)

func TestReadUses(t *testing.T) {
	cases := []struct {
		yaml string
		want []string // nil means absent
	}{
		{"uses: [a, b]", []string{"a", "b"}},
		{"uses: []", []string{}},
		{"uses: [ 'a.b' , \"c-d\" ]", []string{"a.b", "c-d"}},
		{"uses: [a, b] # packs", nil},
		{"uses: [a, b", nil},
		{"uses: [a, , b]", nil},
		{"uses: [a, b c]", nil},
		{"uses: [-a]", nil},
		{"uses: ['a\"]", nil},
		{"uses: a", nil},
		{"uses:\n  - a\n  - b_2\ntitle: x", []string{"a", "b_2"}},
		{"uses:\n- a\n- b", []string{"a", "b"}},
		{"uses:\n  - a\n    - b", nil},
		{"uses:\n  - a\n  - b c", nil},
		{"uses:\n  key: v", nil},
		{"uses:\n  - a\n  nested: 1", nil},
		{"uses:", nil},
		{"uses: [a]\nuses: [b]", nil},
		{"  uses: [a]", nil},
		{"title: x", nil},
		{"uses: [__proto__, constructor]", []string{"__proto__", "constructor"}},
		{"uses: [a]\r\n", []string{"a"}},
	}
	for _, c := range cases {
		got := readUses([]byte(c.yaml))
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", c.want) {
			t.Errorf("readUses(%q) = %#v, want %#v", c.yaml, got, c.want)
		}
	}
}

func TestFrontmatterOnlyFirst(t *testing.T) {
	cases := []struct{ src, want string }{
		{"---\r\nuses: [a]\r\n---\r\nbody\r\n", `(frontmatter uses=[a]) (p "body")`},
		{"\xef\xbb\xbf---\nuses: [a]\n---\n", `(frontmatter uses=[a])`},
		{"---\n---\n", `(frontmatter uses=nil)`},
		{"+++\ntitle = 1\n+++\n", `(p "+++" sb "title = 1" sb "+++")`},
		{"text\n\n---\nuses: [a]\n---\n", `(p "text") (hr) (h2 "uses: [a]")`},
	}
	for _, c := range cases {
		if got := dump(Parse([]byte(c.src))); got != c.want {
			t.Errorf("Parse(%q)\n got: %s\nwant: %s", c.src, got, c.want)
		}
	}
}
