package cli

import "github.com/markii/markii/internal/notefile"

// decodeNoteText is notefile.DecodeText: a note's bytes as the UTF-8 text
// the renderer reads, or false for what is not text.
func decodeNoteText(src []byte) ([]byte, bool) { return notefile.DecodeText(src) }
