package cli

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportHTML exports a plain note with an image beside it, one
// outside its folder, one through a symlink out of it and a remote one:
// only the image beside the note is embedded, the stored values show,
// and each refused image has one diagnostic.
func TestExportHTML(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	outside := t.TempDir()
	dir := t.TempDir()
	img := image.NewNRGBA(image.Rect(0, 0, 3, 3))
	img.Set(1, 1, color.NRGBA{200, 10, 10, 255})
	var pic bytes.Buffer
	mustNil(t, png.Encode(&pic, img))
	mustNil(t, os.WriteFile(filepath.Join(dir, "pic.png"), pic.Bytes(), 0o600))
	mustNil(t, os.WriteFile(filepath.Join(outside, "secret.png"), pic.Bytes(), 0o600))
	mustNil(t, os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(dir, "link.png")))
	note := filepath.Join(dir, "note.mk.md")
	src := "# Shared\n\n![here](pic.png)\n\n![up](../secret.png)\n\n![link](link.png)\n\n![remote](https://example.com/x.png)\n\n" +
		":::callout{type=warning title=\"Careful\"}\nStars: :value[stars]{format=compact}\n:::\n"
	mustNil(t, os.WriteFile(note, []byte(src), 0o600))
	vals := writeValues(t, `{"stars": 18234}`)
	out := filepath.Join(dir, "note.html")

	_, stderr, code := runCLI(t, "export", note, "--format", "html", "-o", out, "--values", vals, "--theme", "light")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	if n := strings.Count(page, `<img src="data:image/png;base64,`); n != 1 {
		t.Errorf("%d images embedded, want the one beside the note", n)
	}
	for _, want := range []string{"<title>Shared</title>", `<aside class="callout warning" role="note">`, "18.2k", "[remote] (https://example.com/x.png)", "Content-Security-Policy", "background:#ffffff"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "image ../secret.png was not embedded") || !strings.Contains(lines[1], "image link.png was not embedded") {
		t.Errorf("diagnostics %q, want one for ../secret.png and one for link.png", stderr)
	}
}

func mustNil(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
