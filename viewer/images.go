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
func (rd *reader) picturesDecoded(msg picturesMsg) tea.Cmd {
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
	if n != rd.note {
		return nil
	}
	withPictures := func() { rd.pg.opt.Images = n.Images }
	if rd.loading {
		// The page on screen is a prefix: the whole page takes the
		// pictures and keeps the reader's line when it arrives.
		return rd.relayout(withPictures, -1)
	}
	// The reader stays on the same text, however tall the pictures above.
	a := rd.anchor()
	cmd := rd.relayout(withPictures, -1)
	if rd.loading {
		rd.pending.put(pendingAction{kind: pendingAnchor, anchor: a})
	} else {
		rd.restore(a)
	}
	return cmd
}
