package gfm

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/yuin/goldmark/extension/ast"
)

// goldmark's own patterns, which the hand matchers must agree with.
var (
	urlPattern   = regexp.MustCompile(`^(?:http|https|ftp)://[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?::\d+)?(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`)
	wwwPattern   = regexp.MustCompile(`^www\.[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?:[/#?][-a-zA-Z0-9@:%_\+.~#!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`)
	taskPattern  = regexp.MustCompile(`^\[([\sxX])\]\s*`)
	delimLeft    = regexp.MustCompile(`^\s*\:\-+\s*$`)
	delimRight   = regexp.MustCompile(`^\s*\-+\:\s*$`)
	delimCenter  = regexp.MustCompile(`^\s*\:\-+\:\s*$`)
	delimNone    = regexp.MustCompile(`^\s*\-+\s*$`)
	fuzzAlphabet = []byte("htpsfwx.:/-_a zA9@%+~#=?&();,'\"><^{}[]`$!\t\n\r\f\v|X\xc3")
)

func randomLine(rng *rand.Rand, prefixes []string) []byte {
	b := []byte(prefixes[rng.IntN(len(prefixes))])
	for n := rng.IntN(40); n > 0; n-- {
		b = append(b, fuzzAlphabet[rng.IntN(len(fuzzAlphabet))])
	}
	return b
}

func sameMatch(a, b []int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a[0] == b[0] && a[1] == b[1]
}

func TestURLMatchersAgreeWithGoldmarkPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prefixes := []string{"http://", "https://", "ftp://", "www.", "http://a.b", "https://example.org", "www.x.co", "httpx://", ""}
	fixed := []string{"https://example.org/a_(b)?c=1#x.", "http://a.b.c.d:8080/x", "http://a.B", "www.a.b:80", "http://.a", "http://a..b", "ftp://x.y/", "www.ab", "http://x.y:"}
	check := func(line []byte) {
		if got, want := matchURL(line), urlPattern.FindSubmatchIndex(line); !sameMatch(got, want) {
			t.Fatalf("matchURL(%q) = %v, pattern %v", line, got, want)
		}
		if got, want := matchWWW(line), wwwPattern.FindSubmatchIndex(line); !sameMatch(got, want) {
			t.Fatalf("matchWWW(%q) = %v, pattern %v", line, got, want)
		}
	}
	for _, s := range fixed {
		check([]byte(s))
	}
	long := append([]byte("http://"), make([]byte, 300)...)
	for i := 7; i < len(long); i++ {
		long[i] = "ab."[i%3]
	}
	for cut := 250; cut < len(long); cut++ {
		check(long[:cut])
	}
	for i := 0; i < 200000; i++ {
		check(randomLine(rng, prefixes))
	}
}

func TestTaskAndDelimiterMatchersAgreeWithGoldmarkPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		line := randomLine(rng, []string{"[", "[x]", "[ ]", "[X] ", ""})
		v, n, ok := matchTaskBox(line)
		m := taskPattern.FindSubmatchIndex(line)
		if ok != (m != nil) || (ok && (n != m[1] || v != line[m[2]])) {
			t.Fatalf("matchTaskBox(%q) = %q %d %v, pattern %v", line, v, n, ok, m)
		}
	}
	alphabet := []byte(" \t\n\r\f\v:-|x")
	for i := 0; i < 100000; i++ {
		col := make([]byte, rng.IntN(8))
		for j := range col {
			col[j] = alphabet[rng.IntN(len(alphabet))]
		}
		want, wantOK := ast.AlignNone, true
		switch {
		case delimLeft.Match(col):
			want = ast.AlignLeft
		case delimRight.Match(col):
			want = ast.AlignRight
		case delimCenter.Match(col):
			want = ast.AlignCenter
		case delimNone.Match(col):
		default:
			wantOK = false
		}
		if got, ok := matchDelimiter(col); ok != wantOK || (ok && got != want) {
			t.Fatalf("matchDelimiter(%q) = %v %v, pattern %v %v", col, got, ok, want, wantOK)
		}
	}
}
