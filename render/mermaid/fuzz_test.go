package mermaid

import (
	"errors"
	"testing"
)

// FuzzDraw: any source at any width draws inside the width, with no
// control character, or falls back with an *Error; it never panics.
func FuzzDraw(f *testing.F) {
	for _, s := range []string{
		"graph TD\nA[Start] -->|yes| B{Choose}\nB --> C(one) & D([two])\nD -.-> A",
		"flowchart LR\nA -- text --> B ==> C((c)) --- D[[d]]\nsubgraph s\nE>e] --o F{{f}}\nend",
		"sequenceDiagram\nparticipant A as Al\nA->>B: hi\nloop l\nB-->>A: ok\nelse\nend\nNote over A,B: n",
		"graph BT\nA-->A\nA<-->B;B-.-C",
		"flowchart TD\nA --> s\nsubgraph s [S]\ndirection LR\nx -->|a<br>b| y\nsubgraph t\nz\nend\nend\ns --> B\nt --> s",
		"---\ntitle: T\n---\nsequenceDiagram\ntitle U\nA->>B: x",
		"gantt\ntitle x",
	} {
		f.Add(s, 80)
	}
	f.Fuzz(func(t *testing.T, src string, width int) {
		width = 1 + (width%200+200)%200
		lines, err := Draw(src, width)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		checkDrawing(t, text(lines), width)
	})
}
