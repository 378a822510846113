package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/theme"
	"github.com/markii/markii/value"
)

// ConfigName is the optional configuration file of a note folder.
const ConfigName = "markii-snapshot.json"

// maxConfigBytes caps a configuration file.
const maxConfigBytes = 1 << 20

// DefaultNow is the clock of every snapshot whose note has no "now" of its
// own: relative dates count from it, so they never change with the day.
var DefaultNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Config is a note folder's configuration file, markii-snapshot.json:
//
//	{
//	  "width": [40, 80], "color": ["never", "truecolor"], "theme": ["dark"],
//	  "height": 24,
//	  "notes": {
//	    "report.mk.md": {
//	      "values": "report.values.json",
//	      "now": "2026-03-01T09:00:00Z",
//	      "images": "blocks",
//	      "keys": {"open-tab": "Tab Enter", "find": "/word Enter"}
//	    }
//	  }
//	}
//
// width, color and theme replace the default matrix for the folder's notes
// (flags replace both); height is the viewer's height for key scripts.
// Under notes, each note (by file or bundle name) may pin its script
// values (a values file in the folder, as --values reads it) and its clock
// (RFC 3339), draw its local pictures (images: off, the default, blocks,
// kitty or iterm, as render --images; in the static rendering at 256
// colors and truecolor), and name key scripts whose final viewer screen
// is snapshotted in every variant besides the static rendering.
type Config struct {
	Width  []int                 `json:"width"`
	Color  []string              `json:"color"`
	Theme  []string              `json:"theme"`
	Height int                   `json:"height"`
	Notes  map[string]NoteConfig `json:"notes"`
}

// NoteConfig is one note's overrides in a Config.
type NoteConfig struct {
	Values string            `json:"values"`
	Now    string            `json:"now"`
	Images string            `json:"images"`
	Keys   map[string]string `json:"keys"`
}

// folder is a note folder's configuration, read and checked.
type folder struct {
	cfg  Config
	path string // the configuration file, "" when there is none
}

// readFolder reads dir's configuration file, if there is one.
func readFolder(dir string) (*folder, error) {
	path := filepath.Join(dir, ConfigName)
	data, err := readRegular(path, maxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return &folder{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the snapshot configuration %s: %w", path, err)
	}
	f := &folder{path: path}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f.cfg); err != nil {
		return nil, fmt.Errorf("the snapshot configuration %s: %w", path, err)
	}
	if err := f.cfg.check(); err != nil {
		return nil, fmt.Errorf("the snapshot configuration %s: %w", path, err)
	}
	return f, nil
}

// check reports the first setting of c out of its range.
func (c *Config) check() error {
	if c.Height < 0 || c.Height > 1000 {
		return fmt.Errorf("height %d is not between 1 and 1000", c.Height)
	}
	for name, nc := range c.Notes {
		if err := nc.check(); err != nil {
			return fmt.Errorf("note %q: %w", name, err)
		}
	}
	return nil
}

// check reports the first setting of nc out of its range.
func (nc NoteConfig) check() error {
	if _, ok := notefile.ParseImageMode(nc.Images); !ok && nc.Images != "" {
		return fmt.Errorf("images %q is not one of %s", nc.Images, strings.Join(notefile.ImageModes, ", "))
	}
	for k := range nc.Keys {
		if !validKeysName(k) {
			return fmt.Errorf("key script name %q is not lower-case letters, digits, - and _ (at most %d)", k, maxKeysName)
		}
	}
	return nil
}

// Matrix is the variants every note is drawn in, before key scripts.
type Matrix struct {
	Widths []int
	Levels []ansi.Level
	Themes []string
}

// DefaultMatrix is width 80, never and truecolor, theme dark.
func DefaultMatrix() Matrix {
	return Matrix{Widths: []int{80}, Levels: []ansi.Level{ansi.None, ansi.TrueColor}, Themes: []string{"dark"}}
}

// Check reports the first value of m that cannot be drawn.
func (m Matrix) Check() error {
	for _, w := range m.Widths {
		if w < 1 || w > MaxWidth {
			return fmt.Errorf("width %d is not between 1 and %d", w, MaxWidth)
		}
	}
	for _, t := range m.Themes {
		if _, err := theme.ByName(t); err != nil {
			return fmt.Errorf("theme %q is not a built-in theme (%s); snapshots use built-in themes only, so they do not depend on a user's files", t, strings.Join(theme.Names, ", "))
		}
	}
	if n := len(m.Widths) * len(m.Levels) * len(m.Themes); n > maxVariants {
		return fmt.Errorf("the matrix has %d variants, over the limit of %d", n, maxVariants)
	}
	return nil
}

// matrix is the folder's matrix: each axis from flags when given, else
// from the configuration file, else the default.
func (f *folder) matrix(flags Matrix) (Matrix, error) {
	def := DefaultMatrix()
	levels, err := f.levels()
	if err != nil {
		return def, f.wrap(err)
	}
	m := Matrix{
		Widths: firstSet(flags.Widths, f.cfg.Width, def.Widths),
		Levels: firstSet(flags.Levels, levels, def.Levels),
		Themes: firstSet(flags.Themes, f.cfg.Theme, def.Themes),
	}
	if err := m.Check(); err != nil {
		return m, f.wrap(err)
	}
	return m, nil
}

// levels is the configuration file's color levels, nil when it sets none.
func (f *folder) levels() ([]ansi.Level, error) {
	var out []ansi.Level
	for _, c := range f.cfg.Color {
		l, err := ParseLevel(c)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// wrap names the configuration file, when there is one, in err.
func (f *folder) wrap(err error) error {
	if f.path == "" {
		return err
	}
	return fmt.Errorf("the snapshot configuration %s: %w", f.path, err)
}

// firstSet is the first of axes that is not empty.
func firstSet[T any](axes ...[]T) []T {
	for _, a := range axes {
		if len(a) > 0 {
			return a
		}
	}
	return nil
}

// variants is every variant of the note named name.
func (f *folder) variants(m Matrix, name string) []Variant {
	keys := sortedKeys(f.cfg.Notes[name].Keys)
	var out []Variant
	for _, w := range m.Widths {
		for _, l := range m.Levels {
			for _, t := range m.Themes {
				out = append(out, Variant{Width: w, Level: l, Theme: t})
				for _, k := range keys {
					out = append(out, Variant{Width: w, Level: l, Theme: t, Keys: k, Height: f.cfg.Height})
				}
			}
		}
	}
	return out
}

// pins are what a note's rendering is pinned to: its values and clock,
// and how its pictures are drawn.
type pins struct {
	values value.Values
	now    time.Time
	images notefile.ImageMode
	keys   map[string]string
}

// pinsFor reads the pins of the note named name in folder dir.
func (f *folder) pinsFor(dir, name string) (pins, error) {
	nc := f.cfg.Notes[name]
	p := pins{now: DefaultNow, keys: nc.Keys}
	p.images, _ = notefile.ParseImageMode(nc.Images) // checked by readFolder
	if nc.Now != "" {
		t, err := time.Parse(time.RFC3339, nc.Now)
		if err != nil {
			return p, fmt.Errorf("the snapshot configuration %s: note %q: now %q is not an RFC 3339 time such as 2026-01-02T15:04:05Z", f.path, name, nc.Now)
		}
		p.now = t
	}
	if nc.Values != "" {
		if !filepath.IsLocal(nc.Values) {
			return p, fmt.Errorf("the snapshot configuration %s: note %q: values file %q is not inside the folder", f.path, name, nc.Values)
		}
		v, err := notefile.ReadValues(filepath.Join(dir, nc.Values))
		if err != nil {
			return p, err
		}
		p.values = v
	}
	return p, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slicesSort(keys)
	return keys
}
