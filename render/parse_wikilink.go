package render

import (
	"bytes"
	"strings"
	"sync"

	"github.com/markii/markii/sanitize"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// This file reads wikilinks as Obsidian-style vaults write them:
// `[[Note]]`, `[[Note|label]]`, `[[Note#Heading]]` and
// `[[Note#Heading|label]]`, on one line, with no bracket inside.

// wikiSpan is a wikilink in goldmark's tree: Inner is the text between
// the double brackets.
type wikiSpan struct {
	ast.BaseInline
	Inner text.Segment
}

var (
	wikiKindOnce sync.Once
	wikiKind     ast.NodeKind
)

// Kind implements ast.Node.
func (*wikiSpan) Kind() ast.NodeKind {
	wikiKindOnce.Do(func() { wikiKind = ast.NewNodeKind("WikiLink") })
	return wikiKind
}

// Dump implements ast.Node.
func (n *wikiSpan) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// wikiLinks parses `[[…]]` before goldmark's link parser sees the
// brackets.
type wikiLinks struct{}

func (wikiLinks) Trigger() []byte { return []byte{'['} }

func (wikiLinks) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if prev := block.PrecendingCharacter(); prev == '[' || prev == '!' {
		return nil
	}
	end := wikiEnd(line)
	if end < 0 {
		return nil
	}
	inner := line[2 : 2+end]
	// `[[x]]` where [x] is a defined reference keeps its CommonMark
	// meaning: a link in brackets.
	if _, ok := pc.Reference(util.ToLinkReference(inner)); ok || len(bytes.TrimSpace(inner)) == 0 {
		return nil
	}
	n := &wikiSpan{Inner: text.NewSegment(seg.Start+2, seg.Start+2+end)}
	block.Advance(end + 4)
	return n
}

// wikiEnd returns the length of the text inside the `[[…]]` that line
// starts with, or -1 when line starts with none, or with one that a `]`,
// `(` or `[` follows.
func wikiEnd(line []byte) int {
	if len(line) < 5 || line[1] != '[' {
		return -1
	}
	// The first bracket after the opening pair must start the closing
	// pair, so the scan never passes another bracket: linear in a line
	// of many openers.
	end := bytes.IndexAny(line[2:], "[]\n\r")
	if end <= 0 || !bytes.HasPrefix(line[2+end:], []byte("]]")) {
		return -1
	}
	if after := 4 + end; after < len(line) && strings.IndexByte("]([", line[after]) >= 0 {
		return -1
	}
	return end
}

// wikiLink converts a wikilink: target and heading from before `|`, the
// label after it (else the target, and the heading after a ›).
func (c *converter) wikiLink(n ast.Node, _ int) Inline {
	inner := string(appendDecoded(nil, n.(*wikiSpan).Inner.Value(c.src), true))
	target, label, hasLabel := strings.Cut(inner, "|")
	target, heading, _ := strings.Cut(target, "#")
	target, heading = strings.TrimSpace(target), strings.TrimSpace(heading)
	if !hasLabel || strings.TrimSpace(label) == "" {
		label = target
		if heading != "" {
			label = strings.TrimSpace(target + " › " + heading)
		}
	}
	return &WikiLink{
		Target:  sanitize.Inline(target),
		Heading: sanitize.Inline(heading),
		Content: []Inline{c.newText(sanitize.Inline(strings.TrimSpace(label)))},
	}
}
