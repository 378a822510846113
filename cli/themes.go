package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/markii/markii/runtime/config"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
)

// themesDir is the folder of the user's theme files in the config
// directory: NAME.json there is the theme NAME.
const themesDir = "themes"

// loadTheme returns the theme called name: a built-in one, else the
// user's file themes/NAME.json in the config directory, validated.
func (c *invocation) loadTheme(name string) (theme.Theme, error) {
	if t, err := theme.ByName(name); err == nil {
		return t, nil
	}
	if !themeFileName(name) {
		return theme.Theme{}, usagef("unknown theme %q: a theme is dark, light, high-contrast or the name of a file in your config's themes folder", name)
	}
	dir, err := userThemesDir(c.getenv)
	if err != nil {
		return theme.Theme{}, usagef("unknown theme %q (built-in: %s): %s", name, strings.Join(theme.Names, ", "), err)
	}
	path := filepath.Join(dir, name+".json")
	t, err := readThemeFile(path, name)
	if errors.Is(err, fs.ErrNotExist) {
		return theme.Theme{}, usagef("unknown theme %q: it is not built in (%s) and there is no %s", name, strings.Join(theme.Names, ", "), path)
	}
	if err != nil {
		// A broken file, like a broken settings file, is exit 1.
		return theme.Theme{}, failf("theme file %s: %s", path, err)
	}
	return t, nil
}

// themeFileName reports whether name can name a theme file: letters,
// digits, '-' and '_', so it never reaches outside the themes folder.
func themeFileName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := range len(name) {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

// userThemesDir is the themes folder in the config directory getenv
// names, where the settings are read from too.
func userThemesDir(getenv func(string) string) (string, error) {
	dir, err := config.Dir(runtime.GOOS, getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, themesDir), nil
}

// readThemeFile reads and validates one theme file, its size checked
// before it is read.
func readThemeFile(path, name string) (theme.Theme, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return theme.Theme{}, err
		}
		return theme.Theme{}, errors.New(osReason(err))
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return theme.Theme{}, errors.New("it is not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, theme.MaxFileBytes+1))
	if err != nil {
		return theme.Theme{}, errors.New(osReason(err))
	}
	return theme.Parse(name, data)
}

// listThemes prints `markii --list-themes`: the built-in themes, then
// each theme file in the config's themes folder with its path, or why it
// cannot be used.
func listThemes(w io.Writer, getenv func(string) string) {
	for _, n := range theme.Names {
		fmt.Fprintf(w, "%-16s built-in\n", n)
	}
	dir, names := themeFiles(getenv)
	for _, n := range names {
		path := filepath.Join(dir, n+".json")
		if _, err := readThemeFile(path, n); err != nil {
			fmt.Fprintf(w, "%-16s %s (not usable: %s)\n", n, path, sanitize.Line(err.Error()))
			continue
		}
		fmt.Fprintf(w, "%-16s %s\n", n, path)
	}
}

// themeFiles is the config's themes folder and the names of the theme
// files in it that do not shadow a built-in theme, sorted.
func themeFiles(getenv func(string) string) (string, []string) {
	dir, err := userThemesDir(getenv)
	if err != nil {
		return "", nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return dir, nil
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok && themeFileName(n) {
			if _, builtin := theme.ByName(n); builtin == nil {
				continue
			}
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return dir, names
}

// themeNames are the names --theme takes: the built-in themes and the
// theme files, for completion.
func themeNames(getenv func(string) string) []string {
	_, files := themeFiles(getenv)
	return append(append([]string{}, theme.Names...), files...)
}
