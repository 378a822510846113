package signature

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/markii/markii/runtime/internal/safefile"
)

// TrustFileName is the reader's trust file in markii's config directory.
// Nothing next to a note, inside a bundle or in the working directory is
// ever read as one.
const TrustFileName = "allowed_signers"

// MaxTrustBytes bounds the trust file.
const MaxTrustBytes = 1 << 20

// Signer is one trusted key: a line of the trust file.
type Signer struct {
	// Principals are the line's principal patterns, as written.
	Principals []string
	// Namespaces are the namespaces= patterns; empty allows every one.
	Namespaces []string
	// ValidAfter and ValidBefore bound when the key is trusted; zero is
	// unbounded.
	ValidAfter, ValidBefore time.Time
	// Key is the trusted public key.
	Key ssh.PublicKey
	// Line is the line's number in the file.
	Line int
}

// Trust is a parsed trust file.
type Trust struct {
	Signers []Signer
	// Revoked are fingerprints of keys on "@revoked" lines: a signature by
	// one never verifies.
	Revoked map[string]bool
	// Problems are lines that were skipped, with why; the rest of the
	// file still counts.
	Problems []string
}

// ParseTrust reads an allowed_signers file, the format ssh-keygen(1) and
// git use:
//
//	principals [options] keytype base64-key [comment]
//
// principals is a comma-separated list of patterns; the options are
// namespaces="pattern,…", valid-after="YYYYMMDD[HHMM[SS]][Z]" and
// valid-before="…". A line "@revoked keytype base64-key" (a markii
// extension) makes every signature by that key fail. cert-authority lines
// are skipped: markii verifies plain keys only. Blank lines and lines
// starting with # are ignored; a line that cannot be read is skipped and
// named in Problems.
func ParseTrust(data []byte) *Trust {
	t := &Trust{Revoked: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), MaxTrustBytes)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := t.parseLine(line, n); err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("line %d: %v; it is skipped", n, err))
		}
	}
	return t
}

func (t *Trust) parseLine(line string, n int) error {
	fields := tokens(line)
	if len(fields) >= 3 && fields[0] == "@revoked" {
		k, err := parseKey(fields[1], fields[2])
		if err != nil {
			return err
		}
		t.Revoked[ssh.FingerprintSHA256(k)] = true
		return nil
	}
	if len(fields) < 3 {
		return fmt.Errorf("it needs principals, a key type and a key")
	}
	s := Signer{Principals: splitList(unquote(fields[0])), Line: n}
	rest := fields[1:]
	if !isKeyType(rest[0]) {
		if err := s.options(rest[0]); err != nil {
			return err
		}
		rest = rest[1:]
	}
	if len(rest) < 2 {
		return fmt.Errorf("it has no key")
	}
	k, err := parseKey(rest[0], rest[1])
	if err != nil {
		return err
	}
	s.Key = k
	t.Signers = append(t.Signers, s)
	return nil
}

// options applies an options field to s.
func (s *Signer) options(field string) error {
	for _, opt := range splitQuoted(field) {
		name, val, hasVal := strings.Cut(opt, "=")
		name = strings.ToLower(name)
		val = unquote(val)
		var err error
		switch {
		case name == "cert-authority":
			return fmt.Errorf("cert-authority keys are not supported")
		case name == "namespaces" && hasVal:
			s.Namespaces = splitList(val)
		case name == "valid-after" && hasVal:
			s.ValidAfter, err = parseSSHTime(val)
		case name == "valid-before" && hasVal:
			s.ValidBefore, err = parseSSHTime(val)
		default:
			return fmt.Errorf("the option %q is not known", opt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// SupportedKeyTypes are the key algorithms markii signs and verifies with.
var SupportedKeyTypes = []string{ssh.KeyAlgoED25519, ssh.KeyAlgoECDSA256}

func isKeyType(s string) bool {
	return strings.HasPrefix(s, "ssh-") || strings.HasPrefix(s, "ecdsa-") || strings.HasPrefix(s, "sk-") || strings.HasPrefix(s, "rsa-")
}

func supported(keyType string) bool {
	for _, t := range SupportedKeyTypes {
		if t == keyType {
			return true
		}
	}
	return false
}

func parseKey(keyType, b64 string) (ssh.PublicKey, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("the key is not base64")
	}
	k, err := ssh.ParsePublicKey(raw)
	if err != nil {
		return nil, fmt.Errorf("the key cannot be read: %w", err)
	}
	if k.Type() != keyType {
		return nil, fmt.Errorf("the key is %s, not %s", k.Type(), keyType)
	}
	if !supported(k.Type()) {
		return nil, fmt.Errorf("%s keys are not supported (use ssh-ed25519 or ecdsa-sha2-nistp256)", k.Type())
	}
	return k, nil
}

// parseSSHTime reads ssh-keygen's YYYYMMDD[HHMM[SS]][Z] (local time
// without the Z).
func parseSSHTime(v string) (time.Time, error) {
	loc := time.Local
	if s, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = s, time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	layout, ok := layouts[len(v)]
	if !ok {
		return time.Time{}, fmt.Errorf("the time %q is not YYYYMMDD[HHMM[SS]][Z]", v)
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("the time %q is not a date", v)
	}
	return t, nil
}

// tokens splits a line at unquoted spaces and tabs.
func tokens(line string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case (r == ' ' || r == '\t') && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// splitQuoted splits at commas outside double quotes.
func splitQuoted(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// matchList reports whether s matches the comma list of patterns as
// OpenSSH's match_pattern_list does: a "!pattern" that matches refuses.
func matchList(s string, patterns []string) bool {
	ok := false
	for _, p := range patterns {
		if neg, found := strings.CutPrefix(p, "!"); found {
			if wildcard(s, neg) {
				return false
			}
			continue
		}
		if wildcard(s, p) {
			ok = true
		}
	}
	return ok
}

// wildcard matches s against a pattern of literal bytes, * and ?.
func wildcard(s, p string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for i := len(s); i >= 0; i-- {
				if wildcard(s[i:], p[1:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
			s, p = s[1:], p[1:]
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
			s, p = s[1:], p[1:]
		}
	}
	return s == ""
}

// LoadTrust reads the trust file at path (markii's config directory is
// the only place it is read from). A missing file is an empty trust; a
// file that is a link, a pipe, another user's or over MaxTrustBytes is
// refused with an error and trusts nothing.
func LoadTrust(path string) (*Trust, error) {
	data, err := safefile.ReadFile(path, MaxTrustBytes, safefile.Options{NoFollow: true, OwnedByMe: true})
	if errors.Is(err, fs.ErrNotExist) {
		return &Trust{Revoked: map[string]bool{}}, nil
	}
	if err != nil {
		return &Trust{Revoked: map[string]bool{}}, fmt.Errorf("cannot read the trust file: %w", err)
	}
	return ParseTrust(data), nil
}
