package directive

import (
	"bytes"
	"slices"
)

// bracket is one unescaped '[' or ']' of a block's flat text: at is its
// flat offset and mate the offset of the bracket it pairs with, innermost
// first, or -1.
type bracket struct {
	at, mate int32
}

// loadBrackets pairs every unescaped bracket of the block in one pass. A
// block's flat text is at most a note long, far below 2 GiB.
func (bt *blockText) loadBrackets() {
	if bt.brackets != nil {
		return
	}
	b := bt.flat
	opens := bytes.Count(b, []byte{'['})
	bt.brackets = make([]bracket, 0, opens+bytes.Count(b, []byte{']'}))
	open := make([]int, 0, min(opens, 64)) // indexes into bt.brackets of the unpaired '['
	for j := 0; j < len(b); j++ {
		switch b[j] {
		case '\\':
			if j+1 < len(b) && isPunct(b[j+1]) {
				j++
			}
		case '[':
			open = append(open, len(bt.brackets))
			bt.brackets = append(bt.brackets, bracket{at: int32(j), mate: -1})
		case ']':
			mate := int32(-1)
			if n := len(open); n > 0 {
				o := &bt.brackets[open[n-1]]
				o.mate, mate = int32(j), o.at
				open = open[:n-1]
			}
			bt.brackets = append(bt.brackets, bracket{at: int32(j), mate: mate})
		}
	}
}

// mateOf returns the offset of the bracket paired with the bracket c at
// flat offset i, or -1 when there is none (or no bracket c at i).
func (bt *blockText) mateOf(i int, c byte) int {
	if i < 0 || i >= len(bt.flat) || bt.flat[i] != c {
		return -1
	}
	bt.loadBrackets()
	k, found := slices.BinarySearchFunc(bt.brackets, int32(i), func(b bracket, at int32) int { return int(b.at - at) })
	if !found {
		return -1 // an escaped bracket
	}
	return int(bt.brackets[k].mate)
}

// closeOf returns the flat offset of the ']' matching the '[' at flat
// offset i, or -1. The first look-up pairs every bracket of the block.
func (bt *blockText) closeOf(i int) int { return bt.mateOf(i, '[') }

// openOf returns the flat offset of the '[' matching the ']' at flat
// offset i, or -1.
func (bt *blockText) openOf(i int) int { return bt.mateOf(i, ']') }
