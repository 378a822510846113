// Package gfm holds the parser half of goldmark's GitHub Flavored Markdown
// extension (tables, strikethrough, task list items and linkify), adapted
// for markii from github.com/yuin/goldmark/extension v1.8.7.
//
// goldmark's extension package compiles its regular expressions and HTML
// attribute filters when the program starts, which costs every markii
// command a few milliseconds; markii only parses, so this package keeps the
// parsers, matches table delimiters, task boxes and URLs by hand, and
// registers no HTML renderers. The parse it produces is goldmark's.
//
// Copyright (c) 2019 Yusuke Inuzuka, MIT License:
//
// Permission is hereby granted, free of charge, to any person obtaining a
// copy of this software and associated documentation files (the
// "Software"), to deal in the Software without restriction, including
// without limitation the rights to use, copy, modify, merge, publish,
// distribute, sublicense, and/or sell copies of the Software, and to
// permit persons to whom the Software is furnished to do so, subject to
// the following conditions:
//
// The above copyright notice and this permission notice shall be included
// in all copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
// OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
// MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
// IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
// CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
// TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
// SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
package gfm

import (
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// Options returns the parser options that add GFM to a goldmark parser,
// at the priorities goldmark's GFM extension uses.
func Options() []parser.Option {
	return []parser.Option{
		parser.WithInlineParsers(
			util.Prioritized(linkifyParser{}, 999),
			util.Prioritized(strikethroughParser{}, 500),
			util.Prioritized(taskCheckBoxParser{}, 0),
		),
		parser.WithParagraphTransformers(util.Prioritized(tableParagraphTransformer{}, 200)),
		parser.WithASTTransformers(util.Prioritized(tableASTTransformer{}, 0)),
	}
}

// isSpace reports whether c is in the class \s of Go's regular
// expressions, which goldmark's patterns used.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
