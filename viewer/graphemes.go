package viewer

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	xansi "github.com/charmbracelet/x/ansi"
)

// How the viewer draws wide graphemes so that they take, on the screen,
// the cells the layout gave them:
//
//   - A terminal that declares grapheme mode (2027, as Ghostty and WezTerm
//     do) counts cells by grapheme cluster, as markii's layout does:
//     bubbletea's renderer turns the mode on and every cluster is drawn
//     as it is.
//   - tmux from 3.3 joins a ZWJ sequence into one cell but counts other
//     code points one by one, and says so when asked its version
//     (XTVERSION). The renderer is then told to count by cluster and each
//     cluster is drawn as ansi.CellSafeJoined says: a ZWJ sequence whole
//     when tmux gives it the layout's cells.
//   - Any other terminal (xterm, an older tmux) counts code point by code
//     point, as the renderer then does: each cluster is drawn as
//     ansi.CellSafe says, a ZWJ sequence as its first emoji.

// graphemeModeMsg asks the viewer to count cells by grapheme cluster
// (see chrome.modeReport).
var graphemeModeMsg = tea.ModeReportMsg{Mode: xansi.ModeUnicodeCore, Value: xansi.ModeSet}

// joinsZWJ reports whether a terminal that names itself so (its XTVERSION
// reply) joins ZWJ sequences into one cell: tmux from version 3.3.
func joinsZWJ(name string) bool {
	v, ok := strings.CutPrefix(name, "tmux ")
	if !ok {
		return false
	}
	v = strings.TrimPrefix(v, "next-")
	major, rest, _ := strings.Cut(v, ".")
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(rest[:end])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > 3 || ma == 3 && mi >= 3
}

// terminalVersion takes the terminal's XTVERSION reply, the name it
// gives itself: a tmux that joins ZWJ sequences gets them whole, its
// renderer counting by cluster.
func (c *chrome) terminalVersion(name string) tea.Cmd {
	if c.graphemes || c.joined || !joinsZWJ(name) {
		return nil
	}
	c.joined = true
	// bubbletea's renderer counts by cluster once it hears of mode 2027;
	// tmux ignores the mode it then sets.
	return func() tea.Msg { return graphemeModeMsg }
}

// modeReport takes the terminal's report on a mode: one that counts
// cells by grapheme cluster (2027 set, reset or permanently set) has
// bubbletea's renderer turn the mode on and count as the layout does.
// The report the viewer sent itself for tmux (see terminalVersion)
// changes nothing: cells stay counted as tmux counts them.
func (c *chrome) modeReport(msg tea.ModeReportMsg) {
	if !c.joined && msg.Mode == xansi.ModeUnicodeCore && graphemeModes[msg.Value] {
		c.graphemes = true
	}
}

// graphemeModes are the states of mode 2027 that say the terminal knows
// grapheme clusters.
var graphemeModes = map[xansi.ModeSetting]bool{xansi.ModeSet: true, xansi.ModeReset: true, xansi.ModePermanentlySet: true}
