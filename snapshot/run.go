package snapshot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/internal/notefile"
	"github.com/markii/markii/render"
	"github.com/markii/markii/sanitize"
	"github.com/markii/markii/theme"
)

// Status is how one note × variant compared with its snapshot.
type Status int

// The statuses of a case.
const (
	// Matched: the rendering is the stored snapshot.
	Matched Status = iota
	// Changed: the rendering differs from the stored snapshot.
	Changed
	// New: there is no stored snapshot yet.
	New
	// Written: a new or changed snapshot was written (Options.Update).
	Written
	// Failed: the note or its snapshot could not be read, the snapshot
	// could not be written, or the rendering is not deterministic.
	Failed
)

func (s Status) String() string {
	return [...]string{"matched", "changed", "new", "written", "failed"}[s]
}

// Case is one note × variant checked.
type Case struct {
	// Note is the note's path; File the snapshot file's path ("" when the
	// note could not be loaded).
	Note, File string
	Variant    Variant
	Status     Status
	// Diff is the readable diff of a changed snapshot (see Diff).
	Diff string
	// Pending is the pending file written for a changed or new snapshot
	// that was not accepted ("" for none).
	Pending string
	// Err says why a case failed.
	Err error
}

// Name is the case's name for reports: "NOTE [VARIANT]".
func (c Case) Name() string {
	if c.File == "" {
		return c.Note
	}
	return c.Note + " [" + c.Variant.String() + "]"
}

// Report is the outcome of a run.
type Report struct {
	// Cases are in the order of the notes found, each note's variants in
	// matrix order.
	Cases []Case
	// Obsolete are snapshot files whose note or variant is gone; Pruned
	// tells whether they were removed.
	Obsolete []string
	Pruned   bool
}

// Count is how many cases have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, c := range r.Cases {
		if c.Status == s {
			n++
		}
	}
	return n
}

// OK reports whether every case matched or was written.
func (r *Report) OK() bool {
	for _, c := range r.Cases {
		if c.Status != Matched && c.Status != Written {
			return false
		}
	}
	return true
}

// Summary is the one-line summary: checked, matched, changed, new,
// written, obsolete, failed.
func (r *Report) Summary() string {
	obs := fmt.Sprintf("%d obsolete", len(r.Obsolete))
	if r.Pruned {
		obs = fmt.Sprintf("%d obsolete removed", len(r.Obsolete))
	}
	return fmt.Sprintf("snapshots: %d checked, %d matched, %d changed, %d new, %d written, %s, %d failed",
		len(r.Cases), r.Count(Matched), r.Count(Changed), r.Count(New), r.Count(Written), obs, r.Count(Failed))
}

// Options configure a run.
type Options struct {
	// Matrix holds the axes given on the command line; an empty axis
	// comes from the folder's configuration file, else the default.
	Matrix Matrix
	// Update writes new and changed snapshots instead of pending files,
	// and overwrites a file there that is not a snapshot.
	Update bool
	// Prune, with Update, removes obsolete snapshots.
	Prune bool
	// CheckDeterminism renders every variant a second time under a
	// scrambled environment and fails any that differs.
	CheckDeterminism bool
	// Jobs is how many notes are rendered at once; 0 is one per core.
	Jobs int
}

// Run checks every note under paths against its snapshots. It returns an
// error only when ctx ends first; every other problem is a failed case.
func Run(ctx context.Context, paths []string, opt Options) (*Report, error) {
	f := find(paths)
	r := &Report{Cases: f.missing}
	folders, errs := readFolders(f.notes)
	results := make([][]Case, len(f.notes))
	var sums [][][sha256.Size]byte
	if opt.CheckDeterminism {
		sums = make([][][sha256.Size]byte, len(f.notes))
	}
	err := forEach(ctx, len(f.notes), opt.Jobs, func(i int) {
		results[i] = checkNote(f.notes[i], folders, errs, opt, slot(sums, i))
	})
	if err != nil {
		return nil, err
	}
	if opt.CheckDeterminism {
		if err := recheck(ctx, f.notes, folders, results, sums, opt.Jobs); err != nil {
			return nil, err
		}
	}
	for _, cs := range results {
		r.Cases = append(r.Cases, cs...)
	}
	r.Obsolete = obsolete(f, folders, opt.Matrix)
	if opt.Update && opt.Prune {
		r.prune()
	}
	return r, nil
}

// slot is &sums[i], or nil when sums is.
func slot(sums [][][sha256.Size]byte, i int) *[][sha256.Size]byte {
	if sums == nil {
		return nil
	}
	return &sums[i]
}

// prune removes the obsolete snapshots; one that cannot be removed is a
// failed case.
func (r *Report) prune() {
	for _, o := range r.Obsolete {
		if err := removeSnapshot(filepath.Dir(o), filepath.Base(o)); err != nil {
			r.Cases = append(r.Cases, Case{Note: o, Status: Failed, Err: err})
		}
	}
	r.Pruned = true
}

// readFolders reads the configuration of every note folder, once.
func readFolders(notes []noteRef) (map[string]*folder, map[string]error) {
	folders, errs := map[string]*folder{}, map[string]error{}
	for _, n := range notes {
		if _, ok := folders[n.dir]; ok {
			continue
		}
		if _, ok := errs[n.dir]; ok {
			continue
		}
		f, err := readFolder(n.dir)
		if err != nil {
			errs[n.dir] = err
			continue
		}
		folders[n.dir] = f
	}
	return folders, errs
}

// forEach runs do(0..n-1) on jobs goroutines (0: one per core), each
// taking the next index when it is done with one, until all are done or
// ctx ends.
func forEach(ctx context.Context, n, jobs int, do func(int)) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range min(jobs, max(n, 1)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= n {
					return
				}
				do(k)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// checkNote checks every variant of one note. When sums is not nil, the
// hash of each variant's rendering is kept in it, in variant order.
func checkNote(n noteRef, folders map[string]*folder, errs map[string]error, opt Options, sums *[][sha256.Size]byte) []Case {
	fail := func(err error) []Case { return []Case{{Note: n.path, Status: Failed, Err: err}} }
	if err := errs[n.dir]; err != nil {
		return fail(err)
	}
	fo := folders[n.dir]
	m, err := fo.matrix(opt.Matrix)
	if err != nil {
		return fail(err)
	}
	d, err := prepare(fo, n)
	if err != nil {
		return fail(err)
	}
	// Asked to create it, snapDir reports every way it is not there as err.
	dir, _, err := snapDir(n.dir, true)
	if err != nil {
		return fail(err)
	}
	var out []Case
	for _, v := range fo.variants(m, n.name) {
		c, sum := checkVariant(d, n, dir, v, opt.Update)
		out = append(out, c)
		if sums != nil {
			*sums = append(*sums, sum)
		}
	}
	return out
}

// drawing is what every variant of one note is drawn from.
type drawing struct {
	note *notefile.Note
	doc  *render.Document
	pins pins
}

// prepare reads the note n of folder fo, parsed, and its pins.
func prepare(fo *folder, n noteRef) (drawing, error) {
	p, err := fo.pinsFor(n.dir, n.name)
	if err != nil {
		return drawing{}, err
	}
	note, err := notefile.Load(n.path, nil)
	if err != nil {
		return drawing{}, err
	}
	return drawing{note: note, doc: render.Parse(note.Source), pins: p}, nil
}

// checkVariant draws one variant of note n and compares it with its
// snapshot in dir. sum is the drawing's hash, zero when it could not be
// drawn.
func checkVariant(d drawing, n noteRef, dir string, v Variant, update bool) (Case, [sha256.Size]byte) {
	c := Case{Note: n.path, File: filepath.Join(dir, v.FileName(n.name)), Variant: v}
	body, err := draw(d.note, d.doc, v, d.pins)
	if err != nil {
		c.Status, c.Err = Failed, err
		return c, [sha256.Size]byte{}
	}
	compare(&c, dir, body, update)
	return c, sha256.Sum256(body)
}

// draw renders one variant of a note: the static rendering, or for a key
// script the viewer's final screen.
func draw(n *notefile.Note, doc *render.Document, v Variant, p pins) ([]byte, error) {
	th, err := theme.ByName(v.Theme)
	if err != nil {
		return nil, err
	}
	opt := render.Options{Width: v.Width, Level: v.Level, Theme: th, Values: p.values, Now: p.now}
	// A picture that cannot be drawn shows its alt text, which the
	// snapshot holds; its diagnostic is not part of the rendering.
	_ = notefile.AddPictures(&opt, n, doc, p.images, v.Width)
	if v.Keys != "" {
		return Screen(n, opt, v.Height, p.keys[v.Keys])
	}
	page := render.Layout(doc, opt)
	return ansi.Encode(page.Lines, v.Level), nil
}

// compare sets c's status from the stored snapshot and writes what the
// options ask: the snapshot itself (update), or a pending file.
func compare(c *Case, dir string, body []byte, update bool) {
	name := filepath.Base(c.File)
	data, err := readRegular(c.File, maxSnapshotBytes)
	var stored []byte
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Status = New
	case err != nil:
		// A pipe, a device, a folder or a link where the snapshot
		// belongs: never written through.
		c.Status, c.Err = Failed, fmt.Errorf("cannot read the snapshot %s: %w", c.File, err)
		return
	default:
		if stored, err = c.Variant.decodeFile(data); err != nil {
			c.Status, c.Err = Failed, fmt.Errorf("the snapshot %s: %w; run with --update to replace it", c.File, err)
		} else if bytes.Equal(stored, body) {
			c.Status = Matched
			_ = removeSnapshot(dir, name+PendingExt)
			return
		} else {
			c.Status = Changed
			c.Diff = Diff(name, stored, body)
		}
	}
	file := c.Variant.encodeFile(body)
	if update {
		if err := writeSnapshot(dir, name, file); err != nil {
			c.Status, c.Err = Failed, err
			return
		}
		c.Status, c.Err = Written, nil
		_ = removeSnapshot(dir, name+PendingExt)
		return
	}
	if err := writeSnapshot(dir, name+PendingExt, file); err != nil {
		c.Status, c.Err = Failed, err
		return
	}
	c.Pending = filepath.Join(dir, name+PendingExt)
}

// obsolete lists the snapshot files (and pending files) in the snapshot
// folders of the folders searched whole that no note × variant of this
// run names: their note is gone, or the matrix no longer has their
// variant.
func obsolete(f found, folders map[string]*folder, flags Matrix) []string {
	want := wanted(f.notes, folders, flags)
	var out []string
	for _, d := range f.dirs {
		out = append(out, unwanted(d, want)...)
	}
	slices.Sort(out)
	return out
}

// wanted is the set of snapshot files the notes' variants name.
func wanted(notes []noteRef, folders map[string]*folder, flags Matrix) map[string]bool {
	want := map[string]bool{}
	for _, n := range notes {
		fo := folders[n.dir]
		if fo == nil {
			continue
		}
		m, err := fo.matrix(flags)
		if err != nil {
			continue
		}
		for _, v := range fo.variants(m, n.name) {
			want[filepath.Join(n.dir, Dir, v.FileName(n.name))] = true
		}
	}
	return want
}

// unwanted lists the snapshot and pending files in folder d's snapshot
// folder whose snapshot is not in want.
func unwanted(d string, want map[string]bool) []string {
	dir, ok, err := snapDir(d, false)
	if err != nil || !ok {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		snap := strings.TrimSuffix(path, PendingExt)
		if strings.HasSuffix(snap, Ext) && !want[snap] {
			out = append(out, path)
		}
	}
	return out
}

// Pending lists the pending files in the snapshot folders of the notes
// under paths.
func Pending(paths []string) []string {
	f := find(paths)
	dirs := map[string]bool{}
	for _, d := range f.dirs {
		dirs[d] = true
	}
	for _, n := range f.notes {
		dirs[n.dir] = true
	}
	var out []string
	for d := range dirs {
		dir, ok, err := snapDir(d, false)
		if err != nil || !ok {
			continue
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), Ext+PendingExt) && e.Type().IsRegular() {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	slices.Sort(out)
	return out
}

// Accept makes the pending file its snapshot: it is checked to be a
// snapshot, then renamed over the stored one.
func Accept(pending string) error {
	if !strings.HasSuffix(pending, Ext+PendingExt) {
		return fmt.Errorf("%s is not a pending snapshot", pending)
	}
	data, err := readRegular(pending, maxSnapshotBytes)
	if err != nil {
		return fmt.Errorf("cannot read %s: %w", pending, err)
	}
	if !bytes.HasPrefix(data, []byte(headerPrefix)) {
		return fmt.Errorf("%s: %w", pending, ErrForeign)
	}
	dir, snap := filepath.Dir(pending), strings.TrimSuffix(filepath.Base(pending), PendingExt)
	if err := writeSnapshot(dir, snap, data); err != nil {
		return err
	}
	return removeSnapshot(dir, filepath.Base(pending))
}

// Reject removes a pending file.
func Reject(pending string) error {
	if !strings.HasSuffix(pending, Ext+PendingExt) {
		return fmt.Errorf("%s is not a pending snapshot", pending)
	}
	return removeSnapshot(filepath.Dir(pending), filepath.Base(pending))
}

// ErrorLine is a case's error as one display-safe line.
func (c Case) ErrorLine() string {
	if c.Err == nil {
		return ""
	}
	return sanitize.Line(c.Err.Error())
}
