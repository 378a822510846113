package render

import "testing"

func TestMayHaveScripts(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		"# t\n\n```lua {name=a}\nreturn 1\n```\n":  true,
		"~~~lua {name=a}\nreturn 1\n~~~\n":         true,
		"```lua\nreturn {1}\n```\n":                false,
		"plain {braces} and ``` inline ``` text\n": false,
		"": false,
	} {
		if got := MayHaveScripts([]byte(src)); got != want {
			t.Errorf("MayHaveScripts(%q) = %v, want %v", src, got, want)
		}
	}
}
