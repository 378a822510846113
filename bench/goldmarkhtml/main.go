// Command goldmarkhtml converts a markdown file to HTML with goldmark and
// its GFM extension: the parse-and-print floor for markii's benchmark.
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goldmarkhtml FILE")
		os.Exit(3)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "goldmarkhtml:", err)
		os.Exit(1)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<16)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	if err := md.Convert(src, w); err != nil {
		fmt.Fprintln(os.Stderr, "goldmarkhtml:", err)
		os.Exit(1)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "goldmarkhtml:", err)
		os.Exit(1)
	}
}
