package render

import "testing"

func TestMisleadingLink(t *testing.T) {
	cases := []struct {
		text, target, host string
	}{
		{"https://bank.com", "https://evil.example/", "evil.example"},
		{"bank.com", "https://evil.example/login", "evil.example"},
		{"www.bank.com/login", "http://evil.example", "evil.example"},
		{"<https://bank.com>", "https://evil.example/", "evil.example"},
		{"https://bank.com", "https://bank.com@evil.example/", "evil.example"},
		{"https://bank.com", "https://bank.com.evil.example/", "bank.com.evil.example"},
		{"bank.com", "https://bаnk.com/" /* Cyrillic а */, "xn--bnk-6cd.com"},
		{"10.0.0.1:8080", "https://evil.example/", "evil.example"},
		{"HTTPS://Bank.COM./x", "https://EVIL.example./", "evil.example"},
		{"https://user@bank.com/", "https://evil.example/", "evil.example"},
		// Not misleading: same host, its www twin, no host in the target,
		// text that is not an address.
		{"https://bank.com", "https://bank.com/login", ""},
		{"bank.com", "https://www.bank.com/", ""},
		{"www.bank.com", "https://bank.com/", ""},
		{"Bank.com", "https://bank.COM/", ""},
		{"bank.com", "./bank.com.mk.md", ""},
		{"bob@bank.com", "mailto:eve@evil.example", ""},
		{"bank.com", "mailto:eve@evil.example", ""},
		{"the bank", "https://evil.example/", ""},
		{"log in at bank.com", "https://evil.example/", ""},
		{"e.g", "https://evil.example/", ""},
		{"v1.2", "https://evil.example/", ""},
		{"", "https://evil.example/", ""},
	}
	for _, c := range cases {
		host, ok := misleadingLink(c.text, c.target)
		if ok != (c.host != "") || host != c.host {
			t.Errorf("misleadingLink(%q, %q) = %q %v, want %q", c.text, c.target, host, ok, c.host)
		}
	}
}
