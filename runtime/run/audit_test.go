package run

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/value"
)

// auditedService is service with an audit trail beside its state.
func auditedService(t *testing.T) (*Service, *audit.Log) {
	t.Helper()
	svc, st := service(t, config.Settings{})
	svc.Audit = audit.ForStore(st, audit.Options{})
	return svc, svc.Audit
}

// scripted answers prompts from a list and records the questions.
type scripted struct {
	answers []bool
	asked   []string
}

func (s *scripted) Ask(q string) (bool, error) {
	s.asked = append(s.asked, q)
	if len(s.answers) == 0 {
		return false, nil
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

// TestSignatureChangesNoDecision runs the consent and grant scenarios
// with every signature status and requires the same questions, grants,
// outcomes and server hits each time: who signed a note decides nothing.
func TestSignatureChangesNoDecision(t *testing.T) {
	statuses := []signature.Status{
		{State: signature.Unsigned},
		{State: signature.Trusted, Principal: "alice@example.org", Fingerprint: "SHA256:x"},
		{State: signature.UnknownKey, Fingerprint: "SHA256:y"},
		{State: signature.Mismatch, Problem: signature.Changed},
	}
	type step struct {
		trigger script.Trigger
		answers []bool
		noAsker bool
	}
	scenarios := []struct {
		name  string
		src   func(a, b string) string
		steps []step
	}{
		{"grant one of two hosts, then reuse", func(a, b string) string {
			return `return net.fetch_json("` + a + `/x").v + net.fetch_json("` + b + `/y").v`
		}, []step{{script.Manual, []bool{true, false}, false}, {script.Manual, nil, false}, {script.Auto, nil, false}}},
		{"decline all", func(a, b string) string { return `return net.fetch_json("` + a + `/x").v` },
			[]step{{script.Manual, []bool{false}, false}, {script.Auto, nil, false}}},
		{"auto never asks", func(a, b string) string { return `return net.fetch_json("` + a + `/x").v` },
			[]step{{script.Auto, []bool{true}, false}, {script.Scheduled, []bool{true}, false}}},
		{"no prompter", func(a, b string) string { return `return net.fetch_json("` + a + `/x").v` },
			[]step{{script.Manual, nil, true}}},
		{"post is manual only", func(a, b string) string { return `return net.post("` + a + `/p", "{}").status` },
			[]step{{script.Manual, []bool{true}, false}, {script.Auto, nil, false}, {script.Scheduled, nil, false}}},
		{"runtime address", func(a, b string) string { return `local h = "` + a + `"; return net.fetch_json(h .. "/x").v` },
			[]step{{script.Manual, []bool{true}, false}}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			var want string
			for i, sig := range statuses {
				got := transcript(t, sc.src, sig, func(svc *Service, note Note) []string {
					var lines []string
					for _, s := range sc.steps {
						p := &scripted{answers: append([]bool(nil), s.answers...)}
						req := Request{Note: note, Trigger: s.trigger, Prompter: p, Signature: sig, Notices: io.Discard}
						if s.noAsker {
							req.Prompter = nil
						}
						res, err := svc.Run(context.Background(), req)
						lines = append(lines, fmt.Sprintf("asked %q err %v", p.asked, err))
						if res != nil {
							for _, o := range res.Outcomes {
								lines = append(lines, fmt.Sprintf("%s %s %s %s", o.Name, o.Kind, o.Capability, o.Detail))
							}
						}
					}
					return lines
				})
				if i == 0 {
					want = got
					continue
				}
				if got != want {
					t.Fatalf("with signature %q:\n%s\nunsigned:\n%s", sig, got, want)
				}
			}
		})
	}
}

// transcript runs steps on a fresh service and servers and returns what
// happened, with the servers' hits and the stored grant.
func transcript(t *testing.T, src func(a, b string) string, sig signature.Status, steps func(*Service, Note) []string) string {
	t.Helper()
	svc, st := service(t, config.Settings{})
	a, hitsA := countingServer(t)
	b, hitsB := countingServer(t)
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{lua("v", src(a.URL, b.URL))}}
	lines := steps(svc, note)
	rec, _, _ := grants.NewStore(st).Lookup(note.Key)
	lines = append(lines, fmt.Sprintf("hits %d %d grant %v", hitsA.Load(), hitsB.Load(), rec.AllowedHosts))
	out := strings.Join(lines, "\n")
	return strings.NewReplacer(a.URL, "A", b.URL, "B").Replace(out)
}

func TestRunsAreAudited(t *testing.T) {
	svc, l := auditedService(t)
	srv, hits := countingServer(t)
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{
		lua("get", `return net.fetch_json("`+srv.URL+`/x?key=SECRET").v`),
		lua("post", `return net.post("`+srv.URL+`/p", "hello").status`),
	}}
	sig := signature.Status{State: signature.Trusted, Principal: "alice@example.org"}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: &yes{}, Signature: sig})
	if err != nil || hits.Load() != 2 {
		t.Fatalf("%v hits %d %+v", err, hits.Load(), res)
	}
	recs, damaged, err := l.Read(nil)
	if err != nil || len(damaged) > 0 {
		t.Fatal(err, damaged)
	}
	var events []string
	for _, r := range recs {
		events = append(events, string(r.Event))
	}
	want := []string{"run", "request", "outcome", "claim", "request", "settle", "outcome", "end"}
	if !reflect.DeepEqual(events, want) {
		t.Fatalf("events %v, want %v", events, want)
	}
	run := recs[0]
	if run.Note != note.Key || run.Closure != res.Key || run.Trigger != "manual" || run.Signature != "trusted" || run.Signer != "alice@example.org" || len(run.Granted) != 1 {
		t.Fatalf("run record %+v", run)
	}
	get := recs[1]
	if get.Method != "GET" || get.Host != "127.0.0.1" || get.Path != "/x" || !strings.HasPrefix(get.Query, "sha256:") || get.Decision != audit.Allowed || get.Status != 200 || get.BytesIn != 7 {
		t.Fatalf("get record %+v", get)
	}
	post := recs[4]
	if post.Method != "POST" || post.BytesOut != 5 || post.Effect == "" || post.Effect != recs[3].Effect || post.Status != 200 {
		t.Fatalf("post record %+v", post)
	}
	for _, r := range recs {
		if r.Run != run.Run {
			t.Fatalf("a record of another run: %+v", r)
		}
	}
	if open, _ := l.OpenClaims(); len(open) != 0 {
		t.Fatalf("a settled post left a claim open: %v", open)
	}
	// A refused request is recorded with the host's reason.
	other := Note{Key: "file:///other.mk.md", Scripts: []Script{lua("get", `return net.fetch_json("`+srv.URL+`/y").v`)}}
	svc.Run(context.Background(), Request{Note: other, Trigger: script.Manual})
	recs, _, _ = l.Read(func(r audit.Record) bool { return r.Event == audit.EventRequest && r.Decision == audit.Denied })
	if len(recs) != 1 || recs[0].Method != "GET" || recs[0].Failure != audit.FailDenied || recs[0].Reason == "" || hits.Load() != 2 {
		t.Fatalf("denied records %+v", recs)
	}
}

// TestTierRefusalsAreAudited: a capability the tier forbids is refused by
// the host, which records the request (method, host, path, the query as a
// hash) with the decision and its reason; nothing is sent.
func TestTierRefusalsAreAudited(t *testing.T) {
	svc, l := auditedService(t)
	srv, hits := countingServer(t)
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{
		lua("post", `return net.post("`+srv.URL+`/p?token=SECRET", "x").status`),
		lua("patch", `return net.patch("`+srv.URL+`/q", "x").status`),
		lua("write", `return bundle.write(".cache/x", "y")`),
	}}
	for _, trig := range []script.Trigger{script.Auto, script.Scheduled} {
		res, err := svc.Run(context.Background(), Request{Note: note, Trigger: trig})
		if err != nil {
			t.Fatal(err)
		}
		for name, o := range outcomes(res) {
			if o.Kind != value.TierBlocked && !(name == "write" && o.Kind == value.CapabilityDenied) {
				t.Fatalf("%s: %+v", name, o)
			}
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("an unattended run sent %d requests", hits.Load())
	}
	reqs, _, _ := l.Read(func(r audit.Record) bool { return r.Event == audit.EventRequest })
	if len(reqs) != 4 {
		t.Fatalf("request records %+v", reqs)
	}
	for i, r := range reqs {
		want := [...]string{"POST", "PATCH"}[i%2]
		if r.Method != want || r.Host != "127.0.0.1" || r.Decision != audit.Denied || r.Failure != audit.FailDenied || !strings.Contains(r.Reason, "manual run") {
			t.Fatalf("request %d: %+v", i, r)
		}
	}
	if reqs[0].Path != "/p" || !strings.HasPrefix(reqs[0].Query, "sha256:") || strings.Contains(reqs[0].Query, "SECRET") {
		t.Fatalf("post record %+v", reqs[0])
	}
	writes, _, _ := l.Read(func(r audit.Record) bool { return r.Event == audit.EventBundle && r.Capability == "bundle.write" })
	if len(writes) != 2 || writes[0].Decision != audit.Denied || writes[0].Reason == "" {
		t.Fatalf("bundle.write records %+v", writes)
	}
}

// lostAnswerServer reads each POST and hangs up without answering, so
// the client cannot know whether it took effect.
func lostAnswerServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.Copy(io.Discard, r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestLostPostStaysClaimed: a POST whose answer was lost stays claimed
// with an unknown outcome; an unattended run does not send it again and
// the trail says why; a run by hand may send it again.
func TestLostPostStaysClaimed(t *testing.T) {
	svc, l := auditedService(t)
	srv, posts := lostAnswerServer(t)
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{lua("send", `return net.post("`+srv.URL+`/order", "one pizza").status`)}}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: &yes{}})
	if err != nil || posts.Load() != 1 {
		t.Fatalf("%v posts %d", err, posts.Load())
	}
	if o := outcomes(res)["send"]; o.Kind == "ok" {
		t.Fatalf("a lost answer gave %+v", o)
	}
	open, _ := l.OpenClaims()
	if len(open) != 1 {
		t.Fatalf("open claims %v", open)
	}
	settles, _, _ := l.Read(func(r audit.Record) bool { return r.Event == audit.EventSettle })
	if len(settles) != 1 || settles[0].Failure != audit.FailUnknown {
		t.Fatalf("settle %+v", settles)
	}

	for _, trig := range []script.Trigger{script.Auto, script.Scheduled} {
		if _, err := svc.Run(context.Background(), Request{Note: note, Trigger: trig}); err != nil {
			t.Fatal(err)
		}
	}
	if posts.Load() != 1 {
		t.Fatalf("an unattended run sent the claimed POST again: %d", posts.Load())
	}
	denied, _, _ := l.Read(func(r audit.Record) bool {
		return r.Event == audit.EventOutcome && r.Outcome == string(value.TierBlocked)
	})
	if len(denied) != 2 {
		t.Fatalf("unattended outcomes %+v", denied)
	}
	// Each unattended run's refused POST is a request line of its own,
	// recorded by the host with why it was refused and that it is claimed.
	refused, _, _ := l.Read(func(r audit.Record) bool {
		return r.Event == audit.EventRequest && r.Decision == audit.Denied
	})
	if len(refused) != 2 {
		t.Fatalf("refused requests %+v", refused)
	}
	for _, r := range refused {
		if r.Method != "POST" || r.Host != "127.0.0.1" || r.Path != "/order" || r.Failure != audit.FailClaimed || !strings.Contains(r.Reason, "manual run") {
			t.Fatalf("refused request %+v", r)
		}
		if line := audit.Line(r); !strings.Contains(line, "denied: a POST request is only available on a manual run (its earlier claim is still open") {
			t.Fatalf("listed as %q", line)
		}
	}
	if open, _ := l.OpenClaims(); len(open) != 1 {
		t.Fatalf("the claim did not stay: %v", open)
	}

	var notices bytes.Buffer
	if _, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: &yes{}, Notices: &notices}); err != nil {
		t.Fatal(err)
	}
	if posts.Load() != 2 {
		t.Fatalf("a run by hand could not send it again: %d", posts.Load())
	}
	claims, _, _ := l.Read(func(r audit.Record) bool { return r.Event == audit.EventClaim })
	if len(claims) != 2 || !strings.Contains(claims[1].Reason, "by hand") || claims[0].Effect != claims[1].Effect {
		t.Fatalf("claims %+v", claims)
	}
}
