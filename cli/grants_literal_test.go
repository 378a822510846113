package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// The two published vault patterns whose address is a literal base with a
// query appended at run time, with the host replaced by a local server.
const (
	weatherNote = "# Weather\n\nNow: :value[weather.current.temperature] degrees.\n\n" +
		"```lua {name=weather}\n" +
		"local params = { \"latitude=52.52\", \"longitude=13.41\", \"current=temperature\" }\n" +
		"local url = \"http://127.0.0.1:%s/v1/forecast?\" .. table.concat(params, \"&\")\n" +
		"return net.fetch_json(url)\n" +
		"```\n"
	hackerNewsNote = "# Front page\n\nTop story: :value[front.title].\n\n" +
		"```lua {name=front}\n" +
		"local FRONT_URL = \"http://127.0.0.1:%s/api/v1/search?\"\n" +
		"local function fetch(n)\n" +
		"  return net.fetch_json(FRONT_URL .. \"tags=front_page&hitsPerPage=\" .. n)\n" +
		"end\n" +
		"return fetch(5)\n" +
		"```\n"
)

// vaultServer answers the two patterns' requests and counts them.
func vaultServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		switch r.URL.Path {
		case "/v1/forecast":
			fmt.Fprint(w, `{"current":{"temperature":17.5}}`)
		case "/api/v1/search":
			fmt.Fprint(w, `{"title":"Show HN: local server","hits":5}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestLiteralBaseGrantOnTerminal answers `y` on a real terminal for each
// vault pattern: the prompt names the host from the literal base, the
// request reaches the local server, and the value is drawn.
func TestLiteralBaseGrantOnTerminal(t *testing.T) {
	t.Parallel()
	srv, hits := vaultServer(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	dir := t.TempDir()
	weather := filepath.Join(dir, "weather.mk.md")
	hn := filepath.Join(dir, "hn.mk.md")
	for p, text := range map[string]string{weather: weatherNote, hn: hackerNewsNote} {
		if err := os.WriteFile(p, []byte(fmt.Sprintf(text, port)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// For each note, markii run on the terminal (which asks, on stderr),
	// then markii render --run (which never asks and uses the grant just
	// given) to draw the value.
	script := ""
	for _, n := range []string{weather, hn} {
		script += fmt.Sprintf(`"$MARKII" run %[1]s 2>&1; echo "run exit $?"; "$MARKII" render --run --color never --width 70 %[1]s 2>&1; echo "render exit $?"; `, shellQuote(n))
	}
	p := inTmux(t, dir, 200, 60, script+"echo child done")
	answered := 0
	for note := 1; note <= 2; note++ {
		// One question names the host and says the rest of the address
		// is built at run time; it is answered yes.
		p.waitCount("[y/N]", answered+1)
		p.keys("y", "Enter")
		answered++
		p.waitCount("render exit", note)
	}
	pane := p.waitCount("child done", 1)
	if c := strings.Count(pane, "[y/N]"); c != 2 {
		t.Errorf("%d questions were asked, want one for each note:\n%s", c, pane)
	}
	if c := strings.Count(pane, "send data to 127.0.0.1"); c != 2 {
		t.Errorf("the host prompt named 127.0.0.1 %d times, want 2:\n%s", c, pane)
	}
	for _, want := range []string{"run exit 0", "weather: ok", "front: ok",
		"Now: 17.5 degrees.", "Top story: Show HN: local server."} {
		if !strings.Contains(pane, want) {
			t.Errorf("pane lacks %q:\n%s", want, pane)
		}
	}
	// One request per run and one per render --run, for each note.
	if got := hits.Load(); got != 4 {
		t.Errorf("the local server saw %d requests, want 4", got)
	}
}

// yesPrompter allows everything and records each question.
type yesPrompter struct{ asked []string }

func (y *yesPrompter) Ask(q string) (bool, error) {
	y.asked = append(y.asked, q)
	return true, nil
}

// TestConcatenatedAuthorityListsNothing runs notes whose literal leaves the
// authority open, so what is concatenated after it could change the host:
// nothing is listed, nothing is asked although every answer would be yes,
// and nothing reaches the server.
func TestConcatenatedAuthorityListsNothing(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	srv, hits := countingServer(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	cases := map[string]string{
		"port after":        `return net.fetch_json("http://127.0.0.1" .. ":` + port + `/x")`,
		"credentials after": `local base = "http://127.0.0.1:` + port + `" return net.fetch_json(base .. "@evil.example/")`,
		"host after":        `return net.fetch_json("http://" .. "127.0.0.1:` + port + `/x")`,
	}
	for name, code := range cases {
		p := writeNote(t, "# n\n\n```lua {name=x}\n"+code+"\n```\n")
		n, err := loadNote(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		doc := render.Parse(n.Source)
		y := &yesPrompter{}
		svc, err := env.invocation().runService(n)
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.Run(context.Background(), run.Request{
			Note: runnable(n, doc), Trigger: script.Manual, Prompter: y,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(y.asked) != 0 {
			t.Errorf("%s: asked %q", name, y.asked)
		}
		if o := res.Outcomes[0]; o.Kind != value.CapabilityDenied {
			t.Errorf("%s: outcome %+v, want capability denied", name, o)
		}
	}
	if got := hits.Load(); got != 0 {
		t.Fatalf("the server saw %d requests, want 0", got)
	}
}
