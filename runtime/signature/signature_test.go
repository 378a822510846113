package signature

import (
	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update

	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"github.com/markii/markii/internal/needs"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

type testKey struct {
	signer ssh.Signer
	priv   crypto.Signer
}

func newKey(t *testing.T, kind string) testKey {
	t.Helper()
	var priv crypto.Signer
	var err error
	switch kind {
	case "ed25519":
		_, priv, err = ed25519.GenerateKey(rand.Reader)
	case "p256":
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "p384":
		priv, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case "rsa":
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return testKey{signer: s, priv: priv}
}

// trustLine is an allowed_signers line for k.
func trustLine(principal, options string, k ssh.PublicKey) string {
	line := principal + " "
	if options != "" {
		line += options + " "
	}
	return line + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

func statement(note string) Statement {
	return Statement{Kind: KindNote, Content: NoteHash([]byte(note)), Closure: strings.Repeat("ab", 32)}
}

func mustSign(t *testing.T, st Statement, s ssh.Signer) []byte {
	t.Helper()
	sig, err := Sign(st, s)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

func TestRoundTrip(t *testing.T) {
	now := time.Now()
	for _, kind := range []string{"ed25519", "p256"} {
		t.Run(kind, func(t *testing.T) {
			k := newKey(t, kind)
			st := statement("# hello\n")
			sig := mustSign(t, st, k.signer)
			trust := ParseTrust([]byte(trustLine("alice@example.org", "", k.signer.PublicKey()) + "\n"))
			got := Verify(st, sig, trust, now)
			if got.State != Trusted || got.Principal != "alice@example.org" {
				t.Fatalf("got %+v (%s), want trusted by alice", got, got)
			}
			if got.String() != "signed by alice@example.org" {
				t.Fatalf("String() = %q", got)
			}
			if s := Verify(st, sig, nil, now); s.State != UnknownKey || s.Fingerprint != ssh.FingerprintSHA256(k.signer.PublicKey()) {
				t.Fatalf("without trust: %+v", s)
			}
		})
	}
}

func TestRefusedKeyTypes(t *testing.T) {
	for _, kind := range []string{"rsa", "p384"} {
		k := newKey(t, kind)
		if _, err := Sign(statement("x"), k.signer); err == nil {
			t.Errorf("%s: Sign accepted the key", kind)
		}
	}
}

// TestForgeries is the forgery table: every row gives its status and none
// panics or errors.
func TestForgeries(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	alice := newKey(t, "ed25519")
	mallory := newKey(t, "p256")
	rsaKey := newKey(t, "rsa")
	note := "# note\n\n```lua\nreturn 1\n```\n"
	st := statement(note)
	good := mustSign(t, st, alice.signer)
	trust := ParseTrust([]byte(strings.Join([]string{
		trustLine("alice@example.org", "", alice.signer.PublicKey()),
	}, "\n")))

	changed := []byte(note)
	changed[3] ^= 1
	changedSt := st
	changedSt.Content = NoteHash(changed)

	closureChanged := st
	closureChanged.Closure = strings.Repeat("ac", 32)

	otherNote := mustSign(t, statement("# another note\n"), alice.signer)

	wrongNS, err := sshsig.Sign(bytes.NewReader(st.Bytes()), alice.signer, sshsig.HashSHA512, "git")
	if err != nil {
		t.Fatal(err)
	}
	rsaSig, err := sshsig.Sign(bytes.NewReader(st.Bytes()), rsaKey.signer, sshsig.HashSHA512, Namespace)
	if err != nil {
		t.Fatal(err)
	}
	// A P-256 signature whose blob claims it is an Ed25519 one.
	relabeled, _ := sshsig.Unarmor(mustSign(t, st, mallory.signer))
	relabeled.Signature.Format = ssh.KeyAlgoED25519

	expiredTrust := ParseTrust([]byte(trustLine("alice@example.org", `valid-before="20260101Z"`, alice.signer.PublicKey())))
	futureTrust := ParseTrust([]byte(trustLine("alice@example.org", `valid-after="20270101"`, alice.signer.PublicKey())))
	validTrust := ParseTrust([]byte(trustLine("alice@example.org", `valid-after="20260101Z",valid-before="20270101Z"`, alice.signer.PublicKey())))
	gitOnly := ParseTrust([]byte(trustLine("alice@example.org", `namespaces="git"`, alice.signer.PublicKey())))
	nsOK := ParseTrust([]byte(trustLine("alice@example.org", `namespaces="git,markii-*"`, alice.signer.PublicKey())))
	revoked := ParseTrust([]byte(trustLine("alice@example.org", "", alice.signer.PublicKey()) + "\n@revoked " +
		strings.TrimSpace(string(ssh.MarshalAuthorizedKey(alice.signer.PublicKey())))))
	caTrust := ParseTrust([]byte(trustLine("alice@example.org", "cert-authority", alice.signer.PublicKey())))

	rows := []struct {
		name    string
		st      Statement
		sig     []byte
		trust   *Trust
		state   State
		problem Problem
	}{
		{"good", st, good, trust, Trusted, NoProblem},
		{"note changed by one byte", changedSt, good, trust, Mismatch, Changed},
		{"code changed", closureChanged, good, trust, Mismatch, Changed},
		{"signature over another note", st, otherNote, trust, Mismatch, Changed},
		{"signature bytes flipped", st, flipBody(t, good), trust, Mismatch, Changed},
		{"the right key carried by the note, not the reader", st, good, &Trust{}, UnknownKey, NoProblem},
		{"untrusted signer", st, mustSign(t, st, mallory.signer), trust, UnknownKey, NoProblem},
		{"unknown algorithm (rsa)", st, sshsig.Armor(rsaSig), ParseTrust([]byte(trustLine("a", "", rsaKey.signer.PublicKey()))), Mismatch, UnsupportedAlgorithm},
		{"relabelled signature format", st, sshsig.Armor(relabeled), trust, Mismatch, UnsupportedAlgorithm},
		{"wrong namespace", st, sshsig.Armor(wrongNS), trust, Mismatch, WrongNamespace},
		{"expired key", st, good, expiredTrust, Mismatch, Expired},
		{"not yet valid key", st, good, futureTrust, Mismatch, Expired},
		{"key within its validity", st, good, validTrust, Trusted, NoProblem},
		{"key trusted for git only", st, good, gitOnly, UnknownKey, NoProblem},
		{"namespace pattern", st, good, nsOK, Trusted, NoProblem},
		{"revoked key", st, good, revoked, Mismatch, Revoked},
		{"cert-authority line is not trust", st, good, caTrust, UnknownKey, NoProblem},
		{"truncated", st, good[:len(good)/2], trust, Mismatch, Malformed},
		{"truncated body", st, truncateBody(good), trust, Mismatch, Malformed},
		{"empty", st, []byte{}, trust, Mismatch, Malformed},
		{"garbage", st, []byte("\x1b]0;pwned\x07 not a signature"), trust, Mismatch, Malformed},
		{"huge", st, bytes.Repeat([]byte("A"), MaxSignatureBytes+1), trust, Mismatch, Unreadable},
		{"unsigned", st, nil, trust, Unsigned, NoProblem},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := Verify(r.st, r.sig, r.trust, now)
			if got.State != r.state || got.Problem != r.problem {
				t.Fatalf("got %+v (%s), want state %d problem %d", got, got, r.state, r.problem)
			}
			if strings.ContainsAny(got.String(), "\x1b\x07\n") {
				t.Fatalf("status text is not one inert line: %q", got)
			}
		})
	}
}

func flipBody(t *testing.T, armored []byte) []byte {
	t.Helper()
	s, err := sshsig.Unarmor(armored)
	if err != nil {
		t.Fatal(err)
	}
	blob := append([]byte(nil), s.Signature.Blob...)
	blob[len(blob)-1] ^= 1
	s.Signature.Blob = blob
	return sshsig.Armor(s)
}

func truncateBody(armored []byte) []byte {
	b, _ := pem.Decode(armored)
	b.Bytes = b.Bytes[:len(b.Bytes)-10]
	return pem.EncodeToMemory(b)
}

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	k := newKey(t, "ed25519")
	good := mustSign(t, statement("x"), k.signer)
	real := filepath.Join(dir, "real.sig")
	if err := os.WriteFile(real, good, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.sig")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.sig")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.sig")
	if err := os.WriteFile(huge, bytes.Repeat([]byte("A"), 100<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, st := ReadFile(real); st != nil || !bytes.Equal(data, good) {
		t.Fatalf("regular file: %v %v", data, st)
	}
	if data, st := ReadFile(filepath.Join(dir, "none.sig")); st != nil || data != nil {
		t.Fatalf("missing file: %v %v", data, st)
	}
	for _, p := range []string{link, fifo, huge, dir} {
		done := make(chan *Status, 1)
		go func() { _, st := ReadFile(p); done <- st }()
		select {
		case st := <-done:
			if st == nil || st.State != Mismatch || st.Problem != Unreadable {
				t.Errorf("%s: %+v", filepath.Base(p), st)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile blocked", filepath.Base(p))
		}
	}
}

func TestParseTrust(t *testing.T) {
	k := newKey(t, "p256")
	key := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k.signer.PublicKey())))
	data := strings.Join([]string{
		"# comment",
		"",
		`alice@example.org,"bob smith" ` + key + " a comment",
		`carol namespaces="markii-note",valid-after="20260101",valid-before="202701011200Z" ` + key,
		"dave nokey",
		"erin bogus-option " + key,
		`frank valid-after="2026" ` + key,
		"gina ssh-rsa AAAA",
		"@revoked " + key,
	}, "\n")
	tr := ParseTrust([]byte(data))
	if len(tr.Signers) != 2 {
		t.Fatalf("signers %d: %+v", len(tr.Signers), tr)
	}
	if got := tr.Signers[0].Principals; len(got) != 2 || got[0] != "alice@example.org" {
		t.Errorf("principals %q", got)
	}
	c := tr.Signers[1]
	if c.Namespaces[0] != "markii-note" || c.ValidAfter.IsZero() || c.ValidBefore != time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC) {
		t.Errorf("carol %+v", c)
	}
	if len(tr.Problems) != 4 {
		t.Errorf("problems %q", tr.Problems)
	}
	if !tr.Revoked[ssh.FingerprintSHA256(k.signer.PublicKey())] {
		t.Error("revoked line not read")
	}
}

func TestWildcard(t *testing.T) {
	cases := []struct {
		s, p string
		want bool
	}{
		{"markii-note", "markii-*", true}, {"markii-note", "*", true}, {"markii-note", "git", false},
		{"markii-note", "markii-not?", true}, {"markii-note", "m*i*e", true}, {"markii-note", "*x", false},
	}
	for _, c := range cases {
		if got := wildcard(c.s, c.p); got != c.want {
			t.Errorf("wildcard(%q, %q) = %v", c.s, c.p, got)
		}
	}
	if matchList("markii-note", []string{"*", "!markii-*"}) {
		t.Error("a negated match must refuse")
	}
}

// writePrivate writes k as an OpenSSH private key file.
func writePrivate(t *testing.T, dir string, k testKey) string {
	t.Helper()
	block, err := ssh.MarshalPrivateKey(k.priv, "")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "id")
	if err := os.WriteFile(p, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSSHKeygenInterop: ssh-keygen -Y verify accepts what Sign writes, and
// Verify accepts what ssh-keygen -Y sign writes.
func TestSSHKeygenInterop(t *testing.T) {
	keygen := needs.SSHKeygen(t)
	for _, kind := range []string{"ed25519", "p256"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			k := newKey(t, kind)
			st := statement("# interop " + kind + "\n")
			signers := filepath.Join(dir, "allowed_signers")
			line := trustLine("alice@example.org", "", k.signer.PublicKey())
			if err := os.WriteFile(signers, []byte(line+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			sigPath := filepath.Join(dir, "note.sig")
			if err := os.WriteFile(sigPath, mustSign(t, st, k.signer), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(keygen, "-Y", "verify", "-f", signers, "-I", "alice@example.org", "-n", Namespace, "-s", sigPath)
			cmd.Stdin = bytes.NewReader(st.Bytes())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("ssh-keygen -Y verify refused markii's signature: %v\n%s", err, out)
			}
			// A changed statement is refused by ssh-keygen too.
			bad := st
			bad.Content = NoteHash([]byte("other"))
			cmd = exec.Command(keygen, "-Y", "verify", "-f", signers, "-I", "alice@example.org", "-n", Namespace, "-s", sigPath)
			cmd.Stdin = bytes.NewReader(bad.Bytes())
			if err := cmd.Run(); err == nil {
				t.Fatal("ssh-keygen accepted a changed statement")
			}

			keyPath := writePrivate(t, dir, k)
			msg := filepath.Join(dir, "statement")
			if err := os.WriteFile(msg, st.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(keygen, "-Y", "sign", "-f", keyPath, "-n", Namespace, msg).CombinedOutput(); err != nil {
				t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
			}
			theirs, err := os.ReadFile(msg + ".sig")
			if err != nil {
				t.Fatal(err)
			}
			if got := Verify(st, theirs, ParseTrust([]byte(line)), time.Now()); got.State != Trusted {
				t.Fatalf("markii refused ssh-keygen's signature: %s", got)
			}
			loaded, err := LoadKey(keyPath)
			if err != nil || !bytes.Equal(loaded.PublicKey().Marshal(), k.signer.PublicKey().Marshal()) {
				t.Fatalf("LoadKey: %v", err)
			}
		})
	}
}

// TestStatusWords: the four answers in each of the forms markii shows.
func TestStatusWords(t *testing.T) {
	for _, c := range []struct {
		s                     Status
		text, short, sentence string
	}{
		{Status{}, "unsigned", "unsigned", "Unsigned."},
		{Status{State: Trusted, Principal: "alice@example.org"}, "signed by alice@example.org", "signed: alice@example.org", "Signed by alice@example.org. A signature grants nothing."},
		{Status{State: UnknownKey, Fingerprint: "SHA256:0123456789abcdefghij"}, "signed by an unknown key (SHA256:0123456789abcdefghij)", "signed: unknown key SHA256:01234567…", "Signed by an unknown key (SHA256:0123456789abcdefghij). A signature grants nothing."},
		{Status{State: Mismatch, Problem: Revoked}, "signature does not match: the signing key is revoked in the trust file", "signature does not match", "Signature does not match."},
	} {
		if c.s.String() != c.text || c.s.Short() != c.short || c.s.Sentence() != c.sentence {
			t.Errorf("%+v: %q %q %q", c.s, c.s.String(), c.s.Short(), c.s.Sentence())
		}
	}
}
