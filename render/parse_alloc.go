package render

// A parse makes tens of thousands of small tree nodes. Allocating each on
// its own costs a malloc and a GC object apiece; the converter instead
// carves nodes and slices out of blocks it allocates a few at a time.
// A block lives as long as any node carved from it, which for a document
// tree (built at once, dropped at once) is no longer than the tree.

// slabMax is the most values a slab block holds; blocks start at
// slabMin and double, so a short note does not pay for a long one's
// blocks.
const (
	slabMin = 8
	slabMax = 64
)

// slab hands out pointers to zeroed values of T.
type slab[T any] struct {
	free []T
	size int
}

// new returns a pointer to a zeroed T that no other caller shares.
func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.size = min(max(2*s.size, slabMin), slabMax)
		s.free = make([]T, s.size)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// sliceSlab hands out slices of T.
type sliceSlab[T any] struct {
	free []T
	size int
}

// clone returns a copy of items. A copy carved from a shared block has
// its capacity cut to its length, so an append by a later stage
// reallocates instead of writing over a neighbour. It returns nil for no
// items, as appending to a nil slice does.
func (s *sliceSlab[T]) clone(items []T) []T {
	n := len(items)
	if n == 0 {
		return nil
	}
	if n > len(s.free) {
		if 4*n > slabMax {
			// Too big to share a block: an allocation of its own.
			return append([]T(nil), items...)
		}
		s.size = max(min(max(2*s.size, slabMin), slabMax), n)
		s.free = make([]T, s.size)
	}
	out := s.free[:n:n]
	copy(out, items)
	s.free = s.free[n:]
	return out
}
