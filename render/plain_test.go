package render

import "testing"

func TestPlainMarkdown(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"container fences go, body stays byte for byte",
			":::note{type=info}\nInside **bold**  \nnext &amp; `code`\n:::\n",
			"Inside **bold**  \nnext &amp; `code`\n"},
		{"container label goes with its line",
			":::card[Title]\nbody\n:::\n", "body\n"},
		{"nested containers",
			"::::row\n:::cell\none\n:::\n:::cell\ntwo\n:::\n::::\n", "one\ntwo\n"},
		{"leaf removed",
			"before\n\n::divider{width=narrow}\n\nafter\n", "before\n\nafter\n"},
		{"inline replaced by label source",
			"Hi :badge[*new* :value[x.y]]{tone=info}!\n", "Hi *new* x.y!\n"},
		{"inline without label removed",
			"a :icon{name=x} b :empty[] c\n", "a  b  c\n"},
		{"script fence removed, display fence kept",
			"```lua {name=s}\nreturn 1\n```\n\n```lua\nshown\n```\n", "```lua\nshown\n```\n"},
		{"unclosed script fence removed to the end",
			"a\n\n```lua {name=s}\nreturn 1\n", "a\n"},
		{"empty container removed",
			"a\n\n:::empty\n:::\n\nb\n", "a\n\nb\n"},
		{"blank runs collapse and ends trimmed",
			"\n\n\na\n\n\n\n\nb\n\n\n", "a\n\nb\n"},
		{"frontmatter kept",
			"---\nuses: [a]\n---\n::leaf\ntext\n", "---\nuses: [a]\n---\ntext\n"},
		{"directives in code untouched",
			"```\n:::note\n::leaf\n```\n", "```\n:::note\n::leaf\n```\n"},
		{"quoted container",
			"> :::card\n> quoted\n> :::\n", "> quoted\n"},
		{"literal stray fence kept",
			":::outer\n::::inner\ntext\n::::\n:::\n", "text\n:::\n"},
		{"empty note", "", "\n"},
		{"only directives", "::a\n::b\n", "\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := string(PlainMarkdown([]byte(c.src))); got != c.want {
				t.Errorf("PlainMarkdown(%q)\n got: %q\nwant: %q", c.src, got, c.want)
			}
		})
	}
}
