//go:build !unix

package cli

import "io/fs"

func ownerIs(a, b fs.FileInfo) bool { return true }
