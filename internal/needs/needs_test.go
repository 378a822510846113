package needs

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "github.com/markii/markii/internal/golden" // go test ./... -update
)

// childEnv names the empty directory that stands for a machine with only
// Go when this test binary runs TestChildAsksForEveryTool in a child.
const childEnv = "MARKII_NEEDS_CHILD_ROOT"

// TestChildAsksForEveryTool asks for every optional tool; it only runs in
// the child TestGoOnlyMachine starts.
func TestChildAsksForEveryTool(t *testing.T) {
	root := os.Getenv(childEnv)
	if root == "" {
		t.Skip("runs as TestGoOnlyMachine's child")
	}
	fileRoot = root
	for _, tl := range Tools {
		t.Run(tl.Name, func(t *testing.T) {
			Need(t, tl)
			t.Log("reached after Need")
		})
	}
}

// TestGoOnlyMachine runs TestChildAsksForEveryTool with a PATH that holds
// none of the tools and no bash-completion file: every tool's test skips
// with one line naming its package and the run passes; with
// MARKII_REQUIRE_TOOLS=1 every one fails, and so does the run.
func TestGoOnlyMachine(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("the child")
	}
	empty := t.TempDir()
	run := func(require string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildAsksForEveryTool$", "-test.v", "-test.count=1")
		cmd.Env = []string{"PATH=" + empty, "HOME=" + empty, childEnv + "=" + empty}
		if require != "" {
			cmd.Env = append(cmd.Env, RequireEnv+"="+require)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, c := range []struct {
		require string
		fail    bool
	}{{"", false}, {"0", false}, {"1", true}} {
		out, err := run(c.require)
		var exit *exec.ExitError
		if c.fail != errors.As(err, &exit) || (err != nil && exit == nil) {
			t.Fatalf("%s=%q: the run ended with %v, want failing=%v:\n%s", RequireEnv, c.require, err, c.fail, out)
		}
		if strings.Contains(out, "reached after Need") {
			t.Errorf("%s=%q: a test went on without its tool:\n%s", RequireEnv, c.require, out)
		}
		verdict := "SKIP"
		if c.fail {
			verdict = "FAIL"
		}
		for _, tl := range Tools {
			if !strings.Contains(out, "--- "+verdict+": TestChildAsksForEveryTool/"+tl.Name+" ") {
				t.Errorf("%s=%q: %s did not %s:\n%s", RequireEnv, c.require, tl.Name, verdict, out)
			}
			line := tl.Name + " is not installed: install the " + tl.Package + " package (with " + RequireEnv + "=1 this is a failure)"
			if n := strings.Count(out, line); n != 1 {
				t.Errorf("%s=%q: the line %q appears %d times, want once:\n%s", RequireEnv, c.require, line, n, out)
			}
		}
	}
}

// TestEveryToolTestAsks holds the test suite to this package: a test file
// that runs tmux, groff, bash or Chromium, or reads the bash-completion
// script, finds them through needs and never looks for them itself (a
// test that does would fail or pass silently on a machine with only Go).
func TestEveryToolTestAsks(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`exec\.Command(Context)?\((ctx, )?"(tmux|groff|bash|chromium)"|bash-completion/|/usr/bin/chromium`)
	looks := regexp.MustCompile(`exec\.LookPath\("(tmux|groff|bash|chromium)"\)|os\.Stat\(.*(bash_completion|chromium)`)
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (bench)
			}
			if strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == filepath.Join(root, "internal", "needs") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if m := looks.Find(src); m != nil {
			t.Errorf("%s looks for a tool itself (%s): call needs instead", rel, m)
		}
		if uses.Match(src) {
			checked++
			if !bytes.Contains(src, []byte(`"github.com/markii/markii/internal/needs"`)) {
				t.Errorf("%s runs an optional tool without asking needs for it", rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("found no test that runs tmux, groff, bash or Chromium: the pattern is stale")
	}
}
