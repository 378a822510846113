package goldens

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/internal/needs"
)

// TestBashCompletion loads `markii completion bash` into a real
// interactive bash and asks it for completions as a Tab press does: the
// completion function markii registered runs with COMP_WORDS and
// COMP_CWORD set and calls the real binary back. Commands, flag names,
// the levels of --color, the theme names and note files are offered.
func TestBashCompletion(t *testing.T) {
	bash := needs.Bash(t)
	// The bash-completion package keeps the helpers (_init_completion,
	// _filedir) that every completion script relies on.
	bashCompletion := needs.BashCompletion(t)
	bin := markiiBinary(t)
	work := t.TempDir()
	for _, f := range []string{"a.mk.md", "b.mkz", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(work, f), []byte("# x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(work, "bundle"), 0o700); err != nil {
		t.Fatal(err)
	}
	script := `
source ` + bashCompletion + `
source <(markii completion bash) || exit 9
complete -p markii || exit 8
comp() {
	COMP_LINE=$1; COMP_POINT=${#COMP_LINE}
	read -ra COMP_WORDS <<< "$1"
	[[ $1 == *' ' ]] && COMP_WORDS+=('')
	COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
	COMPREPLY=()
	local fn; fn=$(complete -p markii | sed -E 's/.*-F ([^ ]+).*/\1/')
	"$fn" markii "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s|' "$1"; printf '%s\n' "${COMPREPLY[*]}" | tr ' ' '\n' | sort | tr '\n' ' '; echo
}
comp 'markii ren'
comp 'markii render --col'
comp 'markii render --color '
comp 'markii view -t '
comp 'markii export a.mk.md --format '
comp 'markii grants '
comp 'markii render '
comp 'markii render a.mk.md '
`
	cmd := exec.Command(bash, "--norc", "--noprofile", "-i", "-c", script)
	cmd.Dir = work
	cmd.Env = append(baseEnv(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	got := map[string]string{}
	for _, line := range strings.Split(stdout.String(), "\n") {
		if k, v, ok := strings.Cut(line, "|"); ok {
			got[k] = strings.TrimSpace(v)
		}
	}
	if !strings.Contains(stdout.String(), "complete -o default -F __start_markii markii") {
		t.Errorf("markii's completion is not registered:\n%s", stdout.String())
	}
	for line, want := range map[string]string{
		"markii ren":                      "render",
		"markii render --col":             "--color",
		"markii render --color ":          "16 256 auto never none truecolor",
		"markii view -t ":                 "auto dark high-contrast light",
		"markii export a.mk.md --format ": "ansi html md-plain",
		"markii grants ":                  "list reset",
		"markii render ":                  "a.mk.md b.mkz bundle",
		"markii render a.mk.md ":          "",
	} {
		if g, ok := got[line]; !ok || g != want {
			t.Errorf("%q⇥ completes to %q, want %q\nstderr:\n%s", line, g, want, stderr.String())
		}
	}
}

// TestManPage: `markii man` is a manual page groff reads without a
// warning, and it shows every command's usage line and flags as the
// commands' help does.
func TestManPage(t *testing.T) {
	groff := needs.Groff(t)
	bin := markiiBinary(t)
	page := filepath.Join(t.TempDir(), "markii.1")
	out, err := exec.Command(bin, "man").Output()
	if err != nil {
		t.Fatalf("markii man: %v", err)
	}
	if err := os.WriteFile(page, out, 0o600); err != nil {
		t.Fatal(err)
	}
	if warn, err := exec.Command(groff, "-man", "-ww", "-z", page).CombinedOutput(); err != nil || len(warn) != 0 {
		t.Fatalf("groff warns: %v\n%s", err, warn)
	}
	text, err := exec.Command(groff, "-man", "-Tascii", "-P-cbou", page).Output()
	if err != nil {
		t.Fatalf("groff: %v", err)
	}
	for _, want := range []string{
		"MARKII(1)", "NAME", "SYNOPSIS", "EXIT STATUS", "ENVIRONMENT",
		"markii render [flags] [FILE|-]",
		"markii export [flags] NOTE --format ansi|html|md-plain -o OUT|-",
		"markii grants [flags] list [NOTE] | reset NOTE|--all",
		"markii completion bash|zsh|fish|powershell",
		"-w, --width N", "-c, --color WHEN", "-t, --theme NAME", "-o, --output FILE",
		"--no-images", "--json", "--all",
		"3 usage error.",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("the man page lacks %q:\n%s", want, text)
		}
	}
	// The flags on the page are the flags help shows.
	help, err := exec.Command(bin, "view", "--help").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(help), "\n") {
		if f, _, ok := strings.Cut(strings.TrimSpace(line), "  "); ok && strings.HasPrefix(f, "-") && !bytes.Contains(text, []byte(f)) {
			t.Errorf("markii view --help shows %q, the man page does not", f)
		}
	}
}

// TestBashCompletionOnTab types into a real bash in tmux, as a user
// would: markii ren⇥ becomes markii render, and --color ⇥⇥ lists the
// levels.
func TestBashCompletionOnTab(t *testing.T) {
	if testing.Short() {
		t.Skip("drives bash in tmux")
	}
	needs.Tmux(t)
	needs.Bash(t)
	bashCompletion := needs.BashCompletion(t)
	bin := markiiBinary(t)
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	tmux("new-session", "-d", "-x", "120", "-y", "30", "env", "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PS1=$ ", "XDG_CONFIG_HOME="+t.TempDir(), "bash", "--norc", "--noprofile", "-i")
	waitFor := func(what string, ok func(string) bool) string {
		t.Helper()
		var pane string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if pane = tmux("capture-pane", "-p"); ok(pane) {
				return pane
			}
		}
		t.Fatalf("%s: the pane shows\n%s", what, pane)
		return ""
	}
	tmux("send-keys", "source "+bashCompletion+"; source <(markii completion bash); echo loaded", "Enter")
	waitFor("loading the completion", func(p string) bool { return strings.Contains(p, "\nloaded") })
	tmux("send-keys", "markii ren", "Tab")
	waitFor("markii ren⇥", func(p string) bool { return strings.Contains(p, "$ markii render") })
	tmux("send-keys", "--", "--color ", "Tab", "Tab")
	waitFor("--color ⇥⇥", func(p string) bool {
		return strings.Contains(p, "truecolor") && strings.Contains(p, "256") && strings.Contains(p, "never")
	})
}
