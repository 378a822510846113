// Package goldens holds markii's golden files and the tests that keep the
// renderer honest: fixtures rendered at fixed widths and color levels,
// the hostile-byte probe suite, the environment test, bad-input tests and
// the render fuzzer.
//
// Rewrite the golden files with `go test ./... -update` (or
// `go test ./goldens -update`) and review the diff before committing.
package goldens

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/golden"
	"github.com/markii/markii/value"
)

// goldenCase is one rendering of a fixture.
type goldenCase struct {
	Width int
	Level ansi.Level
}

// file is the golden file name for fixture name at c.
func (c goldenCase) file(name string) string {
	return fmt.Sprintf("%s.w%d.%s.txt", name, c.Width, c.Level)
}

// casesFor returns the widths and levels a fixture is rendered at: 40, 80
// and 120 at none and truecolor, 80 at 16 and 256; component fixtures
// (comp-*) also at 60.
func casesFor(name string) []goldenCase {
	widths := []int{40, 80, 120}
	if strings.HasPrefix(name, "comp-") {
		widths = []int{40, 60, 80, 120}
	}
	var cs []goldenCase
	for _, w := range widths {
		cs = append(cs, goldenCase{w, ansi.None}, goldenCase{w, ansi.TrueColor})
	}
	return append(cs, goldenCase{80, ansi.Color16}, goldenCase{80, ansi.Color256})
}

func TestGoldens(t *testing.T) {
	root := repoRoot(t)
	goldenDir := filepath.Join(root, "goldens")
	expected := map[string]bool{}
	for _, fx := range listFixtures(t) {
		src, err := os.ReadFile(fx.Path)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := valuesFor(fx)
		if err != nil {
			t.Fatalf("%s: %v", fx.ValuesPath, err)
		}
		for _, c := range casesFor(fx.Name) {
			name := c.file(fx.Name)
			expected[name] = true
			t.Run(name, func(t *testing.T) {
				got := renderNote(src, c.Width, c.Level, vals)
				if err := ansi.Validate(got); err != nil {
					t.Errorf("output fails ansi.Validate: %v", err)
				}
				compareGolden(t, filepath.Join(goldenDir, name), got)
			})
		}
	}
	// A golden without a fixture is stale: delete it on -update, fail
	// otherwise.
	existing, err := filepath.Glob(filepath.Join(goldenDir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, p := range existing {
		if !expected[filepath.Base(p)] {
			stale = append(stale, filepath.Base(p))
		}
	}
	sort.Strings(stale)
	for _, s := range stale {
		if golden.Update() {
			if err := os.Remove(filepath.Join(goldenDir, s)); err != nil {
				t.Error(err)
			}
			continue
		}
		t.Errorf("stale golden %s has no fixture (go test ./goldens -update removes it)", s)
	}
}

// valuesFor loads a fixture's values file, or returns nil when it has none.
func valuesFor(fx fixture) (value.Values, error) {
	if fx.ValuesPath == "" {
		return nil, nil
	}
	data, err := os.ReadFile(fx.ValuesPath)
	if err != nil {
		return nil, err
	}
	return loadValues(data)
}

// TestCLIMatchesGoldens checks that `markii render` (the real binary) prints
// the same bytes as the library path the goldens come from.
func TestCLIMatchesGoldens(t *testing.T) {
	if golden.Update() {
		t.Skip("goldens are being rewritten")
	}
	bin := markiiBinary(t)
	env := baseEnv()
	for _, fx := range listFixtures(t) {
		for _, c := range []goldenCase{{80, ansi.TrueColor}, {40, ansi.None}} {
			name := c.file(fx.Name)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				want, err := os.ReadFile(filepath.Join(repoRoot(t), "goldens", name))
				if err != nil {
					t.Fatalf("missing golden: %v", err)
				}
				args := []string{"render", "--width", fmt.Sprint(c.Width), "--color", c.Level.String(), "--theme", "dark"}
				if c.Level == ansi.None {
					args[4] = "never"
				}
				if fx.ValuesPath != "" {
					args = append(args, "--values", fx.ValuesPath, "--now", fixedNow.Format("2006-01-02T15:04:05Z07:00"))
				}
				args = append(args, fx.Path)
				got, stderr, code := runMarkiiFull(bin, args, env, nil)
				if code != 0 {
					t.Fatalf("markii %s: exit %d: %s", strings.Join(args, " "), code, stderr)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("markii %s differs from %s\n%s", strings.Join(args, " "), name, firstDifference(got, want))
				}
			})
		}
	}
}
