// Package render turns a Markii note into terminal lines.
//
// The pipeline has three steps, each usable on its own:
//
//  1. Parse reads the note (CommonMark, GFM tables, task lists and
//     autolinks, generic directives, script fences, a YAML frontmatter)
//     into a Document: a tree of Block and Inline values. Parsing never
//     fails and takes time linear in the note, whatever the note holds; a
//     note nested too deeply is flattened (Document.Flattened). Every
//     piece of text in the tree is already sanitized: no control
//     character of the note can reach the terminal.
//  2. Layout draws a Document at a width, a color level and in a theme
//     (Options) as a Page: styled Lines, plus the headings, the focusable
//     blocks, the links and the diagnostics the viewer shows, each with
//     the lines and columns it is drawn on. Directives are drawn by
//     components looked up in a Registry (StandardRegistry when
//     Options.Registry is nil); a component written outside this package
//     registers the same way the standard ones do (see Component and
//     Context).
//  3. ansi.Encode turns the lines into the bytes of escape sequences for
//     the level, which is where hyperlinks and colors are chosen.
//
// Render does the three in one call with working defaults. For a long
// note, ParseChunks and Streamer parse and lay out a run of blocks at a
// time, so that only a sliver of the note's tree is ever in memory; this
// is what `markii render` does. Scripts are not run here: Options.Values
// holds the values a run stored, and a script block without one is drawn
// as not run.
package render
