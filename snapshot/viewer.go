package snapshot

import (
	"context"
	"fmt"
	"time"

	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/render"
	"github.com/markii/markii/viewer"
)

// DefaultHeight is the viewer's height for a key script when the folder's
// configuration gives none.
const DefaultHeight = 24

// Screen is the viewer's final screen for a key script (see
// viewer.ParseKeys): the real viewer, run headless at opt's width and
// height rows (0: DefaultHeight), with opt's level, theme, values and
// clock.
func Screen(n *notefile.Note, opt render.Options, height int, script string) ([]byte, error) {
	keys, err := viewer.ParseKeys(script)
	if err != nil {
		return nil, err
	}
	if height <= 0 {
		height = DefaultHeight
	}
	now := opt.Now
	vopt := viewer.Options{
		Note:       &viewer.Note{Name: n.Name, Path: n.Path, Source: n.Source, Values: opt.Values, Diagnostics: n.Warnings},
		Level:      opt.Level,
		Theme:      opt.Theme,
		Width:      opt.Width,
		FixedWidth: true,
		NoEmoji:    opt.NoEmoji,
		ShowURLs:   opt.ShowURLs,
		Now:        func() time.Time { return now },
	}
	screen, err := viewer.Screen(context.Background(), vopt, opt.Width, height, keys)
	if err != nil {
		return nil, fmt.Errorf("the viewer's screen: %w", err)
	}
	return screen, nil
}
