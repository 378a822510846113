package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

var (
	builtOnce sync.Once
	builtBin  string
	builtErr  error
)

// markiiBinary builds the real markii binary once per test run.
func markiiBinary(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "markii-cli-bin-")
		if err != nil {
			builtErr = err
			return
		}
		builtBin = filepath.Join(dir, "markii")
		if out, err := exec.Command("go", "build", "-o", builtBin, "github.com/markii/markii").CombinedOutput(); err != nil {
			builtErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return builtBin
}

// markiiProcess is one finished run of the real binary.
type markiiProcess struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// runMarkii runs the binary with env as its whole environment, stdin and
// stdout pipes (not a terminal), and kills it after 10 s: a hang.
func runMarkii(t *testing.T, bin string, env []string, args ...string) markiiProcess {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	p := markiiProcess{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("markii %s hung: killed after %v; stderr %q", strings.Join(args, " "), p.took, p.stderr)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		p.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSpecialFilesAtTheSettingsAndStateNeverHang puts a named pipe, a
// directory and a symbolic link to /dev/zero where the settings file and
// the device state's files are (and where an earlier version's state
// file is), and runs every command that reads them. None may wait for the
// pipe or read the device: each returns within a second more than twice a
// healthy run of the same command (the targets run in parallel), and when
// it cannot do its job it says so on one line that names the file, with
// exit 1. A command that does not need the
// file works as usual.
func TestSpecialFilesAtTheSettingsAndStateNeverHang(t *testing.T) {
	if testing.Short() {
		t.Skip("builds markii and runs many processes")
	}
	bin := markiiBinary(t)
	type layout = stateLayout
	newLayout := func(t *testing.T, primed bool) layout {
		home := t.TempDir()
		l := layout{home: home, config: filepath.Join(home, "config"), state: filepath.Join(home, "state"), note: filepath.Join(home, "n.mk.md")}
		if err := os.MkdirAll(filepath.Join(l.config, "markii"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(l.note, []byte("# t\n\n:value[x]\n\n```lua {name=x}\nreturn 6*7\n```\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if primed {
			// A healthy run first, in this process (cheaper than the binary).
			var out, errb bytes.Buffer
			if code := Main([]string{"run", l.note}, Stdio{Out: &out, Err: &errb, Getenv: l.getenv}); code != 0 {
				t.Fatalf("a healthy run: exit %d, %q", code, errb.String())
			}
			m, _ := filepath.Glob(filepath.Join(l.state, "markii", "notes", "*.values.json"))
			if len(m) != 1 {
				t.Fatalf("the healthy run stored %v", m)
			}
			l.entry = strings.TrimSuffix(m[0], ".values.json")
		}
		return l
	}
	// The commands, and the name tests use for them.
	commands := []struct {
		name string
		args func(l layout) []string
	}{
		{"grants list", func(layout) []string { return []string{"grants", "list"} }},
		{"run", func(l layout) []string { return []string{"run", l.note} }},
		{"packs list", func(layout) []string { return []string{"packs", "list"} }},
		{"render --run", func(l layout) []string { return []string{"render", "--run", l.note} }},
		{"view", func(l layout) []string { return []string{"view", l.note} }},
	}
	all := []string{"grants list", "run", "packs list", "render --run", "view"}
	// The commands that read the device state; packs list and a static
	// view read only the settings.
	stateCommands := []string{"grants list", "run", "render --run"}
	// Where the special file goes; fail lists the commands that cannot do
	// their job without it.
	targets := []struct {
		name   string
		primed bool // the state exists already
		path   func(l layout) string
		fail   []string
		kinds  []string
	}{
		{"settings file", true, func(l layout) string { return filepath.Join(l.config, "markii", "config.json") }, all, nil},
		{"earlier state file", false, func(l layout) string { return filepath.Join(l.config, "markii", "state.json") }, nil, nil},
		{"state lock", true, func(l layout) string { return filepath.Join(l.state, "markii", "lock") }, []string{"run", "render --run"}, nil},
		{"values entry", true, func(l layout) string { return l.entry + ".values.json" }, []string{"run", "render --run"}, nil},
		{"grant entry", true, func(l layout) string { return l.entry + ".grant.json" }, []string{"grants list", "run", "render --run"}, nil},
		{"state directory", true, func(l layout) string { return filepath.Join(l.state, "markii") }, []string{"grants list", "run", "render --run"}, []string{"fifo", "zero"}},
		{"notes directory", true, func(l layout) string { return filepath.Join(l.state, "markii", "notes") }, []string{"grants list", "run", "render --run"}, []string{"fifo", "zero"}},
	}
	makeSpecial := map[string]func(path string) error{
		"fifo": func(p string) error { return unix.Mkfifo(p, 0o600) },
		"dir":  func(p string) error { return os.Mkdir(p, 0o700) },
		"zero": func(p string) error { return os.Symlink("/dev/zero", p) },
	}

	// How long each command takes on this machine now, healthy.
	healthy := map[string]time.Duration{}
	base := newLayout(t, true)
	for range 2 {
		for _, c := range commands {
			p := runMarkii(t, bin, base.env(), c.args(base)...)
			healthy[c.name] = max(healthy[c.name], p.took)
		}
	}

	for _, target := range targets {
		t.Run(target.name, func(t *testing.T) {
			t.Parallel()
			kinds := target.kinds
			if kinds == nil {
				kinds = []string{"fifo", "dir", "zero"}
			}
			for _, kind := range kinds {
				l := newLayout(t, target.primed)
				path := target.path(l)
				if err := os.RemoveAll(path); err != nil {
					t.Fatal(err)
				}
				if err := makeSpecial[kind](path); err != nil {
					t.Fatal(err)
				}
				for _, c := range commands {
					if target.name != "settings file" && !slices.Contains(stateCommands, c.name) {
						continue
					}
					what := fmt.Sprintf("%s as the %s, markii %s", kind, target.name, c.name)
					p := runMarkii(t, bin, l.env(), c.args(l)...)
					// A second, plus twice what a healthy run took: the
					// other targets' processes run at the same time.
					if limit := 2*healthy[c.name] + time.Second; p.took > limit {
						t.Errorf("%s: took %v, over %v (a healthy run took %v)", what, p.took, limit, healthy[c.name])
					}
					lines := strings.Split(strings.TrimSuffix(p.stderr, "\n"), "\n")
					for _, line := range lines {
						if line != "" && !strings.HasPrefix(line, "markii: ") {
							t.Errorf("%s: stderr line %q is not a markii message", what, line)
						}
					}
					named := strings.Contains(p.stderr, filepath.Base(path))
					switch {
					case !slices.Contains(target.fail, c.name):
						if p.code != 0 {
							t.Errorf("%s: exit %d, %q; want it to work without the file", what, p.code, p.stderr)
						}
					case target.name == "settings file":
						if p.code != 1 || len(lines) != 1 || !named {
							t.Errorf("%s: exit %d, stderr %q; want exit 1 and one line naming config.json", what, p.code, p.stderr)
						}
					default:
						if p.code != 1 || !named || p.stderr == "" {
							t.Errorf("%s: exit %d, stderr %q; want exit 1 and a line naming %s", what, p.code, p.stderr, filepath.Base(path))
						}
						// Every command says what it could not do the same way.
						if target.name == "grant entry" && !strings.Contains(p.stderr, "markii: cannot read grants: ") {
							t.Errorf("%s: stderr %q; want it to say it cannot read grants", what, p.stderr)
						}
					}
				}
				if target.name == "earlier state file" {
					// The earlier file was left where it was, and said so once.
					if info, err := os.Lstat(path); err != nil || (kind == "fifo") != (info.Mode()&os.ModeNamedPipe != 0) {
						t.Errorf("%s as the earlier state file: now %v, %v", kind, info, err)
					}
				}
			}
		})
	}
}

// TestNoStateDirectoryRefusesToRun: with no HOME and no XDG variables
// there is nowhere to keep values, so run and render --run refuse with
// one line instead of running into memory that is lost at exit; a plain
// render, and a run of a note from standard input (which keeps nothing),
// still work.
func TestNoStateDirectoryRefusesToRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds markii")
	}
	bin := markiiBinary(t)
	note := writeNote(t, "# t\n\n:value[x]\n\n```lua {name=x}\nreturn 6*7\n```\n")
	env := []string{"PATH=" + os.Getenv("PATH")}
	const refused = "markii: cannot save values: cannot find the state directory: set HOME to your home directory\n"
	for _, args := range [][]string{{"run", note}, {"render", "--run", note}} {
		p := runMarkii(t, bin, env, args...)
		if p.code != 1 || p.stderr != refused || p.stdout != "" {
			t.Errorf("markii %s without HOME: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), p.code, p.stdout, p.stderr, refused)
		}
	}
	if p := runMarkii(t, bin, env, "render", "--color", "never", note); p.code != 0 || !strings.Contains(p.stdout, "⚙ x") || p.stderr != "" {
		t.Errorf("render without HOME: exit %d, %q, %q", p.code, p.stdout, p.stderr)
	}
	cmd := exec.Command(bin, "run", "-")
	cmd.Env = env
	cmd.Stdin = strings.NewReader("```lua {name=x}\nreturn 6*7\n```\n")
	// A note read from standard input has no signature beside it.
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "markii: stdin: unsigned\nx: ok\n" {
		t.Errorf("run - without HOME: %v, %q", err, out)
	}
}

// stateLayout is one temporary home: its settings, device state and note.
type stateLayout struct{ home, config, state, note, entry string }

func (l stateLayout) getenv(key string) string {
	for _, kv := range l.env() {
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}

// env is the whole environment of a markii process in this layout.
func (l stateLayout) env() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + l.home, "XDG_CONFIG_HOME=" + l.config, "XDG_STATE_HOME=" + l.state}
}
