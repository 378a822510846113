package render

import "strings"

// fenceMeta is what the first `{...}` group of a fence's info string says
// (SPEC §1.5).
type fenceMeta struct {
	name        string
	hasName     bool
	src         string
	hasSrc      bool
	permissions string
	hasPerms    bool
	publish     bool
}

// parseFenceMeta reads the first `{...}` group of meta (the info string
// after the language word). Inside it: whitespace-separated `key`,
// `key=bare`, `key="..."`, `key='...'` with keys matching
// [A-Za-z_][\w-]*; quoted values may hold `}`. Text after the group is
// ignored, a repeated key keeps its last value, and a token that fits none
// of these shapes is skipped. ok is false when there is no closed group.
func parseFenceMeta(meta string) (m fenceMeta, ok bool) {
	open := strings.IndexByte(meta, '{')
	if open < 0 {
		return m, false
	}
	for i := open + 1; ; {
		for i < len(meta) && isMetaSpace(meta[i]) {
			i++
		}
		if i >= len(meta) {
			return fenceMeta{}, false
		}
		if meta[i] == '}' {
			return m, true
		}
		if i, ok = m.token(meta, i); !ok {
			return fenceMeta{}, false
		}
	}
}

// token reads the token at meta[i] (not a blank) and returns where it
// ends; ok is false for a value with an unclosed quote.
func (m *fenceMeta) token(meta string, i int) (int, bool) {
	k := metaKeyEnd(meta, i)
	switch {
	case k == i:
		// Not a key: skip this token, honouring quotes.
		return skipMetaToken(meta, i), true
	case k < len(meta) && meta[k] == '=':
		val, next, ok := metaValue(meta, k+1)
		if ok {
			m.set(meta[i:k], val, false)
		}
		return next, ok
	case k < len(meta) && !endsMetaToken(meta[k]):
		return skipMetaToken(meta, k), true
	}
	m.set(meta[i:k], "", true)
	return k, true
}

// metaKeyEnd returns the end of the key that starts at meta[i], or i when
// none does.
func metaKeyEnd(meta string, i int) int {
	if i >= len(meta) || !isMetaKeyStart(meta[i]) {
		return i
	}
	k := i + 1
	for k < len(meta) && isMetaKeyChar(meta[k]) {
		k++
	}
	return k
}

// metaValue reads the value that starts at meta[i], quoted or bare, and
// returns it and where it ends; ok is false for an unclosed quote.
func metaValue(meta string, i int) (val string, next int, ok bool) {
	if i < len(meta) && (meta[i] == '"' || meta[i] == '\'') {
		end := strings.IndexByte(meta[i+1:], meta[i])
		if end < 0 {
			return "", 0, false
		}
		return meta[i+1 : i+1+end], i + end + 2, true
	}
	j := i
	for j < len(meta) && !endsMetaToken(meta[j]) {
		j++
	}
	return meta[i:j], j, true
}

// endsMetaToken reports whether c ends a token: a blank or `}`.
func endsMetaToken(c byte) bool { return isMetaSpace(c) || c == '}' }

func (m *fenceMeta) set(key, val string, bare bool) {
	switch key {
	case "name":
		m.name, m.hasName = val, true
	case "src":
		m.src, m.hasSrc = val, true
	case "permissions":
		m.permissions, m.hasPerms = val, true
	case "publish":
		// Only the bare key counts; any spelled value is absent (fail closed).
		m.publish = bare
	}
}

// skipMetaToken skips to the next blank or `}` outside quotes.
func skipMetaToken(meta string, i int) int {
	for i < len(meta) && !endsMetaToken(meta[i]) {
		if q := meta[i]; q == '"' || q == '\'' {
			end := strings.IndexByte(meta[i+1:], q)
			if end < 0 {
				return len(meta)
			}
			i += end + 2
			continue
		}
		i++
	}
	return i
}

func isMetaSpace(c byte) bool { return isClass(c, classBlank) }

func isMetaKeyStart(c byte) bool { return isClass(c, classKeyStart) }

func isMetaKeyChar(c byte) bool { return isClass(c, classKey) }

// validScriptName reports whether s matches ^[A-Za-z_][A-Za-z0-9_-]*$.
func validScriptName(s string) bool {
	if s == "" || !isMetaKeyStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isMetaKeyChar(s[i]) {
			return false
		}
	}
	return true
}

// splitPermissions splits a `permissions=` value on commas, trimming blanks
// and dropping empty entries.
func splitPermissions(v string) []string {
	var hosts []string
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	return hosts
}
