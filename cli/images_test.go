package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/viewer"
)

// pngBytes encodes a w×h PNG whose top half is red and bottom half blue.
func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{255, 0, 0, 255}
			if y >= h/2 {
				c = color.NRGBA{0, 0, 255, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// hugePNGHeader is a PNG signature and a valid IHDR chunk declaring a
// 100000×100000 image, with no pixel data: decoding it would need tens of
// gigabytes, so it must be refused from the header alone.
func hugePNGHeader() []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 100000)
	binary.BigEndian.PutUint32(ihdr[4:], 100000)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// writeTree writes files under dir.
func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// isolateConfig points the user config at an empty folder.
func isolateConfig(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("HOME", home)
	return home
}

const imageNote = "# Pets\n\n![a cat](assets/cat.png)\n\n:::figure{src=assets/cat.png alt=\"A cat\"}\nOur cat.\n:::\n"

// A directory bundle's image is drawn with half blocks only with --images
// and only at 256 colors or truecolor; otherwise the output is exactly
// the text form.
func TestRenderImagesFlagAndLevels(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"manifest.json":  []byte(`{"spec":"0.1.0"}`),
		"note.mk.md":     []byte(imageNote),
		"assets/cat.png": pngBytes(t, 8, 8),
	})
	for _, level := range []string{"never", "16", "256", "truecolor"} {
		text, errText, code := renderCLI(t, "", "--width", "40", "--color", level, dir)
		if code != ExitOK || errText != "" || strings.Contains(text, "▀") {
			t.Fatalf("%s without --images: code %d err %q\n%s", level, code, errText, text)
		}
		out, errOut, code := renderCLI(t, "", "--width", "40", "--color", level, "--images", "blocks", dir)
		if code != ExitOK || errOut != "" {
			t.Fatalf("%s: code %d err %q", level, code, errOut)
		}
		if err := ansi.Validate([]byte(out)); err != nil {
			t.Fatalf("%s: %v", level, err)
		}
		if level == "never" || level == "16" {
			if out != text {
				t.Fatalf("%s: --images changed the text form:\n%q\n%q", level, text, out)
			}
			continue
		}
		// An 8×8 image is drawn 8 cells wide and 4 rows high, twice.
		if n := strings.Count(out, "▀"); n != 2*8*4 {
			t.Fatalf("%s: %d half blocks:\n%s", level, n, out)
		}
		for _, keep := range []string{"[a cat]", "assets/cat.png", "alt: A cat", "Our cat."} {
			if !strings.Contains(out, keep) {
				t.Fatalf("%s: the text form lost %q:\n%s", level, keep, out)
			}
		}
	}
	// The exact bytes at truecolor: red over red, then red over blue where
	// the halves meet, then blue over blue; each row one span.
	out, _, _ := renderCLI(t, "", "--width", "40", "--color", "truecolor", "--images", "blocks", dir)
	rr := "\x1b[38;2;255;0;0;48;2;255;0;0m▀▀▀▀▀▀▀▀\x1b[0m\n"
	bb := "\x1b[38;2;0;0;255;48;2;0;0;255m▀▀▀▀▀▀▀▀\x1b[0m\n"
	if !strings.Contains(out, "\n\n"+rr+rr+bb+bb) {
		t.Fatalf("picture bytes:\n%q", out)
	}
	// A narrow layout shrinks the picture to fit.
	out, _, _ = renderCLI(t, "", "--width", "4", "--color", "256", "--images", "blocks", dir)
	for _, ln := range strings.Split(out, "\n") {
		if strings.Contains(ln, "▀") && strings.Count(ln, "▀") > 4 {
			t.Fatalf("line wider than 4: %q", ln)
		}
	}
}

// A zip bundle's images are drawn the same way, and export --format ansi
// takes --images too.
func TestExportImagesFromZip(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	zipPath := filepath.Join(dir, "pets.mkz")
	writeTestZip(t, zipPath, map[string]string{
		"manifest.json":  `{"spec":"0.1.0"}`,
		"note.mk.md":     imageNote,
		"assets/cat.png": string(pngBytes(t, 4, 4)),
	})
	outPath := filepath.Join(dir, "out.ansi")
	var out, errOut bytes.Buffer
	code := Main([]string{"export", zipPath, "--format", "ansi", "--color", "truecolor", "--images", "blocks", "-o", outPath}, Stdio{Out: &out, Err: &errOut})
	if code != ExitOK || errOut.String() != "" {
		t.Fatalf("code %d err %q", code, errOut.String())
	}
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("▀")); n != 2*4*2 {
		t.Fatalf("%d half blocks:\n%s", n, data)
	}
	if err := ansi.Validate(data); err != nil {
		t.Fatal(err)
	}
	code = Main([]string{"export", zipPath, "--format", "ansi", "--color", "truecolor", "-o", outPath}, Stdio{Out: &out, Err: &errOut})
	data, _ = os.ReadFile(outPath)
	if code != ExitOK || bytes.Contains(data, []byte("▀")) {
		t.Fatalf("without --images: code %d\n%s", code, data)
	}
}

// A remote source is never read: the server sees no request and the text
// form stays, with no diagnostic.
func TestRemoteImageNeverFetched(t *testing.T) {
	isolateConfig(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write(pngBytes(t, 4, 4))
	}))
	defer srv.Close()
	dir := t.TempDir()
	src := "![remote](" + srv.URL + "/cat.png)\n\n:::figure{src=\"" + srv.URL + "/dog.png\"}\ncap\n:::\n\n![proto](//127.0.0.1/x.png)\n"
	path := filepath.Join(dir, "note.mk.md")
	writeTree(t, dir, map[string][]byte{"note.mk.md": []byte(src)})
	text, _, _ := renderCLI(t, "", "--width", "80", "--color", "truecolor", path)
	out, errOut, code := renderCLI(t, "", "--width", "80", "--color", "truecolor", "--images", "blocks", path)
	if code != ExitOK || errOut != "" || out != text || strings.Contains(out, "▀") {
		t.Fatalf("code %d err %q\n%q\n%q", code, errOut, out, text)
	}
	if hits.Load() != 0 {
		t.Fatalf("the server was asked %d times", hits.Load())
	}
}

// Paths that leave the bundle or the plain note's folder are refused with
// a diagnostic, and the file outside is never drawn.
func TestImagePathJail(t *testing.T) {
	isolateConfig(t)
	base := t.TempDir()
	outside := pngBytes(t, 4, 4)
	writeTree(t, base, map[string][]byte{
		"x.png":                 outside,
		"b/manifest.json":       []byte(`{"spec":"0.1.0"}`),
		"b/note.mk.md":          []byte("![x](../x.png)\n"),
		"plain/note.mk.md":      []byte("![x](../x.png)\n\n![a](/etc/x.png)\n\n![l](link.png)\n\n![ok](sub/ok.png)\n"),
		"plain/sub/ok.png":      pngBytes(t, 2, 2),
		"plain/sub/readme.txt":  []byte("not an image"),
		"plain/sub/deep/d.png":  pngBytes(t, 2, 2),
		"plain/other.mk.md":     []byte("![t](sub/readme.txt)\n\n![fake](sub/fake.png)\n\n![none](missing.png)\n"),
		"plain/sub/fake.png":    []byte("plain text, not an image"),
		"plain/sub/nothing.txt": nil,
	})
	if err := os.Symlink(filepath.Join(base, "x.png"), filepath.Join(base, "plain", "link.png")); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := renderCLI(t, "", "--color", "truecolor", "--images", "blocks", filepath.Join(base, "b"))
	if code != ExitOK || strings.Contains(out, "▀") || !strings.Contains(out, " (../x.png)") {
		t.Fatalf("bundle: code %d\n%s", code, out)
	}
	if want := "markii: image ../x.png was not drawn: bundle path \"../x.png\" is refused: it contains a \"..\" segment\n"; errOut != want {
		t.Fatalf("bundle diagnostics %q", errOut)
	}

	out, errOut, code = renderCLI(t, "", "--color", "truecolor", "--images", "blocks", filepath.Join(base, "plain", "note.mk.md"))
	if code != ExitOK {
		t.Fatalf("plain: code %d", code)
	}
	// Only sub/ok.png (2×2: one row of two cells) is drawn.
	if n := strings.Count(out, "▀"); n != 2 {
		t.Fatalf("plain: %d half blocks\n%s", n, out)
	}
	diags := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	if len(diags) != 3 ||
		diags[0] != `markii: image ../x.png was not drawn: bundle path "../x.png" is refused: it contains a ".." segment` ||
		diags[1] != `markii: image /etc/x.png was not drawn: bundle path "/etc/x.png" is refused: it is absolute` ||
		!strings.HasPrefix(diags[2], "markii: image link.png was not drawn: ") {
		t.Fatalf("plain diagnostics:\n%s", errOut)
	}

	// A file that is not an image, or not there, is refused by name; a
	// source without an image extension is never opened.
	_, errOut, _ = renderCLI(t, "", "--color", "256", "--images", "blocks", filepath.Join(base, "plain", "other.mk.md"))
	want := "markii: image sub/fake.png was not drawn: it is not a PNG, JPEG or GIF image\n" +
		"markii: image missing.png was not drawn: there is no file missing.png next to the note\n"
	if errOut != want {
		t.Fatalf("other diagnostics:\n%s", errOut)
	}
}

// An image whose header declares 100000×100000 pixels is refused from the
// header, before any decoding, in a bundle and beside a plain note.
func TestOverCapImageRefusedBeforeDecoding(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"b/manifest.json":  []byte(`{"spec":"0.1.0"}`),
		"b/note.mk.md":     []byte(":::figure{src=huge.png alt=big}\n:::\n"),
		"b/huge.png":       hugePNGHeader(),
		"plain/note.mk.md": []byte("![big](huge.png)\n"),
		"plain/huge.png":   hugePNGHeader(),
	})
	want := "markii: image huge.png was not drawn: the image is 100000×100000 pixels, over the 8192×8192 limit\n"
	for _, target := range []string{filepath.Join(dir, "b"), filepath.Join(dir, "plain", "note.mk.md")} {
		out, errOut, code := renderCLI(t, "", "--color", "truecolor", "--images", "blocks", target)
		if code != ExitOK || errOut != want || strings.Contains(out, "▀") {
			t.Fatalf("%s: code %d err %q\n%s", target, code, errOut, out)
		}
		if err := ansi.Validate([]byte(out)); err != nil {
			t.Fatal(err)
		}
	}
}

// With a pack installed from the user's config, its components name the
// pack's engine and no "not installed" diagnostic is given.
func TestRenderKnowsInstalledPacks(t *testing.T) {
	home := isolateConfig(t)
	note := filepath.Join(t.TempDir(), "note.mk.md")
	writeTree(t, filepath.Dir(note), map[string][]byte{"note.mk.md": []byte("---\nuses: [dash, viz]\n---\n\n::dash_chart\n\n::viz_map\n")})

	out, errOut, code := renderCLI(t, "", "--width", "100", note)
	if code != ExitOK || strings.Contains(out, "component") ||
		errOut != "markii: this note uses packs dash, viz, which are not installed; their components show as unknown-component boxes\n"+
			"markii: unknown component `dash_chart` from pack dash\nmarkii: unknown component `viz_map` from pack viz\n" {
		t.Fatalf("no packs: code %d err %q\n%s", code, errOut, out)
	}

	packDir := filepath.Join(t.TempDir(), "dash")
	writeTree(t, packDir, map[string][]byte{"pack.json": []byte(`{"name":"dash","engine":"react","components":{"chart":"c.js"}}`)})
	cfg, _ := json.Marshal(map[string]any{"packs": []string{packDir}})
	writeTree(t, filepath.Join(home, "markii"), map[string][]byte{"config.json": cfg})

	out, errOut, code = renderCLI(t, "", "--width", "100", note)
	if code != ExitOK || strings.Contains(out, "component") ||
		errOut != "markii: this note uses pack viz, which is not installed; its components show as unknown-component boxes\n"+
			"markii: component `dash_chart` from pack dash (engine react) cannot be drawn in a terminal\nmarkii: unknown component `viz_map` from pack viz\n" {
		t.Fatalf("dash installed: code %d err %q\n%s", code, errOut, out)
	}
	// A broken config is reported the same way whether the note names
	// packs or not.
	writeTree(t, filepath.Join(home, "markii"), map[string][]byte{"config.json": []byte("{")})
	plain := filepath.Join(filepath.Dir(note), "plain.mk.md")
	writeTree(t, filepath.Dir(note), map[string][]byte{"plain.mk.md": []byte("just text\n")})
	for _, p := range []string{plain, note} {
		if _, errOut, code := renderCLI(t, "", p); code != ExitFailure || !strings.HasPrefix(errOut, "markii: the settings file ") || !strings.Contains(errOut, "line 1, column 2") {
			t.Fatalf("broken config, %s: code %d err %q", p, code, errOut)
		}
	}
}

// The viewer's loader decodes a note's pictures at 256 colors and
// truecolor unless --no-images turned them off, for the first note and
// every reload or followed link alike.
func TestViewPicturesLoader(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string][]byte{
		"note.mk.md": []byte("![cat](cat.png)\n\n![big](huge.png)\n"),
		"cat.png":    pngBytes(t, 300, 10),
		"huge.png":   hugePNGHeader(),
	})
	path := filepath.Join(dir, "note.mk.md")
	c := &invocation{}
	on := viewPictures{c: c, on: true, level: ansi.TrueColor}
	vn, err := on.load(path)
	if err != nil {
		t.Fatal(err)
	}
	p := vn.Images["cat.png"]
	if len(vn.Images) != 1 || p == nil || p.Cols != viewPictureCols || p.Rows != 4 {
		t.Fatalf("images %v (picture %+v)", vn.Images, p)
	}
	if len(vn.Diagnostics) != 1 || !strings.Contains(vn.Diagnostics[0], "huge.png was not drawn") {
		t.Fatalf("diagnostics %q", vn.Diagnostics)
	}
	for _, off := range []viewPictures{{c: c, on: false, level: ansi.TrueColor}, {c: c, on: true, level: ansi.Color16}, {c: c, on: true, level: ansi.None}} {
		vn, err := off.load(path)
		if err != nil || vn.Images != nil || vn.Pictures != nil || len(vn.Diagnostics) != 0 {
			t.Fatalf("%+v: images %v diagnostics %q err %v", off, vn.Images, vn.Diagnostics, err)
		}
	}

	// The note the viewer opens gets a decoder instead, which finds the
	// pictures of a long note through a parse a piece at a time: here
	// one far past the first piece, through a reference defined early.
	long := []byte("[far]: cat.png\n\n# Long\n\n" + strings.Repeat("A paragraph of the long note that goes on.\n\n", 20000) + "![far][]\n\n![cat](cat.png)\n")
	n := &note{Source: long, Name: "long.mk.md", Path: filepath.Join(dir, "long.mk.md")}
	vn = &viewer.Note{Source: long}
	on.add(vn, n)
	if vn.Images != nil || vn.Pictures == nil {
		t.Fatalf("add decoded the pictures at once (images %v)", vn.Images)
	}
	images, refused := vn.Pictures()
	if p := images["cat.png"]; len(images) != 1 || p == nil || p.Rows != 4 || len(refused) != 0 {
		t.Fatalf("the long note's pictures: %v, refused %q", images, refused)
	}
	if got := pictureSources(long); !slices.Equal(got, []string{"cat.png"}) {
		t.Fatalf("pictureSources of the long note = %q, want the one source once", got)
	}
}

// TestPixelProtocols draws a note's own image through kitty and iTerm2:
// one valid sequence of the chosen protocol carries the image, file names
// with escape payloads never reach the output or the diagnostics raw, and
// a remote image is never fetched.
func TestPixelProtocols(t *testing.T) {
	isolateConfig(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	hostileName := "x\x1b_Gm=0;AAAA\x1b\\\x1b]1337;File=inline=1:AAAA\x07.png"
	src := "![dot](dot.png)\n\n![evil](x&#27;_Gm=0;AAAA&#27;\\.png)\n\n![remote](" + srv.URL + "/a.png)\n\n:::figure{src=\"nope&#x9b;31m.png\"}\n:::\n"
	writeTree(t, dir, map[string][]byte{"note.mk.md": []byte(src), "dot.png": pngBytes(t, 30, 60)})
	for proto, marker := range map[string]string{"kitty": "\x1b_Ga=T,f=100,", "iterm": "\x1b]1337;File=inline=1;"} {
		out, errOut, code := renderCLI(t, "", "--width", "80", "--color", "truecolor", "--images", proto, filepath.Join(dir, "note.mk.md"))
		if code != ExitOK {
			t.Fatalf("%s: code %d err %q", proto, code, errOut)
		}
		if err := ansi.Validate([]byte(out)); err != nil {
			t.Errorf("%s: %v", proto, err)
		}
		if n := strings.Count(out, marker); n != 1 {
			t.Errorf("%s: %d images in the output, want 1:\n%q", proto, n, out)
		}
		if strings.ContainsAny(errOut, "\x1b\x07\u009b") || strings.Contains(out, hostileName) {
			t.Errorf("%s: an escape payload from a file name got through: %q", proto, errOut)
		}
		if !strings.Contains(errOut, "was not drawn") {
			t.Errorf("%s: no diagnostic for the missing files: %q", proto, errOut)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the server was asked %d times", hits.Load())
	}
	_, errOut, code := renderCLI(t, "", "--images", "sixel", filepath.Join(dir, "note.mk.md"))
	if code != ExitUsage || !strings.Contains(errOut, "--images must be one of off, blocks, kitty, iterm") {
		t.Errorf("--images sixel: code %d, %q", code, errOut)
	}
}
