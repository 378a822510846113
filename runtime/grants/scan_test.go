package grants

import (
	"slices"
	"strings"
	"testing"
)

func scanCode(code ...string) Result {
	var c Closure
	for i, s := range code {
		c.Scripts = append(c.Scripts, Script{Name: string(rune('a' + i)), Lang: "lua", Code: s})
	}
	return Scan(c, Declared{})
}

func TestScanLiteralHosts(t *testing.T) {
	r := scanCode(`
local a = net.fetch_json("https://API.GitHub.com./repos/x")
local b = net.post("http://127.0.0.1:8080/p", "{}")
net.patch("https://bücher.example/x", "b")
local c = net.fetch_json "http://2130706433/"
local d = net.fetch_json("\104ttps://escaped.example/")
local e = net.fetch_json([[https://long.example/q]])
if true then
  local function f() return net.fetch_json("https://[::1]:9/") end
end
return { net.fetch_json("https://api.github.com/other") }
`)
	want := []string{"127.0.0.1", "::1", "api.github.com", "escaped.example", "long.example", "xn--bcher-kva.example"}
	if !slices.Equal(r.Hosts, want) || r.RuntimeAddresses {
		t.Fatalf("hosts %v runtime %v reasons %v", r.Hosts, r.RuntimeAddresses, r.Reasons)
	}
}

func TestScanRunTimeAddresses(t *testing.T) {
	cases := map[string]string{
		"variable":        `local u = "https://a.example/" return net.fetch_json(u)`,
		"concatenation":   `return net.fetch_json("https://a.example/" .. id)`,
		"method call":     `return net:fetch_json("https://a.example/")`,
		"alias":           `local f = net.fetch_json return f("https://a.example/")`,
		"table alias":     `local n = net return n.fetch_json("https://a.example/")`,
		"dynamic key":     `return net["fetch" .. "_json"]("https://a.example/")`,
		"passed along":    `return pcall(net.post, "https://a.example/", "x")`,
		"no argument":     `return net.fetch_json()`,
		"relative":        `return net.fetch_json("/api")`,
		"other scheme":    `return net.fetch_json("ftp://a.example/")`,
		"credentials":     `return net.fetch_json("https://u:p@a.example/")`,
		"bad numeric":     `return net.fetch_json("http://256.1.1.1/")`,
		"does not parse":  `return net.fetch_json("https://a.example/"`,
		"lua 5.3 syntax":  `return 7 // 2`,
		"call result":     `return net.fetch_json(url())`,
		"bidi host":       "return net.fetch_json(\"https://exa\u202emple.com/\")",
		"mixed script":    `return net.fetch_json("https://xn--pple-43d.com/")`,
		"deeply nested":   "return " + strings.Repeat("(", 400) + "net.fetch_json(x)" + strings.Repeat(")", 400),
		"in table":        `local t = { f = net } return t.f.fetch_json("https://a.example/")`,
		"in deep table":   "local t = " + strings.Repeat("{", 300) + "1" + strings.Repeat("}", 300),
		"field as string": `return net["fetch_json"] and 1`,
	}
	for name, code := range cases {
		r := scanCode(code)
		if !r.RuntimeAddresses {
			t.Errorf("%s: not counted as building addresses at run time (hosts %v)", name, r.Hosts)
		}
		if slices.Contains(r.Hosts, "a.example") && name != "no argument" {
			t.Errorf("%s: a.example was listed as grantable", name)
		}
	}
	// A bare check that net exists proves nothing but hides nothing either.
	r := scanCode(`if net and net ~= nil and not (net == nil) then return net.fetch_json("https://ok.example/") end`)
	if r.RuntimeAddresses || !slices.Equal(r.Hosts, []string{"ok.example"}) {
		t.Fatalf("net existence check: %+v", r)
	}
}

func TestScanSrcModulesAndPacks(t *testing.T) {
	c := Closure{
		Scripts: []Script{
			{Name: "inline", Lang: "lua", Code: `return 1`},
			{Name: "file", Lang: "lua", HasSrc: true, Src: "scripts/a.lua"},
		},
		BundleModules: []Module{
			{Path: "scripts/a.lua", Source: `return net.fetch_json("https://from-src.example/")`},
			{Path: "scripts/util.lua", Source: `return net.post("https://from-module.example/", "x")`},
		},
		Packs: []Pack{{Namespace: "ana", Version: "1.0.0", ModulesKnown: true,
			Modules: []Module{{Path: "http", Source: `return net.fetch_json("https://from-pack.example/")`}}}},
	}
	r := Scan(c, Declared{})
	want := []string{"from-module.example", "from-pack.example", "from-src.example"}
	if !slices.Equal(r.Hosts, want) || r.RuntimeAddresses {
		t.Fatalf("%+v", r)
	}
	c.Scripts[1].Unresolved = true
	if r := Scan(c, Declared{}); !r.RuntimeAddresses {
		t.Fatal("an unresolved src= file did not count as unknown")
	}
	c.Scripts[1].Unresolved = false
	c.Packs = append(c.Packs, Pack{Namespace: "opaque", Version: "2.0.0"})
	if r := Scan(c, Declared{}); !r.RuntimeAddresses {
		t.Fatal("a pack with unknown modules did not count as unknown")
	}
}

func TestScanForgedDeclarations(t *testing.T) {
	c := Closure{Scripts: []Script{{Name: "a", Code: `return net.fetch_json("https://api.example/")`}}}
	r := Scan(c, Declared{Hosts: []string{"api.example", "evil.example", "169.254.169.254", "API.EXAMPLE", "bad host\x1b[2J"}})
	if !slices.Equal(r.Hosts, []string{"api.example"}) {
		t.Fatalf("declared hosts leaked into the grantable list: %v", r.Hosts)
	}
	if !slices.Equal(r.Declared, []string{"169.254.169.254", "api.example", "evil.example"}) {
		t.Fatalf("declared %v", r.Declared)
	}
	joined := strings.Join(r.Mismatch, "\n")
	for _, want := range []string{"evil.example", "169.254.169.254", "not a valid host name"} {
		if !strings.Contains(joined, want) {
			t.Errorf("mismatch diagnostics %q lack %q", joined, want)
		}
	}
	if strings.ContainsRune(joined, 0x1b) {
		t.Fatal("a diagnostic carried a control character from the declaration")
	}
	// Code naming a host the declaration omits is a mismatch too.
	r = Scan(c, Declared{Hosts: []string{"other.example"}})
	if !strings.Contains(strings.Join(r.Mismatch, "\n"), "api.example, which the note does not declare") {
		t.Fatalf("mismatch %v", r.Mismatch)
	}
}

func TestPresentable(t *testing.T) {
	yes := []string{"api.github.com", "localhost", "127.0.0.1", "::1", "xn--bcher-kva.example",
		"xn--r8jz45g.jp" /* 例え (Han + Hiragana) */, "xn--80ak6aa92e.com" /* all Cyrillic */}
	no := []string{"API.github.com", "api.github.com.", "xn--pple-43d.com" /* Cyrillic а + Latin */, "a b", "exa\u202emple.com",
		"xn--zz", "", "a_b.com", "[::1]", "evil\x00.com", "2130706433"}
	for _, h := range yes {
		if !Presentable(h) {
			t.Errorf("Presentable(%q) = false", h)
		}
	}
	for _, h := range no {
		if Presentable(h) {
			t.Errorf("Presentable(%q) = true", h)
		}
	}
}

// TestCleanLabelScriptMixes checks each allowed script combination and
// the mixes that stay refused.
func TestCleanLabelScriptMixes(t *testing.T) {
	for label, want := range map[string]bool{
		"abc123":     true,  // Latin and digits
		"カタカナabc":    true,  // Katakana + Latin
		"漢字ひらがなカタカナ": true,  // Japanese
		"注音ㄅㄆ":       true,  // Han + Bopomofo
		"한국어abc":     true,  // Hangul + Latin
		"한국ひら":       false, // Hangul + Hiragana
		"ㄅㄆカタ":       false, // Bopomofo + Katakana
		"abcαβγ":     false, // Latin + Greek
		"раураl":     false, // Cyrillic + Latin
		"ελληνικά":   true,  // all Greek
	} {
		if got := cleanLabel(label); got != want {
			t.Errorf("cleanLabel(%q) = %v, want %v", label, got, want)
		}
	}
}
