package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markii/markii/internal/safewrite"
	"github.com/markii/markii/snapshot"
)

// TestSnapshotInterruptLeavesNoTemp: Ctrl-C (SIGINT) to the real markii
// binary while `snapshot --update` is writing stops it promptly with exit
// 130, leaves no temporary file in the snapshot folders, and does not go
// on to write every snapshot.
func TestSnapshotInterruptLeavesNoTemp(t *testing.T) {
	bin := markiiBinary(t)
	dir := t.TempDir()
	const notes = 600
	for i := range notes {
		body := strings.Repeat(fmt.Sprintf("## Part %d\n\nSome **text** with `code` and a [link](https://example.com/%d).\n\n- one\n- two\n\n", i, i), 30)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%03d.mk.md", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snaps := filepath.Join(dir, snapshot.Dir)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "snapshot", "--update", "--jobs", "1", dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// Wait until it has written some snapshots, polling: a loaded
	// machine may take seconds to start it.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if s, _ := filepath.Glob(filepath.Join(snaps, "*.snap")); len(s) > 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("markii snapshot ended before it was interrupted (%v): %s", err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-done
			t.Fatal("markii snapshot wrote no snapshot in 60 s")
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("markii snapshot did not stop within 30 s of SIGINT")
	}
	t.Logf("stopped %v after SIGINT", time.Since(sent))

	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit after SIGINT: %v, want code 130; stderr: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr does not say it was interrupted: %q", stderr.String())
	}
	entries, err := os.ReadDir(snaps)
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), safewrite.TempSuffix):
			t.Errorf("temporary file left: %s", e.Name())
		case strings.HasSuffix(e.Name(), ".snap"):
			written++
		default:
			t.Errorf("unexpected file in the snapshot folder: %s", e.Name())
		}
	}
	if written >= 2*notes {
		t.Errorf("every snapshot (%d) was written after SIGINT", written)
	}
}
