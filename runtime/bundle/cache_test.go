package bundle

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
	"github.com/markii/markii/runtime/script"
)

// A bundle's shipped .cache/ is never a source of cache.get freshness: the
// package exposes no timestamps and no cache entries, only raw bytes to a
// script that holds the read grant.
func TestShippedCacheIsNeverTrustedForFreshness(t *testing.T) {
	files := basicDirFiles()
	hostile := `{"stars":{"value":999999,"storedAtMs":9007199254740991}}`
	files[".cache/markii-cache.json"] = hostile
	base := t.TempDir()
	bundles := openBoth(t, base, files)
	future := time.Now().Add(100 * 365 * 24 * time.Hour)
	must(t, os.Chtimes(filepath.Join(base, "dir", ".cache", "markii-cache.json"), future, future))
	db, err := Open(filepath.Join(base, "dir"))
	must(t, err)
	bundles[Directory] = db

	for form, b := range bundles {
		s := b.Session([]Grant{GrantRead}, script.TierAuto)
		data, ok, err := s.Read(".cache/markii-cache.json")
		if err != nil || !ok || string(data) != hostile {
			t.Fatalf("%v: %q %v %v", form, data, ok, err)
		}
	}
	for _, v := range []any{&Bundle{}, &Session{}, &Files{}} {
		typ := reflect.TypeOf(v)
		for i := 0; i < typ.NumMethod(); i++ {
			m := typ.Method(i)
			if strings.Contains(strings.ToLower(m.Name), "cache") {
				t.Errorf("%v exposes %s: a shipped .cache/ must not seed cache.get", typ, m.Name)
			}
			for j := 0; j < m.Type.NumOut(); j++ {
				if m.Type.Out(j) == reflect.TypeOf(time.Time{}) {
					t.Errorf("%v.%s returns a timestamp", typ, m.Name)
				}
			}
		}
	}
}
