// Command glamour renders a markdown file with glamour at width 100 and
// truecolor (glamour v2 styles in full color and leaves the color
// profile to its writer), as a peer for markii's benchmark.
package main

import (
	"fmt"
	"os"

	"charm.land/glamour/v2"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: glamour FILE")
		os.Exit(3)
	}
	src, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "glamour:", err)
		os.Exit(1)
	}
	r, err := glamour.NewTermRenderer(
		glamour.WithStandardStyle("dark"),
		glamour.WithWordWrap(100),
	)
	if err != nil {
		fmt.Fprintln(os.Stderr, "glamour:", err)
		os.Exit(1)
	}
	out, err := r.RenderBytes(src)
	if err != nil {
		fmt.Fprintln(os.Stderr, "glamour:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}
