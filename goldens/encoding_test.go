package goldens

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/golden"
)

// TestEncodingsRenderLikeTheirUTF8Twin renders fixtures/encodings/, the
// encoding fixture saved with a UTF-8 byte order mark and as UTF-16 LE and
// BE with theirs, through the real binary: each must print exactly the
// goldens of its UTF-8 twin, fixtures/encoding.mk.md.
func TestEncodingsRenderLikeTheirUTF8Twin(t *testing.T) {
	if golden.Update() {
		t.Skip("goldens are being rewritten")
	}
	root := repoRoot(t)
	bin := markiiBinary(t)
	twin, err := os.ReadFile(filepath.Join(root, "fixtures", "encoding.mk.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range []struct {
		name string
		bom  []byte
	}{
		{"utf8bom", []byte{0xef, 0xbb, 0xbf}},
		{"utf16le", []byte{0xff, 0xfe}},
		{"utf16be", []byte{0xfe, 0xff}},
	} {
		path := filepath.Join(root, "fixtures", "encodings", "encoding."+form.name+".mk.md")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		isUTF8 := form.name == "utf8bom"
		if !bytes.HasPrefix(src, form.bom) || bytes.Equal(src[len(form.bom):], twin) != isUTF8 {
			t.Fatalf("%s is not the UTF-8 twin in the %s form", path, form.name)
		}
		for _, c := range []goldenCase{{80, ansi.TrueColor}, {40, ansi.None}} {
			t.Run(form.name+"/"+c.file("encoding"), func(t *testing.T) {
				want, err := os.ReadFile(filepath.Join(root, "goldens", c.file("encoding")))
				if err != nil {
					t.Fatalf("missing golden: %v", err)
				}
				color := c.Level.String()
				if c.Level == ansi.None {
					color = "never"
				}
				args := []string{"render", "--width", fmt.Sprint(c.Width), "--color", color, "--theme", "dark", path}
				got, stderr, code := runMarkiiFull(bin, args, baseEnv(), nil)
				if code != 0 || stderr != "" {
					t.Fatalf("markii %s: exit %d: %s", strings.Join(args, " "), code, stderr)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("the %s form renders unlike its UTF-8 twin\n%s", form.name, firstDifference(got, want))
				}
			})
		}
	}
}
