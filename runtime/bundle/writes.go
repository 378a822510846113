package bundle

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// persistCacheWrite saves data at clean (a path under .cache/) inside the
// directory bundle at dir: each directory on the way is checked with lstat
// and created if missing, a symbolic link or a hard-linked target refuses
// the write, and the bytes go to a temporary file beside the target that
// is then renamed over it. Nothing follows a link and nothing leaves the
// bundle (every operation goes through an os.Root).
func persistCacheWrite(dir, clean string, data []byte) error {
	if !hasPrefixDir(clean, CacheDir) {
		return errors.New("writes go only under .cache/")
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := makeCacheDirs(root, clean); err != nil {
		return err
	}
	if err := checkWriteTarget(root, clean); err != nil {
		return err
	}
	var suffix [8]byte
	_, _ = rand.Read(suffix[:])
	tmp := path.Join(parentDir(clean), fmt.Sprintf(".%s.%d.%s.tmp", path.Base(clean), os.Getpid(), hex.EncodeToString(suffix[:])))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|openNoFollow, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = root.Rename(tmp, clean)
	}
	if werr != nil {
		_ = root.Remove(tmp)
		return werr
	}
	return nil
}

// makeCacheDirs checks each directory on the way to clean with lstat and
// creates it if missing; a symbolic link or anything not a directory
// refuses the write.
func makeCacheDirs(root *os.Root, clean string) error {
	parts := strings.Split(clean, "/")
	cur := ""
	for _, part := range parts[:len(parts)-1] {
		cur = path.Join(cur, part)
		info, err := root.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := root.Mkdir(cur, 0o755); err != nil {
				return err
			}
		case err != nil:
			return err
		case info.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link", quote(cur))
		case !info.IsDir():
			return fmt.Errorf("%s is not a directory", quote(cur))
		}
	}
	return nil
}

// checkWriteTarget refuses a write over anything but a missing file or a
// regular file with one link.
func checkWriteTarget(root *os.Root, clean string) error {
	info, err := root.Lstat(clean)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link", quote(clean))
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", quote(clean))
	case linkCount(info) > 1:
		return fmt.Errorf("%s is a hard link", quote(clean))
	}
	return nil
}
