package viewer

import (
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// editedMsg says the editor the reader opened on the note has exited.
type editedMsg struct {
	path string
	err  error
}

// edit opens the note's file in the reader's editor (Options.Editor),
// with the viewer suspended, and reads the note again on return.
func (m *Model) edit() tea.Cmd {
	path := m.note.Path
	switch {
	case path == "":
		m.message = "nothing to edit: the note has no file"
		return nil
	case len(m.opt.Editor) == 0:
		m.message = "no editor is set: set $VISUAL or $EDITOR"
		return nil
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() || strings.HasSuffix(strings.ToLower(path), ".mkz") {
		m.message = "this note is a bundle: edit its files in their folder"
		return nil
	}
	argv := append(append([]string(nil), m.opt.Editor[1:]...), path)
	cmd := exec.Command(m.opt.Editor[0], argv...)
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return editedMsg{path: path, err: err} })
}

// edited reloads the note the editor changed.
func (m *Model) edited(msg editedMsg) tea.Cmd {
	if msg.err != nil {
		m.message = "the editor failed: " + msg.err.Error()
		return nil
	}
	if m.note.Path != msg.path {
		return nil
	}
	if m.opt.Load == nil {
		m.message = "edited; reopen the note to see the changes"
		return nil
	}
	if m.note == m.first {
		m.reloadFirst()
		return nil
	}
	n, err := m.opt.Load(msg.path)
	if err != nil {
		m.message = "could not reload: " + err.Error()
		return nil
	}
	a := m.anchor()
	m.note.Source, m.note.Diagnostics, m.note.Images, m.note.Pictures = n.Source, n.Diagnostics, n.Images, n.Pictures
	m.pg = m.newPage(m.note, storedValues(n.Values))
	m.search.rerun(m.pg)
	m.focus = -1
	m.restore(a)
	m.message = "reloaded"
	return nil
}
