package cli

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/signature"
)

// signingKey writes a new private key of kind (ed25519, p256) to dir and
// returns its path and public key.
func signingKey(t *testing.T, dir, kind string) (string, ssh.PublicKey) {
	t.Helper()
	var priv crypto.Signer
	var err error
	if kind == "p256" {
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	} else {
		_, priv, err = ed25519.GenerateKey(rand.Reader)
	}
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "id_"+kind)
	if err := os.WriteFile(p, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	pub, _ := ssh.NewPublicKey(priv.Public())
	return p, pub
}

// trustKey writes the reader's allowed_signers with one line for pub.
func (e *testEnv) trustKey(t *testing.T, principal string, pub ssh.PublicKey) string {
	t.Helper()
	dir, err := config.Dir(runtime.GOOS, e.getenv)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o700)
	line := principal + " " + string(ssh.MarshalAuthorizedKey(pub))
	if err := os.WriteFile(filepath.Join(dir, signature.TrustFileName), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	return line
}

func (e *testEnv) run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, e.stdio(&out, &errb))
	return code, out.String(), errb.String()
}

const signedNoteText = "# Signed\n\n```lua name=one\nreturn 1\n```\n"

func TestSignVerifyRoundTrip(t *testing.T) {
	for _, kind := range []string{"ed25519", "p256"} {
		t.Run(kind, func(t *testing.T) {
			env := newTestEnv(t)
			dir := t.TempDir()
			key, pub := signingKey(t, dir, kind)
			note := filepath.Join(dir, "n.mk.md")
			os.WriteFile(note, []byte(signedNoteText), 0o644)
			if code, out, errs := env.run("sign", note, "--key", key); code != 0 || !strings.Contains(out, ssh.FingerprintSHA256(pub)) {
				t.Fatalf("sign: %d %q %q", code, out, errs)
			}
			if code, out, _ := env.run("verify", note); code != 1 || !strings.Contains(out, "unknown key") {
				t.Fatalf("verify without trust: %d %q", code, out)
			}
			env.trustKey(t, "alice@example.org", pub)
			if code, out, _ := env.run("verify", note); code != 0 || !strings.Contains(out, "signed by alice@example.org") {
				t.Fatalf("verify: %d %q", code, out)
			}
			// render --verbose, markii run and the viewer's note say it too.
			if code, _, errs := env.run("render", "--verbose", note); code != 0 || !strings.Contains(errs, "n.mk.md: signed by alice@example.org") {
				t.Fatalf("render --verbose: %d %q", code, errs)
			}
			n, err := loadNote(note, nil)
			if err != nil {
				t.Fatal(err)
			}
			inv := env.invocation()
			if vn := inv.viewerNote(n); vn.Signature.State != signature.Trusted {
				t.Fatalf("viewer note signature %s", vn.Signature)
			}
			// A changed script is a changed statement.
			os.WriteFile(note, []byte(strings.Replace(signedNoteText, "return 1", "return 2", 1)), 0o644)
			if code, out, _ := env.run("verify", note); code != 1 || !strings.Contains(out, "does not match") {
				t.Fatalf("verify after a change: %d %q", code, out)
			}
		})
	}
}

func TestSignBundles(t *testing.T) {
	env := newTestEnv(t)
	dir := t.TempDir()
	key, pub := signingKey(t, dir, "ed25519")
	env.trustKey(t, "bob@example.org", pub)
	manifest := `{"spec":"0.1.0","document":"note.mk.md"}`

	folder := filepath.Join(dir, "folder")
	os.MkdirAll(filepath.Join(folder, "scripts"), 0o755)
	os.WriteFile(filepath.Join(folder, "manifest.json"), []byte(manifest), 0o644)
	os.WriteFile(filepath.Join(folder, "note.mk.md"), []byte("# B\n\n```lua src=scripts/a.lua\n```\n"), 0o644)
	os.WriteFile(filepath.Join(folder, "scripts", "a.lua"), []byte("return 1\n"), 0o644)
	zipPath := filepath.Join(dir, "b.mkz")
	writeTestZip(t, zipPath, map[string]string{
		"manifest.json": manifest, "note.mk.md": "# Z\n\n```lua src=scripts/a.lua\n```\n", "scripts/a.lua": "return 1\n",
		// A key the bundle carries is never trusted.
		"allowed_signers": "mallory@example.org " + string(ssh.MarshalAuthorizedKey(pub)),
	})
	for _, b := range []string{folder, zipPath} {
		if code, _, errs := env.run("sign", b, "--key", key); code != 0 {
			t.Fatalf("sign %s: %d %s", b, code, errs)
		}
		if code, out, errs := env.run("verify", b); code != 0 || !strings.Contains(out, "signed by bob@example.org") {
			t.Fatalf("verify %s: %d %q %s", b, code, out, errs)
		}
		// Re-signing replaces the signature.
		if code, _, _ := env.run("sign", b, "--key", key); code != 0 {
			t.Fatal("re-sign")
		}
		if code, out, _ := env.run("verify", b); code != 0 {
			t.Fatalf("verify after re-sign: %q", out)
		}
	}
	// A module changed inside the bundle changes the statement.
	os.WriteFile(filepath.Join(folder, "scripts", "a.lua"), []byte("return 2\n"), 0o644)
	if code, out, _ := env.run("verify", folder); code != 1 || !strings.Contains(out, "does not match") {
		t.Fatalf("changed module: %d %q", code, out)
	}
	// The manifest is covered too.
	os.WriteFile(filepath.Join(folder, "scripts", "a.lua"), []byte("return 1\n"), 0o644)
	os.WriteFile(filepath.Join(folder, "manifest.json"), []byte(`{"spec":"0.1.0","document":"note.mk.md","permissions":{"net":{"get":["x.example"]}}}`), 0o644)
	if code, out, _ := env.run("verify", folder); code != 1 || !strings.Contains(out, "does not match") {
		t.Fatalf("changed manifest: %d %q", code, out)
	}
}

// TestSignatureFileNeverStopsANote: whatever sits where a signature
// belongs, the note opens and verify gives a status.
func TestSignatureFileNeverStopsANote(t *testing.T) {
	env := newTestEnv(t)
	dir := t.TempDir()
	_, pub := signingKey(t, dir, "ed25519")
	env.trustKey(t, "alice@example.org", pub)
	cases := map[string]func(sig string){
		"fifo":    func(sig string) { syscall.Mkfifo(sig, 0o600) },
		"symlink": func(sig string) { os.WriteFile(sig+".real", []byte("x"), 0o600); os.Symlink(sig+".real", sig) },
		"huge":    func(sig string) { os.WriteFile(sig, bytes.Repeat([]byte("A"), 1<<20), 0o600) },
		"garbage": func(sig string) {
			os.WriteFile(sig, []byte("\x1b]0;owned\x07-----BEGIN SSH SIGNATURE-----\nAAAA"), 0o600)
		},
		"dir": func(sig string) { os.Mkdir(sig, 0o700) },
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			d := t.TempDir()
			note := filepath.Join(d, "n.mk.md")
			os.WriteFile(note, []byte(signedNoteText), 0o644)
			make(note + ".sig")
			code, out, errs := env.run("verify", note)
			if code != 1 || !strings.Contains(out, "signature does not match") || strings.ContainsAny(out, "\x1b\x07") {
				t.Fatalf("verify: %d %q %q", code, out, errs)
			}
			if code, out, errs := env.run("render", note); code != 0 || !strings.Contains(out, "Signed") {
				t.Fatalf("render: %d %q %q", code, out, errs)
			}
			// The same in a directory bundle.
			b := filepath.Join(d, "bundle")
			os.MkdirAll(b, 0o755)
			os.WriteFile(filepath.Join(b, "manifest.json"), []byte(`{"spec":"0.1.0","document":"note.mk.md"}`), 0o644)
			os.WriteFile(filepath.Join(b, "note.mk.md"), []byte(signedNoteText), 0o644)
			make(filepath.Join(b, signature.FileName))
			if code, out, errs := env.run("verify", b); code != 1 || !strings.Contains(out, "signature does not match") {
				t.Fatalf("verify bundle: %d %q %q", code, out, errs)
			}
			if code, _, errs := env.run("render", b); code != 0 {
				t.Fatalf("render bundle: %d %q", code, errs)
			}
		})
	}
}

func TestSignRefusals(t *testing.T) {
	env := newTestEnv(t)
	note := writeNote(t, signedNoteText)
	if code, _, errs := env.run("sign", note); code != ExitUsage || !strings.Contains(errs, "--key") {
		t.Fatalf("no key: %d %q", code, errs)
	}
	if code, _, errs := env.run("sign", note, "--key", note); code != 1 || strings.Count(errs, "\n") != 1 {
		t.Fatalf("not a key: %d %q", code, errs)
	}
	if code, _, _ := env.run("verify", "-"); code != ExitUsage {
		t.Fatalf("verify stdin: %d", code)
	}
}

// TestLibraryListNamesSigners: the list of a folder's notes says of each
// whether it is signed and by whom, or unsigned.
func TestLibraryListNamesSigners(t *testing.T) {
	env := newTestEnv(t)
	dir := t.TempDir()
	key, pub := signingKey(t, t.TempDir(), "ed25519")
	env.trustKey(t, "carol@example.org", pub)
	os.WriteFile(filepath.Join(dir, "a.mk.md"), []byte("# Alpha\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.mk.md"), []byte(signedNoteText), 0o644)
	if code, _, errs := env.run("sign", filepath.Join(dir, "b.mk.md"), "--key", key); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := env.run("view", dir)
	if code != 0 {
		t.Fatalf("%d %s", code, errs)
	}
	want := "a.mk.md\tAlpha\tunsigned\nb.mk.md\tSigned\tsigned: carol@example.org\n"
	if out != want {
		t.Fatalf("list:\n%q\nwant:\n%q", out, want)
	}
}

// TestSignatureStatusShowsEverywhere: plain markii run, render --verbose
// and the list of a folder say each of the four answers, unsigned too.
func TestSignatureStatusShowsEverywhere(t *testing.T) {
	const scriptedNote = "# Signed\n\n```lua {name=one}\nreturn 1\n```\n"
	env := newTestEnv(t)
	dir := t.TempDir()
	trustedKey, trustedPub := signingKey(t, t.TempDir(), "ed25519")
	otherKey, otherPub := signingKey(t, t.TempDir(), "ed25519")
	env.trustKey(t, "alice@example.org", trustedPub)
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(scriptedNote), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sign := func(p, key string) {
		if code, _, errs := env.run("sign", p, "--key", key); code != 0 {
			t.Fatalf("sign %s: %s", p, errs)
		}
	}
	unsigned := write("u.mk.md")
	trusted := write("t.mk.md")
	sign(trusted, trustedKey)
	unknown := write("k.mk.md")
	sign(unknown, otherKey)
	changed := write("m.mk.md")
	sign(changed, trustedKey)
	os.WriteFile(changed, []byte(strings.Replace(scriptedNote, "return 1", "return 2", 1)), 0o644)

	cases := []struct{ note, line, short string }{
		{unsigned, "u.mk.md: unsigned", "unsigned"},
		{trusted, "t.mk.md: signed by alice@example.org", "signed: alice@example.org"},
		{unknown, "k.mk.md: signed by an unknown key (" + ssh.FingerprintSHA256(otherPub) + ")", "signed: unknown key SHA256:"},
		{changed, "m.mk.md: signature does not match", "signature does not match"},
	}
	for _, c := range cases {
		if code, out, errs := env.run("run", c.note); code != 0 || !strings.Contains(errs, "markii: "+c.line) || out != "one: ok\n" {
			t.Errorf("run %s: %d %q %q", c.note, code, out, errs)
		}
		if code, _, errs := env.run("render", "--verbose", "--color", "never", c.note); code != 0 || !strings.Contains(errs, "markii: "+c.line) {
			t.Errorf("render --verbose %s: %d %q", c.note, code, errs)
		}
	}
	code, out, errs := env.run("view", dir)
	if code != 0 {
		t.Fatalf("view: %d %s", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("list:\n%s", out)
	}
	for _, c := range cases {
		name := filepath.Base(c.note)
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, name+"\t") {
				found = strings.Contains(l, "\t"+c.short)
			}
		}
		if !found {
			t.Errorf("the list's line for %s lacks %q:\n%s", name, c.short, out)
		}
	}
}
