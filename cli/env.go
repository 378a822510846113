package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/markii/markii/runtime/audit"
	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/runtime/run"
	"github.com/markii/markii/runtime/state"
	"github.com/markii/markii/sanitize"
)

// settings reads the user's own settings from the config directory the
// environment names. Settings are never read from a note, a bundle or
// the working directory.
func (c *invocation) settings() (config.Settings, error) {
	dir, err := config.Dir(runtime.GOOS, c.getenv)
	if err != nil {
		return config.Settings{}, err
	}
	return config.LoadFile(filepath.Join(dir, config.FileName))
}

// settingsOrDefaults is settings, or the defaults when the environment
// names no config directory (no HOME), as every command starts.
func (c *invocation) settingsOrDefaults() (config.Settings, error) {
	s, err := c.settings()
	if errors.Is(err, config.ErrNoDir) {
		return config.Settings{}, nil
	}
	return s, err
}

// deviceState opens the device state (grants, values, cache) where the
// environment puts it, moving an earlier version's state file into place
// on first use. What the store does on its own (a damaged file moved
// aside) is reported on stderr.
func (c *invocation) deviceState() (*state.Store, error) {
	loc, err := state.Locate(runtime.GOOS, c.getenv)
	if err != nil {
		return nil, err
	}
	return state.Open(loc.Dir, state.Options{
		Legacy: loc.Legacy,
		Warn:   func(err error) { fmt.Fprintf(c.stdio.Err, "markii: %s\n", sanitize.Line(err.Error())) },
	}), nil
}

// runService is the run service for running n's scripts: the user's
// settings read at each run, the device state, and the isolate. A note
// from a file keeps its grants, values and cache in the device state; when
// the environment names no place for it (no HOME), the run is refused
// rather than kept in memory and lost when markii exits. A note from
// standard input has no identity and keeps nothing.
func (c *invocation) runService(n *note) (*run.Service, error) {
	svc := &run.Service{Settings: c.settingsOrDefaults, Version: Version}
	if n.Key == "" {
		return svc, nil
	}
	st, err := c.deviceState()
	if err != nil {
		return nil, failf("cannot save values: %w", err)
	}
	svc.Store = run.DeviceStore{State: st}
	svc.Audit = audit.ForStore(st, audit.Options{})
	return svc, nil
}
