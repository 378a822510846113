// Command mermaidtext prints the text GitHub's drawing of each mermaid
// diagram shows, for bench/retention, which is a module of its own and
// so cannot import render/mermaid. It reads a JSON array of diagram
// sources on standard input and writes a JSON array with, for each, the
// lines mermaid.ShownText gives, or null for a diagram markii does not
// read (which markii prints as its source).
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/markii/markii/render/mermaid"
)

func main() {
	var srcs []string
	if err := json.NewDecoder(os.Stdin).Decode(&srcs); err != nil {
		fmt.Fprintln(os.Stderr, "mermaidtext: reading the diagrams:", err)
		os.Exit(1)
	}
	out := make([][]string, len(srcs))
	for i, src := range srcs {
		if shown, err := mermaid.ShownText(src); err == nil {
			out[i] = shown
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "mermaidtext:", err)
		os.Exit(1)
	}
}
