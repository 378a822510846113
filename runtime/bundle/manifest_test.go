package bundle

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseManifestValid(t *testing.T) {
	m, err := ParseManifest([]byte(`{
		"spec": "0.3.1-beta.2+build.7",
		"permissions": {"net": {"get": ["API.GitHub.com"], "post": ["hooks.example.org"]},
		                "bundle": ["read", "write:cache/", "write:.cache/"]},
		"uses": ["charts", "ana"],
		"document": "./docs//main.mk.md",
		"title": "extra"
	}`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{
		Spec:     "0.3.1-beta.2+build.7",
		NetGet:   []string{"api.github.com"},
		NetPost:  []string{"hooks.example.org"},
		Bundle:   []Grant{GrantRead, GrantWriteCache},
		Uses:     []string{"charts", "ana"},
		Document: "docs/main.mk.md",
		Warnings: []string{
			`manifest.json has an unknown key "title"`,
			`permissions.bundle uses the legacy spelling "write:cache/"; write "write:.cache/" instead`,
		},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got  %#v\nwant %#v", m, want)
	}
}

func TestParseManifestLegacyMark(t *testing.T) {
	m, err := ParseManifest([]byte(`{"mark":"0.1.0"}`))
	if err != nil || m.Spec != "0.1.0" || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], `legacy key "mark"`) {
		t.Fatalf("got %+v %v", m, err)
	}
	m, err = ParseManifest([]byte(`{"mark":"garbage","spec":"1.2.3"}`))
	if err != nil || m.Spec != "1.2.3" {
		t.Fatalf("spec must win: %+v %v", m, err)
	}
	if m.Document != DefaultDocument {
		t.Fatalf("document %q", m.Document)
	}
}

func TestParseManifestInvalid(t *testing.T) {
	cases := []struct{ in, want string }{
		{`[]`, `manifest.json is invalid: it is not a JSON object`},
		{`{"spec":`, `manifest.json is invalid: it is not valid JSON`},
		{`{"spec":"1.0.0"} {}`, `manifest.json is invalid: it has text after the JSON object`},
		{`{"spec":"1.0.0","spec":"2.0.0"}`, `manifest.json is invalid: key "spec" appears twice`},
		{`{}`, `manifest.json is invalid: "spec" is missing (a version such as "0.1.0")`},
		{`{"spec":"1.0"}`, `manifest.json is invalid: "spec" must be a version string such as "0.1.0"`},
		{`{"spec":1}`, `manifest.json is invalid: "spec" must be a version string such as "0.1.0"`},
		{`{"spec":"1.0.0","permissions":{"bundle":["read","write:/","write:.cache/../x","WRITE:.cache/"]}}`,
			`manifest.json is invalid: permissions.bundle[1] "write:/" is not a bundle permission (use "read" or "write:.cache/"); ` +
				`permissions.bundle[2] "write:.cache/../x" is not a bundle permission (use "read" or "write:.cache/"); ` +
				`permissions.bundle[3] "WRITE:.cache/" is not a bundle permission (use "read" or "write:.cache/")`},
		{`{"spec":"1.0.0","permissions":{"net":{"get":["https://a.com","a.com:80","*.a.com","-a.com","a.com/x",7]}}}`,
			`manifest.json is invalid: permissions.net.get[0] must be a bare hostname such as "api.example.com" (no scheme, port, path or wildcard); ` +
				`permissions.net.get[1] must be a bare hostname`},
		{`{"spec":"1.0.0","permissions":"all"}`, `manifest.json is invalid: "permissions" must be an object`},
		{`{"spec":"1.0.0","document":"../note.mk.md"}`, `manifest.json is invalid: "document" "../note.mk.md" is refused: it contains a ".." segment`},
		{`{"spec":"1.0.0","document":"/etc/passwd"}`, `manifest.json is invalid: "document" "/etc/passwd" is refused: it is absolute`},
		{`{"spec":"1.0.0","document":5}`, `manifest.json is invalid: "document" must be a bundle-relative path string`},
		{`{"spec":"1.0.0","document":"manifest.json"}`, `manifest.json is invalid: "document" cannot be manifest.json`},
		{`{"spec":"1.0.0","document":".cache/n.md"}`, `manifest.json is invalid: "document" cannot live in .cache/`},
		{`{"spec":"1.0.0","uses":["ok","bad name"]}`, `manifest.json is invalid: uses[1] must be a pack name such as "charts"`},
		{`{"spec":"x","permissions":{"bundle":"read"},"uses":{}}`,
			`manifest.json is invalid: "spec" must be a version string such as "0.1.0"; permissions.bundle must be a list such as ["read", "write:.cache/"]; "uses" must be a list of pack names`},
		{"{\"spec\":\"1.0.0\",\"document\":\"a\\u001b[31m\\\\x\"}", `manifest.json is invalid: "document" "a\x1b[31m\\x" is refused: it contains a backslash`},
	}
	for _, c := range cases {
		_, err := ParseManifest([]byte(c.in))
		var me *ManifestError
		if !errors.As(err, &me) {
			t.Errorf("%s: got %v, want a *ManifestError", c.in, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got  %s\n want %s", c.in, err, c.want)
		}
		if strings.ContainsAny(err.Error(), "\n\r\x1b") {
			t.Errorf("%s: message is not one clean line: %q", c.in, err)
		}
	}
}

func TestManifestTenMegabytesOfKeysRefusedQuickly(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"spec":"0.1.0"`)
	for i := 0; sb.Len() < 10<<20; i++ {
		sb.WriteString(`,"k`)
		sb.WriteString(strings.Repeat("x", 8))
		sb.WriteString(`":1`)
	}
	sb.WriteString("}")
	data := []byte(sb.String())
	start := time.Now()
	_, err := ParseManifest(data)
	elapsed := time.Since(start)
	want := fmt.Sprintf("manifest.json is invalid: it is %d bytes, over the 65536-byte limit", len(data))
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	if elapsed > 50*time.Millisecond {
		t.Fatalf("refusing took %v", elapsed)
	}

	// The same manifest inside a bundle: refused as a manifest problem.
	dir := t.TempDir()
	_, err = Open(writeZip(t, dir, "keys.mkz", []entry{{Name: "manifest.json", Data: data}, {Name: "note.mk.md", Data: []byte("x")}}))
	var me *ManifestError
	if !errors.As(err, &me) {
		t.Fatalf("got %v", err)
	}
}

func TestValidHostname(t *testing.T) {
	for _, h := range []string{"a", "api.github.com", "x-1.y", strings.Repeat("a", 63) + ".com"} {
		if !ValidHostname(h) {
			t.Errorf("%q should be valid", h)
		}
	}
	for _, h := range []string{"", "a..b", ".a", "a.", "-a", "a-", "a_b", "a b", "*.a", "a:1", strings.Repeat("a", 64), "é.com"} {
		if ValidHostname(h) {
			t.Errorf("%q should be invalid", h)
		}
	}
}
