package state

import (
	"errors"
	"path/filepath"

	"github.com/markii/markii/runtime/config"
)

// LegacyFileName is the single state file earlier markii versions kept in
// the config directory.
const LegacyFileName = "state.json"

// Location is where the device state lives on a platform.
type Location struct {
	// Dir is the state directory.
	Dir string
	// Legacy is where earlier markii versions kept the whole state in one
	// file; Open with Options.Legacy set to it moves that file's contents
	// into Dir once.
	Legacy string
}

// Locate returns the state location for the platform goos, reading the
// environment through getenv. Linux and others: $XDG_STATE_HOME/markii
// when that is an absolute path, else $HOME/.local/state/markii (the
// settings stay in the config directory). macOS and Windows keep the state
// in the platform's application-data directory, beside the settings (see
// config.Dir). Legacy is state.json in the config directory.
func Locate(goos string, getenv func(string) string) (Location, error) {
	cfg, err := config.Dir(goos, getenv)
	var loc Location
	if err == nil {
		loc.Legacy = filepath.Join(cfg, LegacyFileName)
	}
	switch goos {
	case "darwin", "windows":
		if err != nil {
			return Location{}, err
		}
		loc.Dir = cfg
		return loc, nil
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		loc.Dir = filepath.Join(x, "markii")
		return loc, nil
	}
	if home := getenv("HOME"); home != "" && filepath.IsAbs(home) {
		loc.Dir = filepath.Join(home, ".local", "state", "markii")
		return loc, nil
	}
	return Location{}, errors.New("cannot find the state directory: set HOME to your home directory")
}
