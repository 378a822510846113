package render

import "iter"

// Nodes returns every node of blocks in document order, depth first, each
// node before what it holds: the blocks, the blocks of quotes, list items
// and directives, the notes of a footnotes section, and the inlines of headings, paragraphs, table cells and
// directive labels and inside emphasis, strikethrough, links and inline
// directives. Each value is a Block or an Inline. Breaking out of the
// range loop stops the walk.
func Nodes(blocks []Block) iter.Seq[any] {
	return func(yield func(any) bool) { walkBlocks(blocks, yield) }
}

func walkBlocks(blocks []Block, yield func(any) bool) bool {
	for _, b := range blocks {
		if !yield(b) || !walkInside(b, yield) {
			return false
		}
	}
	return true
}

// walkInside walks what block b holds.
func walkInside(b Block, yield func(any) bool) bool {
	switch b := b.(type) {
	case inlineBlock:
		return walkInlines(b.inlines(), yield)
	case *Quote:
		return walkBlocks(b.Blocks, yield)
	case *List:
		return walkItems(b.Items, yield)
	case *Table:
		return walkCells(b.Header, yield) && walkRows(b.Rows, yield)
	case *Directive:
		return walkInlines(b.Label, yield) && walkBlocks(b.Blocks, yield)
	case *Footnotes:
		return walkNotes(b.Notes, yield)
	}
	return true
}

func walkItems(items []*ListItem, yield func(any) bool) bool {
	for _, it := range items {
		if !walkBlocks(it.Blocks, yield) {
			return false
		}
	}
	return true
}

func walkNotes(notes []Footnote, yield func(any) bool) bool {
	for _, fn := range notes {
		if !walkBlocks(fn.Blocks, yield) {
			return false
		}
	}
	return true
}

func walkRows(rows [][][]Inline, yield func(any) bool) bool {
	for _, row := range rows {
		if !walkCells(row, yield) {
			return false
		}
	}
	return true
}

func walkCells(cells [][]Inline, yield func(any) bool) bool {
	for _, c := range cells {
		if !walkInlines(c, yield) {
			return false
		}
	}
	return true
}

func walkInlines(in []Inline, yield func(any) bool) bool {
	for _, n := range in {
		if !yield(n) {
			return false
		}
		if p, ok := n.(inlineParent); ok && !walkInlines(p.inlines(), yield) {
			return false
		}
	}
	return true
}
