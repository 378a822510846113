package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/markii/markii/internal/golden"
	"github.com/markii/markii/render/directive"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// specExample is one example of the CommonMark spec or of goldmark's GFM
// and regression test files.
type specExample struct {
	Name     string // e.g. "commonmark/281" or "gfm-table/4"
	Markdown string
}

var (
	specOnce     sync.Once
	specCases    []specExample
	specCasesErr error
)

// specExamples reads the CommonMark spec examples and the GFM extension
// examples that ship with the goldmark module markii builds with, from
// the module cache: markii depends on goldmark and does not carry its
// test data.
func specExamples(t testing.TB) []specExample {
	t.Helper()
	specOnce.Do(func() { specCases, specCasesErr = loadSpecExamples() })
	if specCasesErr != nil {
		t.Fatalf("reading goldmark's spec examples: %v", specCasesErr)
	}
	return specCases
}

func loadSpecExamples() ([]specExample, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m github.com/yuin/goldmark: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	spec, err := os.ReadFile(filepath.Join(dir, "_test", "spec.json"))
	if err != nil {
		return nil, err
	}
	var cm []struct {
		Markdown string `json:"markdown"`
		Example  int    `json:"example"`
	}
	if err := json.Unmarshal(spec, &cm); err != nil {
		return nil, err
	}
	var cases []specExample
	for _, c := range cm {
		cases = append(cases, specExample{Name: "commonmark/" + strconv.Itoa(c.Example), Markdown: c.Markdown})
	}
	for _, f := range []struct{ name, path string }{
		{"goldmark-extra", filepath.Join(dir, "_test", "extra.txt")},
		{"gfm-table", filepath.Join(dir, "extension", "_test", "table.txt")},
		{"gfm-strikethrough", filepath.Join(dir, "extension", "_test", "strikethrough.txt")},
		{"gfm-tasklist", filepath.Join(dir, "extension", "_test", "tasklist.txt")},
		{"gfm-linkify", filepath.Join(dir, "extension", "_test", "linkify.txt")},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return nil, err
		}
		cs, err := parseCaseFile(f.name, string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.path, err)
		}
		cases = append(cases, cs...)
	}
	return cases, nil
}

// parseCaseFile reads goldmark's test case format: a header line with the
// case number, an optional OPTIONS line, the markdown between two
// attribute separators, and the expected HTML up to the case separator.
func parseCaseFile(name, s string) ([]specExample, error) {
	const attrSep = "//- - - - - - - - -//"
	const caseSep = "//= = = = = = = = = = = = = = = = = = = = = = = =//"
	var cases []specExample
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r") // as bufio.ScanLines reads them
	}
	for i := 0; i < len(lines); i++ {
		header := strings.TrimSpace(lines[i])
		if header == "" {
			continue
		}
		no, _, _ := strings.Cut(header, ":")
		if _, err := strconv.Atoi(strings.TrimSpace(no)); err != nil {
			return nil, fmt.Errorf("line %d: no case number in %q", i+1, header)
		}
		i++
		escape := false
		if i < len(lines) && strings.Contains(strings.ToUpper(lines[i]), "OPTIONS:") {
			escape = strings.Contains(strings.ToLower(lines[i]), `"enableescape": true`)
			i++
		}
		if i >= len(lines) || lines[i] != attrSep {
			return nil, fmt.Errorf("line %d: want %q", i+1, attrSep)
		}
		var md []string
		for i++; i < len(lines) && lines[i] != attrSep; i++ {
			md = append(md, lines[i])
		}
		for i < len(lines) && lines[i] != caseSep {
			i++
		}
		src := strings.Join(md, "\n")
		if escape {
			src = strings.NewReplacer(`\t`, "\t", `\r`, "\r", `\n`, "\n", `\v`, "\v", `\f`, "\f", `\\`, `\`).Replace(src)
		}
		cases = append(cases, specExample{Name: name + "/" + strings.TrimSpace(no), Markdown: src})
	}
	return cases, nil
}

// specGoldenPath holds markii's tree for every spec example, one line
// each: any change to what markii draws for standard markdown shows here.
const specGoldenPath = "testdata/spec-trees.golden"

// TestSpecExampleTrees compares markii's parse of every CommonMark and GFM
// example with the reviewed trees in testdata/spec-trees.golden.
func TestSpecExampleTrees(t *testing.T) {
	var b strings.Builder
	for _, c := range specExamples(t) {
		fmt.Fprintf(&b, "%s\t%s\n", c.Name, dump(Parse([]byte(c.Markdown))))
	}
	got := b.String()
	if golden.Update() {
		if err := os.WriteFile(specGoldenPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(specGoldenPath)
	if err != nil {
		t.Fatalf("%v (create it with go test ./render -run TestSpecExampleTrees -update)", err)
	}
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("%d examples, golden has %d", len(gotLines), len(wantLines))
	}
	bad := 0
	for i := range gotLines {
		if gotLines[i] != wantLines[i] {
			if bad++; bad <= 20 {
				t.Errorf("tree changed:\n got: %s\nwant: %s", gotLines[i], wantLines[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d example trees changed", bad, len(gotLines)-1)
	}
}

// markiiOnlySyntax lists the examples where markii's parser differs from
// goldmark's CommonMark + GFM on purpose, each with the reason.
var markiiOnlySyntax = map[string]string{
	"goldmark-extra/41": "`:x` is an inline directive without a label",
	"commonmark/590":    "`[[foo]]` is a wikilink",
}

// directiveHTML shows markii's directive nodes in the HTML comparison, so
// that text parsed as a directive differs from goldmark's parse.
type directiveHTML struct{}

func (directiveHTML) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	for _, k := range []ast.NodeKind{directive.KindContainer, directive.KindLeaf, directive.KindInline, (*mathSpan)(nil).Kind(), (*wikiSpan)(nil).Kind()} {
		r.Register(k, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering {
				fmt.Fprintf(w, "<%s>", n.Kind())
			} else {
				fmt.Fprintf(w, "</%s>", n.Kind())
			}
			return ast.WalkContinue, nil
		})
	}
}

// htmlComparison returns markii's goldmark parser, goldmark with its GFM
// extension, and a function that parses with either and renders the tree
// with goldmark's HTML renderer.
func htmlComparison() (markii parser.Parser, ref goldmark.Markdown, html func(parser.Parser, []byte) string) {
	markii = markdown()
	ref = goldmark.New(goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(directiveHTML{}, 1000))))
	html = func(p parser.Parser, src []byte) string {
		var buf bytes.Buffer
		doc := p.Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
		if err := ref.Renderer().Render(&buf, src, doc); err != nil {
			return "render error: " + err.Error()
		}
		return buf.String()
	}
	return markii, ref, html
}

// TestEmphasisParsesAsGoldmark compares markii's emphasis and
// strikethrough matching with goldmark's on random short paragraphs of
// delimiter runs, brackets, links, code and words.
func TestEmphasisParsesAsGoldmark(t *testing.T) {
	markii, ref, html := htmlComparison()
	pieces := []string{"*", "**", "***", "_", "__", "~", "~~", "~~~", "a", "b ", " ", "[", "]", "](u)", "![", "`", "\\*", "\n", ".", "(", ")", "*a*", "_b_"}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 30000; i++ {
		var b strings.Builder
		for n := 1 + rng.IntN(12); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := []byte(b.String())
		if bytes.Contains(src, []byte("[[")) {
			continue // a wikilink, markii's own syntax
		}
		if got, want := html(markii, src), html(ref.Parser(), src); got != want {
			t.Fatalf("%q:\n markii: %q\ngoldmark: %q", src, got, want)
		}
	}
}

// TestSpecExamplesParseAsGoldmark renders markii's goldmark parse of every
// example to HTML with goldmark's own renderer and compares it with
// goldmark's CommonMark + GFM parse: markii's parser extensions change
// nothing a standard note means.
func TestSpecExamplesParseAsGoldmark(t *testing.T) {
	markii, ref, html := htmlComparison()
	for _, c := range specExamples(t) {
		src := []byte(c.Markdown)
		got, want := html(markii, src), html(ref.Parser(), src)
		_, known := markiiOnlySyntax[c.Name]
		if got != want && !known {
			t.Errorf("%s: %q\n markii: %q\ngoldmark: %q", c.Name, c.Markdown, got, want)
		}
		if got == want && known {
			t.Errorf("%s is listed as markii-only syntax but parses as goldmark does", c.Name)
		}
	}
}
