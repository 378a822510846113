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
local a = net.fetch_json("https://API.GitHub.com/repos/x")
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

// TestScanRunTimeAddresses checks the call rule: a net call whose address
// is not one literal counts as building addresses at run time. The
// literals here leave the authority open (no "/" after the host), so the
// literal rule lists nothing either.
func TestScanRunTimeAddresses(t *testing.T) {
	cases := map[string]string{
		"variable":        `local u = "https://a.example" return net.fetch_json(u)`,
		"concatenation":   `return net.fetch_json("https://a.example" .. id)`,
		"method call":     `return net:fetch_json("https://a.example")`,
		"alias":           `local f = net.fetch_json return f("https://a.example")`,
		"table alias":     `local n = net return n.fetch_json("https://a.example")`,
		"dynamic key":     `return net["fetch" .. "_json"]("https://a.example")`,
		"passed along":    `return pcall(net.post, "https://a.example", "x")`,
		"no argument":     `return net.fetch_json()`,
		"relative":        `return net.fetch_json("/api")`,
		"other scheme":    `return net.fetch_json("ftp://a.example/")`,
		"credentials":     `return net.fetch_json("https://u:p@a.example/")`,
		"bad numeric":     `return net.fetch_json("http://256.1.1.1/")`,
		"does not parse":  `return net.fetch_json("https://a.example"`,
		"lua 5.3 syntax":  `return 7 // 2`,
		"call result":     `return net.fetch_json(url())`,
		"bidi host":       "return net.fetch_json(\"https://exa\u202emple.com/\")",
		"mixed script":    `return net.fetch_json("https://xn--pple-43d.com/")`,
		"deeply nested":   "return " + strings.Repeat("(", 400) + "net.fetch_json(x)" + strings.Repeat(")", 400),
		"in table":        `local t = { f = net } return t.f.fetch_json("https://a.example")`,
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

// TestScanClosedURLLiterals checks the literal rule: a string literal
// anywhere in the code whose http(s) authority is closed inside it lists
// its host; one that concatenation could still extend lists nothing.
func TestScanClosedURLLiterals(t *testing.T) {
	cases := []struct {
		name    string
		code    string
		hosts   []string
		runtime bool
	}{
		{"weather: query appended at run time",
			`local params = {"a=1"} local url = "https://api.open-meteo.com/v1/forecast?" .. table.concat(params, "&") return net.fetch_json(url)`,
			[]string{"api.open-meteo.com"}, true},
		{"hacker news: base kept in a variable",
			`local FRONT_URL = "https://hn.algolia.com/api/v1/search?" return net.fetch_json(FRONT_URL .. "tags=front_page")`,
			[]string{"hn.algolia.com"}, true},
		{"fragment closes", `local u = "http://Frag.Example#x" return net.fetch_json(u)`, []string{"frag.example"}, true},
		{"query closes", `local u = "https://q.example?x=1" return net.fetch_json(u)`, []string{"q.example"}, true},
		{"port then path", `local u = "http://127.0.0.1:9/x" return net.fetch_json(u)`, []string{"127.0.0.1"}, true},
		{"ipv6 with port", `local u = "http://[::1]:9/" return net.fetch_json(u)`, []string{"::1"}, true},
		{"in a table", `local t = { base = "https://t.example/" } return net.fetch_json(t.base .. "x")`, []string{"t.example"}, true},
		{"never used for a call", `local docs = "https://docs.example/help"`, []string{"docs.example"}, false},
		{"long string", "local u = [[https://long.example/]] return net.fetch_json(u)", []string{"long.example"}, true},
		{"credentials appended", `return net.fetch_json("https://a.example" .. "@b.example/")`, nil, true},
		{"port appended", `return net.fetch_json("http://127.0.0.1" .. ":9/x")`, nil, true},
		{"host appended", `return net.fetch_json("https://" .. "a.example/")`, nil, true},
		{"label appended", `local u = "https://a" return net.fetch_json(u .. ".example/")`, nil, true},
		{"credentials inside", `local u = "https://u:p@a.example/" return net.fetch_json(u)`, nil, true},
		{"backslash inside", `local u = "https://a.example\\@b.example/" return net.fetch_json(u)`, nil, true},
		{"percent-encoded host", `local u = "https://%61.example/" return net.fetch_json(u)`, nil, true},
		{"other scheme", `local u = "ftp://a.example/" return net.fetch_json(u)`, nil, true},
		{"no scheme", `local u = "//a.example/" return net.fetch_json(u)`, nil, true},
		{"leading space", `local u = " https://a.example/" return net.fetch_json(u)`, nil, true},
		{"empty host", `local u = "https:///x" return net.fetch_json(u)`, nil, true},
		{"bidi host", "local u = \"https://exa\u202emple.com/\" return net.fetch_json(u)", nil, true},
		{"does not parse", `local u = "https://a.example/" return net.fetch_json(u`, nil, true},
	}
	for _, c := range cases {
		r := scanCode(c.code)
		if !slices.Equal(r.Hosts, c.hosts) || r.RuntimeAddresses != c.runtime {
			t.Errorf("%s: hosts %v runtime %v, want %v %v (reasons %v)", c.name, r.Hosts, r.RuntimeAddresses, c.hosts, c.runtime, r.Reasons)
		}
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
