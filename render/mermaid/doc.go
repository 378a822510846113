// Package mermaid draws the mermaid diagrams people write in READMEs as
// text: boxes, lines and arrowheads of box-drawing characters in a grid
// of terminal cells, inside a given width. It has its own parser for the
// subset below and its own layout; no mermaid library is used (the Go
// one that draws ASCII brings a web framework, a logger and terminal
// detection with it, and prints).
//
// Flowcharts (`graph` or `flowchart`, then TD, TB, BT, LR or RL):
//   - nodes A, A[text], A(text), A([text]), A((text)), A(((text))),
//     A[[text]], A[(text)], A>text], A{text}, A{{text}}, A[/text/] and
//     the other slants, with "quoted" labels, <br> line breaks and
//     #quot;-style codes; a :::class suffix is ignored;
//   - edges -->, ---, -.->, -.-, ==>, ===, --o and --x (drawn as plain
//     arrows), <--> and longer dashes, ~~~ (not drawn), labelled -->|text| or -- text -->
//     (-. text .->, == text ==>); chains A --> B --> C and groups
//     A & B --> C & D; ; between statements; an edge from a node to
//     itself is a ↻ line in its box;
//   - subgraph id [title] ... end (nested or not) is a dotted frame with
//     its title around its nodes; an edge to or from a subgraph's id
//     (A --> id, id --> B, id --> id2) enters or leaves its frame, as
//     mermaid draws it. A frame that cannot be drawn clear of the nodes
//     and frames around it is left out, its nodes drawn as if it were
//     not there; the title of a frame left out, too narrow for it or
//     with no node to frame is a line below the drawing naming its
//     nodes, so no title is lost. A subgraph that gives a direction of
//     its own and has no node linked outside is laid out alone in that
//     direction and set in the chart as one framed block, as mermaid
//     draws it; one linked outside is laid out in the chart's direction,
//     as mermaid does too, none of its nodes dropped. classDef, class, style, linkStyle, click, accTitle and
//     accDescr are ignored, as are %% comments; a title in front matter
//     is the drawing's first line;
//   - edge labels wrap, as node text does, when the diagram is too wide
//     with them on one line.
//
// The layout is layered: a depth first search turns the edges that close
// cycles, the longest path to a node is its layer, edges across layers
// pass through a dummy node in each, barycenter sweeps order each layer,
// nodes are placed as near their neighbours as the order allows, and
// edges are routed orthogonally on tracks between the layers, with
// arrowheads ▼ ▲ ► ◄ and their labels beside them. Decisions are drawn
// ╱< >╲, round nodes ╭ ╮, stadiums and circles ( ), subroutines ││ and
// databases with a second top line. The nodes of a subgraph are kept
// together in each layer and the nodes around them moved clear of its
// frame, whose lines get rows and columns of their own. A left-right chart too wide for the
// width is drawn with its text wrapped at 32 columns (about where
// mermaid wraps a label), then top-down (a top-down one left-right), then
// with its text wrapped narrower, the first that fits taken.
//
// Sequence diagrams (`sequenceDiagram`): a title, participant and actor (in a
// round box) with `as` aliases (or participants met in messages), messages ->> -->> ->
// --> -x --x -) --) with text, Note left of/right of/over A[,B], loop,
// alt/else, opt, par/and, critical/option, break and rect blocks drawn as
// frames, autonumber; a box's title (after its color, if any) is a line
// below the diagram naming the participants in it; activate,
// deactivate, create and destroy change nothing drawn.
//
// Anything else returns an *Error whose message is the one line shown
// above the diagram's source: another kind of diagram, a statement that
// cannot be read, a diagram wider than the width in both directions, or
// one over MaxNodes, MaxEdges, MaxStatements, MaxParticipants or
// MaxDepth, which are checked while the source is read so that a huge
// diagram falls back in time linear in its size. Every label is
// sanitized and measured in display cells; a drawing is the same bytes
// for the same source and width.
package mermaid
