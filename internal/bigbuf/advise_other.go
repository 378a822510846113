//go:build !linux

package bigbuf

// adviseHuge does nothing where transparent huge pages are not asked for
// per range.
func adviseHuge([]byte) {}
