package goldens

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/procmem"
)

// badInput is one hostile or absurd note for `markii render`.
type badInput struct {
	Name string
	// Make writes the input into path.
	Make func(t *testing.T, path string)
	// Long marks inputs skipped under -short.
	Long bool
	// Binary marks inputs that are not text: markii refuses them with
	// "PATH looks like a binary file" and exit 1.
	Binary bool
}

// writeFile writes data to path or fails the test.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// nested builds n copies of prefix followed by tail and a line feed.
func nested(prefix string, n int, tail string) []byte {
	return []byte(strings.Repeat(prefix, n) + tail + "\n")
}

var badInputs = []badInput{
	{Name: "random binary", Binary: true, Make: func(t *testing.T, path string) {
		rng := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		writeFile(t, path, b)
	}},
	{Name: "an executable", Binary: true, Make: func(t *testing.T, path string) {
		b, err := os.ReadFile(markiiBinary(t))
		if err != nil {
			t.Fatal(err)
		}
		// Its first 8 MiB: the whole binary may be over the note size
		// limit, which is refused before any byte is read.
		writeFile(t, path, b[:min(len(b), 8<<20)])
	}},
	{Name: "invalid UTF-8", Binary: true, Make: func(t *testing.T, path string) {
		var b bytes.Buffer
		for i := 0; i < 2000; i++ {
			b.WriteString("# head\xff\xfe\n\ntext \xc3\x28 \xe2\x82 \xf0\x9f\x98 \xed\xa0\x80 surrogate \xc0\xaf overlong *\x80em\x9b* `\xfe`\n\n")
			b.WriteString("| a\xff | b |\n|---|---|\n| \x9b | \xc3 |\n\n:::callout{title=\"\xff\"}\n\xfe\n:::\n\n")
		}
		writeFile(t, path, b.Bytes())
	}},
	{Name: "NUL bytes", Binary: true, Make: func(t *testing.T, path string) {
		writeFile(t, path, bytes.Repeat([]byte("text\x00\x00 more\x00\n\n# \x00\n\n"), 10000))
	}},
	{Name: "10000-deep quotes", Make: func(t *testing.T, path string) {
		writeFile(t, path, nested("> ", 10000, "deep"))
	}},
	{Name: "2000-deep quotes growing line by line", Make: func(t *testing.T, path string) {
		// Each line one level deeper: 10000 levels would be a 50 MB file,
		// which the size cap refuses before parsing.
		var b bytes.Buffer
		for i := 1; i <= 2000; i++ {
			b.WriteString(strings.Repeat(">", i))
			b.WriteString(" level\n")
		}
		writeFile(t, path, b.Bytes())
	}},
	{Name: "10000-deep bullet lists", Make: func(t *testing.T, path string) {
		writeFile(t, path, nested("- ", 10000, "deep"))
	}},
	{Name: "10000-deep ordered lists", Make: func(t *testing.T, path string) {
		writeFile(t, path, nested("1. ", 10000, "deep"))
	}},
	{Name: "2000-deep indented lists", Make: func(t *testing.T, path string) {
		// Indentation grows quadratically; the one-line form above reaches
		// 10000 levels.
		var b bytes.Buffer
		for i := 0; i < 2000; i++ {
			b.WriteString(strings.Repeat("  ", i))
			b.WriteString("- item\n")
		}
		writeFile(t, path, b.Bytes())
	}},
	{Name: "10000-deep containers", Make: func(t *testing.T, path string) {
		var b bytes.Buffer
		for i := 0; i < 10000; i++ {
			b.WriteString(":::card{title=x}\n")
		}
		b.WriteString("deep\n")
		writeFile(t, path, b.Bytes())
	}},
	{Name: "2000-deep growing containers", Make: func(t *testing.T, path string) {
		// Properly grown nesting: the outer fence is the longest, so the
		// file grows quadratically; 2000 levels is 4 MB.
		const depth = 2000
		var b bytes.Buffer
		for i := 0; i < depth; i++ {
			b.WriteString(strings.Repeat(":", depth+3-i))
			b.WriteString("callout\n")
		}
		b.WriteString("deep\n")
		for i := depth - 1; i >= 0; i-- {
			b.WriteString(strings.Repeat(":", depth+3-i))
			b.WriteString("\n")
		}
		writeFile(t, path, b.Bytes())
	}},
	{Name: "10000-deep inline directives", Make: func(t *testing.T, path string) {
		writeFile(t, path, []byte(strings.Repeat(":badge[", 10000)+"x"+strings.Repeat("]", 10000)+"\n"))
	}},
	{Name: "10000-deep emphasis and links", Make: func(t *testing.T, path string) {
		s := strings.Repeat("*a ", 10000) + strings.Repeat(" b*", 10000) + "\n\n" +
			strings.Repeat("[", 10000) + "x" + strings.Repeat("](u)", 10000) + "\n\n" +
			strings.Repeat("~~", 5000) + "s" + strings.Repeat("~~", 5000) + "\n"
		writeFile(t, path, []byte(s))
	}},
	{Name: "10000 unclosed brackets and braces", Make: func(t *testing.T, path string) {
		s := strings.Repeat(":a[", 10000) + "\n\n" + strings.Repeat("::b{k=", 5000) + "\n\n" + strings.Repeat("`", 10000) + "\n"
		writeFile(t, path, []byte(s))
	}},
	{Name: "10 MB single line", Make: func(t *testing.T, path string) {
		words := []string{"lorem", "**ipsum**", "dolor", "`sit`", "[amet](https://example.com)", "consectetur", "日本語", "👩‍💻"}
		var b bytes.Buffer
		for i := 0; b.Len() < 10<<20; i++ {
			b.WriteString(words[i%len(words)])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
		writeFile(t, path, b.Bytes())
	}},
	{Name: "10 MB word without spaces", Make: func(t *testing.T, path string) {
		writeFile(t, path, append(bytes.Repeat([]byte("abcdefghij"), 1<<20), '\n'))
	}},
	{Name: "a 20000-column table", Make: func(t *testing.T, path string) {
		s := strings.Repeat("| h ", 20000) + "|\n" + strings.Repeat("|---", 20000) + "|\n" + strings.Repeat("| c ", 20000) + "|\n"
		writeFile(t, path, []byte(s))
	}},
	{Name: "100 MB note", Long: true, Make: func(t *testing.T, path string) {
		writeFile(t, path, bigNote(100<<20))
	}},
}

// bigNote builds realistic markdown of about size bytes.
func bigNote(size int) []byte {
	const section = `## Section heading

A paragraph with *emphasis*, **strong text**, ` + "`inline code`" + ` and a
[link](https://example.com/docs/page) that wraps over several lines of
ordinary prose to give the layout a realistic amount of work to do.

- a list item
- another item with ` + "`code`" + `
  - a nested item

| Name | Value | Notes |
|------|------:|-------|
| alpha | 1 | first |
| beta | 22 | second |

> A quote with a sentence in it.

` + "```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n"
	var b bytes.Buffer
	b.Grow(size + len(section))
	for b.Len() < size {
		b.WriteString(section)
	}
	return b.Bytes()
}

// TestBadInput runs `markii render` on each bad input: it must finish in
// bounded time and memory and either print valid output and exit 0, or
// print a one-line error and exit 1; never a panic or a Go stack trace.
// What is not text must be refused as a binary file.
func TestBadInput(t *testing.T) {
	bin := markiiBinary(t)
	dir := t.TempDir()
	env := baseEnv()
	for _, in := range badInputs {
		t.Run(in.Name, func(t *testing.T) {
			if in.Long && testing.Short() {
				t.Skip("long input; run without -short")
			}
			path := filepath.Join(dir, strings.ReplaceAll(in.Name, " ", "-")+".mk.md")
			in.Make(t, path)
			defer os.Remove(path)
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			size := info.Size()
			colors := []string{"truecolor", "never"}
			if size > 4<<20 {
				colors = colors[:1] // big inputs once, to keep the suite fast
			}
			for _, color := range colors {
				res := runBounded(t, bin, []string{"render", "--width", "80", "--color", color, path}, env)
				checkBadInputResult(t, color, size, res)
				if want := "markii: " + path + " looks like a binary file\n"; in.Binary && (res.code != 1 || res.stderr != want) {
					t.Errorf("--color %s: exit %d, stderr %q; want exit 1 and %q", color, res.code, res.stderr, want)
				}
			}
		})
	}
}

// boundedResult is what a bounded run of the binary produced.
type boundedResult struct {
	stdout  []byte
	stderr  string
	code    int
	elapsed time.Duration
	maxRSS  int64 // bytes
	killed  bool
}

// badInputTimeout is the wall-clock bound of one render of a bad input.
const badInputTimeout = 60 * time.Second

// runBounded runs the binary with a wall-clock limit and reports its peak
// resident memory, read from the kernel's high-water mark (VmHWM) while it
// runs.
func runBounded(t *testing.T, bin string, args, env []string) boundedResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), badInputTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("could not run markii: %v", err)
	}
	done := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		var hwm int64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			if b, err := procmem.Peak(cmd.Process.Pid); err == nil && b > hwm {
				hwm = b
			}
			select {
			case <-done:
				peak <- hwm
				return
			case <-tick.C:
			}
		}
	}()
	_ = cmd.Wait()
	close(done)
	res := boundedResult{stdout: out.Bytes(), stderr: errb.String(), elapsed: time.Since(start)}
	res.maxRSS = <-peak
	res.code = cmd.ProcessState.ExitCode()
	res.killed = ctx.Err() != nil
	return res
}

// memoryBound is the peak RSS a render may use: a fixed allowance plus a
// multiple of the input and of the output (deep nesting can make the
// output much larger than the input, and the render holds it whole).
func memoryBound(in, out int64) int64 { return 256<<20 + 40*in + 32*out }

func checkBadInputResult(t *testing.T, color string, size int64, res boundedResult) {
	t.Helper()
	label := fmt.Sprintf("--color %s", color)
	t.Logf("%s: %d bytes in, %d bytes out, exit %d, %v, peak RSS %d MB", label, size, len(res.stdout), res.code, res.elapsed.Round(time.Millisecond), res.maxRSS>>20)
	if res.killed {
		t.Fatalf("%s: still running after %v", label, badInputTimeout)
	}
	if bound := memoryBound(size, int64(len(res.stdout))); res.maxRSS > bound {
		t.Errorf("%s: peak RSS %d MB exceeds the bound of %d MB", label, res.maxRSS>>20, bound>>20)
	}
	for _, bad := range []string{"panic:", "goroutine ", "runtime.", ".go:"} {
		if strings.Contains(res.stderr, bad) {
			t.Fatalf("%s: stderr looks like a Go crash (%q):\n%.2000s", label, bad, res.stderr)
		}
	}
	switch res.code {
	case 0:
		if err := ansi.Validate(res.stdout); err != nil {
			t.Errorf("%s: output fails ansi.Validate: %v", label, err)
		}
		if len(res.stdout) == 0 && size > 0 {
			t.Errorf("%s: exit 0 with no output for a non-empty note", label)
		}
	case 1:
		msg := strings.TrimSuffix(res.stderr, "\n")
		if msg == "" || strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "markii: ") {
			t.Errorf("%s: exit 1 wants one line `markii: …` on stderr, got %q", label, res.stderr)
		}
	default:
		t.Errorf("%s: exit %d (stderr %.500q)", label, res.code, res.stderr)
	}
}
