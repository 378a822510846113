package bundle

import (
	"bytes"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// noisyImages returns one image of each type scale reads directly, and
// one it reads through At, filled with random pixels (every alpha from
// transparent to opaque among them) over a rectangle that does not start
// at the origin, plus a sub-image whose stride is wider than its rows.
func noisyImages(w, h int) map[string]image.Image {
	rng := rand.New(rand.NewPCG(1, 2))
	r := image.Rect(3, 5, 3+w, 5+h)
	rgba, nrgba, gray := image.NewRGBA(r), image.NewNRGBA(r), image.NewGray(r)
	pal := image.NewPaletted(r, append(color.Palette{color.NRGBA{10, 200, 30, 0}, color.NRGBA{90, 40, 250, 128}}, palette.Plan9[:200]...))
	rgba64 := image.NewNRGBA64(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			v := rng.Uint32()
			a := uint8(v >> 24)
			switch v % 5 {
			case 0:
				a = 0
			case 1:
				a = 255
			}
			c := uint8(v)
			rgba.SetRGBA(x, y, color.RGBA{min(c, a), min(uint8(v>>8), a), min(uint8(v>>16), a), a})
			nrgba.SetNRGBA(x, y, color.NRGBA{c, uint8(v >> 8), uint8(v >> 16), a})
			gray.SetGray(x, y, color.Gray{c})
			pal.SetColorIndex(x, y, uint8(v%uint32(len(pal.Palette))))
			rgba64.SetNRGBA64(x, y, color.NRGBA64{uint16(v), uint16(v >> 3), uint16(v >> 7), uint16(a) * 257})
		}
	}
	images := map[string]image.Image{
		"rgba": rgba, "nrgba": nrgba, "gray": gray, "paletted": pal, "nrgba64 (At)": rgba64,
		"rgba sub-image": rgba.SubImage(image.Rect(10, 9, 3+w-4, 5+h-2)),
	}
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422} {
		ycc := image.NewYCbCr(r, ratio)
		for i := range ycc.Y {
			ycc.Y[i] = uint8(rng.Uint32())
		}
		for i := range ycc.Cb {
			ycc.Cb[i], ycc.Cr[i] = uint8(rng.Uint32()), uint8(rng.Uint32())
		}
		images["ycbcr "+ratio.String()] = ycc
	}
	return images
}

// TestScaleFastPathsMatchAt checks every fast path gives exactly the
// pixels reading through img.At gives, shrinking and at the same size,
// onto a dark and a light background.
func TestScaleFastPathsMatchAt(t *testing.T) {
	for name, img := range noisyImages(97, 61) {
		b := img.Bounds()
		for _, size := range [][2]int{{40, 24}, {b.Dx(), b.Dy()}, {1, 1}, {7, 60}} {
			for _, bg := range []RGB{{}, {255, 255, 255}, {12, 200, 99}} {
				got, want := scale(img, size[0], size[1], bg), scaleAt(img, size[0], size[1], bg)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s %v on %v: pixel %d is %v, At gives %v", name, size, bg, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestDecodedImagesUseFastPaths decodes the formats markii reads and
// checks the decoders hand scale the types it has fast paths for, so a
// decoder change that would fall back to At is seen.
func TestDecodedImagesUseFastPaths(t *testing.T) {
	src := noisyImages(20, 10)["nrgba"]
	var p, j, g bytes.Buffer
	must(t, png.Encode(&p, src))
	must(t, jpeg.Encode(&j, src, nil))
	must(t, gif.Encode(&g, src, nil))
	for _, tc := range []struct {
		data []byte
		ok   func(image.Image) bool
	}{
		{p.Bytes(), func(m image.Image) bool { _, ok := m.(*image.NRGBA); return ok }},
		{j.Bytes(), func(m image.Image) bool { _, ok := m.(*image.YCbCr); return ok }},
		{g.Bytes(), func(m image.Image) bool { _, ok := m.(*image.Paletted); return ok }},
	} {
		m, format, err := image.Decode(bytes.NewReader(tc.data))
		if err != nil || !tc.ok(m) {
			t.Errorf("%s decodes to %T (%v)", format, m, err)
		}
	}
}

// BenchmarkScale shrinks a 4000×3000 opaque photo-sized image (as PNG and
// JPEG decode to) to a terminal's 240×120 pixels, through the fast path
// and through At.
func BenchmarkScale(b *testing.B) {
	rgba := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
	for i := range rgba.Pix {
		rgba.Pix[i] = uint8(i * 7)
		if i%4 == 3 {
			rgba.Pix[i] = 0xff // opaque, as a photo is
		}
	}
	ycc := image.NewYCbCr(rgba.Rect, image.YCbCrSubsampleRatio420)
	for i := range ycc.Y {
		ycc.Y[i] = uint8(i * 3)
	}
	for _, tc := range []struct {
		name string
		img  image.Image
	}{{"rgba", rgba}, {"ycbcr", ycc}} {
		b.Run(tc.name+"/fast", func(b *testing.B) {
			for b.Loop() {
				scale(tc.img, 240, 120, RGB{})
			}
		})
		b.Run(tc.name+"/At", func(b *testing.B) {
			for b.Loop() {
				scaleAt(tc.img, 240, 120, RGB{})
			}
		})
	}
}
