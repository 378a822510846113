package goldens

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestUngrantableAddressThroughTheBinary runs the real binary, whose
// scripts run in the real isolate, on a note that builds its address at
// run time with no host written as a literal: `markii run` says the
// request cannot be granted and what to write instead, --verbose says it
// too, and nothing reaches the server.
func TestUngrantableAddressThroughTheBinary(t *testing.T) {
	bin := markiiBinary(t)
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `{"v":1}`)
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	home := t.TempDir()
	env := append(baseEnv(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "TERM=dumb")
	note := filepath.Join(t.TempDir(), "built.mk.md")
	src := "V: :value[built]\n\n```lua {name=built}\nlocal base = \"http://127.0.0.1\"\nreturn net.fetch_json(base .. \":" + port + "/x\").v\n```\n"
	if err := os.WriteFile(note, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "built: cannot be granted: this script builds its address at run time; write the URL (at least `https://127.0.0.1/`) as a literal\n"
	out, stderr, code := runMarkiiFull(bin, []string{"run", note}, env, nil)
	if code != 2 || string(out) != want {
		t.Fatalf("markii run exited %d:\n%q\nwant %q\nstderr %s", code, out, want, stderr)
	}
	_, stderr, _ = runMarkiiFull(bin, []string{"run", "--verbose", note}, env, nil)
	if !strings.Contains(stderr, "cannot be granted: this script builds its address at run time") {
		t.Fatalf("--verbose does not say it: %s", stderr)
	}
	if strings.Contains(stderr, "needs permission") {
		t.Fatalf("--verbose suggests a grant would help: %s", stderr)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the server saw %d requests, want 0", n)
	}
}
