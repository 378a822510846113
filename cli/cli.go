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
// sanitize.Text, so no message, whatever it quotes (a file name, a
// note's text in an error, a panic's value), reaches the terminal as a
// control sequence. Tab and line feed pass; a lone CR becomes a line
// feed. Messages still make what they quote one line (sanitize.Line).
type inertWriter struct{ w io.Writer }

func (i inertWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(i.w, sanitize.Text(string(p))); err != nil {
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
}

func (e *exitError) Error() string { return e.msg }

func failf(format string, a ...any) error {
	return &exitError{code: ExitFailure, msg: fmt.Sprintf(format, a...)}
}

// command is one subcommand, as the command tree (tree.go) builds it.
type command struct {
	summary string
	// args is the synopsis of the positional arguments, as the usage line
	// shows them after "[flags]"; maxArgs is how many there may be.
	args    string
	maxArgs int
	flags   []flagSpec
	run     func(c *invocation) error
	// complete offers the words a positional argument can be, given the
	// arguments before it; nil offers note files and bundles.
	complete func(args []string) ([]string, cobra.ShellCompDirective)
}

// usageLine is the command's usage line: "markii NAME [flags] ARGS".
func (cmd *command) usageLine(name string) string {
	return strings.TrimSpace("markii " + name + " [flags] " + cmd.args)
}

// commands is the command table; each command lives in its own file.
var commands map[string]*command

func init() {
	commands = map[string]*command{
		"render": renderCommand,
		"view":   viewCommand,
		"packs":  packsCommand,
		"run":    runCommand,
		"grants": grantsCommand,
		"export": exportCommand,
		"man":    manCommand,
		"sign":   signCommand,
		"verify": verifyCommand,
		"audit":  auditCommand,
	}
}

// commandOrder is the order commands are listed in help.
var commandOrder = []string{"render", "view", "run", "export", "grants", "packs", "sign", "verify", "audit", "man"}

// Main runs markii with args (without the program name) and returns the
// exit code. It never panics: an unexpected panic becomes a one-line
// internal error.
func Main(args []string, stdio Stdio) (code int) {
	stdio.Err = inertWriter{stdio.Err}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stdio.Err, "markii: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) > 0 && (args[0] == "-V" || args[0] == "--version") {
		// Answered before the command tree is built: scripts and shell
		// prompts call it often.
		fmt.Fprintf(stdio.Out, "markii %s\n", Version)
		return ExitOK
	}
	if len(args) > 0 && args[0] == "--list-themes" {
		listThemes(stdio.Out)
		return ExitOK
	}
	root := newRoot(stdio)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		printUsage(stdio.Out, root)
		return ExitOK
	}
	if !isCommand(root, args[0]) {
		return report(stdio, usagef("unknown command %q (run markii --help)", args[0]))
	}
	root.SetArgs(args)
	return report(stdio, root.Execute())
}

// commandSettings reads the user's settings before a command runs, so that
// every command reports a broken settings file the same way before it does
// anything: one line and exit 1. Keys that are not markii settings are
// named on stderr and ignored. Without a config directory (no HOME) there
// are no settings to read, and the defaults apply.
func (c *invocation) commandSettings() (config.Settings, error) {
	s, err := c.settingsOrDefaults()
	if err != nil {
		return s, failf("%v", err)
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

// flagSpec describes one flag. Bool flags take no value.
type flagSpec struct {
	name string
	// short is the one-letter form, as other terminal tools spell it
	// (bat, glow, less); "" for none.
	short   string
	value   string // placeholder for help, "" for a bool flag
	help    string
	isBool  bool
	choices []string // allowed values, if closed
	// suggest offers values to complete for an open flag (a theme name).
	suggest func() []string
	// alias, for a bool flag, is the flag and value it stands for
	// (--no-images is --images off): the command sees only that flag,
	// and help says what the alias stands for.
	alias *flagValue
}

// flagValue is one flag given one value.
type flagValue struct{ name, value string }

// usage is the flag's line of help.
func (f flagSpec) usage() string {
	if f.alias != nil {
		return fmt.Sprintf("the same as --%s %s", f.alias.name, f.alias.value)
	}
	return f.help
}

// resolveAliases replaces each alias flag given by the flag and value it
// stands for; the alias with another value of that flag is a usage error.
func (c *invocation) resolveAliases(flags []flagSpec) error {
	for _, f := range flags {
		a := f.alias
		if a == nil || !c.set[f.name] {
			continue
		}
		if c.set[a.name] && c.vals[a.name] != a.value {
			return usagef("--%s is --%s %s; it cannot be combined with --%s %s", f.name, a.name, a.value, a.name, c.vals[a.name])
		}
		delete(c.set, f.name)
		delete(c.vals, f.name)
		c.set[a.name], c.vals[a.name] = true, a.value
	}
	return nil
}

// commonFlags are accepted by every command.
var commonFlags = []flagSpec{
	{name: "help", short: "h", isBool: true, help: "show this help"},
	{name: "version", short: "V", isBool: true, help: "print the version"},
}

// invocation is a parsed command line.
type invocation struct {
	// notRunNotice asks a static render to say, when the note has scripts,
	// that they were not run (markii view on a pipe).
	notRunNotice bool
	name         string
	args         []string
	vals         map[string]string
	set          map[string]bool
	stdio        Stdio
	// startSettings are the user's settings as read before the command
	// ran (a script run reads them again, so a long viewer session sees
	// changes).
	startSettings config.Settings
}

func (c *invocation) bool(name string) bool { return c.set[name] }

// getenv reads the invocation's environment.
func (c *invocation) getenv(key string) string {
	if c.stdio.Getenv != nil {
		return c.stdio.Getenv(key)
	}
	return os.Getenv(key)
}

func (c *invocation) str(name, def string) string {
	if c.set[name] {
		return c.vals[name]
	}
	return def
}

// positiveInt reads a flag that must be a positive integer.
func (c *invocation) positiveInt(name string, def int) (int, error) {
	if !c.set[name] {
		return def, nil
	}
	v := c.vals[name]
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || v[0] == '0' || v[0] == '+' {
		return 0, usagef("--%s wants a positive whole number, not %q", name, v)
	}
	return n, nil
}
