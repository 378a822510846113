package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/markii/markii/internal/gctune"
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/isolate"
	"github.com/markii/markii/runtime/state"
)

// TestMain lets this test binary serve as the isolate's worker, so the
// command line's scripts run in the real isolate, as they do in markii.
// A test that reads the process environment finds a fresh home with no
// settings and no state, never the real user's files.
func TestMain(m *testing.M) {
	if isolate.IsWorker() {
		gctune.Limit(isolate.WorkerMemoryLimit)
		isolate.WorkerMain()
	}
	home, err := os.MkdirTemp("", "markii-cli-test-home-")
	if err != nil {
		panic(err)
	}
	// The go command that builds the real binary keeps the module and
	// build caches of the real home: under the test's own it would fetch
	// and compile every dependency again, for minutes.
	if out, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE").Output(); err == nil {
		if v := strings.Split(strings.TrimSpace(string(out)), "\n"); len(v) == 3 {
			os.Setenv("GOPATH", v[0])
			os.Setenv("GOMODCACHE", v[1])
			os.Setenv("GOCACHE", v[2])
		}
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME"} {
		os.Setenv(k, home)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// testEnv is one test's own environment: a home with its own config and
// state directories, and nothing else (no color variables), so tests that
// use it can run in parallel.
type testEnv struct {
	home string
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	return &testEnv{home: t.TempDir()}
}

func (e *testEnv) getenv(key string) string {
	switch key {
	case "HOME":
		return e.home
	case "XDG_CONFIG_HOME":
		return filepath.Join(e.home, "config")
	case "XDG_STATE_HOME":
		return filepath.Join(e.home, "state")
	}
	return ""
}

// stdio is Stdio with this environment and the given output buffers.
func (e *testEnv) stdio(out, errOut *bytes.Buffer) Stdio {
	return Stdio{Out: out, Err: errOut, Getenv: e.getenv}
}

// invocation is a bare invocation in this environment, for calling the
// command line's pieces directly.
func (e *testEnv) invocation() *invocation {
	return &invocation{stdio: Stdio{Getenv: e.getenv}}
}

// stateDir is where this environment's device state lives.
func (e *testEnv) stateDir(t *testing.T) string {
	t.Helper()
	loc, err := state.Locate(runtime.GOOS, e.getenv)
	if err != nil {
		t.Fatal(err)
	}
	return loc.Dir
}

// legacyStateFile is where earlier markii versions kept the whole device
// state in this environment; its directory exists.
func (e *testEnv) legacyStateFile(t *testing.T) string {
	t.Helper()
	loc, err := state.Locate(runtime.GOOS, e.getenv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(loc.Legacy), 0o700); err != nil {
		t.Fatal(err)
	}
	return loc.Legacy
}

// state opens this environment's device state.
func (e *testEnv) state(t *testing.T) *state.Store { return state.Open(e.stateDir(t), state.Options{}) }

// writeSettings writes the user's config file.
func (e *testEnv) writeSettings(t *testing.T, s map[string]any) {
	t.Helper()
	dir, err := config.Dir(runtime.GOOS, e.getenv)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(s)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, config.FileName), data, 0o600); err != nil {
		t.Fatal(err)
	}
}
