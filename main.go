// Command markii renders and views Markii notes in a terminal and runs the
// Lua scripts inside them in a sandbox.
package main

import (
	"os"

	"github.com/markii/markii/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
