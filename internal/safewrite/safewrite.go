// Package safewrite writes files the way markii replaces a file it
// writes (export -o, snapshots): into a new temporary sibling that is
// renamed over the target, so a reader never sees half a file and a
// failed or interrupted write leaves the old file as it was.
package safewrite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TempPrefix and TempSuffix frame the name of every temporary sibling:
// ".NAME.RANDOM.tmp".
const (
	TempPrefix = "."
	TempSuffix = ".tmp"
)

// Sibling creates a new, empty temporary file beside path with the given
// permissions (less the umask), which os.CreateTemp cannot do: it always
// uses 0600.
func Sibling(path string, perm fs.FileMode) (*os.File, error) {
	dir, base := filepath.Split(path)
	var suffix [6]byte
	for tries := 0; ; tries++ {
		_, _ = rand.Read(suffix[:])
		name := filepath.Join(dir, fmt.Sprintf("%s%s.%s%s", TempPrefix, base, hex.EncodeToString(suffix[:]), TempSuffix))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && tries < 100 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// IsTemp reports whether name is a temporary sibling's name.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, TempPrefix) && strings.HasSuffix(name, TempSuffix)
}

// Replace writes data to a temporary sibling of path and renames it over
// path. The sibling is removed on any failure.
func Replace(path string, data []byte, perm fs.FileMode) error {
	tmp, err := Sibling(path, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}
