package pack

import (
	"regexp"
	"testing"
)

// TestNameChecksMatchPatterns compares the byte-loop name checks with the
// regular expressions they stand for, on every string of up to five bytes
// over an alphabet that covers each class the patterns distinguish.
func TestNameChecksMatchPatterns(t *testing.T) {
	checks := []struct {
		pattern *regexp.Regexp
		check   func(string) bool
	}{
		{regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`), isKebab},
		{regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`), isVersion},
		{regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`), isComponentName},
	}
	alphabet := []string{"a", "Z", "0", "-", "_", ".", "\n", "é", "\xff"}
	inputs := []string{""}
	for n, layer := 0, []string{""}; n < 5; n++ {
		var next []string
		for _, prefix := range layer {
			for _, c := range alphabet {
				next = append(next, prefix+c)
			}
		}
		inputs = append(inputs, next...)
		layer = next
	}
	inputs = append(inputs, "1.2.3", "10.20.30", "1.2.3.4", "charts", "my-pack-2", "Bar_chart-1")
	for _, c := range checks {
		for _, in := range inputs {
			if got, want := c.check(in), c.pattern.MatchString(in); got != want {
				t.Fatalf("%s on %q: check says %v, pattern says %v", c.pattern, in, got, want)
			}
		}
	}
}
