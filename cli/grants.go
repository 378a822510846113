package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/sanitize"
)

// grantsOptions are markii grants' flags.
type grantsOptions struct{ all bool }

func (o *grantsOptions) bind(fs *flagSet) {
	fs.bool(&o.all, flagSpec{name: "all", help: "with reset: forget every note's grants"})
}

var grantsCommand = commandOf(command{
	summary: "list or reset the network grants of notes",
	args:    "list [NOTE] | reset NOTE|--all",
	maxArgs: 2,
	complete: func(args []string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return []string{"list", "reset"}, cobra.ShellCompDirectiveNoFileComp
		}
		return noteExtensions, cobra.ShellCompDirectiveFilterFileExt
	},
}, (*grantsOptions).bind, grantsRun)

func grantsRun(c *invocation, o *grantsOptions) error {
	if len(c.args) == 0 {
		return usagef("markii grants needs list or reset (markii grants list [NOTE], markii grants reset NOTE|--all)")
	}
	switch c.args[0] {
	case "list":
		if o.all {
			return usagef("--all goes with markii grants reset")
		}
		return grantsList(c)
	case "reset":
		return grantsReset(c, o.all)
	}
	return usagef("unknown grants action %q (use list or reset)", c.args[0])
}

// grantStore opens the grant store in the device state.
func (c *invocation) grantStore() (*grants.Store, error) {
	st, err := c.deviceState()
	if err != nil {
		return nil, failf("%w", err)
	}
	return grants.NewStore(st), nil
}

// noteKey is the document key of a note path, whether or not the note
// still exists.
func noteKey(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", failf("cannot find the absolute path of %s: %w", path, err)
	}
	return fileURL(abs), nil
}

func grantsList(c *invocation) error {
	store, err := c.grantStore()
	if err != nil {
		return err
	}
	all, invalid, err := store.All()
	if err != nil {
		return failf("cannot read grants: %w", err)
	}
	docs, err := c.grantedNotes(all)
	if err != nil {
		return err
	}
	if len(docs) == 0 {
		fmt.Fprintln(c.stdio.Out, "no grants stored")
	}
	for _, d := range docs {
		printGrant(c.stdio.Out, d, all[d])
	}
	if invalid > 0 {
		fmt.Fprintf(c.stdio.Err, "markii: %d stored grant record(s) are not valid and are ignored; markii grants reset --all removes them\n", invalid)
	}
	return nil
}

// grantedNotes are the notes of all to list: the one named, if it has
// grants, else every one in order.
func (c *invocation) grantedNotes(all map[string]grants.Record) ([]string, error) {
	if len(c.args) <= 1 {
		docs := make([]string, 0, len(all))
		for d := range all {
			docs = append(docs, d)
		}
		sort.Strings(docs)
		return docs, nil
	}
	key, err := noteKey(c.args[1])
	if err != nil {
		return nil, err
	}
	if _, ok := all[key]; ok {
		return []string{key}, nil
	}
	return nil, nil
}

// printGrant writes the grants of note d to out.
func printGrant(out io.Writer, d string, r grants.Record) {
	fmt.Fprintf(out, "%s\n", sanitize.Line(d))
	hosts := "none"
	if len(r.AllowedHosts) > 0 {
		hosts = strings.Join(r.AllowedHosts, ", ")
	}
	fmt.Fprintf(out, "  network: %s\n", hosts)
	if len(r.AllowedBundleGrants) > 0 {
		fmt.Fprintf(out, "  bundle: %s\n", strings.Join(r.AllowedBundleGrants, ", "))
	}
	fmt.Fprintf(out, "  for code %s\n", r.Key[:12])
}

func grantsReset(c *invocation, all bool) error {
	store, err := c.grantStore()
	if err != nil {
		return err
	}
	if all {
		if len(c.args) > 1 {
			return usagef("markii grants reset takes a NOTE or --all, not both")
		}
		n, err := store.ResetAll()
		if err != nil {
			return failf("cannot reset the grants: %w", err)
		}
		fmt.Fprintf(c.stdio.Out, "forgot the grants of %d note(s)\n", n)
		return nil
	}
	if len(c.args) < 2 {
		return usagef("markii grants reset needs a NOTE or --all")
	}
	key, err := noteKey(c.args[1])
	if err != nil {
		return err
	}
	found, err := store.Reset(key)
	if err != nil {
		return failf("cannot reset the grants of %s: %w", c.args[1], err)
	}
	if !found {
		fmt.Fprintf(c.stdio.Out, "%s has no stored grants\n", sanitize.Line(c.args[1]))
		return nil
	}
	fmt.Fprintf(c.stdio.Out, "forgot the grants of %s\n", sanitize.Line(c.args[1]))
	return nil
}
