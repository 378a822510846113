package netclient

import (
	"strings"
	"testing"
)

func TestHostOf(t *testing.T) {
	cases := map[string]string{
		"https://API.Example.com/x?y#z":       "api.example.com",
		"http://user:pw@h.example:8080/":      "h.example",
		"http://[::1]:80/":                    "::1",
		"http://127.0.0.1:9/":                 "127.0.0.1",
		"not a url":                           "",
		"https://exa\u202emple.com/":          "exa⟨U+202E⟩mple.com",
		"https://bad\x1b]0;x\x07host/":        "bad]0;xhost",
		"https://" + strings.Repeat("a", 300): strings.Repeat("a", 253),
	}
	for in, want := range cases {
		if got := HostOf(in); got != want {
			t.Errorf("HostOf(%q) = %q, want %q", in, got, want)
		}
	}
}
