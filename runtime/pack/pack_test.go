package pack

import (
	"archive/zip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/script"
)

const anaJSON = `{"name":"ana","engine":"react","version":"1.2.0","components":{
	"timeline":"components/timeline.tsx",
	"stat":{"source":"components/stat.tsx","kind":"leaf","description":"a number",
	        "attributes":[{"name":"label","required":true},{"name":"tone","values":["a","b"],"default":"a"}],"color":"x"}}}`

func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeMkp(t *testing.T, path string, names []string, contents []string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for i, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(contents[i]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

func TestParseManifest(t *testing.T) {
	m, err := ParseManifest([]byte(anaJSON))
	if err != nil {
		t.Fatal(err)
	}
	want := Component{Name: "stat", Source: "components/stat.tsx", Description: "a number", Kind: "leaf",
		Attributes: []Attribute{{Name: "label", Required: true}, {Name: "tone", Values: []string{"a", "b"}, Default: "a"}}}
	if !reflect.DeepEqual(m.Components["stat"], want) || m.Components["timeline"].Kind != "container" || m.Version != "1.2.0" {
		t.Fatalf("got %+v", m)
	}
	if len(m.Warnings) != 1 || m.Warnings[0] != `components.stat has an unknown key "color"` {
		t.Fatalf("warnings %q", m.Warnings)
	}
	bad := map[string]string{
		`{"name":"Ana_x","engine":"react","components":{"a":"a.js"}}`:                  `pack.json is invalid: "name" must be a lowercase-kebab pack name`,
		`{"name":"scripts","engine":"react","components":{"a":"a.js"}}`:                `pack.json is invalid: "name" must be a lowercase-kebab pack name`,
		`{"name":"ana","engine":"","components":{"a":"a.js"}}`:                         `pack.json is invalid: "engine" must be a non-empty string`,
		`{"name":"ana","engine":"r","components":{}}`:                                  `pack.json is invalid: "components" must be a non-empty object`,
		`{"name":"ana","engine":"r","version":"1.2","components":{"a":"a.js"}}`:        `pack.json is invalid: "version" must look like "1.2.3"`,
		`{"name":"ana","engine":"r","components":{"a":{"kind":"leaf"}}}`:               `pack.json is invalid: components.a.source is missing`,
		`{"name":"ana","engine":"r","components":{"a":{"source":"x","kind":"block"}}}`: `pack.json is invalid: components.a.kind must be inline, leaf or container`,
		`{"name":"ana","engine":"r","components":{"a:b":"x"}}`:                         `pack.json is invalid: components["a:b"] is not a component name`,
		`{"name":"ana","engine":"r","components":{"a":7}}`:                             `pack.json is invalid: components.a must be a source path or an object with "source"`,
		`"ana"`:                                 `pack.json is invalid: it is not a JSON object`,
		strings.Repeat(" ", MaxManifestBytes+1): `pack.json is invalid: it is 262145 bytes, over the 262144-byte limit`,
	}
	for in, want := range bad {
		_, err := ParseManifest([]byte(in))
		var me *ManifestError
		if !errors.As(err, &me) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%.60s: got %v, want %s", in, err, want)
		}
	}
}

// TestDuplicateNamespaceRefusesEveryClaimant: two packs claiming one
// namespace are both refused, with one problem naming both, whatever order
// the folders come in; other packs still load.
func TestDuplicateNamespaceRefusesEveryClaimant(t *testing.T) {
	base := t.TempDir()
	first := writeFiles(t, filepath.Join(base, "one", "ana"), map[string]string{"pack.json": anaJSON, "scripts/m.lua": "return 1"})
	second := writeFiles(t, filepath.Join(base, "two", "ana-fork"), map[string]string{"pack.json": anaJSON, "scripts/m.lua": "return 2"})
	other := writeFiles(t, filepath.Join(base, "three", "dash"), map[string]string{"pack.json": `{"name":"dash","engine":"react","components":{"c":"c.js"}}`})
	for _, order := range [][]string{{first, second, other}, {second, other, first}} {
		s := Load(order)
		if got := s.Names(); !reflect.DeepEqual(got, []string{"dash"}) {
			t.Fatalf("%v: installed %v, want only dash", order, got)
		}
		if _, err := s.Module("ana", "m"); !IsDenialForTest(err) {
			t.Errorf("a refused namespace still serves modules: %v", err)
		}
		if len(s.Problems) != 1 || s.Problems[0].Kind != ProblemDuplicateNamespace || s.Problems[0].Namespace != "ana" ||
			len(s.Problems[0].Claimants) != 2 || !strings.Contains(s.Problems[0].String(), first) ||
			!strings.Contains(s.Problems[0].String(), second) || !strings.Contains(s.Problems[0].String(), `the namespace "ana"`) {
			t.Errorf("%v: problems %q, want one naming both packs", order, s.Problems)
		}
	}
}

func TestLoadFoldersAndArchives(t *testing.T) {
	base := t.TempDir()
	packs := filepath.Join(base, "packs")
	writeFiles(t, filepath.Join(packs, "ana"), map[string]string{
		"pack.json":          anaJSON,
		"scripts/http.lua":   "return {get = 1}",
		"scripts/util/s.lua": "return 's'",
		"scripts/bin.lua":    "\x1bLua",
	})
	writeMkp(t, filepath.Join(packs, "dash-1.0.0.MKP"),
		[]string{"pack.json", "webview.js", "scripts/chart.lua", "other.txt"},
		[]string{`{"name":"dash","engine":"react","components":{"chart":"c.js"}}`, "x", "return 'chart'", "ignored"})
	writeMkp(t, filepath.Join(packs, "nowebview.mkp"), []string{"pack.json"}, []string{`{"name":"nw","engine":"react","components":{"a":"a.js"}}`})
	writeMkp(t, filepath.Join(packs, "evil.mkp"), []string{"pack.json", "webview.js", "../../escape.lua"},
		[]string{`{"name":"evil","engine":"react","components":{"a":"a.js"}}`, "x", "return 1"})
	writeFiles(t, filepath.Join(packs, "not-a-pack"), map[string]string{"readme.txt": "x"})

	s := Load([]string{packs, filepath.Join(base, "missing")})
	if got := s.Names(); !reflect.DeepEqual(got, []string{"ana", "dash"}) {
		t.Fatalf("names %v; problems %q", got, s.Problems)
	}
	var lines []string
	kinds := map[string]ProblemKind{}
	for _, p := range s.Problems {
		lines = append(lines, p.String())
		kinds[filepath.Base(p.Path)] = p.Kind
	}
	problems := strings.Join(lines, "\n")
	if kinds["evil.mkp"] != ProblemNotLoaded || kinds["nowebview.mkp"] != ProblemNotLoaded || kinds["missing"] != ProblemFolderUnreadable {
		t.Errorf("problem kinds %v", kinds)
	}
	for _, want := range []string{
		`evil.mkp is not a valid Markii pack: entry "../../escape.lua" escapes or is malformed (it contains a ".." segment)`,
		"nowebview.mkp was not loaded: it has no webview.js",
		"packs folder " + filepath.Join(base, "missing") + " cannot be read",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "escape.lua")); !os.IsNotExist(err) {
		t.Fatal("a pack entry was written outside")
	}
	ana, _ := s.Get("ana")
	if !reflect.DeepEqual(ana.ComponentNames(), []string{"ana_stat", "ana_timeline"}) {
		t.Fatalf("components %v", ana.ComponentNames())
	}
	if ana.Modules()["util/s"] != "return 's'" {
		t.Fatalf("modules %v", ana.Modules())
	}

	if src, err := s.Module("dash", "chart"); err != nil || src != "return 'chart'" {
		t.Fatalf("dash/chart: %q %v", src, err)
	}
	if src, err := s.Module("ana", "util/s.lua"); err != nil || src != "return 's'" {
		t.Fatalf("ana/util/s: %q %v", src, err)
	}
	var me *bundle.ModuleError
	if _, err := s.Module("ana", "missing"); !errors.As(err, &me) || err.Error() != `require: pack "ana" has no module "missing"` {
		t.Fatalf("got %v", err)
	}
	if _, err := s.Module("ana", "bin"); !errors.As(err, &me) || !strings.Contains(err.Error(), "compiled Lua bytecode") {
		t.Fatalf("got %v", err)
	}
	wantDenial(t, errOf(s.Module("ana", "../x")), `require: bundle path "../x" is refused: it contains a ".." segment`)
	wantDenial(t, errOf(s.Module("charts", "line")), `require: no pack named "charts" is installed`)
	wantDenial(t, errOf((*Set)(nil).Module("charts", "line")), `require: no pack named "charts" is installed`)
}

func TestRequireBundleLocalThroughSession(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"manifest.json": `{"spec":"0.1.0","permissions":{"bundle":["read"]}}`,
		"note.mk.md":    "# x",
		"scripts/m.lua": "return 'm'",
	})
	b, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := b.Session([]bundle.Grant{bundle.GrantRead}, script.TierAuto)
	if src, err := s.Module("scripts/m"); err != nil || src != "return 'm'" {
		t.Fatalf("%q %v", src, err)
	}
	wantDenial(t, errOf(s.Module("scripts/../../m")), `require: bundle path "scripts/../../m.lua" is refused: it contains a ".." segment`)
}

func errOf(_ string, err error) error { return err }

func wantDenial(t *testing.T, err error, reason string) {
	t.Helper()
	var d *script.Denial
	if !errors.As(err, &d) || d.Capability != script.CapRequire || d.Reason != reason {
		t.Fatalf("got %T %v, want a require denial %q", err, err, reason)
	}
}

// IsDenialForTest reports whether err is a capability denial.
func IsDenialForTest(err error) bool {
	var d *script.Denial
	return errors.As(err, &d)
}
