// Package oserr gives the operating system's reason for a failed file
// operation without Go's "op path:" prefix, for messages that name the
// path themselves.
package oserr

import (
	"errors"
	"io/fs"
	"os"
)

// Cause is the error inside err's *fs.PathError or *os.LinkError (the
// operating system's reason, such as "permission denied"), or err itself
// when it holds neither.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
