package cli

import (
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/markii/markii/runtime/grants"
)

// consentPrompter is how a manual run started from the command line asks
// for grants: on the terminal when stdin and errOut are both terminals;
// otherwise nil, and every prompt is denied without asking.
func consentPrompter(stdin io.Reader, errOut io.Writer) grants.Prompter {
	if isTerminal(stdin) && isTerminal(errOut) {
		return grants.NewTerminalPrompter(stdin, errOut)
	}
	return nil
}

// isTerminal reports whether a stream is an *os.File on a terminal.
func isTerminal(v any) bool {
	if w, ok := v.(inertWriter); ok {
		v = w.File()
	}
	f, ok := v.(*os.File)
	return ok && f != nil && term.IsTerminal(f.Fd())
}
