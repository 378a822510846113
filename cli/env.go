package cli

import (
	"fmt"
	"path/filepath"
	"runtime"

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

// runService is the run service for this invocation: the user's settings
// read at each run, the device state, and the isolate.
func (c *invocation) runService() *run.Service {
	svc := &run.Service{Settings: c.settings, Version: Version}
	if st, err := c.deviceState(); err == nil {
		svc.Store = run.DeviceStore{State: st}
	}
	return svc
}
