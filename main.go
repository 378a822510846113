// Command markii renders and views Markii notes in a terminal and runs the
// Lua scripts inside them in a sandbox.
package main

import (
	"os"

	"github.com/markii/markii/cli"
	"github.com/markii/markii/internal/gctune"
	"github.com/markii/markii/runtime/isolate"
)

func main() {
	// A script worker is this binary started again by the isolate; it is
	// dispatched before anything else runs, under its own memory limit.
	if isolate.IsWorker() {
		gctune.Limit(isolate.WorkerMemoryLimit)
		isolate.WorkerMain()
	}
	os.Exit(cli.Main(os.Args[1:], cli.Stdio{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
