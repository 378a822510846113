package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var manCommand = commandOf(command{
	summary: "print the manual page, markii(1), as roff (man -l - reads it)",
}, bindNothing, func(c *invocation, _ *noOptions) error {
	return writeMan(c.stdio.Out, newRoot(c.stdio))
})

// manSections are the parts of the page that the command tree does not
// hold, in the order they follow its COMMANDS section.
var manSections = []struct{ title, text string }{
	{"EXIT STATUS", fmt.Sprintf("%d success.\n%d unreadable input, a binary file, invalid bundle, broken settings file, failed render or export, or run asked to run scripts that the scriptsDisabled setting turns off.\n%d at least one script failed (run, render --run, view).\n%d usage error.\nErrors are one line on standard error, starting with markii:.", ExitOK, ExitFailure, ExitScripts, ExitUsage)},
	{"ENVIRONMENT", "NO_COLOR, CLICOLOR_FORCE, FORCE_COLOR and CLICOLOR choose the color level of --color auto, in that order, before the terminal's own.\nXDG_CONFIG_HOME holds markii/config.json, the settings.\nXDG_STATE_HOME holds markii/, the grants, stored values and cache of each note."},
	{"FILES", "~/.config/markii/config.json: the settings, when XDG_CONFIG_HOME is not set.\n~/.local/state/markii: the device state, when XDG_STATE_HOME is not set."},
}

// writeMan writes markii(1) in roff from the command tree: every
// command's usage line, summary and flags as its help shows them.
func writeMan(w io.Writer, root *cobra.Command) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, ".TH MARKII 1 \"\" \"markii %s\" \"User Commands\"\n", roff(Version))
	fmt.Fprintf(b, ".SH NAME\nmarkii \\- %s\n", roff(root.Short))
	fmt.Fprintf(b, ".SH SYNOPSIS\n.nf\n")
	commands := manCommands(root)
	for _, cc := range commands {
		fmt.Fprintf(b, ".B %s\n", roff(cc.UseLine()))
	}
	fmt.Fprintf(b, ".B markii \\-\\-help | \\-\\-version\n.fi\n")
	fmt.Fprintf(b, ".SH DESCRIPTION\nmarkii renders and views Markii notes (CommonMark and GitHub Flavored Markdown with directives and Lua script blocks) in a terminal, and runs the scripts in a sandbox.\nFILE is a note, \\- for standard input, a .mkz bundle or a bundle directory.\n")
	fmt.Fprintf(b, ".SH COMMANDS\n")
	for _, cc := range commands {
		fmt.Fprintf(b, ".SS %s\n%s.\n", roff(cc.UseLine()), roff(cc.Short))
		cc.Flags().VisitAll(func(f *pflag.Flag) {
			fmt.Fprintf(b, ".TP\n.B %s\n%s\n", roff(flagSynopsis(f)), roff(f.Usage))
		})
	}
	for _, s := range manSections {
		fmt.Fprintf(b, ".SH %s\n", s.title)
		for i, line := range strings.Split(s.text, "\n") {
			if i > 0 {
				fmt.Fprintf(b, ".br\n")
			}
			fmt.Fprintf(b, "%s\n", roff(line))
		}
	}
	fmt.Fprintf(b, ".SH SEE ALSO\nThe README of markii: https://github.com/markii/markii\n")
	return b.Flush()
}

// manCommands are the commands the manual lists: the available ones and
// help.
func manCommands(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, cc := range root.Commands() {
		if cc.IsAvailableCommand() || cc.Name() == "help" {
			out = append(out, cc)
		}
	}
	return out
}

// roff escapes text for one line of roff: backslashes and hyphens are
// spelled out, and a line cannot start a request.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`, "\n", " ").Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
