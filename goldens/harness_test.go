package goldens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/golden"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// levels are every color level, in the order goldens name them.
var levels = []ansi.Level{ansi.None, ansi.Color16, ansi.Color256, ansi.TrueColor}

// fixedNow is the clock every golden and probe render uses, so `relative`
// dates are stable.
var fixedNow = time.Date(2026, 9, 1, 12, 0, 0, 0, time.UTC)

// repoRoot is the module root (the directory above goldens/).
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test source file")
	}
	return filepath.Dir(filepath.Dir(file))
}

// fixture is one input note and its optional values file.
type fixture struct {
	Name       string // file name without .mk.md
	Path       string
	ValuesPath string // "" when there is no NAME.values.json
}

// listFixtures returns every fixtures/*.mk.md, sorted by name.
func listFixtures(t testing.TB) []fixture {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "fixtures")
	paths, err := filepath.Glob(filepath.Join(dir, "*.mk.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	var out []fixture
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".mk.md")
		f := fixture{Name: name, Path: p}
		vp := filepath.Join(dir, name+".values.json")
		if _, err := os.Stat(vp); err == nil {
			f.ValuesPath = vp
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		t.Fatalf("no fixtures found in %s", dir)
	}
	return out
}

// loadValues reads a values file in the shape `markii render --values`
// accepts: a JSON object mapping a script name to its value, or to an
// entry object {"value": …, "status": …, "failureKind": …}.
func loadValues(data []byte) (value.Values, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	vals := value.Values{}
	for name, msg := range raw {
		vals[name] = entryFor(msg)
	}
	return vals, nil
}

// entryFor reads one values-file member the way `markii render --values`
// does: an entry object when it is an object with a string status and no
// keys besides value, status, failureKind, error and ranAt (a null value is
// no value), otherwise a fresh plain value.
func entryFor(msg json.RawMessage) value.Entry {
	var obj map[string]json.RawMessage
	if json.Unmarshal(msg, &obj) == nil && obj != nil {
		var status string
		if s, ok := obj["status"]; ok && json.Unmarshal(s, &status) == nil {
			entryShaped := true
			for k := range obj {
				switch k {
				case "value", "status", "failureKind", "error", "ranAt":
				default:
					entryShaped = false
				}
			}
			if entryShaped {
				e := value.Entry{Status: value.Status(status)}
				if v := obj["value"]; !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
					e.Value = v
				}
				if fk, ok := obj["failureKind"]; ok {
					_ = json.Unmarshal(fk, &e.FailureKind)
				}
				return e
			}
		}
	}
	return value.Entry{Value: msg, Status: value.Fresh}
}

// renderNote runs the library path: Parse, Layout, Encode.
func renderNote(src []byte, width int, level ansi.Level, values value.Values) []byte {
	doc := render.Parse(src)
	page := render.Layout(doc, render.Options{
		Width:  width,
		Level:  level,
		Theme:  theme.Dark,
		Values: values,
		Now:    fixedNow,
	})
	return ansi.Encode(page.Lines, level)
}

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// markiiBinary builds the real markii binary once per test run and returns
// its path.
func markiiBinary(t testing.TB) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "markii-goldens-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "markii")
		cmd := exec.Command("go", "build", "-o", binaryPath, "github.com/markii/markii")
		cmd.Dir = repoRoot(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// firstDifference describes where got and want first differ, with escape
// bytes shown quoted.
// compareGolden checks got against the golden file at path, or rewrites
// the file when the run was given -update.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if golden.Update() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden (run go test ./goldens -update and review it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("render differs from %s (run go test ./goldens -update and review the diff)\n%s", path, firstDifference(got, want))
	}
}

func firstDifference(got, want []byte) string {
	gl := bytes.Split(got, []byte("\n"))
	wl := bytes.Split(want, []byte("\n"))
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w []byte
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if !bytes.Equal(g, w) {
			return fmt.Sprintf("line %d:\n   got %q\n  want %q", i+1, g, w)
		}
	}
	return "outputs differ only in length"
}
