package goldens

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/markii/markii/ansi"
)

// TestPixelGoldens renders goldens/pixels/note.mk.md, whose one image is a
// small PNG beside it, with real pixels through each graphics protocol
// and compares the bytes with the reviewed goldens beside it.
func TestPixelGoldens(t *testing.T) {
	bin := markiiBinary(t)
	note := filepath.Join("pixels", "note.mk.md")
	for _, proto := range []string{"kitty", "iterm", "blocks"} {
		t.Run(proto, func(t *testing.T) {
			cmd := exec.Command(bin, "render", "--width", "40", "--color", "truecolor", "--images", proto, note)
			cmd.Env = baseEnv()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			got, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("markii render --images %s: %v\n%s", proto, err, stderr.Bytes())
			}
			if err := ansi.Validate(got); err != nil {
				t.Errorf("output fails ansi.Validate: %v", err)
			}
			compareGolden(t, filepath.Join("pixels", "note."+proto+".w40.truecolor.txt"), got)
		})
	}
	// Without color there are no escapes at all, pixels or not.
	out, err := exec.Command(bin, "render", "--width", "40", "--color", "never", "--images", "kitty", note).Output()
	if err != nil || bytes.IndexByte(out, 0x1b) >= 0 {
		t.Errorf("--color never --images kitty: %v %q", err, out)
	}
}
