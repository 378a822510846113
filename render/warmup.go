package render

import "github.com/markii/markii/ansi"

// warmUpNote has one of each common block and inline, so that laying it
// out reaches every table the first real layout would build.
const warmUpNote = "# Title\n\nSome *emphasis*, **strong**, `code` and a [link](https://example.com).\n\n" +
	"- item\n- item\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc f() {}\n```\n"

// WarmUp parses and lays out a small note, so that the costs a process
// pays only once (goldmark's parser, the tables the first parse and the
// first layout build) are paid now. A viewer calls it on another
// goroutine while it reads the note, so that its first frame does not
// wait for them.
func WarmUp() {
	Layout(Parse([]byte(warmUpNote)), Options{Width: 80, Level: ansi.TrueColor})
}
