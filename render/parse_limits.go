package render

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Limits that keep parsing linear on hostile input. goldmark offers every
// line to every open block and each list item measures the line's
// indentation again, so a line costs (open blocks × leading blanks). Both
// factors are capped before goldmark sees the note:
const (
	// MaxBlockDepth is how many blocks (quotes, lists, list items,
	// container directives) may be open inside each other. A line that
	// would open one more stays text in the innermost block.
	MaxBlockDepth = 64
	// MaxIndent is the longest run of leading blanks kept on a line; longer
	// runs are cut to this many bytes (no real note indents 200 columns).
	MaxIndent = 200
)

// depthCapped refuses to open a block nested deeper than MaxBlockDepth.
type depthCapped struct{ parser.BlockParser }

var depthHitKey = parser.NewContextKey()

func (d depthCapped) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	depth := 0
	for p := parent; p != nil && depth <= MaxBlockDepth; p = p.Parent() {
		depth++
	}
	if depth > MaxBlockDepth {
		pc.Set(depthHitKey, true)
		return nil, parser.NoChildren
	}
	return d.BlockParser.Open(parent, reader, pc)
}

// cappedBlockParsers returns goldmark's default block parsers with the
// containers (list, list item, block quote) depth-capped.
func cappedBlockParsers() []util.PrioritizedValue {
	out := parser.DefaultBlockParsers()
	for i, v := range out {
		switch v.Priority {
		case 300, 400, 800: // list, list item, block quote
			out[i].Value = depthCapped{v.Value.(parser.BlockParser)}
		}
	}
	return out
}

// clampIndent cuts every run of leading blanks longer than MaxIndent
// bytes. It returns src itself when no line needs it.
func clampIndent(src []byte) []byte {
	var out []byte
	last := 0
	for at := 0; at < len(src); {
		n := 0
		for at+n < len(src) && (src[at+n] == ' ' || src[at+n] == '\t') {
			n++
		}
		if n > MaxIndent {
			if out == nil {
				out = make([]byte, 0, len(src))
			}
			out = append(out, src[last:at+MaxIndent]...)
			last = at + n
		}
		nl := indexNewline(src[at+n:])
		if nl < 0 {
			break
		}
		at += n + nl + 1
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}

func indexNewline(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// linkRefDefinitions is goldmark's link reference definition transformer
// (its only default paragraph transformer) run only on paragraphs that can
// start with a definition. goldmark's own makes a block reader for every
// paragraph; a definition begins with '[' after blanks, so a paragraph
// whose first other byte is not '[' keeps its lines untouched either way.
type linkRefDefinitions struct{}

func (linkRefDefinitions) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	source := reader.Source()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		for _, c := range source[s.Start:s.Stop] {
			if !util.IsSpace(c) {
				if c == '[' {
					parser.LinkReferenceParagraphTransformer.Transform(node, reader, pc)
				}
				return
			}
		}
	}
	parser.LinkReferenceParagraphTransformer.Transform(node, reader, pc)
}
