package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDecodeNoteText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   string
		want string // "" with ok false: refused
		ok   bool
	}{
		{"plain UTF-8", "# Café", "# Café", true},
		{"empty", "", "", true},
		{"UTF-8 BOM dropped", "\xef\xbb\xbf# Café", "# Café", true},
		{"only a UTF-8 BOM", "\xef\xbb\xbf", "", true},
		{"UTF-16 LE", "\xff\xfe#\x00 \x00\xe9\x00", "# é", true},
		{"UTF-16 BE", "\xfe\xff\x00#\x00 \x00\xe9", "# é", true},
		{"UTF-16 LE surrogate pair", "\xff\xfe\x34\xd8\x1e\xdd", "𝄞", true},
		{"UTF-16 BE surrogate pair", "\xfe\xff\xd8\x34\xdd\x1e", "𝄞", true},
		{"UTF-16 odd length", "\xff\xfe#\x00 ", "", false},
		{"UTF-16 lone high surrogate at the end", "\xff\xfea\x00\x34\xd8", "", false},
		{"UTF-16 high surrogate then a letter", "\xff\xfe\x34\xd8a\x00", "", false},
		{"UTF-16 lone low surrogate", "\xff\xfe\x1e\xdda\x00", "", false},
		{"UTF-16 decoding to NUL", "\xff\xfea\x00\x00\x00", "", false},
		{"UTF-16 without a BOM is binary", "#\x00 \x00a\x00", "", false},
		{"NUL in UTF-8", "text\x00more", "", false},
		{"NUL after the BOM", "\xef\xbb\xbf\x00", "", false},
		{"malformed UTF-8", "caf\xe9", "", false},
		{"malformed UTF-8 after the sniffed window", strings.Repeat("a", 9000) + "\xff", "", false},
		{"NUL after the sniffed window is text", strings.Repeat("a", 8192) + "\x00", strings.Repeat("a", 8192) + "\x00", true},
		{"control characters are text", "a\x1b[31mb\x07", "a\x1b[31mb\x07", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := decodeNoteText([]byte(tc.in))
			if ok != tc.ok || string(got) != tc.want {
				t.Fatalf("decodeNoteText(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestBinaryNoteIsRefused(t *testing.T) {
	t.Parallel()
	env := newTestEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "photo.mk.md")
	if err := os.WriteFile(path, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"render", path},
		{"view", "--static", path},
		{"export", path, "--format", "md-plain", "-o", filepath.Join(dir, "out.md")},
		{"run", path},
	} {
		var out, errb bytes.Buffer
		code := Main(args, Stdio{Getenv: env.getenv, Out: &out, Err: &errb})
		if want := "markii: " + path + " looks like a binary file\n"; code != ExitFailure || errb.String() != want || out.Len() != 0 {
			t.Errorf("markii %s: exit %d, stdout %q, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, out.String(), errb.String(), want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.md")); err == nil {
		t.Errorf("export of a binary file wrote its output")
	}
	_, err := loadNote("-", strings.NewReader("\x00\x01\x02"))
	var errb bytes.Buffer
	if code := report(Stdio{Getenv: env.getenv, Err: &errb}, err); code != ExitFailure || errb.String() != "markii: stdin looks like a binary file\n" {
		t.Errorf("binary stdin: exit %d, %q", code, errb.String())
	}
}
