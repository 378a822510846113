package oserr

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestCause(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "missing"))
	if got := Cause(err); got.Error() != "no such file or directory" || !errors.Is(got, fs.ErrNotExist) {
		t.Fatalf("Cause(%v) = %v", err, got)
	}
	err = os.Rename(filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b"))
	if got := Cause(err); got.Error() != "no such file or directory" {
		t.Fatalf("Cause(%v) = %v", err, got)
	}
	plain := errors.New("plain")
	if Cause(plain) != plain {
		t.Fatal("Cause changed an error without a path")
	}
}
