package viewer

import (
	"strings"
	"testing"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/signature"
)

// TestSignatureIsShown: the status bar, the help pane (h) and the
// diagnostics pane (D) say one of the four answers: who signed the note,
// an unknown key's fingerprint, that the signature does not match, or
// unsigned.
func TestSignatureIsShown(t *testing.T) {
	signed := signature.Status{State: signature.Trusted, Principal: "alice@example.org", Fingerprint: "SHA256:abc"}
	m := newTest(t, "# Title\n\ntext\n", 120, 16, func(o *Options) { o.Note.Signature = signed })
	if !strings.Contains(status(m), "signed: alice@example.org") {
		t.Fatalf("status %q", status(m))
	}
	d := newDriver(m)
	d.key("D")
	mustContain(t, m, "Diagnostics", "Signature: signed by alice@example.org")
	d.key("esc")
	d.key("h")
	mustContain(t, m, "Keys", "signed by alice@example.org")

	for _, c := range []struct {
		sig        signature.Status
		bar, panes string
	}{
		{signature.Status{State: signature.Mismatch, Problem: signature.Changed}, "signature does not match", "Signature: signature does not match: the note changed"},
		{signature.Status{State: signature.UnknownKey, Fingerprint: "SHA256:0123456789abcdefghij"}, "signed: unknown key SHA256:01234567…", "Signature: signed by an unknown key (SHA256:0123456789abcdefghij)"},
		{signature.Status{}, "unsigned", "Signature: unsigned"},
	} {
		m = newTest(t, "# Title\n", 120, 16, func(o *Options) { o.Note.Signature = c.sig })
		if !strings.Contains(status(m), c.bar) {
			t.Fatalf("status %q lacks %q", status(m), c.bar)
		}
		newDriver(m).key("D")
		mustContain(t, m, c.panes)
	}
}

// TestUnsignedGivesWayInANarrowStatusBar: "unsigned" shows when there is
// room and gives way to the name and position when there is not; a
// signer always shows.
func TestUnsignedGivesWayInANarrowStatusBar(t *testing.T) {
	m := newTest(t, "# Title\n", 30, 8, nil)
	if s := status(m); strings.Contains(s, "unsigned") || !strings.Contains(s, "100%") {
		t.Fatalf("narrow status %q", s)
	}
	m = newTest(t, "# Title\n", 30, 8, func(o *Options) {
		o.Note.Signature = signature.Status{State: signature.Trusted, Principal: "al@x.org"}
	})
	if s := status(m); !strings.Contains(s, "signed: al@x.org") {
		t.Fatalf("narrow signed status %q", s)
	}
}

// TestLibraryListSaysEachSignature: every entry of the list says its
// signature status, or that it was not checked.
func TestLibraryListSaysEachSignature(t *testing.T) {
	trusted := signature.Status{State: signature.Trusted, Principal: "carol@example.org"}
	lib := &Library{Root: "/r", Entries: []LibraryEntry{
		{Rel: "a.mk.md", Signature: &signature.Status{}},
		{Rel: "b.mk.md", Signature: &trusted},
		{Rel: "c.mkz"},
	}}
	l := newLibraryList(lib)
	want := []string{"a.mk.md  · unsigned", "b.mk.md  · signed: carol@example.org", "c.mkz  · signature not checked"}
	if strings.Join(l.labels, "|") != strings.Join(want, "|") {
		t.Fatalf("labels %q, want %q", l.labels, want)
	}
}

// TestGrantDialogNamesTheSigner: the consent question opens with one
// line saying the note's signature status (that a signature grants
// nothing, when there is one); the question and its answer are the same.
func TestGrantDialogNamesTheSigner(t *testing.T) {
	for _, c := range []struct {
		sig  signature.Status
		line string
	}{
		{signature.Status{State: signature.UnknownKey, Fingerprint: "SHA256:abc"}, "Signed by an unknown key (SHA256:abc). A signature grants nothing."},
		{signature.Status{State: signature.Trusted, Principal: "alice@example.org"}, "Signed by alice@example.org. A signature grants nothing."},
		{signature.Status{State: signature.Mismatch, Problem: signature.Changed}, "Signature does not match."},
		{signature.Status{}, "Unsigned."},
	} {
		r := &scriptedRunner{question: grants.HostQuestion("api.example.com")}
		m := newTest(t, scriptNote, 100, 30, func(o *Options) { o.Runner = r; o.Note.Signature = c.sig })
		d := newDriver(m)
		d.key("r")
		d.untilDialog(t)
		mustContain(t, m, c.line, "This note's scripts can send data to api.example.com.", "Allow?", "y allow")
		d.key("n")
		d.until(t, "the run to end", func() bool { return !m.run.active() })
		if len(r.answers) != 1 || r.answers[0] {
			t.Fatalf("%s: answers %v", c.line, r.answers)
		}
	}
}
