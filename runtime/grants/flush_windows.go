//go:build windows

package grants

import (
	"os"

	"golang.org/x/sys/windows"
)

// discardPending drops console input that no one has read yet.
func discardPending(f *os.File) {
	_ = windows.FlushConsoleInputBuffer(windows.Handle(f.Fd()))
}
