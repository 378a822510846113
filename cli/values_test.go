package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/value"
)

func writeValues(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "values.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadValuesShapes(t *testing.T) {
	t.Parallel()
	p := writeValues(t, `{
		"stars": 18234,
		"repo": {"name": "markii", "status": "not an entry because of name"},
		"plainobj": {"value": 1},
		"weather": {"value": {"temp": 21.5}, "status": "stale"},
		"broken": {"value": null, "status": "error", "failureKind": "limit", "error": "scrubbed", "ranAt": "2026-08-17T10:00:00Z"},
		"gone": {"status": "missing"},
		"empty": {"value": null, "status": "fresh"}
	}`)
	v, err := loadValues(p)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, status value.Status, val, kind string) {
		t.Helper()
		e, ok := v[name]
		if !ok {
			t.Fatalf("%s not loaded", name)
		}
		if e.Status != status || strings.Join(strings.Fields(string(e.Value)), "") != val || e.FailureKind != value.Kind(kind) {
			t.Errorf("%s = {%s %s %q}, want {%s %s %q}", name, e.Status, e.Value, e.FailureKind, status, val, kind)
		}
	}
	check("stars", value.Fresh, "18234", "")
	check("repo", value.Fresh, `{"name":"markii","status":"notanentrybecauseofname"}`, "")
	check("plainobj", value.Fresh, `{"value":1}`, "")
	check("weather", value.Stale, `{"temp":21.5}`, "")
	check("broken", value.Error, "", "limit")
	check("gone", value.Missing, "", "")
	check("empty", value.Fresh, "null", "")
	if got := render.NewValueReader(v).Resolve("weather.temp"); got.Status != value.Stale || got.Value != 21.5 {
		t.Errorf("weather.temp = %+v", got)
	}
}

func TestLoadValuesRejects(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	cases := map[string]string{
		`[1,2]`:                             "not a JSON object",
		`"x"`:                               "not a JSON object",
		`{"a":1`:                            "not valid JSON",
		`{"a":1} {}`:                        "not valid JSON",
		``:                                  "not valid JSON",
		`{"a":1,"a":2}`:                     "appears twice",
		`{"a":{"status":"done","value":1}}`: `"a": status "done"`,
		`{"a":{"status":3}}`:                `"status" must be a string`,
		`{"a":{"status":"fresh"}}`:          `needs a "value"`,
		`{"a":{"status":"error","failureKind":"x"}}`: `"failureKind" must be`,
		`{"a":{"status":"error","failureKind":7}}`:   `"failureKind" must be`,
	}
	for body, want := range cases {
		_, err := loadValues(writeValues(t, body))
		if err == nil {
			t.Errorf("%s: accepted", body)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q, want it to contain %q on one line", body, msg, want)
		}
		if code := report(Stdio{Getenv: env.getenv, Err: &strings.Builder{}}, err); code != ExitFailure {
			t.Errorf("%s: exit %d, want %d", body, code, ExitFailure)
		}
	}
	if _, err := loadValues(filepath.Join(t.TempDir(), "nope.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing file: %v", err)
	}
}

func TestRenderWithValuesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	note := filepath.Join(dir, "n.mk.md")
	src := "Stars :value[stars]{format=compact}, city :value[weather.city], :value[broken], :value[gone].\n\n::stat{data=weather label=Temp}\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	good := writeValues(t, `{"stars": 18234, "weather": {"value": {"value": 21.5, "city": "Lisbon"}, "status": "stale"}, "broken": {"status": "error", "failureKind": "capability-denied"}}`)
	stdout, stderr, code := runCLI(t, "render", note, "--values", good, "--width", "80", "--color", "never")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
	want := "Stars 18.2k, city Lisbon (stale), {broken} (needs permission), {gone}.\n\nTemp\n21.5 (stale)\n"
	if stdout != want {
		t.Errorf("render with values:\n%q\nwant\n%q", stdout, want)
	}
	bad := writeValues(t, `{"stars": {"status": "done"}}`)
	stdout, stderr, code = runCLI(t, "render", note, "--values", bad)
	if code != ExitFailure || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `"stars": status "done"`) {
		t.Errorf("bad values file: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}
