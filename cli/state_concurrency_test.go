package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestConcurrentMarkiiProcessesKeepEveryValueAndNoRevokedGrant: two real
// markii processes keep running `run` and `render --run` on their own
// notes (and on a shared one) while a third resets the shared note's
// grant, for several rounds. Afterwards every value and every surviving
// grant is there, the reset grant is gone, and an unattended run of the
// shared note reaches its server no more.
func TestConcurrentMarkiiProcessesKeepEveryValueAndNoRevokedGrant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds markii and runs many processes")
	}
	bin := markiiBinary(t)
	env := newTestEnv(t)
	var kept, revoked atomic.Int64
	serve := func(n *atomic.Int64) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			fmt.Fprint(w, `{"v":7}`)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	keptURL, revokedURL := serve(&kept), serve(&revoked)
	dir := t.TempDir()
	write := func(name, url string) string {
		p := filepath.Join(dir, name+".mk.md")
		if err := os.WriteFile(p, []byte("```lua {name="+name+"}\nreturn net.fetch_json(\""+url+"/x\").v\n```\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var own [2][]string
	for w := range own {
		for i := range 3 {
			own[w] = append(own[w], write(fmt.Sprintf("w%dn%d", w, i), keptURL))
		}
	}
	shared := write("shared", revokedURL)
	grant := func(path string) {
		t.Helper()
		n, err := loadNote(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := testService(t, env.invocation()).Run(context.Background(), run.Request{
			Note: runnable(n, render.Parse(n.Source)), Trigger: script.Manual, Prompter: &yes{},
		}); err != nil {
			t.Fatal(err)
		}
	}
	for _, notes := range own {
		for _, p := range notes {
			grant(p)
		}
	}
	markii := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"HOME=" + env.home, "XDG_CONFIG_HOME=" + env.getenv("XDG_CONFIG_HOME"), "XDG_STATE_HOME=" + env.getenv("XDG_STATE_HOME"), "PATH=" + os.Getenv("PATH")}
		return cmd
	}
	const rounds = 4
	invocations := 0
	for round := range rounds {
		grant(shared)
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for w := range own {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i, p := range append(own[w], shared) {
					args := []string{"run", p}
					if (i+round)%2 == 1 {
						args = []string{"render", "--run", "--color", "never", p}
					}
					if out, err := markii(args...).CombinedOutput(); err != nil && p != shared {
						errs <- fmt.Errorf("%v: %v\n%s", args, err, out)
						return
					}
				}
			}()
		}
		out, err := markii("grants", "reset", shared).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "forgot the grants of") {
			t.Fatalf("round %d: grants reset: %v %q", round, err, out)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
		invocations += 2*(len(own[0])+1) + 1

		all, _, err := grants.NewStore(env.state(t)).All()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := all[fileURL(shared)]; ok {
			t.Fatalf("round %d: the reset grant came back", round)
		}
		for _, notes := range own {
			for _, p := range notes {
				if _, ok := all[fileURL(p)]; !ok {
					t.Fatalf("round %d: the grant of %s was lost", round, p)
				}
				name := strings.TrimSuffix(filepath.Base(p), ".mk.md")
				if e := mustLoad(t, env.state(t), fileURL(p))[name]; e.Status != value.Fresh || string(e.Value) != "7" {
					t.Fatalf("round %d: the value of %s is %+v", round, name, e)
				}
			}
		}
		before := revoked.Load()
		var o, e bytes.Buffer
		cmd := markii("render", "--run", "--color", "never", shared)
		cmd.Stdout, cmd.Stderr = &o, &e
		cmd.Run()
		invocations++
		if revoked.Load() != before || !strings.Contains(e.String(), "capability-denied") {
			t.Fatalf("round %d: after the reset the host was reached (%d hits), stderr %q", round, revoked.Load()-before, e.String())
		}
	}
	t.Logf("%d rounds, %d markii processes: %d values and %d grants kept each round, the reset grant absent each round; %d hits on the kept host, 0 on the revoked host after each reset",
		rounds, invocations, 2*len(own[0]), 2*len(own[0]), kept.Load())
}
