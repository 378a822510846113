package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestDir(t *testing.T) {
	cases := []struct {
		goos string
		env  func(string) string
		want string
	}{
		{"linux", env("XDG_CONFIG_HOME", "/x", "HOME", "/h"), "/x/markii"},
		{"linux", env("XDG_CONFIG_HOME", "rel/dir", "HOME", "/h"), "/h/.config/markii"},
		{"linux", env("XDG_CONFIG_HOME", ".", "HOME", "/h"), "/h/.config/markii"},
		{"freebsd", env("HOME", "/h"), "/h/.config/markii"},
		{"darwin", env("HOME", "/Users/u", "XDG_CONFIG_HOME", "/x"), "/Users/u/Library/Application Support/markii"},
		{"windows", env("APPDATA", `C:\Users\u\AppData\Roaming`), filepath.Join(`C:\Users\u\AppData\Roaming`, "markii")},
		{"windows", env("USERPROFILE", `C:\Users\u`), filepath.Join(`C:\Users\u`, "AppData", "Roaming", "markii")},
	}
	for _, c := range cases {
		got, err := Dir(c.goos, c.env)
		if err != nil || got != c.want {
			t.Errorf("Dir(%s) = %q, %v; want %q", c.goos, got, err, c.want)
		}
	}
	if _, err := Dir("linux", env("HOME", "relative")); err == nil {
		t.Error("a relative HOME was accepted")
	}
}

func write(t *testing.T, dir, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	s, err := LoadFile(filepath.Join(dir, "missing.json"))
	if err != nil || s.ScriptsDisabled || s.RunOnOpen || s.AllowPrivateNetworkAddresses || s.RefreshIntervalSeconds != 0 || s.Packs != nil {
		t.Fatalf("missing file: %+v %v", s, err)
	}
	p := write(t, dir, `{"scriptsDisabled":true,"runOnOpen":true,"refreshIntervalSeconds":2,
		"allowPrivateNetworkAddresses":true,"packs":["/opt/packs/ana"],"openLinksInBrowser":true}`)
	s, err = LoadFile(p)
	if err != nil || !s.ScriptsDisabled || !s.RunOnOpen || !s.AllowPrivateNetworkAddresses || !s.OpenLinksInBrowser ||
		s.RefreshIntervalSeconds != MinRefreshSeconds || !slices.Equal(s.Packs, []string{"/opt/packs/ana"}) || s.Path != p {
		t.Fatalf("%+v %v", s, err)
	}
	p = write(t, dir, `{"refreshIntervalSeconds":60}`)
	if s, _ := LoadFile(p); s.RefreshIntervalSeconds != 60 {
		t.Fatalf("interval %d", s.RefreshIntervalSeconds)
	}
	bad := map[string]string{
		"not json":       `scriptsDisabled = true`,
		"truncated":      `{"runOnOpen": tr`,
		"array":          `[true]`,
		"null":           `null`,
		"string bool":    `{"scriptsDisabled":"yes"}`,
		"null bool":      `{"runOnOpen":null}`,
		"browser string": `{"openLinksInBrowser":"yes"}`,
		"fraction":       `{"refreshIntervalSeconds":7.5}`,
		"negative":       `{"refreshIntervalSeconds":-5}`,
		"string number":  `{"refreshIntervalSeconds":"10"}`,
		"relative pack":  `{"packs":["packs/ana"]}`,
		"pack a string":  `{"packs":"/opt/packs"}`,
		"trailing":       `{"runOnOpen":true} {"runOnOpen":false}`,
		"width fraction": `{"maxWidth":100.5}`,
		"width negative": `{"maxWidth":-1}`,
		"width string":   `{"maxWidth":"wide"}`,
		"width huge":     `{"maxWidth":1e9}`,
		"paging bool":    `{"paging":true}`,
		"paging unknown": `{"paging":"sometimes"}`,
		"empty":          ``,
	}
	for name, text := range bad {
		p := write(t, dir, text)
		_, err := LoadFile(p)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, p) || strings.ContainsAny(msg, "\n\x1b") {
			t.Errorf("%s: message %q must be one line naming the file", name, msg)
		}
	}
}

func TestSyntaxErrorsNameTheirPlace(t *testing.T) {
	for _, c := range []struct {
		name, text string
		line, col  int
		problem    string
	}{
		{"truncated", "{\n  \"runOnOpen\": tr", 2, 18, "ends before the JSON object does"},
		{"cut after a member", "{\n  \"runOnOpen\": true,\n", 3, 1, "ends before the JSON object does"},
		{"missing comma", "{\n  \"runOnOpen\": true\n  \"scriptsDisabled\": true\n}", 3, 3, "invalid character '\"' after object key:value pair"},
		{"trailing comma", "{\"runOnOpen\": true,}", 1, 20, "invalid character '}'"},
		{"column counts characters", "{\"é\": 1 2}", 1, 9, "invalid character '2'"},
		{"not json", "scriptsDisabled = true", 1, 1, "invalid character 's'"},
		{"array", "\n [true]", 2, 2, "must be a JSON object, not array"},
		{"null", "null", 1, 1, "not null"},
		{"empty", " \n", 2, 1, "the file is empty"},
		{"trailing text", "{\"runOnOpen\":true}\n\n  {}", 3, 3, "more text after the JSON object"},
	} {
		_, err := Parse([]byte(c.text))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != c.line || se.Column != c.col || !strings.Contains(se.Problem, c.problem) {
			t.Errorf("%s: %v (%#v); want line %d, column %d, %q", c.name, err, se, c.line, c.col, c.problem)
		}
	}
	p := write(t, t.TempDir(), "{\n  \"runOnOpen\": true,\n")
	_, err := LoadFile(p)
	if want := "the settings file " + p + " is invalid: line 3, column 1: the file ends before the JSON object does; fix or remove it"; err == nil || err.Error() != want {
		t.Errorf("LoadFile: %v\nwant %s", err, want)
	}
}

func TestUnknownKeysAreListedNotFatal(t *testing.T) {
	s, err := Parse([]byte("{\"runOnOpen\": true, \"zoom\": 2, \"\\u001b[31mevil\": 1, \"allowAllHosts\": true}"))
	if err != nil || !s.RunOnOpen || !slices.Equal(s.Unknown, []string{"[31mevil", "allowAllHosts", "zoom"}) {
		t.Fatalf("%+v %v", s, err)
	}
	if s.AllowPrivateNetworkAddresses {
		t.Fatal("an unknown key widened reach")
	}
}

func TestWidthCap(t *testing.T) {
	for text, want := range map[string]int{`{}`: DefaultMaxWidth, `{"maxWidth":0}`: DefaultMaxWidth, `{"maxWidth":72}`: 72, `{"maxWidth":400}`: 400} {
		s, err := Parse([]byte(text))
		if err != nil || s.WidthCap() != want {
			t.Errorf("%s: cap %d, %v; want %d", text, s.WidthCap(), err, want)
		}
	}
}

func TestPaging(t *testing.T) {
	for text, want := range map[string]Paging{`{}`: PagingAuto, `{"paging":"auto"}`: PagingAuto, `{"paging":"always"}`: PagingAlways, `{"paging":"never"}`: PagingNever} {
		s, err := Parse([]byte(text))
		if err != nil || s.Paging != want {
			t.Errorf("%s: paging %v, %v; want %v", text, s.Paging, err, want)
		}
	}
}

// TestOnlyTheUserConfigCounts puts settings that would widen reach in
// every place a note or a working directory controls, and checks that Load
// reads none of them.
func TestOnlyTheUserConfigCounts(t *testing.T) {
	work := t.TempDir()
	hostile := `{"allowPrivateNetworkAddresses":true,"runOnOpen":true,"refreshIntervalSeconds":5}`
	write(t, work, hostile)
	write(t, filepath.Join(work, "markii"), hostile)
	write(t, filepath.Join(work, ".markii"), hostile)
	write(t, filepath.Join(work, ".config", "markii"), hostile)
	t.Chdir(work)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", ".")
	// As markii reads them: the config directory the environment names.
	load := func() (Settings, error) {
		dir, err := Dir(runtime.GOOS, os.Getenv)
		if err != nil {
			return Settings{}, err
		}
		return LoadFile(filepath.Join(dir, FileName))
	}
	s, err := load()
	if err != nil || s.AllowPrivateNetworkAddresses || s.RunOnOpen || s.RefreshIntervalSeconds != 0 {
		t.Fatalf("settings came from the working directory: %+v %v", s, err)
	}
	write(t, filepath.Join(home, ".config", "markii"), `{"runOnOpen":true}`)
	s, err = load()
	if err != nil || !s.RunOnOpen || s.AllowPrivateNetworkAddresses {
		t.Fatalf("the user's own file was not read alone: %+v %v", s, err)
	}
}

// TestSyntaxErrorKeepsTheDecodersError: the place is markii's, the cause
// is still the JSON decoder's.
func TestSyntaxErrorKeepsTheDecodersError(t *testing.T) {
	_, err := Parse([]byte(`{"a": }`))
	var se *SyntaxError
	var je *json.SyntaxError
	if !errors.As(err, &se) || !errors.As(err, &je) {
		t.Fatalf("%#v: want a *SyntaxError wrapping the decoder's *json.SyntaxError", err)
	}
}
