//go:build unix

package state

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func makeFIFO(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir, Options{})
	set(t, s, "other", SectionValues, `1`)
	path := filepath.Join(dir, notesDir, fileName("d", SectionValues))
	makeFIFO(t, path)
	done := make(chan error, 1)
	go func() {
		_, err := s.Get("d", SectionValues)
		if err == nil {
			err = s.Update("d", SectionValues, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`1`), nil })
		} else if uerr := s.Update("d", SectionValues, func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`1`), nil }); uerr == nil {
			err = errors.New("Update wrote over a named pipe")
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), path) {
			t.Fatalf("a FIFO entry: %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("reading a FIFO entry blocked")
	}
	// A symbolic link is never followed.
	target := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(target, []byte(`{"documentKey":"e","data":1}`), 0o600)
	link := filepath.Join(dir, notesDir, fileName("e", SectionValues))
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("e", SectionValues); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symlinked entry: %v", err)
	}
	// A state directory that is a file.
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	if _, err := Open(file, Options{}).Get("d", SectionValues); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("a file as the state directory: %v", err)
	}
}
