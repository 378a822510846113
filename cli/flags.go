package cli

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Each command's flags are the fields of its own options struct, bound
// to pflag when the command tree is built: parsing fills the struct, and
// the command reads its fields, never a flag by name.

// flagSpec describes one flag as help, completion and the man page show
// it.
type flagSpec struct {
	name string
	// short is the one-letter form, as other terminal tools spell it
	// (bat, glow, less); "" for none.
	short string
	value string // placeholder for help, "" for a bool flag
	help  string
	// suggest offers values to complete for an open flag (a theme name),
	// given the environment.
	suggest func(getenv func(string) string) []string
}

// flagSet binds a command's options to its pflag.FlagSet.
type flagSet struct {
	cc    *cobra.Command
	stdio Stdio
	// checks run after parsing, before the command: what no single flag
	// can check on its own (an alias given with the flag it stands for).
	checks []func() error
}

// add declares v as the flag spec describes, with its completion and
// placeholder.
func (s *flagSet) add(v pflag.Value, spec flagSpec) *pflag.Flag {
	fs := s.cc.Flags()
	f := fs.VarPF(v, spec.name, spec.short, spec.help)
	if spec.value != "" {
		_ = fs.SetAnnotation(spec.name, placeholderKey, []string{spec.value})
	}
	return f
}

// bool binds a flag that takes no value.
func (s *flagSet) bool(p *bool, spec flagSpec) {
	s.add(boolFlag{p}, spec).NoOptDefVal = "true"
}

// text binds a flag with an open value. Values are completed with
// spec.suggest, with file names when the placeholder is FILE, else not
// at all.
func (s *flagSet) text(p *textFlag, spec flagSpec) {
	s.add(p, spec)
	switch {
	case spec.suggest != nil:
		suggest, getenv := spec.suggest, s.stdio.getenv
		_ = s.cc.RegisterFlagCompletionFunc(spec.name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return suggest(getenv), cobra.ShellCompDirectiveNoFileComp
		})
	case spec.value != "FILE":
		_ = s.cc.RegisterFlagCompletionFunc(spec.name, cobra.NoFileCompletions)
	}
}

// choice binds a flag whose value is one of p's choices.
func (s *flagSet) choice(p *choiceFlag, spec flagSpec) {
	s.add(p, spec)
	_ = s.cc.RegisterFlagCompletionFunc(spec.name, cobra.FixedCompletions(p.choices, cobra.ShellCompDirectiveNoFileComp))
}

// count binds a flag that takes a positive whole number up to p.max,
// which its help states.
func (s *flagSet) count(p *countFlag, spec flagSpec) {
	spec.help += fmt.Sprintf("; at most %d", p.max)
	s.add(p, spec)
	_ = s.cc.RegisterFlagCompletionFunc(spec.name, cobra.NoFileCompletions)
}

// alias binds a flag that takes no value and stands for target given
// value (--no-images is --images off): the command sees only target, and
// help says what the alias stands for. The alias with another value of
// target is a usage error.
func (s *flagSet) alias(name string, target *choiceFlag, targetName, value string) {
	var given bool
	s.bool(&given, flagSpec{name: name, help: fmt.Sprintf("the same as --%s %s", targetName, value)})
	s.checks = append(s.checks, func() error {
		if !given {
			return nil
		}
		if target.set && target.value != value {
			return usagef("--%s is --%s %s; it cannot be combined with --%s %s", name, targetName, value, targetName, target.value)
		}
		target.value, target.set = value, true
		return nil
	})
}

// check runs the checks of the parsed flags.
func (s *flagSet) check() error {
	for _, check := range s.checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// boolFlag is a flag that takes no value; --name=false turns it off.
type boolFlag struct{ p *bool }

func (b boolFlag) String() string {
	if b.p == nil {
		return "false"
	}
	return strconv.FormatBool(*b.p)
}
func (b boolFlag) Type() string { return "bool" }

// Set takes "true" or "false", as pflag's own bool flags do.
func (b boolFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*b.p = v
	return nil
}

// textFlag is a flag with an open value, and whether it was given.
type textFlag struct {
	value string
	set   bool
}

func (t *textFlag) String() string { return t.value }
func (t *textFlag) Type() string   { return "string" }

// Set records the value.
func (t *textFlag) Set(s string) error {
	t.value, t.set = s, true
	return nil
}

// or is the flag's value, or def when it was not given.
func (t textFlag) or(def string) string {
	if t.set {
		return t.value
	}
	return def
}

// choiceFlag is a flag whose value is one of a closed list.
type choiceFlag struct {
	value   string
	set     bool
	choices []string
}

func (v *choiceFlag) String() string { return v.value }
func (v *choiceFlag) Type() string   { return "string" }

// Set refuses a value that is not one of the choices.
func (v *choiceFlag) Set(s string) error {
	if !slices.Contains(v.choices, s) {
		return fmt.Errorf("must be one of %s, not %q", strings.Join(v.choices, ", "), s)
	}
	v.value, v.set = s, true
	return nil
}

// or is the flag's value, or def when it was not given.
func (v choiceFlag) or(def string) string {
	if v.set {
		return v.value
	}
	return def
}

// countFlag is a flag that takes a positive whole number up to max.
type countFlag struct {
	n   int
	set bool
	max int
}

func (n *countFlag) String() string {
	if !n.set {
		return ""
	}
	return strconv.Itoa(n.n)
}
func (n *countFlag) Type() string { return "int" }

// Set takes a positive whole number written plainly (no sign, no
// leading zero) and at most max; a larger one is refused before anything
// is sized by it.
func (n *countFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if (err != nil && !isDigits(s)) || v < 0 || s == "" || s[0] == '0' || s[0] == '+' {
		return fmt.Errorf("wants a positive whole number, not %q", s)
	}
	if err != nil || v > n.max {
		return fmt.Errorf("is at most %d, not %s", n.max, s)
	}
	n.n, n.set = v, true
	return nil
}

// or is the flag's number, or def when it was not given.
func (n countFlag) or(def int) int {
	if n.set {
		return n.n
	}
	return def
}

// isDigits reports whether s is only ASCII digits (a number too large to
// parse is still a number).
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
