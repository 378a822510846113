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
func (rd *reader) edit() tea.Cmd {
	path := rd.note.Path
	switch {
	case path == "":
		rd.message = "nothing to edit: the note has no file"
		return nil
	case len(rd.opt.Editor) == 0:
		rd.message = "no editor is set: set $VISUAL or $EDITOR"
		return nil
	}
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() || strings.HasSuffix(strings.ToLower(path), ".mkz") {
		rd.message = "this note is a bundle: edit its files in their folder"
		return nil
	}
	argv := append(append([]string(nil), rd.opt.Editor[1:]...), path)
	cmd := exec.Command(rd.opt.Editor[0], argv...)
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return editedMsg{path: path, err: err} })
}

// edited reloads the note the editor changed.
func (rd *reader) edited(msg editedMsg) tea.Cmd {
	if msg.err != nil {
		rd.message = "the editor failed: " + msg.err.Error()
		return nil
	}
	if rd.note.Path != msg.path {
		return nil
	}
	if rd.opt.Load == nil {
		rd.message = "edited; reopen the note to see the changes"
		return nil
	}
	if rd.note == rd.first {
		rd.reloadFirst()
		return nil
	}
	n, err := rd.opt.Load(msg.path)
	if err != nil {
		rd.message = "could not reload: " + err.Error()
		return nil
	}
	a := rd.anchor()
	rd.note.Source, rd.note.Diagnostics, rd.note.Images, rd.note.Pictures, rd.note.Signature = n.Source, n.Diagnostics, n.Images, n.Pictures, n.Signature
	rd.pg = rd.newPage(rd.note, storedValues(n.Values))
	rd.search.rerun(rd.pg)
	rd.focus = -1
	rd.restore(a)
	rd.message = "reloaded"
	return nil
}
