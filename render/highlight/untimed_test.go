package highlight

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
)

// capture is a mutator that keeps the compiled rules of the lexer state
// it runs in.
type capture struct{ rules *chroma.CompiledRules }

func (c capture) Mutate(s *chroma.LexerState) error {
	*c.rules = s.Rules
	return nil
}

// TestUntimedCopiesHaveNoTimeout builds, for every regex lexer chroma
// knows, the copy markii lexes with plus one rule that matches at once
// and hands over the compiled rules, and checks that no rule of any state
// still carries chroma's 250 ms timeout (a timeout is what makes a
// loaded machine colour a fence differently).
func TestUntimedCopiesHaveNoTimeout(t *testing.T) {
	checked := 0
	for _, lx := range lexers.GlobalLexerRegistry.Lexers {
		orig, ok := lx.(*chroma.RegexLexer)
		if !ok {
			if orig, ok = embeddedRegexLexer(lx); !ok {
				continue
			}
		}
		var got chroma.CompiledRules
		c, err := chroma.NewLexer(orig.Config(), func() chroma.Rules {
			rules := withoutTimeout(orig)
			rules["root"] = append([]chroma.Rule{{Pattern: `[\s\S]`, Type: chroma.Text, Mutator: capture{&got}}}, rules["root"]...)
			return rules
		})
		if err != nil {
			t.Fatalf("%s: %v", orig.Config().Name, err)
		}
		it, err := c.Tokenise(nil, "x\n")
		if err != nil {
			t.Fatalf("%s: %v", orig.Config().Name, err)
		}
		for tok := it(); tok != chroma.EOF; tok = it() {
		}
		if got == nil {
			t.Fatalf("%s: the capturing rule never ran", orig.Config().Name)
		}
		for state, rs := range got {
			for i, r := range rs {
				if _, ours := r.Mutator.(noTimeout); ours {
					t.Errorf("%s: state %s keeps the rule that removes the timeout", orig.Config().Name, state)
				}
				if r.Regexp != nil && r.Regexp.MatchTimeout != regexp2.DefaultMatchTimeout {
					t.Errorf("%s: rule %s.%d has a %v match timeout", orig.Config().Name, state, i, r.Regexp.MatchTimeout)
				}
			}
		}
		checked++
	}
	if checked < 250 {
		t.Fatalf("checked %d lexers", checked)
	}
}

// TestChromaItselfTimesOut shows what the copies remove: chroma's own
// compiled rules carry a finite match timeout.
func TestChromaItselfTimesOut(t *testing.T) {
	var got chroma.CompiledRules
	orig := lexers.Get("kotlin").(*chroma.RegexLexer)
	c := chroma.MustNewLexer(orig.Config(), func() chroma.Rules {
		rules := orig.MustRules()
		out := chroma.Rules{}
		for k, v := range rules {
			out[k] = v
		}
		out["root"] = append([]chroma.Rule{{Pattern: `[\s\S]`, Type: chroma.Text, Mutator: capture{&got}}}, rules["root"]...)
		return out
	})
	it, err := c.Tokenise(nil, "x\n")
	if err != nil {
		t.Fatal(err)
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
	}
	if r := got["root"][1]; r.Regexp.MatchTimeout == regexp2.DefaultMatchTimeout {
		t.Fatalf("chroma no longer sets a match timeout (%v); untimed.go may be simplified", r.Regexp.MatchTimeout)
	}
}

// TestLoopingLexerEnds: chroma's JSONata lexer emits tokens for ever on
// this text; Tokens gives up after a bound set by the code's length and
// draws it plain, the same way every time.
func TestLoopingLexerEnds(t *testing.T) {
	code := "SELECT a, b FROM t WHERE n >= 42;\n# hash ; semi -- dashes\n"
	for range 3 {
		if toks, ok := Tokens("jsonata", code); ok && joined(toks) != code {
			t.Fatalf("tokens changed the text: %q", joined(toks))
		}
	}
}
