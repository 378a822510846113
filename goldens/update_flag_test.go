package goldens

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// updateDefiners are the packages that define the -update flag: markii's
// one switch, and the golden helper of charmbracelet's x/exp, which
// defines a flag of the same name (internal/golden then reads that one).
var updateDefiners = []string{
	"github.com/markii/markii/internal/golden",
	"github.com/charmbracelet/x/exp/golden",
}

// updateFlag matches a test file defining a flag named update itself.
var updateFlag = regexp.MustCompile(`flag\.(Bool|BoolVar|String|StringVar|Var)\([^)]*"update"`)

// TestEveryTestPackageAcceptsUpdate keeps `go test ./... -update` working
// from the module root with one mechanism: a test binary that does not
// define -update fails on it, so every package's test binary links
// internal/golden (a blank import where the package has no golden file),
// and no test file defines a flag of that name itself.
func TestEveryTestPackageAcceptsUpdate(t *testing.T) {
	cmd := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}\t{{join .Deps \" \"}}", "./...")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) != 4 {
			t.Fatalf("go list line %q", line)
		}
		pkg, dir, files, deps := fields[0], fields[1], strings.Fields(fields[2]), strings.Fields(fields[3])
		if strings.HasSuffix(pkg, ".test") {
			// The test binary: it must link a definer of -update.
			checked++
			if !slices.ContainsFunc(updateDefiners, func(p string) bool { return slices.Contains(deps, p) }) {
				t.Errorf("%s does not link %s, so go test ./... -update fails on it; add a blank import to one of its test files", strings.TrimSuffix(pkg, ".test"), updateDefiners[0])
			}
			continue
		}
		for _, f := range files {
			src, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if updateFlag.Match(src) {
				t.Errorf("%s defines its own -update flag; use golden.Update()", filepath.Join(dir, f))
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d test binaries found; go list output:\n%s", checked, out)
	}
}
