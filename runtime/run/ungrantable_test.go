package run

import (
	"context"
	"strings"
	"testing"

	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/value"
)

// TestUngrantableAddressSaysSo runs a note whose address is built at run
// time with no host written as a literal: nothing is asked although every
// answer would be yes, nothing reaches the server, and the outcome says
// the request cannot be granted and what to write instead. A host the
// scan did list, declined, still needs permission.
func TestUngrantableAddressSaysSo(t *testing.T) {
	svc, _ := service(t, config.Settings{})
	srv, hits := countingServer(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	note := Note{Key: "file:///n.mk.md", Scripts: []Script{
		lua("built", `return net.fetch_json("http://127.0.0.1" .. ":`+port+`/x").v`),
	}}
	y := &yes{}
	res, err := svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual, Prompter: y})
	if err != nil {
		t.Fatal(err)
	}
	o := outcomes(res)["built"]
	want := "cannot be granted: this script builds its address at run time; write the URL (at least `https://127.0.0.1/`) as a literal"
	if o.Kind != value.CapabilityDenied || o.Reason != script.DenialUngrantable || o.Summary() != want {
		t.Fatalf("outcome %+v, summary %q", o, o.Summary())
	}
	if !strings.Contains(o.Detail, want) {
		t.Fatalf("detail %q lacks the advice", o.Detail)
	}
	if len(y.asked) != 0 || hits.Load() != 0 {
		t.Fatalf("asked %q, %d requests", y.asked, hits.Load())
	}

	// The same code with the host also written as a literal elsewhere: the
	// host can be granted, and declining it is an ordinary denial.
	note.Scripts = append(note.Scripts, lua("doc", `local home = "http://127.0.0.1:`+port+`/docs" return 1`))
	res, err = svc.Run(context.Background(), Request{Note: note, Trigger: script.Manual})
	if err != nil {
		t.Fatal(err)
	}
	o = outcomes(res)["built"]
	if o.Kind != value.CapabilityDenied || o.Reason != "" || o.Summary() != "needs permission (net: 127.0.0.1)" {
		t.Fatalf("a listable host: outcome %+v, summary %q", o, o.Summary())
	}
}
