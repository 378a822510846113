package grants

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/state"
)

const goodKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// stateWith writes text as the device state file and opens it.
func stateWith(t *testing.T, text string) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	if text != "" {
		if err := os.WriteFile(filepath.Join(dir, state.LegacyFileName), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return NewStore(state.Open(dir, state.Options{Legacy: filepath.Join(dir, state.LegacyFileName)})), dir
}

func TestStoreRoundTrip(t *testing.T) {
	s, dir := stateWith(t, "")
	doc := state.DocumentKey("/notes/a.mk.md")
	if err := s.Put(doc, Record{Key: goodKey, AllowedHosts: []string{"b.example", "a.example", "a.example"}, AllowedBundleGrants: []string{"write:cache/", "read"}}); err != nil {
		t.Fatal(err)
	}
	// A fresh process reads it back from disk.
	s2 := NewStore(state.Open(dir, state.Options{}))
	r, ok, _ := s2.Lookup(doc)
	if !ok || r.Key != goodKey || !slices.Equal(r.AllowedHosts, []string{"a.example", "b.example"}) ||
		!slices.Equal(r.AllowedBundleGrants, []string{"read", "write:.cache/"}) {
		t.Fatalf("%+v %v", r, ok)
	}
	if ok, err := s2.Reset(doc); !ok || err != nil {
		t.Fatalf("reset %v %v", ok, err)
	}
	if _, ok, _ := NewStore(state.Open(dir, state.Options{})).Lookup(doc); ok {
		t.Fatal("the record survived a reset")
	}
	// Put refuses a record that could not be read back.
	for _, bad := range []Record{
		{Key: "short", AllowedHosts: []string{"a.example"}},
		{Key: goodKey, AllowedHosts: []string{"A.example"}},
		{Key: goodKey, AllowedHosts: []string{"a.example"}, AllowedBundleGrants: []string{"write:/etc"}},
		{Key: goodKey},
	} {
		if err := s2.Put(doc, bad); err == nil {
			t.Errorf("Put accepted %+v", bad)
		}
	}
}

func TestStoreHostileContent(t *testing.T) {
	doc := "file:///n.mk.md"
	good := `{"key":"` + goodKey + `","allowedHosts":["a.example"]}`
	files := map[string]string{
		"truncated":       `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey[:20],
		"not json":        "grants = yes",
		"array":           `["markii.netGrants"]`,
		"grants a string": `{"markii.netGrants":"everything"}`,
		"grants an array": `{"markii.netGrants":[` + good + `]}`,
		"record a string": `{"markii.netGrants":{"file:///n.mk.md":"a.example"}}`,
		"key a number":    `{"markii.netGrants":{"file:///n.mk.md":{"key":1,"allowedHosts":["a.example"]}}}`,
		"key not hex":     `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + strings.Repeat("Z", 64) + `","allowedHosts":["a.example"]}}}`,
		"hosts a string":  `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":"a.example"}}}`,
		"hosts missing":   `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `"}}}`,
		"host a number":   `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["a.example",7]}}}`,
		"control char":    `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["a.example","evil\u001b[31m.example"]}}}`,
		"bidi override":   `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["a.example","exa\u202emple.com"]}}}`,
		"nul":             `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["a.example\u0000.evil"]}}}`,
		"uppercase":       `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["A.EXAMPLE"]}}}`,
		"url not host":    `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["https://a.example/"]}}}`,
		"wildcard":        `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["*"]}}}`,
		"bad bundle":      `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["a.example"],"allowedBundleGrants":["write:../"]}}}`,
		"bundle a string": `{"markii.netGrants":{"file:///n.mk.md":{"key":"` + goodKey + `","allowedHosts":["a.example"],"allowedBundleGrants":"read"}}}`,
		"huge nesting":    `{"markii.netGrants":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`,
	}
	for name, text := range files {
		s, _ := stateWith(t, text)
		if r, ok, _ := s.Lookup(doc); ok {
			t.Errorf("%s: a record was read: %+v", name, r)
		}
		d, _ := Stored(s, doc, goodKey)
		if len(d.Hosts) != 0 || d.Reused {
			t.Errorf("%s: auto decision %+v", name, d)
		}
	}
	// A hostile sibling record does not disturb a good one.
	s, _ := stateWith(t, `{"markii.netGrants":{"file:///n.mk.md":`+good+`,"file:///x":{"key":7}}}`)
	all, invalid, _ := s.All()
	if len(all) != 1 || invalid != 1 || !slices.Equal(all[doc].AllowedHosts, []string{"a.example"}) {
		t.Fatalf("all %v invalid %d", all, invalid)
	}
}

// person answers prompts from a script of answers and records each
// question, standing in for the person at the keyboard.
type person struct {
	answers map[string]bool
	asked   []string
	err     error
}

func (p *person) Ask(q string) (bool, error) {
	p.asked = append(p.asked, q)
	if p.err != nil {
		return false, p.err
	}
	return p.answers[q], nil
}

func TestConsentFlow(t *testing.T) {
	ctx := context.Background()
	s, _ := stateWith(t, "")
	doc := "file:///n.mk.md"
	scan := Result{Hosts: []string{"a.example", "b.example"}}
	p := &person{answers: map[string]bool{HostQuestion("a.example"): true}}
	d, err := Consent(ctx, p, s, Request{DocKey: doc, Key: goodKey, Scan: scan})
	if err != nil || !slices.Equal(d.Hosts, []string{"a.example"}) || !d.Stored {
		t.Fatalf("%+v %v", d, err)
	}
	if !slices.Equal(p.asked, []string{HostQuestion("a.example"), HostQuestion("b.example")}) {
		t.Fatalf("asked %q", p.asked)
	}
	// Same key: no prompt, the stored answer is reused (manual and auto).
	p2 := &person{}
	d, _ = Consent(ctx, p2, s, Request{DocKey: doc, Key: goodKey, Scan: scan})
	if len(p2.asked) != 0 || !d.Reused || !slices.Equal(d.Hosts, []string{"a.example"}) {
		t.Fatalf("reuse %+v asked %v", d, p2.asked)
	}
	d, _ = Resolve(ctx, script.TierAuto, p2, s, Request{DocKey: doc, Key: goodKey, Scan: scan})
	if !slices.Equal(d.Hosts, []string{"a.example"}) || len(p2.asked) != 0 {
		t.Fatalf("auto reuse %+v", d)
	}
	// A new key: auto gets nothing and never asks.
	other := strings.Repeat("e", 64)
	d, _ = Resolve(ctx, script.TierAuto, p2, s, Request{DocKey: doc, Key: other, Scan: scan})
	if len(d.Hosts) != 0 || len(p2.asked) != 0 {
		t.Fatalf("auto on a new key %+v asked %v", d, p2.asked)
	}
	// A full decline stores nothing: the old record stays, and the next
	// manual run asks again.
	p3 := &person{}
	d, _ = Consent(ctx, p3, s, Request{DocKey: doc, Key: other, Scan: scan})
	if len(d.Hosts) != 0 || d.Stored || len(p3.asked) != 2 {
		t.Fatalf("decline %+v asked %v", d, p3.asked)
	}
	if r, _, _ := s.Lookup(doc); r.Key != goodKey {
		t.Fatal("a full decline replaced the stored record")
	}
}

// TestQuestionWording checks what each prompt says a yes means, the
// consolidated prompt's list, and the warning for local addresses.
func TestQuestionWording(t *testing.T) {
	remembered := "A yes is remembered for this exact code (any change asks again), covers every path and port on api.example, and may be used by unattended runs if you turned those on in your settings."
	if got, want := HostQuestion("api.example"), "This note's scripts can send data to api.example.\n"+remembered+"\nAllow?"; got != want {
		t.Fatalf("host question:\n%s\nwant:\n%s", got, want)
	}
	for host, warning := range map[string]string{
		"127.0.0.1":       "Warning: 127.0.0.1 is an address on your own machine, not on the internet.",
		"::1":             "Warning: ::1 is an address on your own machine, not on the internet.",
		"localhost":       "Warning: localhost is an address on your own machine, not on the internet.",
		"10.1.2.3":        "Warning: 10.1.2.3 is an address on your own network (or a cloud metadata service), not on the internet.",
		"192.168.0.1":     "Warning: 192.168.0.1 is an address on your own network (or a cloud metadata service), not on the internet.",
		"169.254.169.254": "Warning: 169.254.169.254 is an address on your own network (or a cloud metadata service), not on the internet.",
		"fe80::1":         "Warning: fe80::1 is an address on your own network (or a cloud metadata service), not on the internet.",
		"fd00:ec2::254":   "Warning: fd00:ec2::254 is an address on your own network (or a cloud metadata service), not on the internet.",
		"100.64.0.1":      "Warning: 100.64.0.1 is an address on your own network (or a cloud metadata service), not on the internet.",
		"8.8.8.8":         "",
		"example.com":     "",
	} {
		lines := strings.Split(HostQuestion(host), "\n")
		got := ""
		if len(lines) == 4 {
			got = lines[1]
		}
		if got != warning || lines[0] != "This note's scripts can send data to "+host+"." || lines[len(lines)-1] != "Allow?" {
			t.Errorf("%s: %q", host, lines)
		}
	}
	var hosts []string
	for i := 0; i < 13; i++ {
		hosts = append(hosts, fmt.Sprintf("h%02d.example", i))
	}
	hosts = append(hosts, "127.0.0.1", "10.0.0.1")
	got := strings.Split(ManyHostsQuestion(hosts), "\n")
	want := []string{
		"This note's scripts can send data to 15 hosts: h00.example, h01.example, h02.example, h03.example, h04.example, h05.example, h06.example, h07.example, h08.example, h09.example and 5 more.",
		"Warning: 127.0.0.1, 10.0.0.1 are addresses on your own machine or network, not on the internet.",
		"A yes is remembered for this exact code (any change asks again), covers every path and port on each of them, and may be used by unattended runs if you turned those on in your settings.",
		"Allow all 15?",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("many hosts:\n%q\nwant:\n%q", got, want)
	}
	// The dialog's lines are sanitized one by one.
	if l := QuestionLines("a\x1b[2J\tb\nc"); !slices.Equal(l, []string{"a[2J b", "c"}) {
		t.Fatalf("QuestionLines: %q", l)
	}
}

func TestConsentRuntimeGateAndManyHosts(t *testing.T) {
	ctx := context.Background()
	s, _ := stateWith(t, "")
	// Hosts written in the code and addresses built at run time: one
	// question naming every grantable host and what happens to the rest;
	// a yes grants exactly those hosts, a no grants nothing.
	both := Result{Hosts: []string{"a.example", "b.example"}, RuntimeAddresses: true}
	q := Question(both.Hosts, true, false)
	yes := &person{answers: map[string]bool{q: true}}
	d, _ := Consent(ctx, yes, s, Request{DocKey: "d1", Key: goodKey, Scan: both})
	if !slices.Equal(yes.asked, []string{q}) || !slices.Equal(d.Hosts, both.Hosts) || !d.Stored {
		t.Fatalf("one question, a yes grants what it listed: %+v %q", d, yes.asked)
	}
	if r, _, _ := s.Lookup("d1"); !slices.Equal(r.AllowedHosts, both.Hosts) {
		t.Fatalf("stored %v", r.AllowedHosts)
	}
	wantQ := []string{
		"This note's scripts can send data to 2 hosts: a.example, b.example.",
		"Some requests build their address while the scripts run: such a request goes out only to a host named here, and a request to any other host is denied when it is made.",
		"A yes is remembered for this exact code (any change asks again), covers every path and port on each of them, and may be used by unattended runs if you turned those on in your settings.",
		"Allow all 2?",
	}
	if got := strings.Split(q, "\n"); !slices.Equal(got, wantQ) {
		t.Fatalf("question:\n%q\nwant\n%q", got, wantQ)
	}
	no := &person{}
	d, _ = Consent(ctx, no, s, Request{DocKey: "d1b", Key: goodKey, Scan: both})
	if len(no.asked) != 1 || len(d.Hosts) != 0 || d.Stored {
		t.Fatalf("a no grants nothing: %+v %q", d, no.asked)
	}
	if _, ok, _ := s.Lookup("d1b"); ok {
		t.Fatal("a no stored a grant")
	}
	// A note without identity: the question says the grant lasts for this
	// run only, and nothing about unattended runs.
	one := &person{}
	Consent(ctx, one, s, Request{DocKey: NoIdentity, Key: goodKey, Scan: Result{Hosts: []string{"a.example"}}, OneRun: true})
	if len(one.asked) != 1 || !strings.Contains(one.asked[0], "A yes lasts for this run only") || strings.Contains(one.asked[0], "remembered for") || strings.Contains(one.asked[0], "unattended") {
		t.Fatalf("stdin wording %q", one.asked)
	}
	// No literal host: no prompt at all, not even the gate.
	none := &person{}
	d, _ = Consent(ctx, none, s, Request{DocKey: "d2", Key: goodKey, Scan: Result{RuntimeAddresses: true}})
	if len(none.asked) != 0 || len(d.Hosts) != 0 {
		t.Fatalf("asked %q", none.asked)
	}
	// More than ten hosts fold into one question.
	var hosts []string
	for i := 0; i < 12; i++ {
		hosts = append(hosts, "h"+string(rune('a'+i))+".example")
	}
	many := &person{answers: map[string]bool{ManyHostsQuestion(hosts): true}}
	d, _ = Consent(ctx, many, s, Request{DocKey: "d3", Key: goodKey, Scan: Result{Hosts: hosts}})
	if len(many.asked) != 1 || !strings.HasPrefix(many.asked[0], "This note's scripts can send data to 12 hosts: ha.example, hb.example,") || len(d.Hosts) != 12 {
		t.Fatalf("many: %+v %q", d, many.asked)
	}
	// A host failing the shape check is never shown even if a caller
	// passes it in.
	sneaky := &person{answers: map[string]bool{}}
	Consent(ctx, sneaky, s, Request{DocKey: "d4", Key: goodKey, Scan: Result{Hosts: []string{"evil\x1b]8;;x\x07.example", "ok.example"}}})
	if len(sneaky.asked) != 1 || strings.ContainsRune(sneaky.asked[0], 0x1b) {
		t.Fatalf("asked %q", sneaky.asked)
	}
	// A prompter failure allows nothing and stores nothing.
	broken := &person{err: errors.New("terminal went away")}
	d, err := Consent(ctx, broken, s, Request{DocKey: "d5", Key: goodKey, Scan: Result{Hosts: []string{"a.example"}}})
	if err == nil || len(d.Hosts) != 0 {
		t.Fatalf("%+v %v", d, err)
	}
	if _, ok, _ := s.Lookup("d5"); ok {
		t.Fatal("a failed prompt stored a grant")
	}
}

func TestPrompters(t *testing.T) {
	var out strings.Builder
	tp := NewTerminalPrompter(strings.NewReader(" YES \ny\nno\n\nyess\n"+strings.Repeat("y", 10000)+"\n"), &out)
	want := []bool{true, true, false, false, false, false, false}
	for i, w := range want {
		got, err := tp.Ask("Q?")
		if err != nil || got != w {
			t.Fatalf("answer %d = %v %v, want %v", i, got, err, w)
		}
	}
	if !strings.HasPrefix(out.String(), "Q? [y/N] Q? [y/N] ") {
		t.Fatalf("prompt text %q", out.String())
	}
	var errs strings.Builder
	ni := &NonInteractive{Out: &errs}
	for i := 0; i < 3; i++ {
		if ok, _ := ni.Ask(HostQuestion("a.example")); ok {
			t.Fatal("the non-interactive prompter allowed")
		}
	}
	if errs.String() != "markii: a grant cannot be given non-interactively; run markii in a terminal to allow network access\n" {
		t.Fatalf("reason %q", errs.String())
	}
}
