package gfm

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkifyParser turns text that looks like a URL or an email address into
// an autolink.
type linkifyParser struct{}

func (linkifyParser) Trigger() []byte {
	// ' ' indicates any white spaces and a line head
	return []byte{' ', '*', '_', '~', '('}
}

var (
	protoHTTP  = []byte("http:")
	protoHTTPS = []byte("https:")
	protoFTP   = []byte("ftp:")
	domainWWW  = []byte("www.")
)

func (linkifyParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, segment := block.PeekLine()
	consumes := 0
	start := segment.Start
	c := line[0]
	// advance if current position is not a line head.
	if c == ' ' || c == '*' || c == '_' || c == '~' || c == '(' {
		consumes++
		start++
		line = line[1:]
	}

	var m []int
	var protocol []byte
	var typ ast.AutoLinkType = ast.AutoLinkURL
	// Most triggers start an ordinary word: look at its first byte before
	// comparing prefixes.
	if len(line) > 0 {
		switch line[0] {
		case 'h':
			if bytes.HasPrefix(line, protoHTTP) || bytes.HasPrefix(line, protoHTTPS) {
				m = matchURL(line)
			}
		case 'f':
			if bytes.HasPrefix(line, protoFTP) {
				m = matchURL(line)
			}
		case 'w':
			if bytes.HasPrefix(line, domainWWW) {
				m = matchWWW(line)
				protocol = []byte("http")
			}
		}
	}
	if m != nil && m[0] != 0 {
		m = nil
	}
	if m == nil {
		if len(line) > 0 && util.IsPunct(line[0]) {
			return nil
		}
		if !hasAtSign(block.Source(), pc) {
			return nil
		}
		typ = ast.AutoLinkEmail
		stop := util.FindEmailIndex(line)
		if stop < 0 {
			return nil
		}
		at := bytes.IndexByte(line, '@')
		m = []int{0, stop, at, stop - 1}
		if bytes.IndexByte(line[m[2]:m[3]], '.') < 0 {
			return nil
		}
		lastChar := line[m[1]-1]
		if lastChar == '.' {
			m[1]--
		}
		if m[1] < len(line) {
			nextChar := line[m[1]]
			if nextChar == '-' || nextChar == '_' {
				return nil
			}
		}
	}
	if m == nil {
		return nil
	}
	if consumes != 0 {
		s := segment.WithStop(segment.Start + 1)
		ast.MergeOrAppendTextSegment(parent, s)
	}
	opening := bytes.Count(line[:m[1]], []byte{'('})
	closing := bytes.Count(line[:m[1]], []byte{')'})
	i := m[1]
	for i > 1 {
		switch line[i-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			i--
		case ')':
			if closing <= opening {
				goto endfor
			}
			closing--
			i--
		case ';':
			j := i - 2
			for ; j > 0; j-- {
				if util.IsAlphaNumeric(line[j]) {
					continue
				}
				break
			}
			if j == i-2 || line[j] != '&' {
				goto endfor
			}
			i = j
		default:
			goto endfor
		}
	}
endfor:
	consumes += i
	block.Advance(consumes)
	n := ast.NewTextSegment(text.NewSegment(start, start+i))
	link := ast.NewAutoLink(typ, n)
	link.Protocol = protocol
	return link
}

var atSignKey = parser.NewContextKey()

// hasAtSign reports whether source holds an '@', which every email
// autolink needs; a parse asks once and keeps the answer in pc.
func hasAtSign(source []byte, pc parser.Context) bool {
	if has, ok := pc.Get(atSignKey).(bool); ok {
		return has
	}
	has := bytes.IndexByte(source, '@') >= 0
	pc.Set(atSignKey, has)
	return has
}

func (linkifyParser) CloseBlock(parent ast.Node, pc parser.Context) {}

// URL character classes of goldmark's linkify patterns.
const (
	hostChars    = "-a-zA-Z0-9@:%._+~#="
	urlPathChars = "-a-zA-Z0-9@:%_+.~#$!?&/=();,'\">^{}[]`"
	wwwPathChars = "-a-zA-Z0-9@:%_+.~#!?&/=();,'\">^{}[]`"
)

var (
	hostClass    = newByteClass(hostChars)
	urlPathClass = newByteClass(urlPathChars)
	wwwPathClass = newByteClass(wwwPathChars)
)

// byteClass is a set of ASCII bytes.
type byteClass [256]bool

// newByteClass builds a class from a list of bytes and a-b ranges (a
// leading '-' is itself).
func newByteClass(spec string) *byteClass {
	var c byteClass
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for b := int(spec[i]); b <= int(spec[i+2]); b++ {
				c[b] = true
			}
			i += 2
			continue
		}
		c[spec[i]] = true
	}
	return &c
}

// matchURL matches goldmark's URL pattern
// `^(?:http|https|ftp)://[host chars]{1,256}\.[a-z]+(?::\d+)?(?:[/#?][path chars]*)?`
// at the start of line, returning the match as [0, end] or nil.
func matchURL(line []byte) []int {
	i := bytes.Index(line, []byte("://"))
	if i < 0 || i > 5 {
		return nil
	}
	switch string(line[:i]) {
	case "http", "https", "ftp":
	default:
		return nil
	}
	end := matchHost(line, i+3)
	if end < 0 {
		return nil
	}
	if end+1 < len(line) && line[end] == ':' && isDigit(line[end+1]) {
		end += 2
		for end < len(line) && isDigit(line[end]) {
			end++
		}
	}
	return []int{0, matchPath(line, end, urlPathClass)}
}

// matchWWW matches goldmark's pattern
// `^www\.[host chars]{1,256}\.[a-z]+(?:[/#?][path chars]*)?`.
func matchWWW(line []byte) []int {
	if !bytes.HasPrefix(line, domainWWW) {
		return nil
	}
	end := matchHost(line, len(domainWWW))
	if end < 0 {
		return nil
	}
	return []int{0, matchPath(line, end, wwwPathClass)}
}

// matchHost matches `[host chars]{1,256}\.[a-z]+` at line[from:] the way
// a backtracking matcher does: the longest host run that is followed by a
// dot and a lower-case letter, then every lower-case letter after it. It
// returns the end of the match or -1.
func matchHost(line []byte, from int) int {
	run := from
	for run < len(line) && run-from < 256 && hostClass[line[run]] {
		run++
	}
	for h := run; h > from; h-- {
		if h+1 < len(line) && line[h] == '.' && isLower(line[h+1]) {
			end := h + 2
			for end < len(line) && isLower(line[end]) {
				end++
			}
			return end
		}
	}
	return -1
}

// matchPath extends a match at end by `(?:[/#?][path chars]*)?`.
func matchPath(line []byte, end int, path *byteClass) int {
	if end < len(line) && (line[end] == '/' || line[end] == '#' || line[end] == '?') {
		end++
		for end < len(line) && path[line[end]] {
			end++
		}
	}
	return end
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
