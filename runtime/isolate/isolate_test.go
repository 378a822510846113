package isolate

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

func TestTrivialScriptRunsInWorker(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, request(script.Limits{},
		lua("a", "return 1 + 1"),
		lua("b", "return doc.value('a') * 10"),
	), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.Ok || string(out[0].Value) != "2" {
		t.Fatalf("a = %+v", out[0])
	}
	if out[1].Kind != value.Ok || string(out[1].Value) != "20" {
		t.Fatalf("b = %+v", out[1])
	}
}

func TestWorkerIsSeparateConfinedProcess(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, request(script.Limits{}, goBlock("probe", "test-probe")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.Ok {
		t.Fatalf("probe = %+v", out[0])
	}
	if runtime.GOOS != "linux" {
		return
	}
	var res map[string]string
	if err := json.Unmarshal(out[0].Value, &res); err != nil {
		t.Fatal(err)
	}
	t.Logf("probe: %v", res)
	for _, name := range []string{"socket", "connect", "open", "openat", "creat", "execve", "exec", "fork", "kill-parent", "tgkill-parent"} {
		got, ok := res[name]
		if !ok {
			t.Errorf("%s: not probed", name)
			continue
		}
		if !strings.Contains(got, "operation not permitted") && !strings.Contains(got, "permission denied") {
			t.Errorf("%s after confinement: %q, want it refused", name, got)
		}
	}
	if res["thread"] != "ok" {
		t.Errorf("new threads must still work in the worker: %q", res["thread"])
	}
	// The same calls work in this unconfined process, so the refusals
	// above come from the confinement.
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatalf("control: open in the host: %v", err)
	}
	f.Close()
}

func TestCapabilitiesArePerformedByHost(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"stars": 42}`)
	}))
	defer srv.Close()
	host := newTestHost(strings.TrimPrefix(srv.URL, "http://"))
	host.files["scripts/util"] = []byte("return {twice = function(n) return n * 2 end}")
	host.files["data.txt"] = []byte("hello")
	req := request(script.Limits{},
		lua("fetch", fmt.Sprintf("return net.fetch_json(%q).stars", srv.URL+"/repo")),
		lua("bundle", "return bundle.read('data.txt')"),
		lua("require", "local u = require('scripts/util') return u.twice(21)"),
		lua("cache", "return cache.get('k', 60, function() return 'fresh' end)"),
		lua("cached", "return cache.get('k', 60, function() return 'stale' end)"),
	)
	req.Bundle = true
	pool := NewPool()
	defer pool.Close()
	out, err, _ := runOn(t, pool, req, host)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"42", `"hello"`, "42", `"fresh"`, `"fresh"`}
	for i, w := range want {
		if out[i].Kind != value.Ok || string(out[i].Value) != w {
			t.Errorf("%s = %+v, want ok %s", out[i].Name, out[i], w)
		}
	}
}

func TestDenialIsClassifiedFromHostRecord(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	pool := NewPool()
	defer pool.Close()
	host := newTestHost() // nothing granted
	out, err, _ := runOn(t, pool, request(script.Limits{},
		lua("denied", fmt.Sprintf("return net.fetch_json(%q)", srv.URL)),
		lua("caught", fmt.Sprintf("local ok = pcall(net.fetch_json, %q) error('later failure')", srv.URL)),
	), host)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.CapabilityDenied || out[0].Capability != script.CapNet || out[0].Host != "127.0.0.1" {
		t.Errorf("denied = %+v", out[0])
	}
	if out[1].Kind != value.ScriptError {
		t.Errorf("a caught denial followed by another error = %+v, want script-error", out[1])
	}
	// The worker claimed a denial of another host; the host's record wins.
	out2, _, _ := runOn(t, pool, request(script.Limits{}, script.Block{Name: "claim", Lang: "test-deny-then-claim", Source: srv.URL}), host)
	if out2[0].Kind != value.CapabilityDenied || out2[0].Host != "127.0.0.1" {
		t.Errorf("claim = %+v, want the host's record (127.0.0.1)", out2[0])
	}
}

func TestLimitsAreClampedBeforeTheWorker(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	req := request(script.Limits{RunTime: time.Hour, Memory: 1 << 40, Instructions: 5}, goBlock("limits", "test-limits"))
	out, err, _ := runOn(t, pool, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got script.Limits
	if err := json.Unmarshal(out[0].Value, &got); err != nil {
		t.Fatalf("%+v: %v", out[0], err)
	}
	want := script.Ceiling
	want.Instructions = 5
	if got != want {
		t.Fatalf("worker saw %+v, want %+v", got, want)
	}
}

func TestValuesBeforeKillAreKept(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	req := request(script.Limits{RunTime: time.Second},
		lua("first", "return 'kept'"),
		goBlock("spin", "test-spin"),
		lua("never", "return 3"),
	)
	out, err, took := runOn(t, pool, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Kind != value.Ok || string(out[0].Value) != `"kept"` {
		t.Errorf("first = %+v", out[0])
	}
	for _, o := range out[1:] {
		if o.Kind != value.LimitExceeded || o.Limit != script.LimitTimeout {
			t.Errorf("%s = %+v, want limit/timeout", o.Name, o)
		}
	}
	if took > time.Second+500*time.Millisecond {
		t.Errorf("run took %s, want within deadline + 500ms", took)
	}
}

func TestCancelledContextEndsRun(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var rec recorder
	start := time.Now()
	err := pool.Run(ctx, request(script.Limits{}, goBlock("spin", "test-spin")), newTestHost(), rec.emit)
	if err == nil {
		t.Fatal("want the context's error")
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("cancel took %s", took)
	}
	if out := rec.outcomes(); len(out) != 1 || out[0].Kind != value.Crashed {
		t.Fatalf("outcomes = %+v", out)
	}
}

func TestPrewarmedWorkerIsReadyAndReplaced(t *testing.T) {
	pool := NewPool()
	defer pool.Close()
	pool.Prewarm()
	waitWarm(t, pool)
	pool.mu.Lock()
	first := pool.warm
	pool.mu.Unlock()
	if _, err, _ := runOn(t, pool, request(script.Limits{}, lua("a", "return 1")), nil); err != nil {
		t.Fatal(err)
	}
	if first.alive() {
		// The worker serves one run and exits.
		select {
		case <-first.exited:
		case <-time.After(2 * time.Second):
			t.Fatal("the worker that served a run is still alive")
		}
	}
	waitWarm(t, pool)
	pool.mu.Lock()
	second := pool.warm
	pool.mu.Unlock()
	if second == first {
		t.Fatal("the used worker was put back")
	}
}

func waitWarm(t *testing.T, pool *Pool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		pool.mu.Lock()
		ready := pool.warm != nil
		pool.mu.Unlock()
		if ready {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatal("no warm worker after 5s")
}

func TestMissingProtections(t *testing.T) {
	missing := MissingProtections()
	t.Logf("missing protections: %q", missing)
	if runtime.GOOS == "linux" {
		for _, m := range missing {
			if strings.Contains(m, "seccomp") {
				t.Errorf("seccomp reported missing on linux: %s", m)
			}
		}
	} else if len(missing) == 0 {
		t.Error("a platform without seccomp must say what it lacks")
	}
}
