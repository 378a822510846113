package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The command line is parsed by cobra and pflag: the same command tree
// gives the parsing, the help, `markii help CMD`, the shell completions
// and the man page, so the four cannot disagree.

// placeholderKey is the flag annotation that holds a flag's value
// placeholder ("N", "FILE"), as help and the man page show it.
const placeholderKey = "markii-placeholder"

// noteExtensions are the file name endings completed for a note argument;
// directories (bundle folders) are always offered too.
var noteExtensions = []string{"md", "mkz", "mkbundle"}

func init() {
	// Commands are listed in the order they are added, render first.
	cobra.EnableCommandSorting = false
}

// newRoot builds the command tree for one invocation.
func newRoot(stdio Stdio) *cobra.Command {
	root := &cobra.Command{
		Use:           "markii",
		Short:         "render, view and run Markii notes in a terminal",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(stdio.Out)
	root.SetErr(stdio.Err)
	root.SetFlagErrorFunc(flagError)
	for _, name := range commandOrder {
		root.AddCommand(commands[name].cobraCommand(name, stdio))
	}
	root.InitDefaultCompletionCmd()
	for _, cc := range root.Commands() {
		if cc.Name() == "completion" {
			cc.Use = "completion bash|zsh|fish|powershell"
			cc.Short = "print a shell's completion script (source <(markii completion bash))"
			cc.Args = cobra.ArbitraryArgs
			cc.RunE = func(cc *cobra.Command, args []string) error {
				if len(args) == 0 {
					return &usageError{msg: "markii completion needs a shell: bash, zsh, fish or powershell", usage: "markii " + cc.Use}
				}
				return &usageError{msg: fmt.Sprintf("unknown shell %q: markii completes bash, zsh, fish and powershell", args[0]), usage: "markii " + cc.Use}
			}
			for _, shell := range cc.Commands() {
				shell.Args = func(sc *cobra.Command, args []string) error {
					if len(args) == 0 {
						return nil
					}
					return &usageError{msg: fmt.Sprintf("unexpected argument %q: markii completion %s takes no arguments", args[0], sc.Name()), usage: "markii completion " + sc.Name()}
				}
			}
		}
	}
	root.SetHelpCommand(helpCommand(root))
	root.InitDefaultHelpCmd()
	root.SetHelpFunc(func(cc *cobra.Command, args []string) {
		switch {
		case cc == root:
			printUsage(cc.OutOrStdout(), root)
		default:
			// Every command, help and completion too, starts with its
			// usage line.
			printCommandUsage(cc.OutOrStdout(), cc)
		}
	})
	return root
}

// isCommand reports whether name is one of root's commands, or the
// request a completion script makes.
func isCommand(root *cobra.Command, name string) bool {
	if name == cobra.ShellCompRequestCmd || name == cobra.ShellCompNoDescRequestCmd {
		return true
	}
	for _, cc := range root.Commands() {
		if cc.Name() == name {
			return true
		}
	}
	return false
}

// cobraCommand is the command as a node of the command tree, its flags
// bound to a fresh value of its options.
func (spec *command) cobraCommand(name string, stdio Stdio) *cobra.Command {
	var common struct{ help, version bool }
	cc := &cobra.Command{
		Use:   strings.TrimPrefix(spec.usageLine(name), "markii "),
		Short: spec.summary,
		Args: func(cc *cobra.Command, args []string) error {
			if common.version || len(args) <= spec.maxArgs {
				return nil
			}
			return &usageError{
				msg:   fmt.Sprintf("unexpected argument %q: %s", args[spec.maxArgs], plural(spec.maxArgs, "markii "+name+" takes no arguments", "markii "+name+" takes at most one argument", fmt.Sprintf("markii %s takes at most %d arguments", name, spec.maxArgs))),
				usage: spec.usageLine(name),
			}
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			switch {
			case len(args) >= spec.maxArgs:
				return nil, cobra.ShellCompDirectiveNoFileComp
			case spec.complete != nil:
				return spec.complete(args)
			}
			return noteExtensions, cobra.ShellCompDirectiveFilterFileExt
		},
	}
	cc.Flags().SortFlags = false
	flags := &flagSet{cc: cc, stdio: stdio}
	run := spec.bind(flags)
	flags.bool(&common.help, flagSpec{name: "help", short: "h", help: "show this help"})
	flags.bool(&common.version, flagSpec{name: "version", short: "V", help: "print the version"})
	cc.RunE = func(cc *cobra.Command, args []string) error {
		if common.version {
			fmt.Fprintf(stdio.Out, "markii %s\n", Version)
			return nil
		}
		if err := flags.check(); err != nil {
			return err
		}
		inv := &invocation{name: name, args: args, stdio: stdio}
		var err error
		if inv.startSettings, err = inv.commandSettings(); err != nil {
			return err
		}
		return run(inv)
	}
	return cc
}

// flagError turns pflag's parse errors into markii's one-line usage
// errors, which name the command.
func flagError(cc *cobra.Command, err error) error {
	var (
		unknown  *pflag.NotExistError
		noValue  *pflag.ValueRequiredError
		badValue *pflag.InvalidValueError
	)
	switch {
	case errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() != "":
		return usagef("unknown flag -%s for markii %s", unknown.GetSpecifiedName(), cc.Name())
	case errors.As(err, &unknown):
		return usagef("unknown flag --%s for markii %s", unknown.GetSpecifiedName(), cc.Name())
	case errors.As(err, &noValue):
		return usagef("--%s needs a value", noValue.GetFlag().Name)
	case errors.As(err, &badValue) && badValue.GetFlag().Value.Type() == "bool":
		return usagef("--%s takes no value", badValue.GetFlag().Name)
	case errors.As(err, &badValue):
		return usagef("--%s %v", badValue.GetFlag().Name, errors.Unwrap(badValue))
	}
	return usagef("%v", err)
}

// helpCommand is `markii help [COMMAND]`.
func helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "show a command's usage line and flags",
		Args:  cobra.ArbitraryArgs,
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, cc := range root.Commands() {
				if cc.IsAvailableCommand() {
					names = append(names, cc.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cc *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return root.Help()
			case len(args) > 1:
				return &usageError{msg: "markii help takes one command", usage: "markii help [COMMAND]"}
			}
			for _, sub := range root.Commands() {
				if sub.Name() == args[0] {
					return sub.Help()
				}
			}
			return unknownCommand(root, args[0])
		},
	}
}

// printUsage is markii's help: the commands and what each does.
func printUsage(w io.Writer, root *cobra.Command) {
	fmt.Fprintf(w, "markii %s: %s\n\nUsage:\n", Version, root.Short)
	for _, cc := range root.Commands() {
		if cc.IsAvailableCommand() || cc.Name() == "help" {
			fmt.Fprintf(w, "  markii %-10s %s\n", cc.Name(), cc.Short)
		}
	}
	fmt.Fprintf(w, "\nRun markii help COMMAND (or markii COMMAND --help) for a command's usage and flags;\nmarkii --list-themes lists the themes.\n")
}

// printCommandUsage prints a command's help: its usage line first, then
// what it does and its flags.
func printCommandUsage(w io.Writer, cc *cobra.Command) {
	fmt.Fprintf(w, "usage: %s\n\n%s.\n\nFlags:\n", cc.UseLine(), cc.Short)
	cc.Flags().VisitAll(func(f *pflag.Flag) {
		fmt.Fprintf(w, "  %-24s %s\n", flagSynopsis(f), f.Usage)
	})
}

// flagSynopsis is how help and the man page spell a flag: "-w, --width N".
func flagSynopsis(f *pflag.Flag) string {
	s := "--" + f.Name
	if f.Shorthand != "" {
		s = "-" + f.Shorthand + ", " + s
	}
	if p := f.Annotations[placeholderKey]; len(p) > 0 {
		s += " " + p[0]
	}
	return s
}

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

// unknownCommand is the usage error for a command markii does not have,
// suggesting the nearest one when a slip of a letter or two explains it.
func unknownCommand(root *cobra.Command, name string) error {
	best, bestDist := "", len(name)/3+2
	for _, cc := range root.Commands() {
		if !cc.IsAvailableCommand() && cc.Name() != "help" {
			continue
		}
		if d := editDistance(name, cc.Name()); d < bestDist {
			best, bestDist = cc.Name(), d
		}
	}
	if best == "" {
		return usagef("unknown command %q (run markii --help)", name)
	}
	return usagef("unknown command %q; did you mean markii %s? (run markii --help)", name, best)
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
