package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
)

// yes is a prompter that allows everything it is asked.
type yes struct{ asked []string }

func (y *yes) Ask(q string) (bool, error) { y.asked = append(y.asked, q); return true, nil }

// `markii render --run` runs unattended: it never asks, reaches only a host
// granted by hand for exactly this code, and draws the values it produced.
func TestRenderRunUsesOnlyStoredGrants(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	srv, hits := countingServer(t)
	notePath := writeNote(t, "```lua {name=v}\nreturn net.fetch_json(\""+srv.URL+"/x\").v\n```\n\n```lua {name=p}\nreturn 6 * 7\n```\n\nv=:value[v] p=:value[p]\n")

	var out, errb bytes.Buffer
	code := Main([]string{"render", "--run", "--color", "never", notePath}, env.stdio(&out, &errb))
	if code != ExitScripts || hits.Load() != 0 {
		t.Fatalf("no grant: exit %d, %d hits, stderr %q", code, hits.Load(), errb.String())
	}
	if !strings.Contains(out.String(), "p=42") || !strings.Contains(errb.String(), `markii: script "v" failed (capability-denied)`) {
		t.Fatalf("no grant: out %q stderr %q", out.String(), errb.String())
	}
	if strings.Contains(errb.String(), "non-interactively") {
		t.Fatalf("an unattended run must not talk about prompts: %q", errb.String())
	}

	// A person grants the host on a manual run of the same code.
	n, err := loadNote(notePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	y := &yes{}
	svc, err := env.invocation().runService(n)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Run(context.Background(), run.Request{
		Note: runnable(n, render.Parse(n.Source)), Trigger: script.Manual, Prompter: y,
	}); err != nil || len(y.asked) != 1 || hits.Load() != 1 {
		t.Fatalf("manual grant: %v, asked %q, %d hits", err, y.asked, hits.Load())
	}

	out.Reset()
	errb.Reset()
	code = Main([]string{"render", "--run", "--color", "never", notePath}, env.stdio(&out, &errb))
	if code != ExitOK || hits.Load() != 2 || !strings.Contains(out.String(), "v=7 p=42") {
		t.Fatalf("granted: exit %d, %d hits, out %q stderr %q", code, hits.Load(), out.String(), errb.String())
	}
	if code := Main([]string{"render", "--run", "--values", notePath, notePath}, env.stdio(&out, &errb)); code != ExitUsage {
		t.Fatalf("--run with --values: exit %d, want usage", code)
	}
}
