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

// command is one subcommand.
type command struct {
	summary string
	// args is the synopsis of the positional arguments, as the usage line
	// shows them after "[flags]"; maxArgs is how many there may be.
	args    string
	maxArgs int
	flags   []flagSpec
	run     func(c *invocation) error
	hidden  bool
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
	}
}

// Main runs markii with args (without the program name) and returns the
// exit code. It never panics: an unexpected panic becomes a one-line
// internal error.
func Main(args []string, stdio Stdio) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stdio.Err, "markii: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		printUsage(stdio.Out)
		return ExitOK
	}
	switch args[0] {
	case "-h", "--help":
		printUsage(stdio.Out)
		return ExitOK
	case "help":
		// markii help [COMMAND]
		if len(args) == 1 {
			printUsage(stdio.Out)
			return ExitOK
		}
		if cmd, ok := commands[args[1]]; ok && len(args) == 2 {
			printCommandUsage(stdio.Out, args[1], cmd)
			return ExitOK
		}
		if len(args) > 2 {
			return report(stdio, &usageError{msg: "markii help takes one command", usage: "markii help [COMMAND]"})
		}
		return report(stdio, usagef("unknown command %q (run markii --help)", args[1]))
	case "-V", "--version":
		fmt.Fprintf(stdio.Out, "markii %s\n", Version)
		return ExitOK
	case "--list-themes":
		listThemes(stdio.Out)
		return ExitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return report(stdio, usagef("unknown command %q (run markii --help)", args[0]))
	}
	inv, err := parseFlags(args[0], cmd, args[1:], stdio)
	if err != nil {
		return report(stdio, err)
	}
	if inv.bool("help") {
		printCommandUsage(stdio.Out, args[0], cmd)
		return ExitOK
	}
	if inv.bool("version") {
		fmt.Fprintf(stdio.Out, "markii %s\n", Version)
		return ExitOK
	}
	if extra := len(inv.args) - cmd.maxArgs; extra > 0 {
		return report(stdio, &usageError{
			msg:   fmt.Sprintf("unexpected argument %q: %s", inv.args[cmd.maxArgs], plural(cmd.maxArgs, "markii "+args[0]+" takes no arguments", "markii "+args[0]+" takes at most one argument", fmt.Sprintf("markii %s takes at most %d arguments", args[0], cmd.maxArgs))),
			usage: cmd.usageLine(args[0]),
		})
	}
	if inv.startSettings, err = inv.commandSettings(); err != nil {
		return report(stdio, err)
	}
	return report(stdio, cmd.run(inv))
}

// commandSettings reads the user's settings before a command runs, so that
// every command reports a broken settings file the same way before it does
// anything: one line and exit 1. Keys that are not markii settings are
// named on stderr and ignored. Without a config directory (no HOME) there
// are no settings to read, and the defaults apply.
func (c *invocation) commandSettings() (config.Settings, error) {
	s, err := c.settings()
	if errors.Is(err, config.ErrNoDir) {
		return config.Settings{}, nil
	}
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
	name    string
	value   string // placeholder for help, "" for a bool flag
	help    string
	isBool  bool
	choices []string // allowed values, if closed
}

// commonFlags are accepted by every command.
var commonFlags = []flagSpec{
	{name: "help", isBool: true, help: "show this help"},
	{name: "version", isBool: true, help: "print the version"},
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

// shortFlags are the one-letter forms of flags, as other terminal tools
// spell them (bat, glow, less).
var shortFlags = map[string]string{
	"-h": "--help",
	"-V": "--version",
	"-o": "--output",
	"-w": "--width",
	"-c": "--color",
	"-t": "--theme",
}

// parseFlags parses args: flags in any order, "--name value" or
// "--name=value", "--" ends flags, a lone "-" is a positional.
func parseFlags(name string, cmd *command, args []string, stdio Stdio) (*invocation, error) {
	inv := &invocation{name: name, vals: map[string]string{}, set: map[string]bool{}, stdio: stdio}
	specs := append(append([]flagSpec{}, cmd.flags...), commonFlags...)
	find := func(n string) *flagSpec {
		for i := range specs {
			if specs[i].name == n {
				return &specs[i]
			}
		}
		return nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			inv.args = append(inv.args, args[i+1:]...)
			break
		}
		if long, ok := shortFlags[a]; ok {
			a = long
		}
		if !strings.HasPrefix(a, "--") || a == "-" {
			if strings.HasPrefix(a, "-") && a != "-" {
				return nil, usagef("unknown flag %q for markii %s", a, name)
			}
			inv.args = append(inv.args, a)
			continue
		}
		key, val, hasVal := strings.Cut(a[2:], "=")
		spec := find(key)
		if spec == nil {
			return nil, usagef("unknown flag --%s for markii %s", key, name)
		}
		if spec.isBool {
			if hasVal {
				return nil, usagef("--%s takes no value", key)
			}
			inv.set[key] = true
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, usagef("--%s needs a value", key)
			}
			i++
			val = args[i]
		}
		if len(spec.choices) > 0 && !contains(spec.choices, val) {
			return nil, usagef("--%s must be one of %s, not %q", key, strings.Join(spec.choices, ", "), val)
		}
		inv.vals[key] = val
		inv.set[key] = true
	}
	return inv, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "markii %s: render, view and run Markii notes in a terminal\n\nUsage:\n", Version)
	for _, n := range commandOrder {
		if c, ok := commands[n]; ok && !c.hidden {
			fmt.Fprintf(w, "  markii %-8s %s\n", n, c.summary)
		}
	}
	fmt.Fprintf(w, "\nRun markii help COMMAND (or markii COMMAND --help) for a command's usage and flags;\nmarkii --list-themes lists the themes.\n")
}

// commandOrder is the order commands are listed in help.
var commandOrder = []string{"render", "view", "run", "export", "grants", "packs"}

// plural picks the words for n: none, one or many.
func plural(n int, none, one, many string) string {
	switch n {
	case 0:
		return none
	case 1:
		return one
	}
	return many
}

// printCommandUsage prints a command's help: its usage line first, then
// what it does and its flags.
func printCommandUsage(w io.Writer, name string, cmd *command) {
	fmt.Fprintf(w, "usage: %s\n\n%s.\n\nFlags:\n", cmd.usageLine(name), cmd.summary)
	for _, f := range append(append([]flagSpec{}, cmd.flags...), commonFlags...) {
		lhs := "--" + f.name
		for short, long := range shortFlags {
			if long == lhs {
				lhs = short + ", " + lhs
			}
		}
		if !f.isBool {
			lhs += " " + f.value
		}
		fmt.Fprintf(w, "  %-24s %s\n", lhs, f.help)
	}
}
