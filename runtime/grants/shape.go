package grants

import (
	"net/netip"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/idna"

	"github.com/markii/markii/runtime/netclient"
)

// Presentable reports whether host may be shown in a prompt and stored in
// a grant: it is already canonical (see netclient.CanonicalHost) and is
// either an IP literal or a clean name whose every label, read as Unicode,
// has no control, format or bidirectional-override character and does not
// mix scripts (Latin with Cyrillic, say). A host that fails is never shown;
// the consent flow counts it as an address built at run time.
func Presentable(host string) bool {
	canon, err := netclient.CanonicalHost(host)
	if err != nil || canon != host {
		return false
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	for _, label := range strings.Split(host, ".") {
		if !strings.HasPrefix(label, "xn--") {
			continue
		}
		u, err := idna.Lookup.ToUnicode(label)
		if err != nil || !cleanLabel(u) {
			return false
		}
	}
	return true
}

// allowedMixes are the script combinations of real-world names (UTS #39
// "highly restrictive"): Japanese, Chinese with Bopomofo, Korean, each
// with Latin. An array of constants, so nothing is built at start-up.
var allowedMixes = [...][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// allowedMix reports whether scripts, the scripts of one label's letters,
// all belong to one of the allowed mixes.
func allowedMix(scripts map[string]bool) bool {
	for _, mix := range allowedMixes {
		ok := true
		for s := range scripts {
			if !slices.Contains(mix, s) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// cleanLabel checks one Unicode label: letters, marks, digits and
// hyphens, of one script or an allowed mix.
func cleanLabel(label string) bool {
	scripts := map[string]bool{}
	for _, r := range label {
		if r == '-' {
			continue
		}
		if !labelRune(r) {
			return false
		}
		if name := scriptOf(r); name != "" {
			scripts[name] = true
		}
	}
	return len(scripts) <= 1 || allowedMix(scripts)
}

// labelRune reports whether r may stand in a label: a letter, mark or
// digit that is not a control, format, bidirectional control, space or
// replacement character.
func labelRune(r rune) bool {
	if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Bidi_Control, r) ||
		unicode.IsSpace(r) || r == unicode.ReplacementChar {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)
}

// scriptOf is the name of r's script, "" for Common and Inherited.
func scriptOf(r rune) string {
	for name, t := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(t, r) {
			return name
		}
	}
	return ""
}
