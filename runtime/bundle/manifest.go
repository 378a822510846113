package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// MaxManifestBytes caps manifest.json. A manifest is a few hundred bytes;
// anything larger than this is refused before it is parsed.
const MaxManifestBytes = 64 << 10

// Grant is one bundle file permission.
type Grant string

// The two bundle permissions of the Markii format.
const (
	GrantRead       Grant = "read"
	GrantWriteCache Grant = "write:.cache/"
)

// legacyWriteCache is the older spelling of GrantWriteCache.
const legacyWriteCache = "write:cache/"

// Manifest is a validated manifest.json.
type Manifest struct {
	// Spec is the Markii spec version the bundle was written for.
	Spec string
	// NetGet and NetPost are the declared hostnames (lowercased). They are
	// shown beside what the code asks for and never authorize anything.
	NetGet  []string
	NetPost []string
	// Bundle is the declared bundle permissions, deduplicated, legacy
	// spellings folded to the current ones.
	Bundle []Grant
	// Uses lists pack names (informative only).
	Uses []string
	// Document is the clean bundle-relative path of the document.
	Document string
	// Warnings are problems that did not make the manifest invalid:
	// unknown keys and legacy names.
	Warnings []string
}

// Declares reports whether the manifest declares g.
func (m *Manifest) Declares(g Grant) bool {
	for _, d := range m.Bundle {
		if d == g {
			return true
		}
	}
	return false
}

// ManifestError is a manifest that cannot be used. Problems lists every
// problem found, each a short clause.
type ManifestError struct {
	Problems []string
}

func (e *ManifestError) Error() string { return InvalidMessage(ManifestName, e.Problems) }

// InvalidMessage is the one-line refusal of a manifest file: its name,
// "is invalid:", and the first problems joined by "; ".
func InvalidMessage(file string, problems []string) string {
	const maxListed = 8
	more := ""
	if len(problems) > maxListed {
		more = fmt.Sprintf("; and %d more", len(problems)-maxListed)
		problems = problems[:maxListed]
	}
	return file + " is invalid: " + strings.Join(problems, "; ") + more
}

// The manifest's patterns are compiled on first use, not at package init:
// every markii process, script workers included, links this package.
var (
	semverPattern   = &lazyRegexp{expr: `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`}
	hostLabel       = &lazyRegexp{expr: `^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$`}
	packNamePattern = &lazyRegexp{expr: `^[A-Za-z0-9_][A-Za-z0-9._-]*$`}
)

// lazyRegexp is a regular expression compiled on first use; a package
// variable of it costs nothing when the process starts.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// get is the compiled expression.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// ValidHostname reports whether h is a bare hostname: dot-separated labels
// of letters, digits and hyphens (1 to 63 each, no leading or trailing
// hyphen), at most 253 bytes, with no scheme, port, path or wildcard.
func ValidHostname(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, l := range strings.Split(h, ".") {
		if !hostLabel.get().MatchString(l) {
			return false
		}
	}
	return true
}

// ParseManifest validates manifest.json. It refuses input over
// MaxManifestBytes before parsing, and reports every problem it finds in
// one *ManifestError.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, &ManifestError{[]string{fmt.Sprintf("it is %d bytes, over the %d-byte limit", len(data), MaxManifestBytes)}}
	}
	fields, err := ObjectFields(data)
	if err != nil {
		return nil, &ManifestError{[]string{err.Error()}}
	}
	v := &manifestValidator{m: &Manifest{Document: DefaultDocument}}
	v.run(fields)
	if len(v.Problems) > 0 {
		return nil, &ManifestError{v.Problems}
	}
	v.m.Warnings = v.Warnings
	return v.m, nil
}

// ObjectFields splits a JSON document into the members of its one
// top-level object, refusing anything that is not exactly one object and
// refusing duplicate keys (where decoders disagree about which one wins).
func ObjectFields(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, errors.New("it is not valid JSON")
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("it is not a JSON object")
	}
	fields := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New("it is not valid JSON")
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, errors.New("it is not valid JSON")
		}
		if _, dup := fields[key]; dup {
			return nil, fmt.Errorf("key %s appears twice", quote(key))
		}
		fields[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, errors.New("it is not valid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("it has text after the JSON object")
	}
	return fields, nil
}

// Findings collects what a manifest check found: problems, which reject
// the manifest, and warnings, which it keeps. The bundle and pack
// manifest validators share it.
type Findings struct {
	Problems []string
	Warnings []string
}

// Fail records a problem.
func (f *Findings) Fail(format string, a ...any) {
	f.Problems = append(f.Problems, fmt.Sprintf(format, a...))
}

// Warn records a warning.
func (f *Findings) Warn(format string, a ...any) {
	f.Warnings = append(f.Warnings, fmt.Sprintf(format, a...))
}

type manifestValidator struct {
	Findings
	m *Manifest
}

func (v *manifestValidator) run(fields map[string]json.RawMessage) {
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		switch k {
		case "spec", "mark", "permissions", "uses", "document":
		default:
			v.Warn("%s has an unknown key %s", ManifestName, quote(k))
		}
	}
	v.spec(fields)
	if raw, ok := fields["permissions"]; ok {
		v.permissions(raw)
	}
	if raw, ok := fields["uses"]; ok {
		v.m.Uses = v.names("uses", raw)
	}
	if raw, ok := fields["document"]; ok {
		v.document(raw)
	}
}

func (v *manifestValidator) spec(fields map[string]json.RawMessage) {
	raw, ok := fields["spec"]
	name := "spec"
	if !ok {
		raw, ok = fields["mark"]
		name = "mark"
		if ok {
			v.Warn("%s uses the legacy key \"mark\"; write \"spec\" instead", ManifestName)
		}
	}
	if !ok {
		v.Fail("\"spec\" is missing (a version such as \"0.1.0\")")
		return
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || !semverPattern.get().MatchString(s) {
		v.Fail("%q must be a version string such as \"0.1.0\"", name)
		return
	}
	v.m.Spec = s
}

func (v *manifestValidator) permissions(raw json.RawMessage) {
	var perms map[string]json.RawMessage
	if json.Unmarshal(raw, &perms) != nil || perms == nil {
		v.Fail("\"permissions\" must be an object")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(perms)) {
		val := perms[k]
		switch k {
		case "net":
			v.net(val)
		case "bundle":
			v.bundle(val)
		default:
			v.Warn("%s has an unknown key permissions.%s", ManifestName, quote(k))
		}
	}
}

func (v *manifestValidator) net(raw json.RawMessage) {
	var flat []json.RawMessage
	if json.Unmarshal(raw, &flat) == nil && flat != nil {
		v.Warn("permissions.net is a list; write {\"get\": [...], \"post\": [...]} instead")
		v.m.NetGet = v.hosts("permissions.net", flat)
		return
	}
	var byMethod map[string]json.RawMessage
	if json.Unmarshal(raw, &byMethod) != nil || byMethod == nil {
		v.Fail("permissions.net must be an object with \"get\" and \"post\" lists of hostnames")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(byMethod)) {
		val := byMethod[k]
		var list []json.RawMessage
		if json.Unmarshal(val, &list) != nil {
			v.Fail("permissions.net.%s must be a list of hostnames", safeKey(k))
			continue
		}
		switch k {
		case "get":
			v.m.NetGet = v.hosts("permissions.net.get", list)
		case "post":
			v.m.NetPost = v.hosts("permissions.net.post", list)
		default:
			v.Warn("%s has an unknown key permissions.net.%s", ManifestName, quote(k))
		}
	}
}

func (v *manifestValidator) hosts(where string, list []json.RawMessage) []string {
	var out []string
	for i, raw := range list {
		var h string
		if json.Unmarshal(raw, &h) != nil || !ValidHostname(h) {
			v.Fail("%s[%d] must be a bare hostname such as \"api.example.com\" (no scheme, port, path or wildcard)", where, i)
			continue
		}
		out = append(out, strings.ToLower(h))
	}
	return out
}

func (v *manifestValidator) bundle(raw json.RawMessage) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		v.Fail("permissions.bundle must be a list such as [\"read\", \"write:.cache/\"]")
		return
	}
	for i, item := range list {
		var s string
		if json.Unmarshal(item, &s) != nil {
			v.Fail("permissions.bundle[%d] must be \"read\" or \"write:.cache/\"", i)
			continue
		}
		g := Grant(s)
		switch s {
		case string(GrantRead), string(GrantWriteCache):
		case legacyWriteCache:
			v.Warn("permissions.bundle uses the legacy spelling \"write:cache/\"; write \"write:.cache/\" instead")
			g = GrantWriteCache
		default:
			v.Fail("permissions.bundle[%d] %s is not a bundle permission (use \"read\" or \"write:.cache/\")", i, quote(s))
			continue
		}
		if !v.m.Declares(g) {
			v.m.Bundle = append(v.m.Bundle, g)
		}
	}
}

func (v *manifestValidator) names(where string, raw json.RawMessage) []string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		v.Fail("%q must be a list of pack names", where)
		return nil
	}
	var out []string
	for i, item := range list {
		var s string
		if json.Unmarshal(item, &s) != nil || !packNamePattern.get().MatchString(s) {
			v.Fail("%s[%d] must be a pack name such as \"charts\"", where, i)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (v *manifestValidator) document(raw json.RawMessage) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		v.Fail("\"document\" must be a bundle-relative path string")
		return
	}
	clean, err := CleanPath(s)
	if err != nil {
		var pe *PathError
		errors.As(err, &pe)
		v.Fail("\"document\" %s is refused: %s", quote(s), pe.Reason)
		return
	}
	switch {
	case clean == ManifestName:
		v.Fail("\"document\" cannot be %s", ManifestName)
		return
	case firstSegment(clean) == CacheDir:
		v.Fail("\"document\" cannot live in %s/", CacheDir)
		return
	}
	v.m.Document = clean
}

// safeKey prints a JSON key inside a dotted field name.
func safeKey(k string) string {
	q := quote(k)
	if q == `"`+k+`"` {
		return k
	}
	return q
}
