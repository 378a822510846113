//go:build unix

package cli

import (
	"io/fs"
	"syscall"
)

func ownerIs(a, b fs.FileInfo) bool {
	sa, oka := a.Sys().(*syscall.Stat_t)
	sb, okb := b.Sys().(*syscall.Stat_t)
	return oka && okb && sa.Uid == sb.Uid
}
