//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd && !windows

package grants

import "os"

// discardPending has no terminal input queue to drop on this platform.
func discardPending(*os.File) {}
