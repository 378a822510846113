package goldens

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// initAllocators are markii's packages whose init may allocate, and why.
// Every other markii package builds its tables on first use, or keeps
// them as constants the linker lays out, so its init allocates nothing:
// every markii process runs every package's init, the script worker
// included, whatever command it serves.
var initAllocators = map[string]string{
	"github.com/markii/markii/cli":               "the command table, which every command reads",
	"github.com/markii/markii/viewer":            "the key tables",
	"github.com/markii/markii/runtime/signature": "the problem texts",
}

// maxInitAllocs bounds the allocations of every package init of a markii
// process together, the libraries' included. goldmark's extension package
// (GFM's tables, strikethrough, task lists and autolinks) compiles its
// regular expressions at init: about 2,000 of the 4,800 allocations
// measured, and about 1 ms. markii links no lexer library whose init
// builds a registry (chroma's lexers package alone made 31,400
// allocations and took 5.5 ms on an idle machine). A new dependency with a
// costly init shows here.
const maxInitAllocs = 5500

// TestPackageInitsAllocateNothing builds markii and reads the Go runtime's
// init trace of `markii --version`. Allocation counts, unlike init times,
// do not depend on how busy the machine is.
func TestPackageInitsAllocateNothing(t *testing.T) {
	cmd := exec.Command(markiiBinary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("markii --version: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)
	allocs := map[string]int{}
	total := 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[3])
		allocs[m[1]] = n
		total += n
	}
	if total > maxInitAllocs {
		t.Errorf("package inits make %d allocations together, over %d:\n%s", total, maxInitAllocs, out)
	}
	if _, ok := allocs["github.com/markii/markii/cli"]; !ok {
		t.Fatalf("no init trace for markii's cli package in:\n%s", out)
	}
	checked := 0
	for pkg, n := range allocs {
		if !strings.HasPrefix(pkg, "github.com/markii/markii/") || initAllocators[pkg] != "" {
			continue
		}
		checked++
		if n != 0 {
			t.Errorf("init of %s makes %d allocations; build its tables on first use", pkg, n)
		}
	}
	if checked < 5 {
		t.Errorf("only %d of markii's packages in the init trace:\n%s", checked, out)
	}
}
