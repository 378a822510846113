package bundle

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"
)

func pngBytes(t *testing.T, img image.Image) []byte {
	var buf bytes.Buffer
	must(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func TestDecodePictureHalfBlocks(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 4))
	red, blue := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}
	for y := 0; y < 4; y++ {
		for x := 0; x < 2; x++ {
			if y%2 == 0 {
				img.Set(x, y, red)
			} else {
				img.Set(x, y, blue)
			}
		}
	}
	img.Set(1, 3, color.NRGBA{0, 0, 0, 0}) // transparent: shows the background
	p, err := DecodePicture(pngBytes(t, img), 80, 24, RGB{10, 20, 30})
	if err != nil {
		t.Fatal(err)
	}
	want := &Picture{Cols: 2, Rows: 2, Cells: []Cell{
		{RGB{255, 0, 0}, RGB{0, 0, 255}}, {RGB{255, 0, 0}, RGB{0, 0, 255}},
		{RGB{255, 0, 0}, RGB{0, 0, 255}}, {RGB{255, 0, 0}, RGB{10, 20, 30}},
	}}
	if p.Cols != want.Cols || p.Rows != want.Rows || len(p.Cells) != 4 {
		t.Fatalf("got %+v", p)
	}
	for i := range want.Cells {
		if p.Cells[i] != want.Cells[i] {
			t.Fatalf("cell %d: got %+v want %+v", i, p.Cells[i], want.Cells[i])
		}
	}
}

func TestDecodePictureScalesWithinBox(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 400, 100))
	p, err := DecodePicture(pngBytes(t, img), 40, 24, RGB{})
	if err != nil || p.Cols != 40 || p.Rows != 5 {
		t.Fatalf("wide: %v %+v", err, p)
	}
	tall := image.NewGray(image.Rect(0, 0, 100, 1000))
	p, err = DecodePicture(pngBytes(t, tall), 80, 10, RGB{})
	if err != nil || p.Rows != 10 || p.Cols != 2 {
		t.Fatalf("tall: %v cols %d rows %d", err, p.Cols, p.Rows)
	}
	var g, j bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 8, 8), []color.Color{color.White, color.Black})
	must(t, gif.Encode(&g, pal, nil))
	must(t, jpeg.Encode(&j, image.NewRGBA(image.Rect(0, 0, 8, 8)), nil))
	for name, data := range map[string][]byte{"gif": g.Bytes(), "jpeg": j.Bytes()} {
		if p, err := DecodePicture(data, 80, 24, RGB{}); err != nil || p.Cols != 8 || p.Rows != 4 {
			t.Fatalf("%s: %v %+v", name, err, p)
		}
	}
}

func TestDecodePictureRefusesHugeHeadersBeforeDecoding(t *testing.T) {
	data := pngBytes(t, image.NewGray(image.Rect(0, 0, 4, 4)))
	// Rewrite the IHDR chunk to claim 60000×60000 pixels, with a valid CRC.
	ihdr := data[8+8 : 8+8+13]
	binary.BigEndian.PutUint32(ihdr[0:], 60000)
	binary.BigEndian.PutUint32(ihdr[4:], 60000)
	binary.BigEndian.PutUint32(data[8+8+13:], crc32.ChecksumIEEE(data[8+4:8+8+13]))
	start := time.Now()
	_, err := DecodePicture(data, 80, 24, RGB{})
	if err == nil || err.Error() != "the image is 60000×60000 pixels, over the 8192×8192 limit" {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 100*time.Millisecond {
		t.Fatal("refusing a huge header took too long")
	}
	if _, err := DecodePicture([]byte("<svg/>"), 80, 24, RGB{}); !errors.Is(err, ErrNotImage) {
		t.Fatalf("got %v", err)
	}
	if _, err := DecodePicture(data[:40], 80, 24, RGB{}); err == nil {
		t.Fatal("a truncated image decoded")
	}
}

func TestBundlePictureIsJailed(t *testing.T) {
	files := basicDirFiles()
	files["assets/dot.png"] = string(pngBytes(t, image.NewGray(image.Rect(0, 0, 2, 2))))
	for form, b := range openBoth(t, t.TempDir(), files) {
		if p, err := b.Picture("./assets/dot.png", 80, 24, RGB{}); err != nil || p.Cols != 2 || p.Rows != 1 {
			t.Fatalf("%v: %v %+v", form, err, p)
		}
		_, err := b.Picture("../dot.png", 80, 24, RGB{})
		var pe *PathError
		if !errors.As(err, &pe) {
			t.Fatalf("%v: got %v", form, err)
		}
		if _, err := b.Picture("https://example.com/x.png", 80, 24, RGB{}); err == nil || !strings.Contains(err.Error(), "bundle has no file") {
			t.Fatalf("%v: remote image: %v", form, err)
		}
	}
}
