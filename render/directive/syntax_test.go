package directive

import (
	"fmt"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestScanAttrs(t *testing.T) {
	cases := []struct {
		in       string
		allowEOL bool
		want     string // %v of the attributes, or "error"
		end      int
	}{
		{"{}", false, "[]", 2},
		{"{a}", false, "[{a  true}]", 3},
		{"{a=b c='d e' f=\"g}h\"}", false, "[{a b false} {c d e false} {f g}h false}]", 21},
		{"{#x .a .b#y}", false, "[{id y false} {class a b false}]", 12},
		// Classes accumulate whichever way they are written, as in
		// remark-directive; an id's last value wins.
		{"{.a class=z .b}", false, "[{class a z b false}]", 15},
		{"{class=a .b class=\"c d\"}", false, "[{class a b c d false}]", 24},
		{"{class=a class=\"b c\" .d.e}", false, "[{class a b c d e false}]", 26},
		{"{id=a id=\"b\" #c#d}", false, "[{id d false}]", 18},
		{"{k = v}", false, "[{k v false}]", 7},
		{"{a=1 a=2}", false, "[{a 2 false}]", 9},
		{"{__proto__=1 constructor}", false, "[{__proto__ 1 false} {constructor  true}]", 25},
		{"{x:y.z-w=1}", false, "[{x:y.z-w 1 false}]", 11},
		{"{a=1", false, "error", 0},
		{"{a=1\nb=2}", false, "error", 0},
		{"{a=1\nb=2}", true, "[{a 1 false} {b 2 false}]", 9},
		{"{a=\"x\ny\"}", false, "error", 0},
		{"{a=\"x}", false, "error", 0},
		{"{=x}", false, "error", 0},
		{"{a=}", false, "error", 0},
		{"{a=\"x\"b}", false, "error", 0},
		{"{a=x\"y}", false, "error", 0},
		{"{1a}", false, "error", 0},
		{"{#}", false, "error", 0},
		{"{a {b}", false, "error", 0},
	}
	for _, c := range cases {
		attrs, end, ok := scanAttrs([]byte(c.in), 0, c.allowEOL)
		got := "error"
		if ok {
			got = fmt.Sprintf("%v", attrs)
			if attrs == nil {
				got = "[]"
			}
		}
		if got != c.want || (ok && end != c.end) {
			t.Errorf("scanAttrs(%q, %v) = %s end %d, want %s end %d", c.in, c.allowEOL, got, end, c.want, c.end)
		}
	}
}

func TestScanName(t *testing.T) {
	for in, want := range map[string]int{
		"note": 4, "a-b_c1": 6, "a-": -1, "a_": -1, "_a": -1, "1a": -1, "a:b": 1, "": -1, "é": -1, "ab c": 2,
	} {
		if got := scanName([]byte(in), 0); got != want {
			t.Errorf("scanName(%q) = %d, want %d", in, got, want)
		}
	}
}
