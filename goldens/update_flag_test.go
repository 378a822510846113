package goldens

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryTestPackageAcceptsUpdate keeps `go test ./... -update` working
// from the module root: a test binary that does not define -update fails
// on it, so every package with tests must define the flag (flags_test.go).
func TestEveryTestPackageAcceptsUpdate(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}\t{{join .TestGoFiles \" \"}}\t{{join .XTestGoFiles \" \"}}", "./...")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		dir, files, _ := strings.Cut(line, "\t")
		names := strings.Fields(files)
		if len(names) == 0 {
			continue
		}
		checked++
		defined := false
		for _, f := range names {
			src, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(src), `flag.Bool("update"`) {
				defined = true
				break
			}
		}
		if !defined {
			t.Errorf("%s has tests but no -update flag; add a flags_test.go like sanitize's", dir)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d test packages found; go list output:\n%s", checked, out)
	}
}
