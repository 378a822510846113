package cli

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestExtraArgumentsAreUsageErrors: every command refuses positional
// arguments past its own, with exit 3, the message and its usage line,
// before it reads any file.
func TestExtraArgumentsAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args  []string
		extra string
		usage string
	}{
		{[]string{"render", "a.mk.md", "b.mk.md"}, "b.mk.md", "markii render [flags] [FILE|-]"},
		{[]string{"render", "--width", "40", "--", "a.mk.md", "-b"}, "-b", "markii render [flags] [FILE|-]"},
		{append([]string{"view"}, manyNotes(maxViewFiles+1)...), manyNotes(maxViewFiles + 1)[maxViewFiles], "markii view [flags] [FILE...|DIR|-]"},
		{[]string{"run", "a", "b"}, "b", "markii run [flags] NOTE"},
		{[]string{"export", "a", "b", "--format", "ansi", "-o", "x"}, "b", "markii export [flags] NOTE --format ansi|html|md-plain -o OUT|-"},
		{[]string{"grants", "list", "a", "b"}, "b", "markii grants [flags] list [NOTE] | reset NOTE|--all"},
		{[]string{"packs", "list", "extra"}, "extra", "markii packs [flags] list"},
	} {
		stdout, stderr, code := runCLI(t, c.args...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != ExitUsage || stdout != "" || len(lines) != 2 ||
			!strings.HasPrefix(lines[0], "markii: unexpected argument \""+c.extra+"\"") || lines[1] != "usage: "+c.usage {
			t.Errorf("markii %s: exit %d, stdout %q, stderr %q; want exit 3, the extra %q and the usage line", strings.Join(c.args, " "), code, stdout, stderr, c.extra)
		}
	}
}

// TestHelpStartsWithTheUsageLine: `markii CMD --help` and `markii help
// CMD` print the same help, which starts with the command's usage line.
func TestHelpStartsWithTheUsageLine(t *testing.T) {
	for _, name := range commandOrder {
		help, _, code := runCLI(t, name, "--help")
		first, _, _ := strings.Cut(help, "\n")
		if code != ExitOK || first != "usage: "+commands[name].usageLine(name) || !strings.HasPrefix(first, "usage: markii "+name+" [flags]") {
			t.Errorf("markii %s --help: exit %d, first line %q", name, code, first)
		}
		same, _, code := runCLI(t, "help", name)
		if code != ExitOK || same != help {
			t.Errorf("markii help %s: exit %d, %q; want what --help prints", name, code, same)
		}
	}
	if help, _, _ := runCLI(t, "render", "-h"); !strings.HasPrefix(help, "usage: markii render [flags] [FILE|-]\n") {
		t.Errorf("render -h: %q", help)
	}
	if out, _, code := runCLI(t, "help"); code != ExitOK || !strings.Contains(out, "markii help COMMAND") {
		t.Errorf("markii help: exit %d, %q", code, out)
	}
	if _, stderr, code := runCLI(t, "help", "nope"); code != ExitUsage || !strings.Contains(stderr, `unknown command "nope"`) {
		t.Errorf("markii help nope: exit %d, %q", code, stderr)
	}
	if _, stderr, code := runCLI(t, "help", "render", "view"); code != ExitUsage || !strings.Contains(stderr, "usage: markii help [COMMAND]") {
		t.Errorf("markii help render view: exit %d, %q", code, stderr)
	}
}

// TestShortFlags: -w, -c, -t and -o are --width, --color, --theme and
// --output, and the help shows both forms.
func TestShortFlags(t *testing.T) {
	note := writeNote(t, "# Title\n\nSome words that wrap at a narrow width.\n")
	long, _, code := runCLI(t, "render", "--width", "16", "--color", "256", "--theme", "light", note)
	short, stderr, code2 := runCLI(t, "render", "-w", "16", "-c", "256", "-t", "light", note)
	if code != ExitOK || code2 != ExitOK || short != long || !strings.Contains(short, "38;5;") {
		t.Errorf("short flags render %q (exit %d, %q), long %q", short, code2, stderr, long)
	}
	out := filepath.Join(t.TempDir(), "o.md")
	if _, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", out); code != ExitOK {
		t.Errorf("export -o: exit %d, %q", code, stderr)
	}
	help, _, _ := runCLI(t, "render", "--help")
	for _, want := range []string{"-w, --width N", "-c, --color WHEN", "-t, --theme NAME", "-h, --help"} {
		if !strings.Contains(help, want) {
			t.Errorf("render help lacks %q:\n%s", want, help)
		}
	}
}

// TestFlagErrorsAreOneLine: every way a flag can be wrong is a usage
// error (exit 3) of one line that names the flag, with no help dumped.
func TestFlagErrorsAreOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "-x", "-"}, `markii: unknown flag -x for markii render`},
		{[]string{"grants", "list", "--bogus"}, `markii: unknown flag --bogus for markii grants`},
		{[]string{"render", "-"}, ""},
		{[]string{"render", "--width"}, `markii: --width needs a value`},
		{[]string{"export", "n", "-o"}, `markii: --output needs a value`},
		{[]string{"render", "-c", "rainbow", "-"}, `markii: --color must be one of auto, never, none, 16, 256, truecolor, not "rainbow"`},
		{[]string{"render", "--quiet=loud", "-"}, `markii: --quiet takes no value`},
		{[]string{"--bogus"}, `markii: unknown command "--bogus" (run markii --help)`},
		{[]string{"nope", "render"}, `markii: unknown command "nope" (run markii --help)`},
		{[]string{"completion", "tcsh"}, "markii: unknown shell \"tcsh\": markii completes bash, zsh, fish and powershell\nusage: markii completion bash|zsh|fish|powershell"},
		{[]string{"completion"}, "markii: markii completion needs a shell: bash, zsh, fish or powershell\nusage: markii completion bash|zsh|fish|powershell"},
		{[]string{"completion", "bash", "extra"}, "markii: unexpected argument \"extra\": markii completion bash takes no arguments\nusage: markii completion bash"},
	} {
		stdout, stderr, code := runCLI(t, c.args...)
		if c.want == "" {
			// "-" is the stdin argument, not a flag (the test's stdin
			// cannot be read, which is not a usage error).
			if code == ExitUsage {
				t.Errorf("markii %s: exit 3, stderr %q; want no usage error", strings.Join(c.args, " "), stderr)
			}
			continue
		}
		if code != ExitUsage || stdout != "" || stderr != c.want+"\n" {
			t.Errorf("markii %s: exit %d, stdout %q, stderr %q; want exit 3 and %q", strings.Join(c.args, " "), code, stdout, stderr, c.want)
		}
	}
}

// TestFlagForms: pflag's forms of a flag all mean the same: --name=value,
// a value glued to a short flag, a bool flag given as =false, and flags
// after the positional arguments; "--" ends the flags.
func TestFlagForms(t *testing.T) {
	note := writeNote(t, "# Title\n\nSome words that wrap at a narrow width.\n")
	want, _, code := runCLI(t, "render", "--width", "16", "--color", "never", note)
	if code != ExitOK {
		t.Fatalf("render: exit %d", code)
	}
	for _, args := range [][]string{
		{"render", "--width=16", "--color=never", note},
		{"render", "-w16", "-cnever", note},
		{"render", note, "-w", "16", "-c", "never"},
		{"render", "-w", "16", "-c", "never", "--quiet=false", "--", note},
	} {
		if got, stderr, code := runCLI(t, args...); code != ExitOK || got != want {
			t.Errorf("markii %s: exit %d, %q, stderr %q; want %q", strings.Join(args, " "), code, got, stderr, want)
		}
	}
	if out, _, code := runCLI(t, "render", "a", "b", "--version"); code != ExitOK || out != "markii "+Version+"\n" {
		t.Errorf("render --version: exit %d, %q", code, out)
	}
	if out, _, code := runCLI(t, "completion", "bash"); code != ExitOK || !strings.Contains(out, "__start_markii") {
		t.Errorf("completion bash: exit %d, %.80q", code, out)
	}
	if out, _, code := runCLI(t, "help", "completion"); code != ExitOK || !strings.Contains(out, "markii completion") {
		t.Errorf("help completion: exit %d, %q", code, out)
	}
}

// parsedView is the options markii view hands its command after parsing
// args.
func parsedView(t *testing.T, args ...string) *viewOptions {
	t.Helper()
	spec := *viewCommand
	var got *viewOptions
	spec.bind = func(fs *flagSet) func(*invocation) error {
		o := &viewOptions{}
		o.bind(fs)
		return func(*invocation) error { got = o; return nil }
	}
	var out, errOut bytes.Buffer
	cc := spec.cobraCommand("view", newTestEnv(t).stdio(&out, &errOut))
	cc.SetArgs(args)
	if err := cc.Execute(); err != nil || got == nil {
		t.Fatalf("markii view %s: %v %s", strings.Join(args, " "), err, errOut.String())
	}
	return got
}

// TestNoImagesIsImagesOff: the viewer's --no-images reaches the command
// as --images off and nothing else, so pictures are off exactly as with
// --images off; with another --images value it is a usage error.
func TestNoImagesIsImagesOff(t *testing.T) {
	t.Parallel()
	if on := imageModeOf(parsedView(t, "n.mk.md").render.images.or("blocks")).On; !on {
		t.Fatal("the viewer's pictures are off by default")
	}
	alias, off := parsedView(t, "--no-images", "n.mk.md"), parsedView(t, "--images", "off", "n.mk.md")
	if !reflect.DeepEqual(alias, off) {
		t.Fatalf("--no-images parsed as %+v, --images off as %+v", alias, off)
	}
	if imageModeOf(alias.render.images.or("blocks")).On {
		t.Fatal("--no-images left the viewer's pictures on")
	}
	if both := parsedView(t, "--no-images", "--images", "off", "n.mk.md"); imageModeOf(both.render.images.or("blocks")).On {
		t.Fatal("--no-images --images off left the pictures on")
	}
	stdout, stderr, code := runCLI(t, "view", "--no-images", "--images", "blocks", "n.mk.md")
	if want := "markii: --no-images is --images off; it cannot be combined with --images blocks\n"; code != ExitUsage || stdout != "" || stderr != want {
		t.Fatalf("--no-images --images blocks: exit %d, %q, %q; want exit 3 and %q", code, stdout, stderr, want)
	}
	help, _, _ := runCLI(t, "view", "--help")
	if !strings.Contains(help, "--no-images              the same as --images off\n") {
		t.Fatalf("view --help does not say what --no-images is:\n%s", help)
	}
}

// manyNotes are n note names, n0.mk.md and on.
func manyNotes(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "n" + strconv.Itoa(i) + ".mk.md"
	}
	return out
}

// TestViewHeightFlag: --height takes a number up to its bound (it once
// refused every number, its bound left at zero).
func TestViewHeightFlag(t *testing.T) {
	if h := parsedView(t, "--keys", "q", "--height", "30", "n.mk.md").height.or(0); h != 30 {
		t.Fatalf("--height 30 parsed as %d", h)
	}
}
