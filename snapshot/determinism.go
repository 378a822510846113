package snapshot

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"time"
)

// scrambled is the environment of the second rendering of a determinism
// check: every variable terminals and tools read for color, width,
// language and time zone, set to what would change output that depended
// on them.
// An array of constants, laid out by the linker.
var scrambled = [...]struct{ name, value string }{
	{"TERM", "dumb"},
	{"COLORTERM", ""},
	{"NO_COLOR", "1"},
	{"CLICOLOR_FORCE", "1"},
	{"LANG", "tr_TR.UTF-8"},
	{"COLUMNS", "17"},
	{"TZ", "Pacific/Chatham"},
}

// scramble sets the scrambled environment and a far time zone as the
// process's local one, and returns what puts them back.
func scramble() (restore func()) {
	type was struct {
		v  string
		ok bool
	}
	old := map[string]was{}
	for _, kv := range scrambled {
		k, v := kv.name, kv.value
		ov, ok := os.LookupEnv(k)
		old[k] = was{ov, ok}
		os.Setenv(k, v)
	}
	local := time.Local
	if loc, err := time.LoadLocation("Pacific/Chatham"); err == nil {
		time.Local = loc
	} else {
		time.Local = time.FixedZone("UTC+13:45", 13*3600+45*60)
	}
	return func() {
		time.Local = local
		for k, w := range old {
			if w.ok {
				os.Setenv(k, w.v)
			} else {
				os.Unsetenv(k)
			}
		}
	}
}

// recheck renders every variant that was drawn again under the scrambled
// environment and fails the case of any whose bytes differ.
func recheck(ctx context.Context, notes []noteRef, folders map[string]*folder, results [][]Case, sums [][][sha256.Size]byte, jobs int) error {
	restore := scramble()
	defer restore()
	return forEach(ctx, len(notes), jobs, func(i int) {
		fo := folders[notes[i].dir]
		if fo == nil || len(sums[i]) == 0 {
			return
		}
		if d, err := prepare(fo, notes[i]); err == nil {
			recheckNote(d, results[i], sums[i])
		}
	})
}

// recheckNote draws each drawn case of one note again and fails those
// whose hash differs from the first drawing's, kept in sums in case
// order (zero for a variant that could not be drawn).
func recheckNote(d drawing, cases []Case, sums [][sha256.Size]byte) {
	k := 0
	for j := range cases {
		c := &cases[j]
		if c.File == "" || k >= len(sums) {
			continue
		}
		want := sums[k]
		k++
		if want == ([sha256.Size]byte{}) {
			continue
		}
		body, err := draw(d.note, d.doc, c.Variant, d.pins)
		if err == nil && sha256.Sum256(body) != want {
			c.Status = Failed
			c.Err = fmt.Errorf("not deterministic: the rendering differs under a scrambled environment (TERM, COLORTERM, NO_COLOR, CLICOLOR_FORCE, LANG, COLUMNS, TZ)")
		}
	}
}
