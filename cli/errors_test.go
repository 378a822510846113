package cli

import (
	"errors"
	"io/fs"
	"testing"
)

// TestFailfKeepsTheCause: an exit error made with %w unwraps to its cause,
// and its message is the one fmt would make.
func TestFailfKeepsTheCause(t *testing.T) {
	err := failf("cannot read values file %s: %w", "v.json", fs.ErrNotExist)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != ExitFailure || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%#v: want an exit-1 error whose cause is fs.ErrNotExist", err)
	}
	if err.Error() != "cannot read values file v.json: file does not exist" {
		t.Fatalf("message %q", err.Error())
	}
	if errors.Unwrap(failf("no cause: %v", fs.ErrNotExist)) != nil {
		t.Fatal("a failf without a wrapped error made a cause")
	}
}
