// Package viewer is markii's full-screen note viewer: a bubbletea program
// composed of small models (reader, search, table of contents, help,
// dialog, diagnostics) over a page that render lays out. Note content is
// encoded only by package ansi, one visible window per frame; lipgloss
// and the viewer's own styles touch only the chrome around it.
//
// The viewer knows nothing about Lua: it asks a Runner to run a note's
// scripts and receives plain progress values back.
package viewer

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	xansi "github.com/charmbracelet/x/ansi"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/render"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/runtime/signature"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// Note is a loaded note as the viewer shows it.
type Note struct {
	// Name is shown in the status bar.
	Name string
	// Path is the note's absolute path on disk ("" for stdin); links are
	// resolved against its folder.
	Path string
	// Source is the document's bytes.
	Source []byte
	// Values are the stored script values the note reads.
	Values value.Values
	// Watch lists the files and folders whose change reloads the note
	// (the file itself, or a bundle and its scripts).
	Watch []string
	// Diagnostics are load-time notices for the diagnostics pane.
	Diagnostics []string
	// Images are the note's decoded pictures by source as written (see
	// render.Options.Images); nil draws every image as text.
	Images map[string]*render.Picture
	// Pictures, when set and Images is nil, decodes the note's pictures
	// and says which images were refused. The viewer calls it once, in the
	// background after the first frame, and lays the note out again with
	// what it returns.
	Pictures func() (map[string]*render.Picture, []string)
	// Signature is the note's signature status, checked by the caller
	// against the reader's trust file. It is shown (status bar, ? and D
	// panes) and read by nothing else.
	Signature signature.Status
}

// Loader loads the note at an absolute path: for live reload of the open
// note and for following a link to another note. The viewer lays the note
// out at once, so its pictures come decoded (Images), not as a decoder.
type Loader func(path string) (*Note, error)

// Asker asks the person at the keyboard one yes/no question and waits for
// the answer; it returns false when ctx ends first.
type Asker func(ctx context.Context, question string) (bool, error)

// ProgressKind says what a Progress reports.
type ProgressKind int

// Kinds of run progress.
const (
	// ProgressPlan lists the scripts the run will execute, in order.
	ProgressPlan ProgressKind = iota
	// ProgressDone is one script's outcome.
	ProgressDone
	// ProgressNotice is a host-side diagnostic line (a declaration
	// mismatch, an address built at run time, a denied request's host).
	ProgressNotice
)

// Progress is one report from a run, in plain values.
type Progress struct {
	Kind ProgressKind
	// Scripts are the planned script names (ProgressPlan).
	Scripts []string
	// Script is the script a ProgressDone reports.
	Script string
	// Outcome is how the script ended (ProgressDone), as the runtime
	// classified it; the viewer makes its display text and merges its
	// value into the page's with value.Merge.
	Outcome script.Outcome
	// Notice is the notice text (ProgressNotice).
	Notice string
}

// Runner runs the open note's scripts once at the tier of trigger. It
// reads the note from disk at the start of every run, so a changed script
// means a changed closure key and its old grant no longer applies. A
// manual run asks through ask; auto and scheduled runs never ask. Run
// returns when every script is done or ctx ends (which stops the worker).
type Runner interface {
	Run(ctx context.Context, trigger script.Trigger, ask Asker, report func(Progress)) error
}

// Preparer is a Runner that can make its next run start sooner (the
// cli's starts a confined worker ahead of it). The viewer calls Prepare
// once for each note it opens, after the note's first frame has had time
// to reach the terminal, so that the preparation never delays that frame.
type Preparer interface {
	Prepare()
}

// Options configure a viewer.
type Options struct {
	// Note is the note to show first.
	Note *Note
	// Level is the color level note content and chrome are encoded at.
	Level ansi.Level
	// Theme is the palette.
	Theme theme.Theme
	// Width is the page's layout width until the terminal reports its
	// size (0 means 80).
	Width int
	// FixedWidth keeps the page at Width whatever the terminal's size (a
	// --width flag); the status bar and dialogs still use the terminal's.
	FixedWidth bool
	// MaxWidth caps the page width taken from the terminal at every
	// resize (the maxWidth setting); 0 is no cap.
	MaxWidth int
	// ShowURLs prints every link's address after its text (--show-urls).
	ShowURLs bool
	// NoEmoji draws emoji shortcodes as written (--no-emoji).
	NoEmoji bool
	// Now is the clock for relative dates; nil means time.Now.
	Now func() time.Time
	// Packs are the installed packs by name with their engine (see
	// render.Options.Packs).
	Packs map[string]string
	// Load reloads the open note and opens linked notes; nil turns live
	// reload and note links off.
	Load Loader
	// Watch turns live reload on (needs Load).
	Watch bool
	// Runner runs the first note's scripts; nil means scripts cannot run.
	Runner Runner
	// ScriptsDisabled is the user's setting that turns every trigger off.
	ScriptsDisabled bool
	// RunOnOpen runs the scripts once at the auto tier when the viewer
	// opens (the user's own setting).
	RunOnOpen bool
	// RefreshInterval re-runs the scripts at the scheduled tier on a
	// timer; zero is off and anything under 5 s is raised to 5 s.
	RefreshInterval time.Duration
	// Editor is the command that edits the open note's file (`e`, `v`),
	// the file's path appended; empty turns editing off.
	Editor []string
	// Library, when set, is a folder of notes listed first (markii view
	// DIR); Open opens the one the reader picks, which then is the note
	// the viewer shows, runs and reloads. Note is not shown until then.
	Library *Library
	Open    Opener
	// Files are the notes named on the command line, by path, when there
	// are several (markii view a.md b.md): Note is the first one's, and
	// :n and :p open the others through Open.
	Files []string
	// Mouse has the viewer take the mouse so that the wheel scrolls; off,
	// the terminal keeps it and text can be selected as anywhere else.
	Mouse bool
	// OpenBrowser, when set, opens an http or https link in a browser on
	// `o`; nil (the default) only shows the address.
	OpenBrowser func(url string) error
	// Memory is told when each layout starts and ends, so that the
	// program, which owns the process's memory settings, can fit them to
	// the page (markii's cli passes a gctune.Viewer); nil for none.
	Memory MemoryTuner
}

// MemoryTuner fits the process's memory settings to the viewer's work.
type MemoryTuner interface {
	// Layout is called as a layout starts; the function it returns is
	// called as the layout ends.
	Layout() (done func())
}

// maxFPS is how many frames a second the viewer draws at most: the most
// bubbletea draws.
const maxFPS = 120

// MinRefresh is the shortest refresh interval.
const MinRefresh = 5 * time.Second

// Result is what a viewer session leaves for the command line to report
// once the terminal is back.
type Result struct {
	// Outcomes are the script outcomes of the session's last run, in run
	// order (ProgressDone reports).
	Outcomes []Progress
	// Notices are the host notices of the last run.
	Notices []string
	// Diagnostics are the render diagnostics of the first note.
	Diagnostics []string
}

// WarmUp starts building, on other cores, what the first frame needs and
// the process builds only once: the cell-width table of the characters
// above ASCII that bubbletea's renderer reads through go-runewidth (about
// ten milliseconds of work on the first character it measures), and the
// parser and tables of the first parse and layout (render.WarmUp). Call
// it as soon as a viewer is known to be coming, before the note is read.
func WarmUp() {
	go xansi.StringWidthWc("─")
	go render.WarmUp()
}

// Run shows the viewer on a terminal until the reader quits. The terminal
// is restored on every exit, also after an internal error, which is
// returned as one line.
func Run(opt Options, in io.Reader, out io.Writer) (res *Result, err error) {
	m := New(opt)
	if in == nil {
		in = os.Stdin
	}
	p := tea.NewProgram(m,
		tea.WithInput(in),
		tea.WithOutput(out),
		tea.WithoutCatchPanics(),
		// The frame is already encoded at the level the caller chose;
		// bubbletea passes its colors through rather than picking a
		// profile from the environment.
		tea.WithColorProfile(colorprofile.TrueColor),
		// At the default 60 frames a second a key waits up to 16.7 ms
		// for the next frame on its own.
		tea.WithFPS(maxFPS),
	)
	defer func() {
		if r := recover(); r != nil {
			_ = p.ReleaseTerminal()
			m.shutdown()
			err = fmt.Errorf("the viewer stopped after an internal error (%v); please report it", r)
		}
	}()
	final, err := p.Run()
	fm, ok := final.(*Model)
	if !ok {
		fm = m
	}
	fm.shutdown()
	if fm.failure != nil {
		return fm.result(), fm.failure
	}
	if err != nil {
		return fm.result(), fmt.Errorf("the viewer stopped: %w", err)
	}
	return fm.result(), nil
}
