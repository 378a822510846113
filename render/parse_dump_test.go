package render

import (
	"fmt"
	"strconv"
	"strings"
)

// dump writes doc as a compact s-expression so tests can assert the exact
// tree shape in one line.
func dump(doc *Document) string {
	var b strings.Builder
	if doc.Frontmatter != nil {
		fmt.Fprintf(&b, "(frontmatter uses=%s) ", dumpUses(doc.Frontmatter.Uses))
	}
	dumpBlocks(&b, doc.Blocks)
	return strings.TrimSpace(b.String())
}

func dumpUses(u []string) string {
	if u == nil {
		return "nil"
	}
	return "[" + strings.Join(u, " ") + "]"
}

func dumpBlocks(b *strings.Builder, blocks []Block) {
	for i, bl := range blocks {
		if i > 0 {
			b.WriteByte(' ')
		}
		dumpBlock(b, bl)
	}
}

func dumpAttrs(b *strings.Builder, a Attrs) {
	if len(a) == 0 {
		return
	}
	b.WriteString(" {")
	for i, at := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(at.Key)
		if !at.Bare {
			b.WriteString("=" + strconv.Quote(at.Value))
		}
	}
	b.WriteString("}")
}

func dumpBlock(b *strings.Builder, bl Block) {
	switch n := bl.(type) {
	case *Paragraph:
		b.WriteString("(p")
		dumpInlines(b, n.Content)
	case *Heading:
		fmt.Fprintf(b, "(h%d", n.Level)
		dumpInlines(b, n.Content)
	case *ThematicBreak:
		b.WriteString("(hr")
	case *CodeBlock:
		fmt.Fprintf(b, "(code %q %q", n.Lang, n.Text)
	case *ScriptBlock:
		fmt.Fprintf(b, "(script name=%s lang=%q label=%q", n.Name, n.Lang, n.Label)
		if n.HasSrc {
			fmt.Fprintf(b, " src=%q", n.Src)
		}
		if n.Permissions != nil {
			fmt.Fprintf(b, " perms=%q", n.Permissions)
		}
		if n.Publish {
			b.WriteString(" publish")
		}
		fmt.Fprintf(b, " %q", n.Source)
	case *Quote:
		b.WriteString("(quote ")
		dumpBlocks(b, n.Blocks)
	case *List:
		if n.Ordered {
			fmt.Fprintf(b, "(ol start=%d", n.Start)
		} else {
			b.WriteString("(ul")
		}
		if !n.Tight {
			b.WriteString(" loose")
		}
		for _, it := range n.Items {
			b.WriteString(" (li")
			if it.Task != nil {
				if *it.Task {
					b.WriteString("[x]")
				} else {
					b.WriteString("[ ]")
				}
			}
			if len(it.Blocks) > 0 {
				b.WriteByte(' ')
				dumpBlocks(b, it.Blocks)
			}
			b.WriteString(")")
		}
	case *Table:
		b.WriteString("(table [")
		for i, a := range n.Align {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString([]string{"-", "l", "c", "r"}[a])
		}
		b.WriteString("]")
		dumpRow := func(cells [][]Inline) {
			b.WriteString(" (tr")
			for _, c := range cells {
				b.WriteString(" (td")
				dumpInlines(b, c)
				b.WriteString(")")
			}
			b.WriteString(")")
		}
		dumpRow(n.Header)
		for _, r := range n.Rows {
			dumpRow(r)
		}
	case *Directive:
		fmt.Fprintf(b, "(%s:%s", n.Form, n.Name)
		dumpAttrs(b, n.Attrs)
		if n.Form == FormLeaf {
			dumpInlines(b, n.Label)
		} else if len(n.Blocks) > 0 {
			b.WriteByte(' ')
			dumpBlocks(b, n.Blocks)
		}
	default:
		fmt.Fprintf(b, "(?%T", bl)
	}
	b.WriteString(")")
}

func dumpInlines(b *strings.Builder, in []Inline) {
	for _, n := range in {
		b.WriteByte(' ')
		dumpInline(b, n)
	}
}

func dumpInline(b *strings.Builder, in Inline) {
	switch n := in.(type) {
	case *WikiLink:
		fmt.Fprintf(b, "(wiki %q %q", n.Target, n.Heading)
		dumpInlines(b, n.Content)
	case *Text:
		b.WriteString(strconv.Quote(n.Text))
		return
	case *SoftBreak:
		b.WriteString("sb")
		return
	case *HardBreak:
		b.WriteString("hb")
		return
	case *Emphasis:
		b.WriteString("(em")
		dumpInlines(b, n.Content)
	case *Strong:
		b.WriteString("(strong")
		dumpInlines(b, n.Content)
	case *Strikethrough:
		b.WriteString("(del")
		dumpInlines(b, n.Content)
	case *CodeSpan:
		fmt.Fprintf(b, "(code %q", n.Text)
	case *Link:
		if n.Auto {
			fmt.Fprintf(b, "(autolink %q", n.URL)
		} else {
			fmt.Fprintf(b, "(a %q", n.URL)
		}
		dumpInlines(b, n.Content)
	case *Image:
		fmt.Fprintf(b, "(img %q %q", n.URL, n.Alt)
	case *InlineDirective:
		fmt.Fprintf(b, "(:%s", n.Name)
		dumpAttrs(b, n.Attrs)
		dumpInlines(b, n.Content)
	default:
		fmt.Fprintf(b, "(?%T", in)
	}
	b.WriteString(")")
}
