// Package cli implements markii's command line: argument parsing, the
// commands, exit codes, and the choice of color level (the only place the
// environment is consulted for output).
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/sanitize"
)

// Version is markii's version, printed by --version and sent as the
// User-Agent of script network requests.
const Version = "0.1.0"

// Exit codes (SPEC §6.2).
const (
	ExitOK       = 0
	ExitFailure  = 1 // unreadable input, bad bundle, render failure
	ExitScripts  = 2 // at least one script failed
	ExitUsage    = 3 // usage error
	exitInternal = 1
)

// Stdio is the process's standard streams and its environment.
type Stdio struct {
	In  *os.File
	Out io.Writer
	Err io.Writer
	// Getenv reads the environment (where the settings and the device
	// state live, the color variables); nil means os.Getenv.
	Getenv func(string) string
}

// inertWriter is markii's standard error: every write passes
// sanitize.TextVisible, so no message, whatever it quotes (a file name, a
// note's text in an error, a panic's value), reaches the terminal as a
// control sequence. Tab and line feed pass; a lone CR becomes a line
// feed. Messages still make what they quote one line (sanitize.Line).
type inertWriter struct{ w io.Writer }

func (i inertWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(i.w, sanitize.TextVisible(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// File is the file written to, when it is one, for the terminal checks.
func (i inertWriter) File() *os.File {
	f, _ := i.w.(*os.File)
	return f
}

// usageError is a command-line mistake: exit 3. usage, when set, is the
// command's usage line, printed under the message.
type usageError struct{ msg, usage string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// exitError carries a chosen exit code and a one-line message ("" for none).
type exitError struct {
	code int
	msg  string
	// finish says the command still completes its output (a failed
	// script, values that could not be saved) and exits with code after.
	finish bool
	// err is the cause a %w in failf's format named, if any.
	err error
}

func (e *exitError) Error() string { return e.msg }

// Unwrap returns the cause (nil when there is none).
func (e *exitError) Unwrap() error { return e.err }

// failf is an exit-1 error with a message made as fmt.Errorf makes it;
// the error a %w names stays its cause.
func failf(format string, a ...any) error {
	err := fmt.Errorf(format, a...)
	return &exitError{code: ExitFailure, msg: err.Error(), err: errors.Unwrap(err)}
}

// command is one subcommand, as the command tree (tree.go) builds it.
type command struct {
	summary string
	// args is the synopsis of the positional arguments, as the usage line
	// shows them after "[flags]"; maxArgs is how many there may be.
	args    string
	maxArgs int
	// bind declares the command's flags on fs, bound to a fresh value of
	// its options, and returns the command run with those options.
	bind func(fs *flagSet) func(c *invocation) error
	// complete offers the words a positional argument can be, given the
	// arguments before it; nil offers note files and bundles.
	complete func(args []string) ([]string, cobra.ShellCompDirective)
}

// commandOf is cmd with options O: bind declares O's flags, and run is
// the command given the parsed options.
func commandOf[O any](cmd command, bind func(o *O, fs *flagSet), run func(c *invocation, o *O) error) *command {
	cmd.bind = func(fs *flagSet) func(*invocation) error {
		o := new(O)
		bind(o, fs)
		return func(c *invocation) error { return run(c, o) }
	}
	return &cmd
}

// noOptions is the options of a command without flags of its own.
type noOptions struct{}

func bindNothing(*noOptions, *flagSet) {}

// usageLine is the command's usage line: "markii NAME [flags] ARGS".
func (cmd *command) usageLine(name string) string {
	return strings.TrimSpace("markii " + name + " [flags] " + cmd.args)
}

// commands is the command table; each command lives in its own file.
var commands map[string]*command

func init() {
	commands = map[string]*command{
		"render":   renderCommand,
		"view":     viewCommand,
		"snapshot": snapshotCommand,
		"packs":    packsCommand,
		"run":      runCommand,
		"grants":   grantsCommand,
		"export":   exportCommand,
		"man":      manCommand,
		"sign":     signCommand,
		"verify":   verifyCommand,
		"audit":    auditCommand,
	}
}

// commandOrder is the order commands are listed in help.
var commandOrder = []string{"render", "view", "snapshot", "run", "export", "grants", "packs", "sign", "verify", "audit", "man"}

// Main runs markii with args (without the program name) and returns the
// exit code. It never panics: an unexpected panic becomes a one-line
// internal error.
func Main(args []string, stdio Stdio) (code int) {
	if f, ok := stdio.Out.(*os.File); ok && closedAtStart(f) {
		// Writes fail as they would on the closed stream, as cat's do.
		stdio.Out = closedWriter{}
	}
	stdio.Err = inertWriter{stdio.Err}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stdio.Err, "markii: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if code, done := beforeCommands(args, stdio); done {
		return code
	}
	root := newRoot(stdio)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdio.Out, root)
		return ExitOK
	}
	if !isCommand(root, args[0]) {
		return report(stdio, unknownCommand(root, args[0]))
	}
	root.SetArgs(args)
	return report(stdio, root.Execute())
}

// beforeCommands answers --version and --list-themes before the command
// tree is built (scripts and shell prompts ask for the version often);
// done is false for any other arguments.
func beforeCommands(args []string, stdio Stdio) (code int, done bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case "-V", "--version":
		fmt.Fprintf(stdio.Out, "markii %s\n", Version)
		return ExitOK, true
	case "--list-themes":
		if len(args) > 1 {
			return report(stdio, &usageError{msg: fmt.Sprintf("unexpected argument %q: --list-themes takes no arguments", args[1]), usage: "markii --list-themes"}), true
		}
		listThemes(stdio.Out, stdio.getenv)
		return ExitOK, true
	}
	return 0, false
}

// commandSettings reads the user's settings before a command runs, so that
// every command reports a broken settings file the same way before it does
// anything: one line and exit 1. Keys that are not markii settings are
// named on stderr and ignored. Without a config directory (no HOME) there
// are no settings to read, and the defaults apply.
func (c *invocation) commandSettings() (config.Settings, error) {
	s, err := c.settingsOrDefaults()
	if err != nil {
		return s, failf("%w", err)
	}
	for _, k := range s.Unknown {
		fmt.Fprintf(c.stdio.Err, "markii: the settings file %s: %s is not a markii setting; it is ignored\n", sanitize.Line(s.Path), sanitize.Line(strconv.Quote(k)))
	}
	return s, nil
}

// report prints err as one line and returns its exit code.
func report(stdio Stdio, err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stdio.Err, "markii: %s\n", sanitize.Line(ue.msg))
		if ue.usage != "" {
			fmt.Fprintf(stdio.Err, "usage: %s\n", ue.usage)
		}
		return ExitUsage
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(stdio.Err, "markii: %s\n", sanitize.Line(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintf(stdio.Err, "markii: %s\n", sanitize.Line(err.Error()))
	return ExitFailure
}

// invocation is a parsed command line.
type invocation struct {
	name  string
	args  []string
	stdio Stdio
	// startSettings are the user's settings as read before the command
	// ran (a script run reads them again, so a long viewer session sees
	// changes).
	startSettings config.Settings
}

// getenv reads the invocation's environment.
func (c *invocation) getenv(key string) string { return c.stdio.getenv(key) }

// getenv reads the environment: Getenv, else the process's own.
func (s Stdio) getenv(key string) string {
	if s.Getenv != nil {
		return s.Getenv(key)
	}
	return os.Getenv(key)
}

// finishing is err as an error that lets the command finish its output
// before it exits with err's code and message.
func finishing(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return &exitError{code: ee.code, msg: ee.msg, finish: true}
	}
	return &exitError{code: ExitFailure, msg: err.Error(), finish: true}
}

// finishes reports whether err lets the command finish its output first
// (a failed script, values that could not be saved).
func finishes(err error) bool {
	var ee *exitError
	return errors.As(err, &ee) && ee.finish
}
