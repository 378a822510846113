package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/runtime/values"
)

func countingServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fmt.Fprint(w, `{"v":7}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func writeNote(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "n.mk.md")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// mustLoad reads a note's stored values.
func mustLoad(t *testing.T, st state.Entries, doc string) values.Snapshot {
	t.Helper()
	snap, err := values.Load(st, doc)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// testService is c's run service for a note from a file, which keeps its
// state on the device.
func testService(t *testing.T, c *invocation) *run.Service {
	t.Helper()
	svc, err := c.runService(&note{Key: "file:///test/note.mk.md"})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}
