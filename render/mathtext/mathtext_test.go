package mathtext

import (
	"strings"
	"testing"
	"time"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

func TestConvert(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\alpha + \beta = \gamma`, "α + β = γ"},
		{`x^2 + y_1 = z^{10}`, "x² + y₁ = z¹⁰"},
		{`e^{i\pi} = -1`, "e^(iπ) = -1"},
		{`\frac{a}{b}`, "a⁄b"},
		{`\frac{a+1}{2}`, "(a+1)/2"},
		{`\sqrt{x} + \sqrt[3]{y} + \sqrt{x+1}`, "√x + ∛y + √(x+1)"},
		{`\sum_{i=1}^{n} i^2`, "∑ᵢ₌₁ⁿ i²"},
		{`\int_0^\infty f(x)\,dx`, "∫₀^∞ f(x) dx"},
		{`\mathbb{R}^n \subseteq \mathcal{L}`, "ℝⁿ ⊆ ℒ"},
		{`a \leq b \neq c \to \infty`, "a ≤ b ≠ c → ∞"},
		{`\sin x + \log y`, "sin x + log y"},
		{`\unknowncmd{x}`, `\unknowncmd{x}`},
		{`\begin{pmatrix} a & b \\ c & d \end{pmatrix}`, "(a b; c d)"},
		{`\left( x \right)`, "( x )"},
	} {
		if got := Convert(c.in, false); got != c.want {
			t.Errorf("Convert(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestConvertDisplayGrid(t *testing.T) {
	got := Convert(`\begin{bmatrix} 1 & 22 \\ 333 & 4 \end{bmatrix}`, true)
	want := "⎡ 1    22 ⎤\n⎣ 333  4  ⎦"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = Convert(`f(x) = \begin{cases} 1 & x > 0 \\ 0 & \text{otherwise} \end{cases}`, true)
	if !strings.Contains(got, "⎧ 1  x > 0") || !strings.Contains(got, "⎩ 0  otherwise") {
		t.Errorf("cases:\n%s", got)
	}
}

// quickest is the least time of three calls of f, so that one preemption
// on a loaded machine does not decide a timing test.
func quickest(f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		f()
		best = min(best, time.Since(start))
	}
	return best
}

// TestDeepNestingIsLinear: nested fractions far past MaxDepth convert in
// linear time and keep their text.
func TestDeepNestingIsLinear(t *testing.T) {
	deep := func(n int) string {
		return strings.Repeat(`\frac{1}{`, n) + "x" + strings.Repeat("}", n)
	}
	var small string
	d1 := quickest(func() { small = Convert(deep(10000), true) })
	d2 := quickest(func() { Convert(deep(20000), true) })
	if d2 > 3*d1+20*time.Millisecond {
		t.Errorf("10000 levels took %v, 20000 took %v", d1, d2)
	}
	if !strings.Contains(small, "x") {
		t.Error("the innermost text was lost")
	}
}

// TestConvertDisplayStacks: in display math a fraction stands over its
// rule on the baseline of the line around it, a sum carries its limits
// above and below, an integral beside it; inline, the same stay on one
// line.
func TestConvertDisplayStacks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`\frac{a}{b}`, " a\n───\n b"},
		{"\n\\frac{a}{b}\n", " a\n───\n b"},
		{`x = \frac{n(n+1)}{2}`, "     n(n+1)\nx = ────────\n       2"},
		{`\sum_{i=1}^{n} i`, " n\n ∑ i\ni=1"},
		{`\int_0^\infty f`, " ∞\n∫ f\n 0"},
		{`\frac{1}{1+\frac{1}{x}}`, "   1\n───────\n    1\n 1+───\n    x"},
		{`f = \begin{pmatrix} a & b \\ c & d \end{pmatrix}`, "f = ⎛ a  b ⎞\n    ⎝ c  d ⎠"},
		{`\mathbb{R} \weird{x}`, `ℝ \weird{x}`},
		{`\left( \frac{a}{b} \right)^2`, "⎛  a  ⎞\n⎜ ─── ⎟²\n⎝  b  ⎠"},
		{`\left\{ x \right.`, "{ x"},
	} {
		if got := Convert(c.in, true); got != c.want {
			t.Errorf("Convert(%q, display)\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
	if got := Convert(`\frac{a}{b} + \sum_{i=1}^{n} i`, false); got != "a⁄b + ∑ᵢ₌₁ⁿ i" {
		t.Errorf("inline: %q", got)
	}
}

// TestDeepDisplayIsOneLine: display math nested past what is stacked is
// drawn on one line, its text once, not a rule per level as wide as it.
func TestDeepDisplayIsOneLine(t *testing.T) {
	for _, n := range []int{20, 40, 1250} {
		src := strings.Repeat(`\frac{1}{`, n) + "x" + strings.Repeat("}", n)
		var got string
		d := quickest(func() { got = Convert(src, true) })
		if len(got) > 2*len(src) || strings.Contains(got, "\n") {
			t.Errorf("%d levels: %d bytes of output on %d lines for %d of source", n, len(got), strings.Count(got, "\n")+1, len(src))
		}
		if d > 50*time.Millisecond {
			t.Errorf("%d levels took %v", n, d)
		}
	}
}

// TestTablesSorted holds the symbol and function tables to the byte order
// their binary searches need.
func TestTablesSorted(t *testing.T) {
	for i := 1; i < len(symbols); i++ {
		if symbols[i-1].name >= symbols[i].name {
			t.Errorf("symbols: %q before %q", symbols[i-1].name, symbols[i].name)
		}
	}
	for i := 1; i < len(functions); i++ {
		if functions[i-1] >= functions[i] {
			t.Errorf("functions: %q before %q", functions[i-1], functions[i])
		}
	}
}
