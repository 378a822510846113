package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"
)

// settle is how long the watcher waits for a burst of writes to end.
const settle = 80 * time.Millisecond

// watcher reports changes to the open note's files. Editors often replace
// a file by renaming a new one over it, so the folder is watched and
// events are filtered by name.
type watcher struct {
	w       *fsnotify.Watcher
	files   map[string]bool
	trees   []string
	changed chan struct{}
	done    chan struct{}
}

// changedMsg says the note's files changed on disk.
type changedMsg struct{ w *watcher }

// newWatcher watches paths: a file is watched through its folder; a
// folder (a bundle) is watched with its subfolders. It returns nil when
// nothing can be watched.
func newWatcher(paths []string) *watcher {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil
	}
	wt := &watcher{w: fw, files: map[string]bool{}, changed: make(chan struct{}, 1), done: make(chan struct{})}
	dirs := map[string]bool{}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			continue
		}
		if info.IsDir() {
			wt.trees = append(wt.trees, p)
			_ = filepath.WalkDir(p, func(d string, e os.DirEntry, err error) error {
				if err == nil && e.IsDir() {
					dirs[d] = true
				}
				return nil
			})
			continue
		}
		wt.files[p] = true
		dirs[filepath.Dir(p)] = true
	}
	for d := range dirs {
		_ = fw.Add(d)
	}
	go wt.loop()
	return wt
}

func (wt *watcher) relevant(name string) bool {
	if wt.files[name] {
		return true
	}
	for _, t := range wt.trees {
		if name == t || strings.HasPrefix(name, t+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (wt *watcher) loop() {
	var timer <-chan time.Time
	for {
		select {
		case ev, ok := <-wt.w.Events:
			if !ok {
				return
			}
			if wt.event(ev) {
				timer = time.After(settle)
			}
		case <-wt.w.Errors:
		case <-timer:
			timer = nil
			wt.notify()
		case <-wt.done:
			return
		}
	}
}

// event takes a file system event and reports whether it changes what
// is watched; a folder created in a watched tree is watched too.
func (wt *watcher) event(ev fsnotify.Event) bool {
	if !wt.relevant(ev.Name) {
		return false
	}
	if ev.Op&fsnotify.Create != 0 {
		if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
			_ = wt.w.Add(ev.Name)
		}
	}
	return true
}

// notify tells wait of a change, unless one is already waiting.
func (wt *watcher) notify() {
	select {
	case wt.changed <- struct{}{}:
	default:
	}
}

// wait returns a command that delivers the next change.
func (wt *watcher) wait() tea.Cmd {
	if wt == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case <-wt.changed:
			return changedMsg{w: wt}
		case <-wt.done:
			return nil
		}
	}
}

func (wt *watcher) close() {
	if wt == nil {
		return
	}
	close(wt.done)
	_ = wt.w.Close()
}

// reloadUpdate reads the note again after a change and lays it out,
// keeping the reader's place.
func (m *Model) reloadUpdate(c changedMsg) tea.Cmd {
	if c.w != m.watch || m.watch == nil {
		return nil
	}
	next := m.watch.wait()
	m.reader.reloadFirst()
	return next
}

// reloadFirst reads the first note again and lays it out, keeping the
// reader's place, folds and focus.
func (rd *reader) reloadFirst() {
	n, err := rd.opt.Load(rd.first.Path)
	if err != nil {
		rd.message = "could not reload: " + err.Error()
		return
	}
	rd.reload++
	n.Values = nil
	rd.first.Source, rd.first.Diagnostics, rd.first.Images, rd.first.Pictures, rd.first.Signature = n.Source, n.Diagnostics, n.Images, n.Pictures, n.Signature
	if rd.note != rd.first {
		// The note on screen is a linked one; the first note is laid out
		// again when the reader goes back.
		for i := range rd.history {
			if rd.history[i].note == rd.first {
				rd.history[i].pg = rd.newPage(rd.first, rd.values)
			}
		}
		return
	}
	a := rd.anchor()
	focused, hadFocus := rd.focused()
	old := rd.pg
	rd.pg = rd.newPage(rd.first, rd.values)
	rd.pg.live = old.live
	rd.pg.refold(old.foldKeys())
	rd.pg.layout()
	rd.search.rerun(rd.pg)
	rd.focus = -1
	if hadFocus {
		rd.focus = rd.pg.targetOf(focused.kind, focused.id)
	}
	rd.restore(a)
	rd.message = "reloaded"
}
