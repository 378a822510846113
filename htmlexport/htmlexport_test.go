package htmlexport

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/markii/markii/render"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// hostile is a note full of what a stranger might write to make an
// exported page run or fetch something.
const hostile = "# Title <script>alert(1)</script>\n\n" +
	"<script>alert(2)</script>\n\n<img src=x onerror=alert(3)>\n\n" +
	"Text &#27;[31mred &#x9b;2J and <b onclick=\"x()\">bold</b> <iframe src=\"https://evil.example/\"></iframe>.\n\n" +
	"[js](javascript:alert(4)) [JS](JaVaScRiPt:alert(5)) [data](data:text/html,<script>x</script>) [vb](vbscript:x) [rel](../secret.md)\n\n" +
	"[ok](https://example.com/a?b=\"c\"&d=<e>) <https://example.com/auto> [mail](mailto:a@example.com)\n\n" +
	"![x\" onerror=\"alert(6)](https://evil.example/track.png) ![local](pic.png) ![fake](fake.png)\n\n" +
	":::callout{type=\"warning\" title='\" onmouseover=\"alert(7)'}\nBody <style>*{}</style>\n:::\n\n" +
	":::card{title=\"</header><script>alert(8)</script>\"}\nIn a card.\n:::\n\n" +
	":::details{title=\"<svg onload=alert(9)>\"}\nHidden.\n:::\n\n" +
	":::tabs\n:::tab{label=\"' onfocus='alert(10)\"}\nOne.\n:::\n:::\n\n" +
	":::figure{src=\"javascript:alert(11)\" alt=\"a\"}\nCaption.\n:::\n\n" +
	":::figure{src=\"pic.png\" alt='\"><script>alert(12)</script>'}\nA picture.\n:::\n\n" +
	"::stat{label=\"<script>alert(13)</script>\" value=\"1\"}\n\n" +
	"::unknown-thing{x=\"javascript:alert(14)\"}\n\n" +
	"Badge :badge[<script>]{variant=\"danger onclick=x\"} and :kbd[Ctrl] and :value[repo.stars].\n\n" +
	"```html\n<script>alert(15)</script>\n```\n\n" +
	"| a <script> | b |\n|---|:-:|\n| [x](javascript:y) | ok |\n\n" +
	"Notes[^<script>] and[^\" onclick=\"x].\n\n[^<script>]: <script>alert(16)</script> [x](javascript:z)\n\n" +
	"[^\" onclick=\"x]: <img src=x onerror=alert(17)>\n\n" +
	"<details open ontoggle=\"alert(18)\"><summary onclick=\"alert(19)\">HTML <b>summary</b></summary>\n\n" +
	"<p align=\"center\" onmouseover=\"alert(20)\"><a href=\"javascript:alert(21)\">html js</a> <a href=\" JAVASCRIPT:alert(22)\">spaced</a>" +
	" <img src=\"javascript:alert(23)\" alt=\"x\"> <a href=\"data:text/html,<script>alert(24)</script>\">data</a></p>\n\n" +
	"<table><tr><th style=\"x\" onclick=\"alert(25)\">th</th></tr><tr><td><object data=\"x\">obj</object><embed src=x></td></tr></table>\n\n" +
	"<template><script>alert(26)</script></template><svg><script>alert(27)</script></svg>\n\n</details>\n"

func pngOf(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.NRGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func exportHostile(t *testing.T) Result {
	t.Helper()
	return Render(render.Parse([]byte(hostile)), Options{
		Theme:  theme.Dark,
		Now:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Images: map[string][]byte{"pic.png": pngOf(t), "fake.png": []byte("<svg onload=alert(1)>")},
	})
}

// inertProblems tokenizes page with Go's HTML tokenizer and lists what
// could run or fetch: script or embedding elements, event-handler or
// style attributes, a javascript: anywhere in an attribute, links with a
// scheme other than http, https, mailto and tel, images other than
// data:image/.
func inertProblems(page []byte) (problems []string, tags map[string]int) {
	tags = map[string]int{}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				problems = append(problems, "tokenizer: "+z.Err().Error())
			}
			return problems, tags
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		tags[tok.Data]++
		switch tok.Data {
		case "script", "iframe", "object", "embed", "link", "base", "form", "input", "button", "svg", "math", "frame", "frameset", "applet", "audio", "video", "source", "template":
			problems = append(problems, "element <"+tok.Data+">")
		case "meta":
			for _, a := range tok.Attr {
				if a.Key == "http-equiv" && !strings.EqualFold(a.Val, "Content-Security-Policy") {
					problems = append(problems, "meta http-equiv="+a.Val)
				}
			}
		}
		for _, a := range tok.Attr {
			key, val := strings.ToLower(a.Key), strings.ToLower(a.Val)
			switch {
			case strings.HasPrefix(key, "on"):
				problems = append(problems, "event attribute "+a.Key+" on <"+tok.Data+">")
			case key == "style", key == "srcset", key == "formaction", key == "action", key == "xlink:href", key == "background", key == "poster":
				problems = append(problems, "attribute "+a.Key+" on <"+tok.Data+">")
			case strings.Contains(val, "javascript:") || strings.Contains(val, "vbscript:"):
				problems = append(problems, "script URL in "+a.Key+" on <"+tok.Data+">")
			case key == "href":
				if !(strings.HasPrefix(val, "http://") || strings.HasPrefix(val, "https://") || strings.HasPrefix(val, "mailto:") || strings.HasPrefix(val, "tel:") || strings.HasPrefix(val, "#")) {
					problems = append(problems, "link to "+a.Val)
				}
			case key == "src":
				if tok.Data != "img" || !strings.HasPrefix(val, "data:image/png;base64,") && !strings.HasPrefix(val, "data:image/jpeg;base64,") && !strings.HasPrefix(val, "data:image/gif;base64,") {
					problems = append(problems, "source "+a.Val+" on <"+tok.Data+">")
				}
			}
		}
	}
}

func TestExportIsInert(t *testing.T) {
	res := exportHostile(t)
	page := res.HTML
	problems, tags := inertProblems(page)
	for _, p := range problems {
		t.Error(p)
	}
	// A payload may show as text (escaped); it never reaches markup.
	if lower := bytes.ToLower(page); bytes.Contains(lower, []byte("<script")) || bytes.Contains(lower, []byte(`="javascript:`)) {
		t.Error("the page's bytes contain <script or an attribute starting javascript:")
	}
	for _, b := range page {
		if b < 0x20 && b != '\n' || b == 0x7f {
			t.Fatalf("control byte %#x in the page", b)
		}
	}
	if bytes.Contains(page, []byte("\u009b")) {
		t.Error("a C1 control reached the page")
	}
	if tags["img"] != 2 {
		t.Errorf("%d images embedded, want 2 (the local PNG as an image and as a figure)", tags["img"])
	}
	for _, want := range []string{
		`<a href="https://example.com/a?b=&#34;c&#34;&amp;d=&lt;e&gt;"`,
		`<a href="mailto:a@example.com"`,
		`<aside class="callout warning" role="note">`,
		`<details open><summary>&lt;svg onload=alert(9)&gt;</summary>`,
		`<p class="tab-label">&#39; onfocus=&#39;alert(10)</p>`,
		`<kbd>Ctrl</kbd>`,
		`<details open><summary>HTML summary</summary>`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !strings.Contains(strings.Join(res.Diagnostics, "\n"), "fake.png was not embedded") {
		t.Errorf("no diagnostic for the fake image: %q", res.Diagnostics)
	}
}

// TestPolicyAllowsOnlyTheStyleSheet checks the page's one
// Content-Security-Policy forbids scripts and fetches and names the hash
// of the page's own style sheet.
func TestPolicyAllowsOnlyTheStyleSheet(t *testing.T) {
	page := exportHostile(t).HTML
	z := html.NewTokenizer(bytes.NewReader(page))
	var policies []string
	var sheet string
	inStyle := false
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		tok := z.Token()
		switch {
		case tt == html.StartTagToken && tok.Data == "meta":
			var equiv, content string
			for _, a := range tok.Attr {
				switch a.Key {
				case "http-equiv":
					equiv = a.Val
				case "content":
					content = a.Val
				}
			}
			if equiv == "Content-Security-Policy" {
				policies = append(policies, content)
			}
		case tt == html.StartTagToken && tok.Data == "style":
			inStyle = true
		case tt == html.TextToken && inStyle:
			sheet += tok.Data
		case tt == html.EndTagToken && tok.Data == "style":
			inStyle = false
		}
	}
	if len(policies) != 1 {
		t.Fatalf("%d policies, want 1", len(policies))
	}
	sum := sha256.Sum256([]byte(sheet))
	if want := Policy(base64.StdEncoding.EncodeToString(sum[:])); policies[0] != want {
		t.Fatalf("policy %q, want %q", policies[0], want)
	}
	for _, part := range []string{"default-src 'none'", "img-src data:", "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(policies[0], part) {
			t.Errorf("policy lacks %s", part)
		}
	}
	if strings.Contains(policies[0], "unsafe") || strings.Contains(policies[0], "script-src") {
		t.Errorf("policy loosens scripts or styles: %s", policies[0])
	}
	if i, j := bytes.Index(page, []byte("Content-Security-Policy")), bytes.Index(page, []byte("<style>")); i < 0 || j < i {
		t.Error("the policy does not come before the style sheet")
	}
}

// TestExportDrawsMarkdownAndComponents checks the semantic elements of
// an ordinary note and that stored values show as the terminal shows them.
func TestExportDrawsMarkdownAndComponents(t *testing.T) {
	src := "# Report\n\nSome *em* **strong** ~~gone~~ `code`.\n\n" +
		"- [x] done\n- [ ] todo\n\n3. three\n4. four\n\n> quoted\n\n---\n\n" +
		"```go\nfunc main() {}\n```\n\n" +
		":::row\n:::cell\nLeft.\n:::\n:::cell\nRight.\n:::\n:::\n\n" +
		"Stars: :value[repo.stars]\n\n::divider\n\n## Report\n\n> [!TIP]\n> An alert.\n\n" +
		"Noted[^a], noted again[^a], and[^b].\n\n[^b]: Bee.\n\n[^a]: Ay.\n\n## fn 1\n"
	values := value.Values{"repo": {Status: value.Fresh, Value: []byte(`{"stars": 42}`)}}
	page := string(Render(render.Parse([]byte(src)), Options{Theme: theme.Light, Values: values}).HTML)
	for _, want := range []string{
		"<title>Report</title>",
		`<h1 id="report">Report</h1>`, `<h2 id="report-1">Report</h2>`,
		"<em>em</em> <strong>strong</strong> <del>gone</del> <code>code</code>",
		`<li class="task"><span class="check" role="img" aria-label="done">☑</span> done`,
		`<ol start="3">`, "<blockquote>", "<hr>",
		`<pre class="code" data-lang="go"><code><span class="tk-keyword">func</span>`,
		`<div class="row"><div class="cell">`,
		`<hr class="divider">`,
		"42",
		"background:#ffffff",
		`<aside class="callout success" role="note"><p class="callout-head">✓ Tip</p><p>An alert.</p>`,
		`Noted<sup><a href="#fn:1" id="fnref:1">[1]</a></sup>, noted again<sup><a href="#fn:1">[1]</a></sup>, and<sup><a href="#fn:2" id="fnref:2">[2]</a></sup>.`,
		`<h2 id="fn-1">fn 1</h2>`,
		"<section class=\"footnotes\"><hr>\n<ol>\n<li id=\"fn:1\"><p>Ay.</p>\n<a href=\"#fnref:1\" aria-label=\"back to reference 1\">↩</a></li>\n<li id=\"fn:2\"><p>Bee.</p>\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if problems, _ := inertProblems([]byte(page)); len(problems) > 0 {
		t.Errorf("problems: %q", problems)
	}
}

func TestImageCaps(t *testing.T) {
	big := append(pngOf(t), make([]byte, MaxImageBytes)...)
	res := Render(render.Parse([]byte("![a](big.png)\n")), Options{Images: map[string][]byte{"big.png": big}})
	if bytes.Contains(res.HTML, []byte("<img")) || !strings.Contains(strings.Join(res.Diagnostics, ""), "over the 2 MiB limit") {
		t.Errorf("an image over the cap was embedded or not reported: %q", res.Diagnostics)
	}
	one := append(pngOf(t), make([]byte, MaxImageBytes-1000)...)
	var src strings.Builder
	images := map[string][]byte{}
	for _, name := range []string{"a.png", "b.png", "c.png", "d.png", "e.png"} {
		src.WriteString("![x](" + name + ")\n\n")
		images[name] = one
	}
	res = Render(render.Parse([]byte(src.String())), Options{Images: images})
	if n := bytes.Count(res.HTML, []byte("<img")); n != 4 {
		t.Errorf("%d images embedded, want 4 within the page cap", n)
	}
}

func TestHref(t *testing.T) {
	for in, want := range map[string]string{
		"https://a.example/": "https://a.example/", "HTTP://a": "HTTP://a", "mailto:x@y": "mailto:x@y", "tel:+1": "tel:+1",
		"#sec": "#sec", "javascript:x": "", " javascript:x": "", "data:text/html,x": "", "file:///etc/passwd": "",
		"rel/path.md": "", "//evil.example/": "", "java\x00script:x": "",
	} {
		if got := Href(in); got != want {
			t.Errorf("Href(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestExportShowsInvisibleCharacters: a link's visible text (an autolink's
// address included) shows a bidi override and a zero-width space as
// visible escapes, and the href carries them percent-encoded, never raw.
func TestExportShowsInvisibleCharacters(t *testing.T) {
	src := "See [pay\u202eLIVE](https://bank.example/\u202efdp.exe) and <https://exa\u200bmple.com/>.\n"
	page := string(Render(render.Parse([]byte(src)), Options{}).HTML)
	if strings.ContainsAny(page, "\u202e\u200b") {
		t.Fatalf("a raw invisible character in the page:\n%s", page)
	}
	for _, want := range []string{"pay⟨U+202E⟩LIVE", "exa⟨U+200B⟩mple.com", `href="https://bank.example/%E2%80%AEfdp.exe"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("%q missing from\n%s", want, page)
		}
	}
}
