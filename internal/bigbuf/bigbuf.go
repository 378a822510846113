// Package bigbuf allocates the large byte buffers a long note is read
// into so that the kernel backs them with huge pages where it can.
//
// A fresh 10 MB buffer is 2,560 page faults at 4 KB a page; on a virtual
// machine each costs tens of microseconds, which is most of the time it
// takes to read a long note before the viewer can show its first screen.
// Backed by 2 MB pages it is five. On Linux with transparent huge pages
// in "madvise" mode (the usual default) that takes asking for them; under
// "always" they are used anyway, and under "never" or on other systems
// the advice is not given and nothing changes but the speed.
package bigbuf

// threshold is the capacity from which a buffer is advised: below a few
// huge pages the advice saves little and may round resident memory up.
const threshold = 4 << 20

// Make returns a zero-length byte slice with capacity n, advised to be
// backed by huge pages when n is large. The memory is ordinary Go memory:
// the advice changes how the kernel maps it, not who owns it.
func Make(n int) []byte {
	b := make([]byte, n)
	if n >= threshold {
		adviseHuge(b)
	}
	return b[:0]
}
