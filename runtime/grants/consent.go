package grants

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"strings"
	"sync"

	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/sanitize"
)

// MaxHostPrompts is the most hosts asked about one at a time; more fold
// into one consolidated prompt.
const MaxHostPrompts = 10

// The prompts below are the whole wording of a grant question, for the
// terminal and for the viewer's dialog alike: lines joined by "\n", the
// last one the question itself. Hosts reach them only after Presentable,
// so they carry no control character.

// rememberedLine says what a yes means: how long it lasts, how far it
// reaches and who else may use it. oneRun is set for a note without
// identity (read from standard input): nothing about it is stored, so a
// yes lasts for the run it was given for and no unattended run can use it.
func rememberedLine(where string, oneRun bool) string {
	if oneRun {
		return "A yes lasts for this run only (a note read from standard input is not remembered) and covers every path and port on " + where + "."
	}
	return "A yes is remembered for this exact code (any change asks again), covers every path and port on " +
		where + ", and may be used by unattended runs if you turned those on in your settings."
}

// runtimeLine says what happens to a request whose address the code builds
// while it runs: the host checks it when it is made, so it goes out only to
// a host the answer allowed, and any other host is denied.
const runtimeLine = "Some requests build their address while the scripts run: such a request goes out only to a host named here, and a request to any other host is denied when it is made."

// HostQuestion is the prompt for one host of a note whose addresses are
// all written in the code: what the scripts can do, a warning when host is
// an address on the user's own machine or network, and what a yes means.
func HostQuestion(host string) string { return Question([]string{host}, false, false) }

// ManyHostsQuestion is the consolidated prompt for more than
// MaxHostPrompts hosts (see Question).
func ManyHostsQuestion(hosts []string) string { return Question(hosts, false, false) }

// maxListedHosts is how many hosts one question names; the rest are
// counted.
const maxListedHosts = 10

// Question is the one question asked about hosts: it names them (the
// first maxListedHosts, and counts the rest), warns about local addresses
// among them, says what happens to requests whose address the code builds
// while it runs (runtime), says what a yes means (oneRun: the note has no
// identity and nothing is remembered) and asks. A yes to it allows exactly
// the hosts it was built from.
func Question(hosts []string, runtime, oneRun bool) string {
	var lines []string
	where := "each of them"
	if len(hosts) == 1 {
		where = hosts[0]
		lines = append(lines, "This note's scripts can send data to "+hosts[0]+".")
	} else {
		shown := hosts[:min(len(hosts), maxListedHosts)]
		list := strings.Join(shown, ", ")
		if rest := len(hosts) - len(shown); rest > 0 {
			list += fmt.Sprintf(" and %d more", rest)
		}
		lines = append(lines, fmt.Sprintf("This note's scripts can send data to %d hosts: %s.", len(hosts), list))
	}
	if w := localWarning(hosts); w != "" {
		lines = append(lines, w)
	}
	if runtime {
		lines = append(lines, runtimeLine)
	}
	lines = append(lines, rememberedLine(where, oneRun))
	if len(hosts) == 1 {
		lines = append(lines, "Allow?")
	} else {
		lines = append(lines, fmt.Sprintf("Allow all %d?", len(hosts)))
	}
	return strings.Join(lines, "\n")
}

// Reach is where an address written in a note points, for the prompt's
// warning line.
type Reach int

// The reaches a prompt warns about.
const (
	// Public is an ordinary internet address or name: no warning.
	Public Reach = iota
	// OwnMachine is a loopback address or a localhost name.
	OwnMachine
	// OwnNetwork is a private, link-local, carrier-grade NAT or other
	// special-purpose address, cloud metadata addresses included.
	OwnNetwork
)

// ReachOf tells where the canonical host h points. Names other than
// localhost are Public: what they resolve to is vetted at connect time.
func ReachOf(h string) Reach {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return OwnMachine
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return Public
	}
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return OwnMachine
	case netclient.Vet(a, false) != nil:
		return OwnNetwork
	}
	return Public
}

// localWarning is the warning line for the hosts among hosts that point at
// the user's own machine or network, or "" when there are none.
func localWarning(hosts []string) string {
	var local []string
	machine := false
	network := false
	for _, h := range hosts {
		switch ReachOf(h) {
		case OwnMachine:
			machine = true
			local = append(local, h)
		case OwnNetwork:
			network = true
			local = append(local, h)
		}
	}
	if len(local) == 0 {
		return ""
	}
	where := "your own machine"
	switch {
	case machine && network:
		where = "your own machine or network"
	case network:
		where = "your own network (or a cloud metadata service)"
	}
	if len(local) == 1 {
		return "Warning: " + local[0] + " is an address on " + where + ", not on the internet."
	}
	if len(local) > maxListedHosts {
		local = append(local[:maxListedHosts:maxListedHosts], fmt.Sprintf("%d more", len(local)-maxListedHosts))
	}
	return "Warning: " + strings.Join(local, ", ") + " are addresses on " + where + ", not on the internet."
}

// QuestionLines splits a prompt into its lines, each sanitized with its
// invisible characters shown (sanitize.Visible), as inline
// text, for a display that draws lines itself (the viewer's dialog).
func QuestionLines(question string) []string {
	lines := strings.Split(question, "\n")
	for i, l := range lines {
		lines[i] = sanitize.Visible(l)
	}
	return lines
}

// NonInteractiveReason is printed once when prompts cannot be shown.
const NonInteractiveReason = "a grant cannot be given non-interactively; run markii in a terminal to allow network access"

// Prompter asks the person at the keyboard one yes/no question. The CLI
// answers on the terminal; the viewer answers with a dialog.
type Prompter interface {
	Ask(question string) (bool, error)
}

// Request is what the consent flow needs to know about one run.
type Request struct {
	// DocKey is the note's document key (its file:// URL).
	DocKey string
	// Key is the current closure key (see Key).
	Key string
	// Scan is the static scan of the same closure.
	Scan Result
	// BundleGrants are the bundle file grants the manifest declares; they
	// are forwarded without a separate prompt.
	BundleGrants []string
	// OneRun is set for a note without identity (read from standard
	// input): the question says a yes lasts for this run only.
	OneRun bool
}

// Decision is what a run may use.
type Decision struct {
	// Hosts are the hosts the run may reach.
	Hosts []string
	// BundleGrants are the bundle file grants the run may use.
	BundleGrants []string
	// Reused is set when a stored grant for this exact closure was used.
	Reused bool
	// Asked counts the prompts shown.
	Asked int
	// Stored is set when the answers were saved.
	Stored bool
}

// Resolve returns what a run at tier may use. A manual run uses a stored
// grant for this exact closure or asks (Consent); an auto run never asks
// and uses only a stored grant whose key equals req.Key (Stored).
func Resolve(ctx context.Context, tier script.Tier, p Prompter, store *Store, req Request) (Decision, error) {
	if tier == script.TierManual {
		return Consent(ctx, p, store, req)
	}
	return Stored(store, req.DocKey, req.Key)
}

// Stored returns the grant stored for docKey when it was made for exactly
// key, and an empty decision otherwise. It never prompts. An error (the
// device state could not be read) comes with an empty decision: nothing is
// granted.
func Stored(store *Store, docKey, key string) (Decision, error) {
	r, ok, err := store.Lookup(docKey)
	if err != nil {
		return Decision{}, fmt.Errorf("cannot read grants: %w", err)
	}
	if !ok || r.Key != key {
		return Decision{}, nil
	}
	return Decision{Hosts: r.AllowedHosts, BundleGrants: r.AllowedBundleGrants, Reused: true}, nil
}

// Consent runs the manual-trigger flow: a stored grant for this exact
// closure is used as it is; otherwise the literal hosts are asked about.
// Every question is one decision about exactly the hosts it names, and no
// later question changes an earlier answer: a note whose addresses are all
// written in the code gets one question per host (one question for all of
// them above MaxHostPrompts); a note that also builds addresses at run time
// gets one question naming every grantable host and saying that a request
// to any other host is denied. Only an outcome that allows something is
// stored; a full decline stores nothing and asks again next time. A
// prompter error stops the flow with nothing allowed.
func Consent(ctx context.Context, p Prompter, store *Store, req Request) (Decision, error) {
	bundle, ok := normalizeBundleGrants(req.BundleGrants)
	if !ok {
		bundle = filterBundleGrants(req.BundleGrants)
	}
	d, err := Stored(store, req.DocKey, req.Key)
	if err != nil {
		return Decision{}, err
	}
	if d.Reused {
		// A manual run forwards what the manifest declares today.
		d.BundleGrants = bundle
		return d, nil
	}
	d = Decision{BundleGrants: bundle}
	hosts := presentableHosts(req.Scan.Hosts)
	if len(hosts) == 0 {
		if len(bundle) > 0 {
			if err := store.Put(req.DocKey, Record{Key: req.Key, AllowedBundleGrants: bundle}); err != nil {
				return d, fmt.Errorf("cannot save grants: %w", err)
			}
			d.Stored = true
		}
		return d, nil
	}
	allowed, err := askHosts(ctx, p, hosts, req, &d.Asked)
	if err != nil {
		return Decision{BundleGrants: bundle, Asked: d.Asked}, err
	}
	if len(allowed) == 0 {
		return d, nil
	}
	d.Hosts = allowed
	if err := store.Put(req.DocKey, Record{Key: req.Key, AllowedHosts: allowed, AllowedBundleGrants: bundle}); err != nil {
		return d, fmt.Errorf("cannot save grants: %w", err)
	}
	d.Stored = true
	return d, nil
}

// presentableHosts keeps the hosts a question can name.
func presentableHosts(scanned []string) []string {
	hosts := make([]string, 0, len(scanned))
	for _, h := range scanned {
		if Presentable(h) {
			hosts = append(hosts, h)
		}
	}
	return hosts
}

// askHosts asks about hosts, one question for all of them above
// MaxHostPrompts or when the note builds addresses at run time, else one
// per host, counting the questions in asked, and returns the hosts
// allowed.
func askHosts(ctx context.Context, p Prompter, hosts []string, req Request, asked *int) ([]string, error) {
	ask := func(q string) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		*asked++
		yes, err := p.Ask(q)
		if err != nil {
			return false, fmt.Errorf("the grant prompt failed: %w", err)
		}
		return yes, nil
	}
	if len(hosts) > MaxHostPrompts || req.Scan.RuntimeAddresses {
		yes, err := ask(Question(hosts, req.Scan.RuntimeAddresses, req.OneRun))
		if err != nil || !yes {
			return nil, err
		}
		return hosts, nil
	}
	var allowed []string
	for _, h := range hosts {
		yes, err := ask(Question([]string{h}, false, req.OneRun))
		if err != nil {
			return nil, err
		}
		if yes {
			allowed = append(allowed, h)
		}
	}
	return allowed, nil
}

// filterBundleGrants keeps the known bundle grants of a list that also
// holds unknown ones.
func filterBundleGrants(list []string) []string {
	var keep []string
	for _, g := range list {
		if g == BundleRead || g == BundleWriteCache || g == legacyWriteCache {
			keep = append(keep, g)
		}
	}
	out, _ := normalizeBundleGrants(keep)
	return out
}

// TerminalPrompter asks on a terminal: the question, then " [y/N] "; a
// trimmed, case-insensitive "y" or "yes" allows, anything else denies.
// Only an answer typed while the question shows counts: just before the
// question is drawn, whatever the terminal received (keys typed ahead, the
// rest of a paste) is discarded, and the answer is read straight from the
// terminal one byte at a time, so no buffer reads ahead into the next
// question's input.
//
// Wrap, when set, fits one line of the question to the terminal (the
// command line passes markii's own wrapper at the terminal's width); the
// answer legend follows the last row.
type TerminalPrompter struct {
	in  io.Reader
	out io.Writer
	// Wrap breaks one sanitized line of a question into rows; nil writes
	// each line as it is.
	Wrap func(line string) []string
}

// NewTerminalPrompter returns a prompter reading answers from in and
// writing questions to out. When in is a terminal (*os.File), pending
// input is discarded before each answer is read.
func NewTerminalPrompter(in io.Reader, out io.Writer) *TerminalPrompter {
	return &TerminalPrompter{in: in, out: out}
}

// maxAnswer bounds one answer line.
const maxAnswer = 4096

// Ask implements Prompter. End of input is a refusal.
func (t *TerminalPrompter) Ask(question string) (bool, error) {
	// Discard first, then draw: a key pressed once the question shows is
	// an answer to it, however soon, and is never thrown away.
	if f, ok := t.in.(*os.File); ok {
		discardPending(f)
	}
	if _, err := io.WriteString(t.out, t.draw(question)); err != nil {
		return false, err
	}
	line, err := t.readLine()
	if err != nil {
		return false, err
	}
	ans := strings.ToLower(strings.TrimSpace(string(line)))
	return ans == "y" || ans == "yes", nil
}

// draw is the question as it is written: its lines, each wrapped when
// Wrap is set, the last ending in " [y/N]", and a space for the answer.
func (t *TerminalPrompter) draw(question string) string {
	lines := QuestionLines(question)
	lines[len(lines)-1] += " [y/N]"
	if t.Wrap != nil {
		for i, l := range lines {
			lines[i] = strings.Join(t.Wrap(l), "\n")
		}
	}
	return strings.Join(lines, "\n") + " "
}

// readLine reads one answer line, byte by byte so nothing after it is
// taken, keeping at most maxAnswer bytes; end of input ends it with a
// line feed written.
func (t *TerminalPrompter) readLine() ([]byte, error) {
	var line []byte
	var b [1]byte
	for {
		n, err := t.in.Read(b[:])
		switch {
		case n == 1 && b[0] == '\n':
			return line, nil
		case n == 1:
			if len(line) < maxAnswer {
				line = append(line, b[0])
			}
		case err == io.EOF:
			fmt.Fprintln(t.out)
			return line, nil
		case err != nil:
			return nil, err
		}
	}
}

// NonInteractive denies every question without asking and writes the
// reason ("markii: " + NonInteractiveReason) to Out once.
type NonInteractive struct {
	Out  io.Writer
	once sync.Once
}

// Ask implements Prompter.
func (n *NonInteractive) Ask(string) (bool, error) {
	n.once.Do(func() {
		if n.Out != nil {
			fmt.Fprintf(n.Out, "markii: %s\n", NonInteractiveReason)
		}
	})
	return false, nil
}
