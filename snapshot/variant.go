// Package snapshot checks notes against stored snapshots of their
// rendering: golden-fixture testing as one command (markii snapshot) and
// one Go call (Check). It finds the notes under a set of paths, expands
// each note's variant matrix (width × color level × theme, and the
// viewer's key scripts), renders every variant in this process, in
// parallel, with pinned values and a pinned clock, compares the bytes
// with the stored snapshot and writes new or pending ones only inside the
// note folder's snapshot folder.
//
// A snapshot lives in the folder "__snapshots__" beside its note, one file
// per note and variant: NOTE.wWIDTH.COLOR.THEME[.KEYS].snap, where NOTE is
// the note's file (or bundle) name. Its first line is a header naming the
// format version, the variant and the body's length; it never holds a
// markii version or a time, so a snapshot is byte-stable. A changed or new
// rendering that is not accepted is written beside it as NAME.snap.new.
package snapshot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/markii/markii/ansi"
)

// Dir is the name of the snapshot folder beside the notes.
const Dir = "__snapshots__"

// Ext is a snapshot file's extension; PendingExt is added to a pending one.
const (
	Ext        = ".snap"
	PendingExt = ".new"
)

// FormatVersion is the snapshot file format's version, in every header.
const FormatVersion = 1

// headerPrefix starts every snapshot file.
const headerPrefix = "markii-snapshot "

// Bounds on what a matrix may ask for.
const (
	MaxWidth    = 1000
	maxVariants = 256
	maxKeysName = 40
)

// Variant is one way a note is drawn.
type Variant struct {
	// Width is the layout width in cells.
	Width int
	// Level is the color level.
	Level ansi.Level
	// Theme is a built-in theme's name.
	Theme string
	// Keys names the key script whose final viewer screen is the
	// snapshot; "" is the static rendering.
	Keys string
	// Height is the viewer's height for a key script (0: the default).
	Height int
}

// LevelName is the level as --color spells it: never, 16, 256, truecolor.
func LevelName(l ansi.Level) string {
	if l == ansi.None {
		return "never"
	}
	return l.String()
}

// ParseLevel reads a --color value other than auto.
func ParseLevel(s string) (ansi.Level, error) {
	if l, ok := ansi.ParseLevel(s); ok {
		return l, nil
	}
	return 0, fmt.Errorf("color %q is not never, 16, 256 or truecolor", s)
}

// FileName is the snapshot file name of note's variant v.
func (v Variant) FileName(note string) string {
	name := fmt.Sprintf("%s.w%d.%s.%s", note, v.Width, LevelName(v.Level), v.Theme)
	if v.Keys != "" {
		name += "." + v.Keys
	}
	return name + Ext
}

// String names the variant for messages: "w80 truecolor dark [keys]".
func (v Variant) String() string {
	s := fmt.Sprintf("w%d %s %s", v.Width, LevelName(v.Level), v.Theme)
	if v.Keys != "" {
		s += " keys " + v.Keys
	}
	return s
}

// header is the first line of a snapshot of v with a body of n bytes.
func (v Variant) header(n int) string {
	keys := v.Keys
	if keys == "" {
		keys = "-"
	}
	return fmt.Sprintf("%s%d width=%d color=%s theme=%s keys=%s bytes=%d\n", headerPrefix, FormatVersion, v.Width, LevelName(v.Level), v.Theme, keys, n)
}

// encodeFile is the snapshot file of v holding body.
func (v Variant) encodeFile(body []byte) []byte {
	h := v.header(len(body))
	out := make([]byte, 0, len(h)+len(body))
	return append(append(out, h...), body...)
}

// Problems with a file found where a snapshot belongs.
var (
	// ErrForeign is a file that does not start with a snapshot header
	// (another tool's file, a binary, an empty file).
	ErrForeign = errors.New("it is not a markii snapshot (no snapshot header)")
	// ErrTruncated is a snapshot whose body is not as long as its header
	// says.
	ErrTruncated = errors.New("it is truncated or was edited: its length is not the one its header gives")
	// ErrOtherVariant is a snapshot whose header names another variant or
	// format version than its file name.
	ErrOtherVariant = errors.New("its header names another variant or format version than its file name")
)

// decodeFile returns the body of a snapshot file of v, or why the file is
// not one.
func (v Variant) decodeFile(data []byte) ([]byte, error) {
	nl := strings.IndexByte(string(data[:min(len(data), 512)]), '\n')
	if !strings.HasPrefix(string(data), headerPrefix) || nl < 0 {
		return nil, ErrForeign
	}
	head := string(data[:nl+1])
	i := strings.LastIndex(head, " bytes=")
	if i < 0 {
		return nil, ErrForeign
	}
	n, err := strconv.Atoi(strings.TrimSuffix(head[i+len(" bytes="):], "\n"))
	body := data[nl+1:]
	if err != nil || n != len(body) {
		return nil, ErrTruncated
	}
	if head != v.header(n) {
		return nil, ErrOtherVariant
	}
	return body, nil
}

// validKeysName reports whether name can name a key script in a file name.
func validKeysName(name string) bool {
	return name != "" && len(name) <= maxKeysName && strings.TrimLeft(name, keysNameBytes) == ""
}

// keysNameBytes are the bytes a key script's name may hold.
const keysNameBytes = "abcdefghijklmnopqrstuvwxyz0123456789-_"
