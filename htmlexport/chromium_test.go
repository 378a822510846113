package htmlexport

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/markii/markii/internal/needs"
	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
)

// chromium runs headless Chromium on the page at path with args.
func chromium(t *testing.T, path string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=900,1400",
	}
	cmd := exec.CommandContext(ctx, needs.Chromium(t), append(append(base, args...), "file://"+path)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}

// TestChromiumDrawsAndRunsNothing opens an exported hostile note in real
// headless Chromium: the page draws (a screenshot with more than one
// color, the note's text in the DOM), no script changed the document,
// and nothing was fetched from a server the note names.
func TestChromiumDrawsAndRunsNothing(t *testing.T) {
	needs.Chromium(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	note := hostile + "\n![tracker](" + srv.URL + "/pixel.png)\n\n" +
		":::figure{src=\"" + srv.URL + "/figure.png\"}\nRemote.\n:::\n\n" +
		"Last paragraph MARKII-END.\n"
	res := Render(render.Parse([]byte(note)), Options{
		Theme:  theme.Dark,
		Images: map[string][]byte{"pic.png": pngOf(t)},
	})
	page := filepath.Join(t.TempDir(), "note.html")
	if err := os.WriteFile(page, res.HTML, 0o644); err != nil {
		t.Fatal(err)
	}

	dom := string(chromium(t, page, "--dump-dom"))
	for _, want := range []string{"In a card.", "MARKII-END", `<aside class="callout warning" role="note">`} {
		if !strings.Contains(dom, want) {
			t.Errorf("Chromium's DOM lacks %q", want)
		}
	}
	if strings.Contains(strings.ToLower(dom), "<script") {
		t.Error("Chromium's DOM has a script element")
	}

	shot := filepath.Join(t.TempDir(), "shot.png")
	chromium(t, page, "--screenshot="+shot, "--hide-scrollbars")
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	colors := map[[4]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[[4]uint32{r, g, bl, a}] = true
		}
	}
	if len(colors) < 4 {
		t.Errorf("the screenshot has %d colors (first %v): nothing was drawn", len(colors), first)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("Chromium fetched %d times from the server the note names", n)
	}
}
