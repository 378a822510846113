package viewer

import (
	tea "charm.land/bubbletea/v2"

	"github.com/markii/markii/render"
)

// picturesMsg carries a note's pictures, decoded in the background (see
// Note.Pictures).
type picturesMsg struct {
	note    *Note
	images  map[string]*render.Picture
	refused []string
}

// picturesDecoded gives the note its pictures and, when it is on screen,
// lays it out again with them, the reader kept on the same text. A note
// the reader has left draws them the next time it is laid out.
func (m *Model) picturesDecoded(msg picturesMsg) tea.Cmd {
	n := msg.note
	if n.Pictures == nil {
		return nil // already decoded
	}
	n.Pictures = nil
	n.Diagnostics = append(n.Diagnostics, msg.refused...)
	if len(msg.images) == 0 {
		return nil
	}
	n.Images = msg.images
	if n != m.note {
		return nil
	}
	withPictures := func() { m.pg.opt.Images = n.Images }
	if m.loading {
		// The page on screen is a prefix: the whole page takes the
		// pictures and keeps the reader's line when it arrives.
		return m.relayout(withPictures, -1)
	}
	// The reader stays on the same text, however tall the pictures above.
	a := m.anchor()
	cmd := m.relayout(withPictures, -1)
	if m.loading {
		m.pending, m.pendingBlock = &a, nil
	} else {
		m.restore(a)
	}
	return cmd
}
