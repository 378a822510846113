package goldens

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/markii/markii/ansi"
)

// colorEnv are the variables that influence color detection; the
// environment test controls all of them.
var colorEnv = map[string][]string{
	"NO_COLOR":       {"", "1"},
	"FORCE_COLOR":    {"0", "1", "3"},
	"TERM":           {"dumb", "xterm-256color"},
	"COLORTERM":      {"truecolor"},
	"CLICOLOR":       {"0", "1"},
	"CLICOLOR_FORCE": {"1"},
	"CI":             {"true"},
}

// unset marks a variable left out of the environment.
const unset = "\x00unset"

// envCombinations returns every combination of the color variables, each
// variable either unset or one of its values.
func envCombinations() [][]string {
	keys := make([]string, 0, len(colorEnv))
	for k := range colorEnv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	combos := [][]string{nil}
	for _, k := range keys {
		var next [][]string
		for _, c := range combos {
			for _, v := range append([]string{unset}, colorEnv[k]...) {
				nc := append(append([]string{}, c...), "")
				if v == unset {
					nc = nc[:len(nc)-1]
				} else {
					nc[len(nc)-1] = k + "=" + v
				}
				next = append(next, nc)
			}
		}
		combos = next
	}
	return combos
}

// baseEnv is the test process's environment without any color variable,
// and with a config directory of its own that holds no settings, so the
// user's settings never reach a test.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := colorEnv[k]; ok || k == "XDG_CONFIG_HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "XDG_CONFIG_HOME="+filepath.Join(os.TempDir(), fmt.Sprintf("markii-goldens-no-config-%d", os.Getpid())))
}

// TestEnvironmentDoesNotChangeOutput runs the real binary in a separate
// process under every combination of the color variables: at an explicit
// color level the bytes must be identical.
func TestEnvironmentDoesNotChangeOutput(t *testing.T) {
	bin := markiiBinary(t)
	note := filepath.Join(repoRoot(t), "fixtures", "readme.mk.md")
	combos := envCombinations()
	base := baseEnv()
	for _, color := range []string{"256", "never"} {
		args := []string{"render", "--color", color, "--width", "80", note}
		ref, err := runMarkii(bin, args, base)
		if err != nil {
			t.Fatalf("--color %s: %v", color, err)
		}
		if err := ansi.Validate(ref); err != nil {
			t.Fatalf("--color %s: %v", color, err)
		}
		switch color {
		case "256":
			if !bytes.Contains(ref, []byte("\x1b[")) || !bytes.Contains(ref, []byte("38;5;")) {
				t.Fatalf("--color 256 printed no 256-color SGR:\n%q", ref)
			}
			if bytes.Contains(ref, []byte("38;2;")) {
				t.Fatalf("--color 256 printed truecolor SGR")
			}
		case "never":
			if bytes.IndexByte(ref, 0x1b) >= 0 {
				t.Fatalf("--color never printed an escape byte")
			}
		}
		var (
			mu       sync.Mutex
			failures []string
			wg       sync.WaitGroup
			sem      = make(chan struct{}, 2*runtime.GOMAXPROCS(0))
		)
		for _, combo := range combos {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				env := append(append([]string{}, base...), combo...)
				out, err := runMarkii(bin, args, env)
				var msg string
				switch {
				case err != nil:
					msg = err.Error()
				case !bytes.Equal(out, ref):
					msg = "output differs: " + firstDifference(out, ref)
				}
				if msg != "" {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("--color %s with %s: %s", color, strings.Join(combo, " "), msg))
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		sort.Strings(failures)
		for i, f := range failures {
			if i == 10 {
				t.Errorf("… and %d more", len(failures)-10)
				break
			}
			t.Error(f)
		}
		t.Logf("--color %s: %d environments, all byte-identical: %v", color, len(combos), len(failures) == 0)
	}
}

// TestAutoColorFollowsTheEnvironment runs the real binary with --color auto
// on a pipe, under the variables people set to ask for color: the first
// that applies of NO_COLOR, CLICOLOR_FORCE, FORCE_COLOR and CLICOLOR
// decides, and a pipe is otherwise colorless.
func TestAutoColorFollowsTheEnvironment(t *testing.T) {
	bin := markiiBinary(t)
	note := filepath.Join(repoRoot(t), "fixtures", "readme.mk.md")
	base := baseEnv()
	ref := map[ansi.Level][]byte{}
	for _, l := range levels {
		color := l.String()
		if l == ansi.None {
			color = "never"
		}
		out, err := runMarkii(bin, []string{"render", "--color", color, "--width", "80", note}, base)
		if err != nil {
			t.Fatal(err)
		}
		ref[l] = out
	}
	for _, tc := range []struct {
		env  []string
		want ansi.Level
	}{
		{nil, ansi.None},
		{[]string{"CLICOLOR_FORCE=1"}, ansi.Color16},
		{[]string{"CLICOLOR_FORCE=1", "TERM=dumb"}, ansi.Color16},
		{[]string{"CLICOLOR_FORCE=1", "TERM=xterm-256color"}, ansi.Color256},
		{[]string{"CLICOLOR_FORCE=1", "COLORTERM=truecolor"}, ansi.TrueColor},
		{[]string{"CLICOLOR_FORCE=1", "FORCE_COLOR=0"}, ansi.Color16},
		{[]string{"CLICOLOR_FORCE=1", "CLICOLOR=0"}, ansi.Color16},
		{[]string{"CLICOLOR_FORCE=1", "NO_COLOR=1"}, ansi.None},
		{[]string{"CLICOLOR_FORCE=0", "COLORTERM=truecolor"}, ansi.None},
		{[]string{"FORCE_COLOR=3", "CLICOLOR=0"}, ansi.TrueColor},
		{[]string{"FORCE_COLOR=2", "CLICOLOR_FORCE=0"}, ansi.Color256},
		{[]string{"CLICOLOR=1", "COLORTERM=truecolor"}, ansi.None},
	} {
		args := []string{"render", "--color", "auto", "--width", "80", note}
		out, err := runMarkii(bin, args, append(append([]string{}, base...), tc.env...))
		if err != nil {
			t.Fatalf("%s: %v", strings.Join(tc.env, " "), err)
		}
		if !bytes.Equal(out, ref[tc.want]) {
			t.Errorf("--color auto with %q does not print the %s rendering: %s", tc.env, tc.want, firstDifference(out, ref[tc.want]))
		}
	}
}

// runMarkiiFull runs the binary with args, env and stdin (nil for none)
// and returns stdout, stderr and the exit code (-1 when it did not exit
// normally).
func runMarkiiFull(bin string, args, env []string, stdin []byte) (stdout []byte, stderr string, code int) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if cmd.ProcessState == nil {
		return nil, err.Error(), -1
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code == 0 {
		code = -1
	}
	return out.Bytes(), errb.String(), code
}

// runMarkii runs the binary with args and env and returns stdout; a
// non-zero exit or any stderr output is an error.
func runMarkii(bin string, args, env []string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	if stderr.Len() > 0 {
		return nil, fmt.Errorf("unexpected stderr: %s", strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}
