package bundle

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/markii/markii/internal/procmem"
)

// countLieChildEnv, when set, makes TestZipCountLieMemory the child that
// opens the archive it names and reports its own peak resident memory.
const countLieChildEnv = "MARKII_TEST_COUNT_LIE_ARCHIVE"

// TestZipCountLieMemory opens, in a child process, an archive whose end
// record claims 5 entries while its central directory holds 5.7 million,
// and checks that it is refused for its entry count with a peak resident
// memory under 64 MB: the cap is enforced while records are read.
func TestZipCountLieMemory(t *testing.T) {
	if p := os.Getenv(countLieChildEnv); p != "" {
		_, err := ReadZip(p, "bundle", DefaultLimits)
		var ae *ArchiveError
		kind := "none"
		if errors.As(err, &ae) && ae.Has(ProblemTooManyEntries, "") {
			kind = "too-many-entries"
		}
		hwm, _ := procmem.Peak(0)
		fmt.Printf("result=%s hwm=%d err=%v\n", kind, hwm>>10, err)
		return
	}
	if testing.Short() {
		t.Skip("writes a 262 MB archive")
	}
	p := t.TempDir() + "/lie.mkz"
	writeCountLie(t, p, 5_700_000, 5)
	cmd := exec.Command(os.Args[0], "-test.run=^TestZipCountLieMemory$")
	cmd.Env = append(os.Environ(), countLieChildEnv+"="+p)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	var kind, rest string
	var hwm int64
	line := out
	if i := strings.Index(string(out), "result="); i >= 0 {
		line = out[i:]
	}
	if _, err := fmt.Sscanf(string(line), "result=%s hwm=%d err=%s", &kind, &hwm, &rest); err != nil {
		t.Fatalf("child output %q: %v", out, err)
	}
	t.Logf("count-lie archive: %s, peak RSS %d KB", kind, hwm)
	if kind != "too-many-entries" {
		t.Errorf("refused as %q, want too-many-entries; child said %s", kind, out)
	}
	if hwm <= 0 || hwm > 64<<10 {
		t.Errorf("peak RSS %d KB, want under 64 MB", hwm)
	}
}
