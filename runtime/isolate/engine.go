package isolate

import "github.com/markii/markii/runtime/engine"

// engineRunner is what a worker runs a request with: the curated Lua
// engine, which re-clamps the limits once more.
var engineRunner Runner = engine.Run
