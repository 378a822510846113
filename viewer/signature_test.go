package viewer

import (
	"strings"
	"testing"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/signature"
)

// TestSignatureIsShown: the status bar, the help pane (h) and the diagnostics pane (D) say who
// signed the note; an unsigned note's status bar says nothing of it, and
// its panes say it is unsigned.
func TestSignatureIsShown(t *testing.T) {
	signed := signature.Status{State: signature.Trusted, Principal: "alice@example.org", Fingerprint: "SHA256:abc"}
	m := newTest(t, "# Title\n\ntext\n", 120, 16, func(o *Options) { o.Note.Signature = signed })
	mustContain(t, m, "signed: alice@example.org")
	d := newDriver(m)
	d.key("D")
	mustContain(t, m, "Diagnostics", "Signature: signed by alice@example.org")
	d.key("esc")
	d.key("h")
	mustContain(t, m, "Keys", "signed by alice@example.org")

	bad := signature.Status{State: signature.Mismatch, Problem: signature.Changed}
	m = newTest(t, "# Title\n", 120, 16, func(o *Options) { o.Note.Signature = bad })
	mustContain(t, m, "signature mismatch")

	m = newTest(t, "# Title\n", 120, 16, nil)
	if v := m.View().Content; strings.Contains(v, "signed") {
		t.Fatalf("an unsigned note's screen mentions a signature:\n%s", v)
	}
	newDriver(m).key("D")
	mustContain(t, m, "Signature: unsigned")
}

// TestGrantDialogNamesTheSigner: the consent question of a signed note
// says who signed it and that a signature grants nothing; the question
// and its answer are the same.
func TestGrantDialogNamesTheSigner(t *testing.T) {
	signed := signature.Status{State: signature.UnknownKey, Fingerprint: "SHA256:abc"}
	r := &scriptedRunner{question: grants.HostQuestion("api.example.com")}
	m := newTest(t, scriptNote, 100, 30, func(o *Options) { o.Runner = r; o.Note.Signature = signed })
	d := newDriver(m)
	d.key("r")
	d.untilDialog(t)
	mustContain(t, m, "This note is signed by an unknown key (SHA256:abc). A signature grants", "nothing.",
		"This note's scripts can send data to api.example.com.", "Allow?", "y allow")
	d.key("n")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
}
