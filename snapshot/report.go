package snapshot

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/markii/markii/sanitize"
)

// WriteText writes the report for a terminal or a CI log: every case that
// did not match (its diff, its pending file or why it failed), the
// obsolete snapshots, then the summary line. Everything written is
// display-safe: diffs show escape sequences as tokens, and names and
// errors pass sanitize.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.Cases {
		writeCaseText(&b, c)
	}
	r.writeObsoleteText(&b)
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCaseText writes one case's lines of the text report: none for a
// matched case without a pending file.
func writeCaseText(b *strings.Builder, c Case) {
	switch c.Status {
	case Changed:
		fmt.Fprintf(b, "changed %s\n%s", sanitize.Line(c.Name()), c.Diff)
	case New:
		fmt.Fprintf(b, "new     %s\n", sanitize.Line(c.Name()))
	case Written:
		fmt.Fprintf(b, "written %s\n", sanitize.Line(c.File))
	case Failed:
		fmt.Fprintf(b, "failed  %s: %s\n", sanitize.Line(c.Name()), c.ErrorLine())
	}
	if c.Pending != "" {
		fmt.Fprintf(b, "        pending %s\n", sanitize.Line(c.Pending))
	}
}

// writeObsoleteText writes the text report's obsolete (or removed)
// snapshots.
func (r *Report) writeObsoleteText(b *strings.Builder) {
	verb := "obsolete"
	if r.Pruned {
		verb = "removed obsolete"
	}
	for _, o := range r.Obsolete {
		fmt.Fprintf(b, "%s %s\n", verb, sanitize.Line(o))
	}
	if len(r.Obsolete) > 0 && !r.Pruned {
		b.WriteString("(remove them with --update --prune)\n")
	}
}

// junit is the JUnit XML document CI systems read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one test case per note ×
// variant, a failure for a changed (with its diff), new or failed one.
func (r *Report) WriteJUnit(w io.Writer) error {
	s := junitSuite{Name: "markii snapshot"}
	for _, c := range r.Cases {
		jc := junitCase{Name: sanitize.Line(c.Variant.String()), Classname: sanitize.Line(c.Note)}
		if c.File == "" {
			jc.Name = "load"
		}
		switch c.Status {
		case Changed:
			jc.Failure = &junitFailure{Message: "the rendering differs from the snapshot", Type: "changed", Text: c.Diff}
		case New:
			jc.Failure = &junitFailure{Message: "there is no snapshot yet", Type: "new"}
		case Failed:
			jc.Failure = &junitFailure{Message: c.ErrorLine(), Type: "failed"}
		}
		if jc.Failure != nil {
			s.Failures++
		}
		s.Cases = append(s.Cases, jc)
	}
	s.Tests = len(s.Cases)
	doc := junitSuites{Tests: s.Tests, Failures: s.Failures, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteAnnotations writes one GitHub Actions workflow command per case
// that did not match ("::error file=NOTE,title=…::…"), so the run's page
// shows them on the notes. Values are escaped as GitHub's toolkit does.
func (r *Report) WriteAnnotations(w io.Writer) error {
	var b strings.Builder
	for _, c := range r.Cases {
		var msg string
		switch c.Status {
		case Changed:
			msg = "snapshot " + c.Variant.String() + " changed"
			if c.Pending != "" {
				msg += "; pending " + c.Pending
			}
		case New:
			msg = "snapshot " + c.Variant.String() + " is new"
		case Failed:
			msg = c.ErrorLine()
		default:
			continue
		}
		fmt.Fprintf(&b, "::error file=%s,title=%s::%s\n", ghProperty(sanitize.Line(c.Note)), ghProperty("markii snapshot "+c.Status.String()), ghData(sanitize.Line(msg)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
