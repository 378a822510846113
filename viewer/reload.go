package viewer

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/fsnotify/fsnotify"

	"github.com/markii/markii/render"
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
			if !wt.relevant(ev.Name) {
				continue
			}
			if ev.Op&fsnotify.Create != 0 {
				if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
					_ = wt.w.Add(ev.Name)
				}
			}
			timer = time.After(settle)
		case <-wt.w.Errors:
		case <-timer:
			timer = nil
			select {
			case wt.changed <- struct{}{}:
			default:
			}
		case <-wt.done:
			return
		}
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
func (m *Model) reloadUpdate(msg tea.Msg) (tea.Cmd, bool) {
	c, ok := msg.(changedMsg)
	if !ok {
		return nil, false
	}
	if c.w != m.watch || m.watch == nil {
		return nil, true
	}
	next := m.watch.wait()
	m.reloadFirst()
	return next, true
}

// reloadFirst reads the first note again and lays it out, keeping the
// reader's place, folds and focus.
func (m *Model) reloadFirst() {
	n, err := m.opt.Load(m.first.Path)
	if err != nil {
		m.message = "could not reload: " + err.Error()
		return
	}
	m.reload++
	n.Values = nil
	m.first.Source, m.first.Diagnostics, m.first.Images, m.first.Pictures = n.Source, n.Diagnostics, n.Images, n.Pictures
	if m.note != m.first {
		// The note on screen is a linked one; the first note is laid out
		// again when the reader goes back.
		for i := range m.history {
			if m.history[i].note == m.first {
				m.history[i].pg = m.newPage(m.first, m.values)
			}
		}
		return
	}
	a := m.anchor()
	focusID, focusKind := -1, render.FocusTabs
	if t, ok := m.focused(); ok {
		focusID, focusKind = int(t.id), t.kind
	}
	old := m.pg
	m.pg = m.newPage(m.first, m.values)
	m.pg.live = old.live
	m.pg.refold(old.foldKeys())
	m.pg.layout()
	m.search.rerun(m.pg)
	m.focus = -1
	for i := range m.pg.targets {
		if t := m.pg.target(i); focusID >= 0 && int(t.id) == focusID && t.kind == focusKind {
			m.focus = i
		}
	}
	m.restore(a)
	m.message = "reloaded"
}
