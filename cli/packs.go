package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/markii/markii/runtime/pack"
	"github.com/markii/markii/sanitize"
)

// packFolders returns the pack folders named in the user's own config
// ("packs"). Packs are never loaded from a note, a bundle or the working
// directory.
func (c *invocation) packFolders() ([]string, error) {
	s, err := c.settings()
	if err != nil {
		return nil, err
	}
	return s.Packs, nil
}

var packsCommand = commandOf(command{
	summary: "list the packs installed from your config's pack folders",
	args:    "list",
	maxArgs: 1,
	complete: func([]string) ([]string, cobra.ShellCompDirective) {
		return []string{"list"}, cobra.ShellCompDirectiveNoFileComp
	},
}, bindNothing, func(c *invocation, _ *noOptions) error {
	if len(c.args) == 0 || c.args[0] != "list" {
		return &usageError{msg: "packs needs a subcommand: list", usage: "markii packs list"}
	}
	folders, err := c.packFolders()
	if err != nil {
		return failf("%s", err)
	}
	return listPacks(c.stdio.Out, c.stdio.Err, folders)
})

// listPacks prints every pack loaded from folders, one block per pack,
// and every refused pack as one line on errOut.
func listPacks(out, errOut io.Writer, folders []string) error {
	if len(folders) == 0 {
		fmt.Fprintln(out, `No pack folders are configured (add "packs" to your markii config).`)
		return nil
	}
	set := pack.Load(folders)
	for _, w := range packWarnings(set) {
		fmt.Fprintf(errOut, "markii: %s\n", w)
	}
	names := set.Names()
	if len(names) == 0 {
		fmt.Fprintln(out, "No packs are installed.")
		return nil
	}
	for _, name := range names {
		p, _ := set.Get(name)
		version := p.Version
		if version == "" {
			version = "-"
		}
		fmt.Fprintf(out, "%s %s (engine %s) %s\n", sanitize.Line(p.Name), sanitize.Line(version), sanitize.Line(p.Engine), sanitize.Line(p.Path))
		fmt.Fprintf(out, "  components: %s\n", sanitize.Line(strings.Join(p.ComponentNames(), ", ")))
		modules := make([]string, 0, len(p.Modules()))
		for m := range p.Modules() {
			modules = append(modules, m)
		}
		sort.Strings(modules)
		if len(modules) > 0 {
			fmt.Fprintf(out, "  modules: %s\n", sanitize.Line(strings.Join(modules, ", ")))
		}
	}
	return nil
}
