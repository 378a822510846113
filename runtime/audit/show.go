package audit

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/markii/markii/sanitize"
)

// Visible makes a recorded string safe and honest to show on one line:
// every control, format or invisible character (bidi controls, zero-width
// characters, line and paragraph separators) is shown as ⟨U+XXXX⟩ rather
// than dropped, so that what a note smuggled into a host or path is seen.
func Visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		if invisible(r) {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			continue
		}
		b.WriteRune(r)
	}
	return sanitize.Line(b.String())
}

func invisible(r rune) bool {
	switch {
	case r == ' ':
		return false
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case unicode.IsSpace(r):
		return true
	}
	return r == unicode.ReplacementChar
}

// Lines is the readable listing of recs: a heading line for each run and
// one indented line for each decision, request, effect and outcome, in the
// order they were recorded. Every string passes Visible.
func Lines(recs []Record) []string {
	var out []string
	runs := map[string]bool{}
	for _, r := range recs {
		if !runs[r.Run] && r.Event != EventRun {
			runs[r.Run] = true
			out = append(out, "run "+Visible(r.Run)+" (its opening record is not shown)")
		}
		if r.Event == EventRun {
			runs[r.Run] = true
		}
		out = append(out, Line(r))
	}
	return out
}

// Line is one record as a readable line.
func Line(r Record) string {
	v := Visible
	switch r.Event {
	case EventRun:
		s := fmt.Sprintf("run %s %s %s %s: %s", v(r.Run), r.Time.Local().Format("2006-01-02 15:04:05"), v(r.Trigger), v(r.Note), v(signatureText(r)))
		if len(r.Granted) > 0 {
			s += "; granted " + v(strings.Join(r.Granted, ", "))
		}
		if r.Closure != "" {
			s += "; code " + v(short(r.Closure))
		}
		return s
	case EventRequest, EventBundle:
		return "  " + request(r)
	case EventClaim:
		s := "  claim " + v(short(r.Effect)) + ": " + v(r.Method) + " " + v(r.Host+r.Path)
		if r.Reason != "" {
			s += " (" + v(r.Reason) + ")"
		}
		return s
	case EventSettle:
		return "  settle " + v(short(r.Effect)) + ": " + result(r)
	case EventOutcome:
		return fmt.Sprintf("  script %q: %s", v(r.Script), v(r.Outcome))
	case EventEnd:
		return "  end " + v(r.Outcome)
	}
	return "  " + v(string(r.Event))
}

func request(r Record) string {
	v := Visible
	target := r.Host + r.Path
	if r.Query != "" {
		target += "?⟨" + r.Query + "⟩"
	}
	var parts []string
	for _, p := range []string{r.Capability, r.Method, target} {
		if p != "" {
			parts = append(parts, v(p))
		}
	}
	s := strings.Join(parts, " ") + " " + string(r.Decision)
	if r.Decision == Denied {
		if r.Reason != "" {
			s += ": " + v(r.Reason)
		}
		if r.Failure == FailClaimed {
			s += " (its earlier claim is still open: outcome unknown)"
		}
		return s
	}
	return s + " → " + result(r)
}

// result is what came of a request: its status and bytes, or its failure.
func result(r Record) string {
	var s string
	switch {
	case r.Failure != "":
		s = string(r.Failure)
		if r.Reason != "" {
			s += ": " + Visible(r.Reason)
		}
	case r.Status != 0:
		s = fmt.Sprintf("%d", r.Status)
	default:
		s = "done"
	}
	if r.BytesOut > 0 || r.BytesIn > 0 {
		s += fmt.Sprintf(" (%d B out, %d B in)", r.BytesOut, r.BytesIn)
	}
	if r.Limit != "" {
		s += "; limit hit: " + Visible(r.Limit)
	}
	return s
}

func signatureText(r Record) string {
	switch r.Signature {
	case "trusted":
		return "signed by " + r.Signer
	case "unknown-key":
		return "signed by an unknown key (" + r.Signer + ")"
	case "mismatch":
		return "signature does not match"
	case "":
		return "signature not checked"
	}
	return r.Signature
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
