package cli

import (
	"errors"
	"os/exec"
	"runtime"
	"strings"

	"github.com/markii/markii/ansi"
)

// browserCommand is the program that opens a URL on this system; tests
// replace it.
var browserCommand = func(url string) *exec.Cmd {
	switch runtime.GOOS {
	case "darwin":
		return exec.Command("open", url)
	case "windows":
		return exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	}
	return exec.Command("xdg-open", url)
}

// openBrowser opens an http or https URL in the system browser, for the
// viewer's `o` key when the user's settings allow it. The URL is passed as
// one argument, never through a shell, and must be a clean hyperlink
// target (no spaces or control characters).
func openBrowser(url string) error {
	lu := strings.ToLower(url)
	if !strings.HasPrefix(lu, "http://") && !strings.HasPrefix(lu, "https://") || !ansi.LinkAllowed(url) {
		return errors.New("only plain http and https links are opened")
	}
	cmd := browserCommand(url)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap the opener; the browser outlives it
	return nil
}
