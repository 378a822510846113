package cli

import (
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/signature"
)

// consentPrompter is how a manual run started from the command line asks
// for grants: on the terminal when stdin and errOut are both terminals,
// each question wrapped at word boundaries to the terminal's width when it
// is asked; otherwise nil, and every prompt is denied without asking.
func consentPrompter(stdin io.Reader, errOut io.Writer, sig signature.Status) grants.Prompter {
	if isTerminal(stdin) && isTerminal(errOut) {
		p := grants.NewTerminalPrompter(stdin, errOut)
		p.Wrap = func(line string) []string {
			return render.WrapText(line, promptWidth(errOut))
		}
		return signedQuestions{p, sig}
	}
	return nil
}

// signedQuestions opens each question with one line saying the note's
// signature status (signature.Status.Sentence). It only shows it: the
// question, its answer and what is granted are the same whatever it says.
type signedQuestions struct {
	grants.Prompter
	sig signature.Status
}

// Ask implements grants.Prompter.
func (s signedQuestions) Ask(question string) (bool, error) {
	return s.Prompter.Ask(s.sig.Sentence() + "\n" + question)
}

// promptWidth is the width a question is wrapped to: the terminal's
// columns, less one so a full row never makes the terminal wrap on its
// own; 80 when the size cannot be read.
func promptWidth(w io.Writer) int {
	if iw, ok := w.(inertWriter); ok {
		w = iw.File()
	}
	if f, ok := w.(*os.File); ok && f != nil {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols > 1 {
			return cols - 1
		}
	}
	return 80
}

// isTerminal reports whether a stream is an *os.File on a terminal.
func isTerminal(v any) bool {
	if w, ok := v.(inertWriter); ok {
		v = w.File()
	}
	f, ok := v.(*os.File)
	return ok && f != nil && term.IsTerminal(f.Fd())
}
