//go:build !unix

package bundle

import "io/fs"

// Without Unix open flags, os.Root alone keeps every open inside the
// bundle; the lstat walk still refuses links it can see.
const (
	openNoFollow  = 0
	openDirectory = 0
	openNonBlock  = 0
)

// linkCount is unknown here and reported as one name.
func linkCount(fs.FileInfo) uint64 { return 1 }

func isLinkLoop(error) bool { return false }
