package snapshot

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

// smallPNG is an 8×8 PNG, red on the left half and blue on the right.
func smallPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for y := range 8 {
		for x := range 8 {
			c := color.RGBA{R: 220, A: 255}
			if x >= 4 {
				c = color.RGBA{B: 220, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imageSnapshots writes the snapshots of a note beside a PNG with the
// note's images mode set to mode, and returns them by file name.
func imageSnapshots(t *testing.T, mode string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"pic.mk.md":  []byte("# Picture\n\n![a red and blue square](square.png)\n"),
		"square.png": smallPNG(t),
		ConfigName:   []byte(`{"width": [40], "notes": {"pic.mk.md": {"images": "` + mode + `"}}}`),
	})
	r := run(t, Options{Update: true}, dir)
	if r.Count(Written) != 2 {
		t.Fatalf("%s %+v", r.Summary(), r.Cases)
	}
	out := map[string]string{}
	for _, name := range []string{"pic.mk.md.w40.never.dark.snap", "pic.mk.md.w40.truecolor.dark.snap"} {
		b, err := os.ReadFile(filepath.Join(dir, Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = string(b)
	}
	return out
}

// TestNoteImagesMode: a note's "images": "blocks" draws its local picture
// as half-block cells in the truecolor snapshot (the image's red and blue
// as 24-bit colors, which "off" never writes), and leaves the never
// snapshot as it is with images off.
func TestNoteImagesMode(t *testing.T) {
	off := imageSnapshots(t, "off")
	blocks := imageSnapshots(t, "blocks")
	const tc, never = "pic.mk.md.w40.truecolor.dark.snap", "pic.mk.md.w40.never.dark.snap"
	if blocks[never] != off[never] {
		t.Fatalf("the never snapshot changed with images on:\n%s\n---\n%s", off[never], blocks[never])
	}
	if blocks[tc] == off[tc] {
		t.Fatalf("images blocks drew the same truecolor snapshot as off:\n%s", off[tc])
	}
	for _, want := range []string{"▀", "220;0;0", "0;0;220"} {
		if !strings.Contains(blocks[tc], want) {
			t.Errorf("the truecolor snapshot with images blocks lacks %q:\n%q", want, blocks[tc])
		}
		if strings.Contains(off[tc], want) {
			t.Errorf("the truecolor snapshot with images off has %q", want)
		}
	}
}

// TestNoteImagesModeRefused: an images mode that is not off, blocks,
// kitty or iterm is a one-line error naming the file and the note.
func TestNoteImagesModeRefused(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"pic.mk.md": []byte("# Picture\n"),
		ConfigName:  []byte(`{"notes": {"pic.mk.md": {"images": "sixel"}}}`),
	})
	r, err := Run(t.Context(), []string{dir}, Options{Update: true})
	msg := ""
	if err != nil {
		msg = err.Error()
	} else if r != nil && len(r.Cases) > 0 {
		msg = r.Cases[0].ErrorLine()
	}
	for _, want := range []string{ConfigName, `"pic.mk.md"`, `"sixel"`, "blocks"} {
		if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
			t.Fatalf("error %q lacks %q or is not one line", msg, want)
		}
	}
}
