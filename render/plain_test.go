package render

import "testing"

func TestPlainMarkdown(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"container fences go, body stays byte for byte",
			":::note{type=info}\nInside **bold**  \nnext &amp; `code`\n:::\n",
			"Inside **bold**  \nnext &amp; `code`\n"},
		{"container label becomes its title line",
			":::card[Title]\nbody\n:::\n", "Title\n\nbody\n"},
		{"nested containers: bodies stay apart",
			"::::row\n:::cell\none\n:::\n:::cell\ntwo\n:::\n::::\n", "one\n\ntwo\n"},
		{"titles and labels are kept",
			":::callout{type=warning title=\"Careful\"}\nbody\n:::\n:::details{title=\"How?\"}\nhidden\n:::\n" +
				"::::tabs\n:::tab{label=\"First\"}\none\n:::\n:::tab{label=\"Second\"}\ntwo\n:::\n::::\n",
			"Careful\n\nbody\n\nHow?\n\nhidden\n\nFirst\n\none\n\nSecond\n\ntwo\n"},
		{"figure keeps its image, alt and source",
			":::figure{src=dog.png alt=\"A good dog\"}\nOur dog.\n:::\n", "![A good dog](<dog.png>)\n\nOur dog.\n"},
		{"static stat, progress and rating keep label and value",
			"::stat{label=\"Users\" value=\"1,204\"}\n::progress{label=Done value=3 max=4}\n::rating{value=4}\n",
			"Users: 1,204\n\nDone: 3/4\n\n4\n"},
		{"value without a value reads as its empty state",
			"Stars: :value[stars] and :value[].\n", "Stars: {stars} and {value}.\n"},
		{"leaf removed",
			"before\n\n::divider{width=narrow}\n\nafter\n", "before\n\nafter\n"},
		{"inline replaced by label source",
			"Hi :badge[*new* :value[x.y]]{tone=info}!\n", "Hi *new* {x.y}!\n"},
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
			"---\nuses: [a]\n---\n::leaf\ntext\n", "---\nuses: [a]\n---\n\ntext\n"},
		{"directives in code untouched",
			"```\n:::note\n::leaf\n```\n", "```\n:::note\n::leaf\n```\n"},
		{"quoted container",
			"> :::card\n> quoted\n> :::\n", ">\n> quoted\n>\n"},
		{"literal stray fence kept",
			":::outer\n::::inner\ntext\n::::\n:::\n", "text\n\n:::\n"},
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
