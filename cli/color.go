package cli

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"

	"github.com/markii/markii/ansi"
)

// colorChoices are the values of --color; none, the color level's own
// name, is a synonym of never.
var colorChoices = []string{"auto", "never", "none", "16", "256", "truecolor"}

// colorLevel turns a --color value into a level. "auto" follows the
// conventions other command-line tools share, first match wins:
//
//  1. NO_COLOR set and non-empty → none;
//  2. CLICOLOR_FORCE set, non-empty and not 0 → the terminal's level as if
//     stdout were a terminal, at least 16;
//  3. FORCE_COLOR 0 → none, 1 or true → 16, 2 → 256, 3 → truecolor (other
//     values fall through);
//  4. CLICOLOR=0 → none;
//  5. stdout not a terminal → none; otherwise terminalLevel.
//
// getenv is the only way the environment is read.
func colorLevel(choice string, getenv func(string) string, stdoutTTY bool) ansi.Level {
	if l, ok := ansi.ParseLevel(choice); ok {
		return l
	}
	if getenv("NO_COLOR") != "" {
		return ansi.None
	}
	if force := getenv("CLICOLOR_FORCE"); force != "" && force != "0" {
		return max(terminalLevel(getenv), ansi.Color16)
	}
	if l, ok := forceColor[getenv("FORCE_COLOR")]; ok {
		return l
	}
	if getenv("CLICOLOR") == "0" || !stdoutTTY {
		return ansi.None
	}
	return terminalLevel(getenv)
}

// forceColor are the FORCE_COLOR values that name a level.
var forceColor = map[string]ansi.Level{"0": ansi.None, "1": ansi.Color16, "true": ansi.Color16, "2": ansi.Color256, "3": ansi.TrueColor}

// terminalLevel is the level a terminal supports by its TERM and
// COLORTERM: TERM=dumb → none; COLORTERM truecolor or 24bit → truecolor;
// TERM containing 256color → 256; else 16.
func terminalLevel(getenv func(string) string) ansi.Level {
	term := getenv("TERM")
	if term == "dumb" {
		return ansi.None
	}
	switch getenv("COLORTERM") {
	case "truecolor", "24bit":
		return ansi.TrueColor
	}
	if strings.Contains(term, "256color") {
		return ansi.Color256
	}
	return ansi.Color16
}

// themeName turns a --theme value into a theme's name. "auto"
// picks light when stdout is a terminal whose background darkBackground
// reports as light, and dark otherwise, so pipes and golden files get the
// same theme wherever they are made.
func themeName(choice string, stdoutTTY bool, darkBackground func() bool) string {
	if choice != "auto" {
		return choice
	}
	if stdoutTTY && !darkBackground() {
		return "light"
	}
	return "dark"
}

// backgroundBudget bounds the whole background query: a terminal that
// answers does so within milliseconds, and one that never answers (a pty
// that is not a terminal emulator, an editor's shell buffer) costs no
// more than this.
const backgroundBudget = 150 * time.Millisecond

// terminalIsDark reports whether the terminal on out has a dark
// background. termenv asks it once (OSC 11, then a cursor position report
// every terminal answers, so a terminal without OSC 11 is told apart
// without waiting for it); the whole exchange ends by backgroundBudget.
// No answer in time, or none at all, counts as dark. Only `render` and
// `view` with --theme auto on a terminal come here.
func terminalIsDark(out *os.File) bool {
	tty, err := openBudgetTTY(out, time.Now().Add(backgroundBudget))
	if err != nil {
		return true
	}
	defer tty.close()
	// Unsafe: the terminal is set up here (raw, with a read deadline)
	// rather than by termenv, whose own wait is five seconds a byte. The
	// profile is fixed so termenv reads nothing from the environment for
	// color: markii chooses its color level itself.
	return termenv.NewOutput(tty, termenv.WithUnsafe(), termenv.WithProfile(termenv.Ascii)).HasDarkBackground()
}

// budgetTTY is the controlling terminal, opened anew so reads can carry
// a deadline, in raw mode for the length of the query.
type budgetTTY struct {
	*os.File
	fd      uintptr
	restore *term.State
}

// openBudgetTTY opens the terminal on out anew (its device where the
// system names it, else the controlling terminal), puts it in raw mode
// (no echo, bytes as they come) and makes every read end by deadline.
func openBudgetTTY(out *os.File, deadline time.Time) (*budgetTTY, error) {
	name := "/dev/tty"
	if dev, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(out.Fd()))); err == nil && strings.HasPrefix(dev, "/dev/") {
		name = dev
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	t := &budgetTTY{File: f}
	// File.Fd would turn the file blocking and its deadlines off; the
	// descriptor is borrowed through the raw connection instead.
	rc, err := f.SyscallConn()
	if err == nil {
		err = rc.Control(func(fd uintptr) {
			t.fd = fd
			t.restore, err = term.MakeRaw(fd)
		})
	}
	if err == nil {
		err = f.SetReadDeadline(deadline)
	}
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// Fd is the terminal's descriptor, as termenv's File wants it.
func (t *budgetTTY) Fd() uintptr { return t.fd }

func (t *budgetTTY) close() {
	if t.restore != nil {
		_ = term.Restore(t.fd, t.restore)
	}
	_ = t.File.Close()
}
