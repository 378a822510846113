//go:build unix

package cli

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/markii/markii/ansi"
)

// hostileNote is a note whose source carries control characters that
// md-plain keeps byte for byte in a file.
const hostileNote = "# Title\x1b]0;owned\x07\r\n\r\n\tindented code\x1b[2J\n\nText \u009b31m and \x7f.\n"

// sanitizedHostileNote is hostileNote as md-plain writes it where a
// terminal may show it: tabs and line feeds kept, CRLF made LF, every other
// control character gone.
const sanitizedHostileNote = "# Title]0;owned\n\n\tindented code[2J\n\nText 31m and .\n"

// writeExportNote writes a note into dir and returns its path.
func writeExportNote(t *testing.T, dir, src string) string {
	t.Helper()
	path := filepath.Join(dir, "n.mk.md")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestExportThroughSymlinkWritesTheTarget(t *testing.T) {
	dir := t.TempDir()
	note := writeExportNote(t, dir, "# Title\n")
	target := filepath.Join(dir, "real.md")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink("real.md", link); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", link); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	li, err := os.Lstat(link)
	if err != nil || li.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("the symbolic link was replaced: %v %v", li.Mode(), err)
	}
	got, _ := os.ReadFile(target)
	info, _ := os.Stat(target)
	if string(got) != "# Title\n" || info.Mode().Perm() != 0o640 {
		t.Errorf("target holds %q with mode %v, want the export with mode 0640", got, info.Mode().Perm())
	}

	// A link to nothing is refused, and nothing is created.
	dangling := filepath.Join(dir, "dangling.md")
	if err := os.Symlink("missing/file.md", dangling); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", dangling)
	if code != ExitFailure || !strings.Contains(stderr, "symbolic link to a file that does not exist") {
		t.Errorf("dangling link: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("the dangling link's target was created")
	}
}

func TestExportToTheInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	note := writeExportNote(t, dir, "# Keep me\n\n:::card\nbody\n:::\n")
	link := filepath.Join(dir, "alias.md")
	if err := os.Symlink(note, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.md")
	if err := os.Link(note, hard); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{note, link, hard, filepath.Join(dir, ".", "n.mk.md")} {
		for _, format := range []string{"md-plain", "ansi"} {
			_, stderr, code := runCLI(t, "export", note, "--format", format, "-o", out)
			if code != ExitFailure || !strings.Contains(stderr, "is the note itself") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("-o %s: exit %d, %q; want exit 1, refused", out, code, stderr)
			}
		}
	}
	if got, _ := os.ReadFile(note); string(got) != "# Keep me\n\n:::card\nbody\n:::\n" {
		t.Fatalf("the note was overwritten: %q", got)
	}
}

func TestExportToStdoutIsSanitized(t *testing.T) {
	dir := t.TempDir()
	note := writeExportNote(t, dir, hostileNote)
	stdout, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", "-")
	if code != ExitOK || stderr != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if want := sanitizedHostileNote; stdout != want {
		t.Errorf("md-plain to stdout = %q, want %q", stdout, want)
	}
	// In a file the note is kept byte for byte.
	out := filepath.Join(dir, "plain.md")
	if _, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", out); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); !bytes.Contains(got, []byte("\x1b]0;owned\x07")) {
		t.Errorf("md-plain to a file lost the source's bytes: %q", got)
	}
	// The ansi form to stdout is the render: only its own SGR.
	stdout, _, code = runCLI(t, "export", note, "--format", "ansi", "-o", "-")
	if err := ansi.Validate([]byte(stdout)); code != ExitOK || err != nil || !strings.Contains(stdout, "\x1b[") {
		t.Errorf("ansi to stdout: exit %d, %v, %q", code, err, stdout)
	}
}

func TestExportToAPipeWritesInPlace(t *testing.T) {
	dir := t.TempDir()
	// Longer than a pipe's buffer, so the writer has to wait for the reader.
	note := writeExportNote(t, dir, strings.Repeat(hostileNote, 4000))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}

	// Nobody reading: refused at once, not a hang.
	start := time.Now()
	_, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", fifo)
	if code != ExitFailure || !strings.Contains(stderr, "no process is reading") || time.Since(start) > 5*time.Second {
		t.Fatalf("pipe without a reader: exit %d, %q after %v", code, stderr, time.Since(start))
	}

	got := make(chan []byte)
	go func() {
		r, err := os.Open(fifo) // waits for the writer
		if err != nil {
			got <- nil
			return
		}
		defer r.Close()
		var b bytes.Buffer
		for {
			// A slow reader: the writer must wait, never fail or drop.
			n, err := io.CopyN(&b, r, 4096)
			if err != nil || n == 0 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		got <- b.Bytes()
	}()
	var out []byte
	for deadline := time.Now().Add(10 * time.Second); ; {
		_, stderr, code = runCLI(t, "export", note, "--format", "md-plain", "-o", fifo)
		if code == ExitOK || !strings.Contains(stderr, "no process is reading") || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond) // the reader has not opened it yet
	}
	if code != ExitOK {
		t.Fatalf("export to a pipe: exit %d, %q", code, stderr)
	}
	out = <-got
	if want := strings.Repeat(sanitizedHostileNote, 4000); string(out) != want {
		t.Errorf("the pipe got %d bytes, want the sanitized %d", len(out), len(want))
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v %v", info.Mode(), err)
	}
}

func TestExportFileModes(t *testing.T) {
	dir := t.TempDir()
	note := writeExportNote(t, dir, "# Title\n")
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)

	fresh := filepath.Join(dir, "fresh.md")
	if _, stderr, code := runCLI(t, "export", note, "--format", "md-plain", "-o", fresh); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, _ := os.Stat(fresh); info.Mode().Perm() != 0o640 {
		t.Errorf("a new file under umask 027 has mode %v, want 0640", info.Mode().Perm())
	}

	kept := filepath.Join(dir, "kept.md")
	if err := os.WriteFile(kept, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kept, 0o664); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "export", note, "--format", "ansi", "-o", kept); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if info, _ := os.Stat(kept); info.Mode().Perm() != 0o664 {
		t.Errorf("a replaced file has mode %v, want its own 0664", info.Mode().Perm())
	}

	// A directory is refused; it is not replaced.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "export", note, "--format", "ansi", "-o", sub); code != ExitFailure || !strings.Contains(stderr, "it is a directory") {
		t.Errorf("-o a directory: exit %d, %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
