package ansi

// Compact merges neighbouring spans of each line that share a style, a
// link and a target and moves every line's spans into one new, exactly
// sized array, so the arrays the lines were cut from can be freed. It
// rewrites lines in place and returns it. The encoded bytes do not change
// (Encode merges such runs anyway), but a long page held in memory, as the
// viewer holds it, keeps far fewer spans. Layout already keeps the words
// of one run of text as one substring, so what is left to merge here is
// text from different strings, which is concatenated.
func Compact(lines []Line) []Line {
	total := 0
	for i, l := range lines {
		if len(l) < 2 {
			total += len(l)
			continue
		}
		out := l[:1]
		for _, s := range l[1:] {
			last := &out[len(out)-1]
			if s.Style != last.Style || s.Link != last.Link || s.Target != last.Target || s.Image != nil || last.Image != nil {
				out = append(out, s)
				continue
			}
			last.Text = join(last.Text, s.Text)
		}
		lines[i] = out
		total += len(out)
	}
	slab := make([]Span, 0, total)
	for i, l := range lines {
		start := len(slab)
		slab = append(slab, l...)
		lines[i] = slab[start:len(slab):len(slab)]
	}
	return lines
}

// join returns a+b without copying when either is empty.
func join(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + b
}
