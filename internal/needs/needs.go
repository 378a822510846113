// Package needs is for tests that drive an optional system tool: tmux,
// groff, bash and its bash-completion package, headless Chromium. On a
// machine with only Go such a test skips with one line naming the package
// to install, so that `go test ./...` passes anywhere; with
// MARKII_REQUIRE_TOOLS=1 in the environment (.ci/run sets it) the missing
// tool fails the test instead, so CI runs every one.
package needs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireEnv is the environment variable that turns a missing tool from a
// skip into a failure.
const RequireEnv = "MARKII_REQUIRE_TOOLS"

// A Tool is a program or file a test uses and the package that provides it.
type Tool struct {
	// Name is what the test uses, as the skip line says it.
	Name string
	// Package is the (Debian) package that installs it.
	Package string
	// Command is a program looked up in PATH; File, when Command is
	// empty, is a file that must exist.
	Command, File string
}

// The optional tools of markii's test suite.
var (
	TmuxTool           = Tool{Name: "tmux", Package: "tmux", Command: "tmux"}
	GroffTool          = Tool{Name: "groff", Package: "groff-base", Command: "groff"}
	BashTool           = Tool{Name: "bash", Package: "bash", Command: "bash"}
	BashCompletionTool = Tool{Name: "bash-completion", Package: "bash-completion", File: "/usr/share/bash-completion/bash_completion"}
	ChromiumTool       = Tool{Name: "chromium", Package: "chromium", Command: "chromium"}
	SSHKeygenTool      = Tool{Name: "ssh-keygen", Package: "openssh-client", Command: "ssh-keygen"}
)

// Tools lists every optional tool, in the order the README names them.
var Tools = []Tool{TmuxTool, BashTool, BashCompletionTool, GroffTool, ChromiumTool, SSHKeygenTool}

// fileRoot prefixes a Tool's File; the package's own test points it at an
// empty directory to stand for a machine without the file.
var fileRoot = "/"

// Find returns the tool's path, or an error when it is not installed.
func (tl Tool) Find() (string, error) {
	if tl.Command != "" {
		return exec.LookPath(tl.Command)
	}
	p := filepath.Join(fileRoot, tl.File)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// Required reports whether RequireEnv asks for every tool to be present.
func Required() bool {
	v := os.Getenv(RequireEnv)
	return v != "" && v != "0"
}

// Need returns the tool's path. When the tool is missing the test is
// skipped with one line naming the package to install, or fails with that
// line when Required.
func Need(t testing.TB, tl Tool) string {
	t.Helper()
	p, err := tl.Find()
	if err == nil {
		return p
	}
	msg := fmt.Sprintf("%s is not installed: install the %s package (with %s=1 this is a failure)", tl.Name, tl.Package, RequireEnv)
	if Required() {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// Tmux returns tmux's path, or skips (fails) the test as Need does.
func Tmux(t testing.TB) string { t.Helper(); return Need(t, TmuxTool) }

// SSHKeygen returns ssh-keygen's path, or skips (fails) the test as Need
// does.
func SSHKeygen(t testing.TB) string { t.Helper(); return Need(t, SSHKeygenTool) }

// Groff returns groff's path, or skips (fails) the test as Need does.
func Groff(t testing.TB) string { t.Helper(); return Need(t, GroffTool) }

// Bash returns bash's path, or skips (fails) the test as Need does.
func Bash(t testing.TB) string { t.Helper(); return Need(t, BashTool) }

// BashCompletion returns the path of the bash-completion package's main
// script (what defines _init_completion and _filedir), or skips (fails)
// the test as Need does.
func BashCompletion(t testing.TB) string { t.Helper(); return Need(t, BashCompletionTool) }

// Chromium returns headless Chromium's path, or skips (fails) the test as
// Need does.
func Chromium(t testing.TB) string { t.Helper(); return Need(t, ChromiumTool) }
