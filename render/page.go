package render

import (
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// Options are the inputs of Layout besides the document. Layout is a pure
// function of the document and these options.
type Options struct {
	// Width is the layout width in terminal cells (at least 1).
	Width int
	// WikiLinks resolves a wikilink's target note and heading to the
	// relative URL of the note it names, or "" when there is no such
	// note; nil resolves none (a wikilink then shows its label).
	WikiLinks func(target, heading string) string
	// Level is the color level the lines will be encoded at; layout needs
	// it for hyperlink fallbacks and color-less forms.
	Level ansi.Level
	// Theme is the palette.
	Theme theme.Theme
	// Values are the script values the note reads; nil means none.
	Values value.Values
	// Now is the clock for `relative` dates.
	Now time.Time
	// Live, when set, lays out the interactive forms of tabs and details
	// and applies folds; nil means the static form.
	Live *LiveState
	// Registry maps directive names to components; nil means the standard
	// registry.
	Registry *Registry
	// Images maps an image source, exactly as the document writes it (a
	// figure's src or an image's URL), to its decoded picture. Pictures
	// are drawn only at the 256-color and truecolor levels; nil means
	// every image keeps its text form.
	Images map[string]*Picture
	// ImageProtocol, when set, shows pictures that carry a PNG through
	// that terminal graphics protocol instead of half-block cells. The
	// caller chooses it; layout never asks the terminal.
	ImageProtocol ansi.ImageProtocol
	// NoEmoji draws emoji shortcodes as written (`:tada:`) instead of as
	// the emoji.
	NoEmoji bool
	// ShowURLs prints every link's address after its text, as the
	// no-color level does, also where the text carries a hyperlink.
	ShowURLs bool
	// Packs maps each installed pack's name to the engine its components
	// target. A pack named here is not reported as missing, and its
	// components' fallback boxes say why markii cannot draw them.
	Packs map[string]string
	// ScrollWidth, when more than Width, is for a viewer that scrolls
	// sideways: a table that cannot fit its width without breaking a
	// column's longest word, and a code block with lines longer than its
	// width, are laid out wider, up to ScrollWidth cells, instead of
	// being squeezed, stacked or broken, unless a component's frame holds
	// them; Page.Wide says which top-level blocks hold such lines. At
	// most Width (the default), every line fits Width.
	ScrollWidth int
}

// WideBlock is a block laid out wider than the page (Options.ScrollWidth):
// its lines Line to EndLine (one past the last) are up to Width cells.
type WideBlock struct {
	Line, EndLine, Width int
}

// BlockID identifies a focusable block or foldable heading across layouts
// of the same document: its ordinal among blocks of its kind in document
// order.
type BlockID int

// LiveState is the viewer's interactive state that layout honours.
type LiveState struct {
	// Focus is the focused block, or -1.
	Focus BlockID
	// ActiveTab maps a tabs block to its active panel index.
	ActiveTab map[BlockID]int
	// Open maps a details block to whether it is open.
	Open map[BlockID]bool
	// Folded maps a heading to whether its section is folded.
	Folded map[BlockID]bool
}

// FocusKind is the kind of something on a page a viewer can focus.
type FocusKind int

// Kinds of focusable things: tabs and details blocks (Page.Focusables)
// and links (Page.Links).
const (
	FocusTabs FocusKind = iota
	FocusDetails
	FocusLink
)

// Focusable is a tabs or details block the viewer can focus.
type Focusable struct {
	// ID names the block across layouts (see BlockID).
	ID   BlockID
	Kind FocusKind
	// Line and EndLine are the first and one-past-last output lines.
	Line, EndLine int
	// Label is the focused-state description (active tab or details title).
	Label string
	// Panels are a tabs block's panel labels.
	Panels []string
	// Open reports whether a details block is open.
	Open bool
	// Mark is the blank gutter in front of a live block's header, where a
	// viewer draws its focus mark; Title is the active tab's label or the
	// details title. Either is empty when the block draws none.
	Mark, Title Range
	// Hidden is the text of what a live tabs or details block does not
	// show (its inactive panels, a closed body), so a viewer can search
	// it and reveal a match.
	Hidden []HiddenPanel
	// MarkTarget and TitleTarget are the targets (from Context.NewTarget)
	// a component puts on the spans of its gutter and title; Layout finds
	// those spans on the finished page and fills Mark and Title.
	MarkTarget, TitleTarget ansi.Target
}

// HiddenPanel is the text of one part of a live block the page does not
// show: laid out at the page's width, one string per line, without blank
// lines, followed by the text of the blocks hidden inside it.
type HiddenPanel struct {
	// Panel is the index of an inactive tab panel (0 for a details body).
	Panel int
	Lines []string
}

// Range is part of one output line: bytes From to To of the line's text
// (Line.Text). It is empty when From == To.
type Range struct {
	Line, From, To int
}

// Empty reports whether the range covers nothing.
func (r Range) Empty() bool { return r.From == r.To }

// HeadingRef is a heading in the laid-out page.
type HeadingRef struct {
	ID    BlockID
	Level int
	Text  string
	// Line is the heading's first output line; EndLine is one past its
	// last (a heading may wrap, and a level 1 heading has a rule under
	// it), inside a component as well.
	Line    int
	EndLine int
}

// Page is a laid-out document.
type Page struct {
	// Lines are the page's lines, unless a Packer laid it out: then
	// Lines is nil and Packed holds them.
	Lines    []ansi.Line
	Packed   *ansi.PackedLines
	Headings []HeadingRef
	// Focusables are the page's tabs and details blocks, in the order
	// they appear on it.
	Focusables []Focusable
	// Links are the page's links, in the order they appear on it.
	Links       Links
	Diagnostics []string
	// Wide are the blocks laid out wider than the page, in page order.
	Wide []WideBlock
}
