// Package config reads the user's own markii settings. They live in one
// file in the user's config directory and nowhere else: nothing next to a
// note, inside a bundle or in the working directory can set any of them,
// because several of them widen what scripts can reach or make scripts run
// without a gesture.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/markii/markii/internal/oserr"
	"github.com/markii/markii/runtime/internal/safefile"
	"github.com/markii/markii/sanitize"
)

// FileName is the settings file inside the config directory.
const FileName = "config.json"

// MinRefreshSeconds is the shortest scheduled refresh interval; shorter
// values are raised to it.
const MinRefreshSeconds = 5

// DefaultMaxWidth is the widest layout markii takes from a terminal when
// the settings do not say: wider lines are hard to read.
const DefaultMaxWidth = 120

// MaxLayoutWidth is the widest layout markii draws: the largest maxWidth
// a settings file may give, and the largest --width.
const MaxLayoutWidth = 10000

// maxFileBytes bounds the settings file.
const maxFileBytes = 1 << 20

// Settings are the user's settings. The zero value is the default: scripts
// enabled, no run on open, no schedule, public addresses only, no packs.
type Settings struct {
	// ScriptsDisabled stops every trigger before any grant is read or any
	// worker is started.
	ScriptsDisabled bool
	// RunOnOpen runs a note's scripts at the auto tier when the viewer
	// opens it.
	RunOnOpen bool
	// RefreshIntervalSeconds is the scheduled refresh interval (0: none;
	// otherwise at least MinRefreshSeconds).
	RefreshIntervalSeconds int
	// AllowPrivateNetworkAddresses lets granted names resolve to private,
	// loopback, link-local and carrier-grade NAT addresses.
	AllowPrivateNetworkAddresses bool
	// Packs are absolute paths of pack folders.
	Packs []string
	// OpenLinksInBrowser lets the viewer's `o` key open an http or https
	// link in the system browser (off: it only shows the address).
	OpenLinksInBrowser bool
	// Mouse has the viewer take the mouse so that the wheel scrolls, as
	// `--mouse` does (off: the terminal keeps it to select text).
	Mouse bool
	// ShowURLs prints every link's address after its text in render and
	// the viewer, as `--show-urls` does.
	ShowURLs bool
	// MaxWidth caps the layout width taken from the terminal (0: the
	// default, DefaultMaxWidth; see WidthCap). An explicit --width is not
	// capped.
	MaxWidth int
	// Paging is when `markii render` sends its output through a pager
	// (the zero value, PagingAuto, when it is taller than the terminal).
	Paging Paging
	// Unknown are the keys the file holds that are not markii settings,
	// sorted (and clipped for display); they are ignored.
	Unknown []string
	// Path is the file the settings were read from ("" when none existed).
	Path string
}

// ErrNoDir is Dir's error when the environment names no config directory.
var ErrNoDir = errors.New("cannot find the config directory: set HOME to your home directory")

// Dir returns the settings directory for the platform goos, reading the
// environment through getenv: $XDG_CONFIG_HOME/markii when that is an
// absolute path, else $HOME/.config/markii (Linux and others);
// $HOME/Library/Application Support/markii (darwin); %APPDATA%\markii with a
// %USERPROFILE% fallback (windows). On macOS and Windows the device state
// lives here too; elsewhere it has its own directory (see state.Locate).
func Dir(goos string, getenv func(string) string) (string, error) {
	platform := ""
	if goos == "darwin" || goos == "windows" {
		platform = goos
	}
	for _, p := range dirPlaces {
		if v := getenv(p.env); p.goos == platform && v != "" && (!p.absolute || filepath.IsAbs(v)) {
			return filepath.Join(append([]string{v}, p.under...)...), nil
		}
	}
	return "", ErrNoDir
}

// dirPlace is one place the settings directory may be on a platform: the
// folder under the directory an environment variable names, which must be
// absolute when absolute is set.
type dirPlace struct {
	goos     string // "" is every platform but darwin and windows
	env      string
	absolute bool
	under    []string
}

// dirPlaces are the places Dir tries, in order, for each platform. A
// slice, not a map, so the linker lays it out and init allocates nothing.
var dirPlaces = []dirPlace{
	{"darwin", "HOME", true, []string{"Library", "Application Support", "markii"}},
	{"windows", "APPDATA", false, []string{"markii"}},
	{"windows", "USERPROFILE", false, []string{"AppData", "Roaming", "markii"}},
	{"", "XDG_CONFIG_HOME", true, []string{"markii"}},
	{"", "HOME", true, []string{".config", "markii"}},
}

// LoadFile reads settings from path. A missing file gives the defaults;
// anything else wrong with it is a one-line error that names the file. A
// named pipe, a device or a directory at the path (or a symbolic link to
// one) is refused without waiting on it; a link to a regular file is
// followed, as dotfile managers make them.
func LoadFile(path string) (Settings, error) {
	data, err := safefile.ReadFile(path, maxFileBytes, safefile.Options{})
	if errors.Is(err, os.ErrNotExist) {
		return Settings{}, nil
	}
	var se *safefile.Error
	if errors.As(err, &se) {
		if se.Problem == safefile.TooLarge {
			return Settings{}, fmt.Errorf("the settings file %s is larger than %d bytes; fix or remove it", path, maxFileBytes)
		}
		return Settings{}, fmt.Errorf("cannot read the settings file: %v; replace it with a regular file or remove it", se)
	}
	if err != nil {
		return Settings{}, fmt.Errorf("cannot read the settings file %s: %w", path, oserr.Cause(err))
	}
	s, err := Parse(data)
	if err != nil {
		return Settings{}, fmt.Errorf("the settings file %s is invalid: %w; fix or remove it", path, err)
	}
	s.Path = path
	return s, nil
}

// WidthCap is the widest layout to take from a terminal: MaxWidth, or
// DefaultMaxWidth when it is not set.
func (s Settings) WidthCap() int {
	if s.MaxWidth > 0 {
		return s.MaxWidth
	}
	return DefaultMaxWidth
}

// SyntaxError is a settings file that is not one well-formed JSON object,
// with the place where reading it stopped.
type SyntaxError struct {
	// Line and Column are 1-based; Column counts characters, not bytes.
	Line, Column int
	// Problem says what is wrong there.
	Problem string
	// Err is the JSON decoder's error the problem was read from.
	Err error
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Problem)
}

// Unwrap returns the JSON decoder's error (nil when there is none).
func (e *SyntaxError) Unwrap() error { return e.Err }

// syntaxErrorAt builds a SyntaxError for the byte at offset off of data
// (len(data) for its end).
func syntaxErrorAt(data []byte, off int64, problem string) *SyntaxError {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return &SyntaxError{
		Line:    bytes.Count(before, []byte{'\n'}) + 1,
		Column:  utf8.RuneCount(before[lineStart:]) + 1,
		Problem: problem,
	}
}

// decodeError turns what encoding/json reports for a settings file into a
// SyntaxError that names the place.
func decodeError(data []byte, err error) error {
	if e := syntaxError(data, err); e != nil {
		e.Err = err
		return e
	}
	return err
}

// syntaxError places err in data, or is nil when err is not a syntax
// error.
func syntaxError(data []byte, err error) *SyntaxError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		return syntaxErrorAt(data, se.Offset-1, strings.TrimPrefix(se.Error(), "json: "))
	case errors.Is(err, io.EOF) && len(bytes.TrimSpace(data)) == 0:
		return syntaxErrorAt(data, int64(len(data)), "the file is empty; it must hold a JSON object such as {}")
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return syntaxErrorAt(data, int64(len(data)), "the file ends before the JSON object does")
	case errors.As(err, &te):
		return syntaxErrorAt(data, firstNonSpace(data, 0), "it must be a JSON object, not "+te.Value)
	}
	return nil
}

// firstNonSpace is the offset of the first byte at or after from that is
// not JSON white space.
func firstNonSpace(data []byte, from int64) int64 {
	for from < int64(len(data)) && strings.IndexByte(" \t\r\n", data[from]) >= 0 {
		from++
	}
	return from
}

// Parse reads settings: one JSON object, each known key of the right type,
// nothing after it. A syntax error is a *SyntaxError naming its line and
// column; keys that are not markii settings are listed in Unknown and
// otherwise ignored, so a file written for a newer markii still works.
func Parse(data []byte) (Settings, error) {
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(data))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil {
		return s, decodeError(data, err)
	}
	if obj == nil {
		return s, syntaxErrorAt(data, firstNonSpace(data, 0), "it must be a JSON object, not null")
	}
	if after := firstNonSpace(data, dec.InputOffset()); after < int64(len(data)) {
		return s, syntaxErrorAt(data, after, "there is more text after the JSON object")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		read := settingReader(k)
		if read == nil {
			s.Unknown = append(s.Unknown, clip(k))
			continue
		}
		if err := read(&s, obj[k]); err != nil {
			return s, fmt.Errorf("%q %w", k, err)
		}
	}
	return s, nil
}

// settingReaders reads each known key into its field of Settings. An
// array, so that it is laid out by the linker, not built at start-up.
var settingReaders = [...]struct {
	key  string
	read func(*Settings, json.RawMessage) error
}{
	{"scriptsDisabled", func(s *Settings, v json.RawMessage) error { return boolField(v, &s.ScriptsDisabled) }},
	{"runOnOpen", func(s *Settings, v json.RawMessage) error { return boolField(v, &s.RunOnOpen) }},
	{"allowPrivateNetworkAddresses", func(s *Settings, v json.RawMessage) error { return boolField(v, &s.AllowPrivateNetworkAddresses) }},
	{"refreshIntervalSeconds", func(s *Settings, v json.RawMessage) (err error) {
		s.RefreshIntervalSeconds, err = intervalField(v)
		return err
	}},
	{"packs", func(s *Settings, v json.RawMessage) (err error) {
		s.Packs, err = packsField(v)
		return err
	}},
	{"openLinksInBrowser", func(s *Settings, v json.RawMessage) error { return boolField(v, &s.OpenLinksInBrowser) }},
	{"mouse", func(s *Settings, v json.RawMessage) error { return boolField(v, &s.Mouse) }},
	{"maxWidth", func(s *Settings, v json.RawMessage) (err error) {
		s.MaxWidth, err = maxWidthField(v)
		return err
	}},
	{"showUrls", func(s *Settings, v json.RawMessage) error { return boolField(v, &s.ShowURLs) }},
	{"paging", func(s *Settings, v json.RawMessage) (err error) {
		s.Paging, err = pagingField(v)
		return err
	}},
}

// settingReader returns the reader of a known key, or nil.
func settingReader(key string) func(*Settings, json.RawMessage) error {
	for _, r := range settingReaders {
		if r.key == key {
			return r.read
		}
	}
	return nil
}

func boolField(v json.RawMessage, dst *bool) error {
	if err := json.Unmarshal(v, dst); err != nil || string(v) == "null" {
		return errors.New("must be true or false")
	}
	return nil
}

func intervalField(v json.RawMessage) (int, error) {
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || string(v) == "null" {
		return 0, errors.New("must be a whole number of seconds")
	}
	if f != math.Trunc(f) || f < 0 || f > 7*24*3600 {
		return 0, errors.New("must be a whole number of seconds between 0 and 604800")
	}
	secs := int(f)
	if secs > 0 && secs < MinRefreshSeconds {
		secs = MinRefreshSeconds
	}
	return secs, nil
}

// Paging is when `markii render` pages its output, as bat's --paging.
type Paging uint8

// The paging modes.
const (
	// PagingAuto pages output taller than the terminal when stdout is one.
	PagingAuto Paging = iota
	// PagingAlways sends the output through the pager.
	PagingAlways
	// PagingNever writes the output to stdout.
	PagingNever
)

// PagingNames are the paging modes' names, as the setting and the flag
// spell them, in the order of the constants.
var PagingNames = []string{"auto", "always", "never"}

func (p Paging) String() string { return PagingNames[p] }

// ParsePaging reads a paging mode's name.
func ParsePaging(name string) (Paging, bool) {
	for i, n := range PagingNames {
		if n == name {
			return Paging(i), true
		}
	}
	return PagingAuto, false
}

func pagingField(v json.RawMessage) (Paging, error) {
	var name string
	if err := json.Unmarshal(v, &name); err == nil {
		if p, ok := ParsePaging(name); ok {
			return p, nil
		}
	}
	return PagingAuto, errors.New(`must be "auto", "always" or "never"`)
}

func maxWidthField(v json.RawMessage) (int, error) {
	var f float64
	if err := json.Unmarshal(v, &f); err != nil || string(v) == "null" || f != math.Trunc(f) || f < 0 || f > MaxLayoutWidth {
		return 0, fmt.Errorf("must be a whole number of columns between 0 (the default, %d) and %d", DefaultMaxWidth, MaxLayoutWidth)
	}
	return int(f), nil
}

func packsField(v json.RawMessage) ([]string, error) {
	var list []string
	if err := json.Unmarshal(v, &list); err != nil || string(v) == "null" {
		return nil, errors.New("must be a list of folder paths")
	}
	for _, p := range list {
		if p == "" || strings.ContainsRune(p, 0) || !filepath.IsAbs(p) {
			return nil, errors.New("must hold absolute folder paths only")
		}
	}
	return list, nil
}

func clip(s string) string {
	s = sanitize.Line(s)
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return s
}
