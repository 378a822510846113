//go:build !unix

package safefile

import "io/fs"

// Windows opens never wait on a pipe's writer; the type checks around the
// open do the refusing.
const openFlags = 0

const noFollowFlag = 0

func isLoop(error) bool { return false }

func ownedByMe(fs.FileInfo) bool { return true }
