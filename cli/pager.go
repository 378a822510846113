package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/charmbracelet/x/term"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/sanitize"
)

// pagingFlag is render's --paging flag, as bat's.
var pagingFlag = flagSpec{name: "paging", value: "WHEN", help: "auto (page output taller than the terminal through $MARKII_PAGER, else $PAGER, else less -RF), always or never (default: the paging setting, auto)"}

// defaultPager is the pager when neither $MARKII_PAGER nor $PAGER names one.
var defaultPager = []string{"less", "-RF"}

// pagerCommand is the pager to run: $MARKII_PAGER, else $PAGER, else
// less -RF, split at white space. A bare `less` gets -RF, so that markii's
// colors show and a short page ends at once, as bat does.
func (c *invocation) pagerCommand() []string {
	for _, v := range []string{"MARKII_PAGER", "PAGER"} {
		if argv := strings.Fields(c.getenv(v)); len(argv) > 0 {
			if len(argv) == 1 && filepath.Base(argv[0]) == "less" {
				return append(argv, defaultPager[1:]...)
			}
			return argv
		}
	}
	return defaultPager
}

// renderOutput is where render writes: stdout itself, or, as --paging
// and the paging setting say, a pager on stdout. The caller closes it
// after the last write.
func (c *invocation) renderOutput(flag choiceFlag) (io.WriteCloser, error) {
	mode, ok := config.ParsePaging(flag.or(c.startSettings.Paging.String()))
	if !ok {
		return nil, usagef("--paging wants auto, always or never, not %q", flag.value)
	}
	out, isFile := c.stdio.Out.(*os.File)
	direct := nopCloser{c.stdio.Out}
	switch {
	case mode == config.PagingNever || !isFile:
		return direct, nil
	case mode == config.PagingAlways:
		return &pager{out: out, errOut: c.stdio.Err, argv: c.pagerCommand()}, nil
	case !isTerminal(out):
		return direct, nil
	}
	_, rows, err := term.GetSize(out.Fd())
	if err != nil || rows <= 0 {
		return direct, nil
	}
	return &pager{out: out, errOut: c.stdio.Err, argv: c.pagerCommand(), rows: rows}, nil
}

// nopCloser is stdout, which render does not close.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// pager holds back output until it is taller than the screen (rows lines;
// 0 for none at all), then starts the pager with out as its stdout and
// writes everything through it. Output that fits is written to out at
// Close. When the pager quits before the output ends (the reader pressed
// q), the rest is dropped without an error; when it cannot start, the
// output goes to out after a one-line warning.
type pager struct {
	out    *os.File
	errOut io.Writer
	argv   []string
	rows   int

	held  []byte
	lines int
	cmd   *exec.Cmd
	pipe  io.WriteCloser
	// direct: the pager could not start; quit: it ended early.
	direct, quit bool
}

func (p *pager) Write(b []byte) (int, error) {
	switch {
	case p.quit:
		return len(b), nil
	case p.direct:
		return p.out.Write(b)
	case p.pipe != nil:
		return p.toPager(b)
	}
	p.held = append(p.held, b...)
	p.lines += strings.Count(string(b), "\n")
	if p.lines < p.rows {
		return len(b), nil
	}
	held := p.held
	p.held = nil
	if err := p.start(); err != nil {
		fmt.Fprintf(p.errOut, "markii: cannot start the pager %s: %s; writing to the terminal\n", sanitize.Line(strings.Join(p.argv, " ")), sanitize.Line(osReason(err)))
		p.direct = true
		if _, err := p.out.Write(held); err != nil {
			return 0, err
		}
		return len(b), nil
	}
	if _, err := p.toPager(held); err != nil {
		return 0, err
	}
	return len(b), nil
}

// toPager writes to the pager; a pager that has ended takes the rest.
func (p *pager) toPager(b []byte) (int, error) {
	if _, err := p.pipe.Write(b); err != nil {
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
			p.quit = true
			return len(b), nil
		}
		return 0, err
	}
	return len(b), nil
}

// start runs the pager on out. While it runs, an interrupt is the
// pager's (less uses Ctrl-C to stop a search), so markii ignores it
// rather than leave the pager behind on the terminal.
func (p *pager) start() error {
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdout, cmd.Stderr = p.out, p.errOut
	pipe, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	signal.Ignore(os.Interrupt)
	p.cmd, p.pipe = cmd, pipe
	return nil
}

// Close ends the output: the held output is written to out, or the pager
// is told the output ended and waited for.
func (p *pager) Close() error {
	if p.pipe == nil && !p.direct && !p.quit && p.rows == 0 {
		// always: the pager runs even on what fits.
		if _, err := p.Write(nil); err != nil {
			return err
		}
	}
	if p.pipe == nil {
		held := p.held
		p.held = nil
		if len(held) == 0 {
			return nil
		}
		_, err := p.out.Write(held)
		return err
	}
	p.pipe.Close()
	_ = p.cmd.Wait() // the pager's own status is the reader's business
	signal.Reset(os.Interrupt)
	return nil
}
