package render

// PlainText is the visible text of inline content without its styles:
// text, code and alt text as written and each line break as a space. The
// HTML export reads headings' ids and callouts' labels through it.
func PlainText(content []Inline) string { return plainText(content) }
