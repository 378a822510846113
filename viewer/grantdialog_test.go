package viewer

import (
	"strings"
	"testing"

	"github.com/markii/markii/runtime/grants"
)

// TestGrantDialogSaysWhatAYesMeans draws the real per-host question in the
// dialog: each of its lines appears on its own, warning included, and no
// line feed is folded into a space.
func TestGrantDialogSaysWhatAYesMeans(t *testing.T) {
	r := &scriptedRunner{question: grants.HostQuestion("127.0.0.1")}
	m := newTest(t, scriptNote, 100, 24, func(o *Options) { o.Runner = r })
	d := newDriver(m)
	d.key("r")
	d.until(t, "the dialog", func() bool { return m.run.asking != nil })
	mustContain(t, m, "This note's scripts can send data to 127.0.0.1.",
		"Warning: 127.0.0.1 is an address on your own machine,",
		"remembered for this exact code", "every path and port on 127.0.0.1", "unattended runs", "Allow?", "y allow")
	s := screen(m)
	if strings.Contains(s, "127.0.0.1. Warning") {
		t.Fatalf("the question's lines were joined:\n%s", s)
	}
	d.key("n")
	d.until(t, "the run to end", func() bool { return !m.run.active() })
}
