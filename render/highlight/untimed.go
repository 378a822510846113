package highlight

import (
	"reflect"
	"slices"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
)

// chroma compiles every rule of a regex lexer with a 250 ms match timeout
// (RegexLexer.maybeCompile sets regexp2's MatchTimeout) and treats a
// timed-out match as "no match", so the same fence could be classified
// differently on a loaded machine: a match that is descheduled, or that
// starts while regexp2's coarse clock is stale, can run out of time
// however short it is. A render's bytes must not depend on load, so markii
// lexes with copies of chroma's lexers whose rules have no timeout.
//
// Why copies, and not a retry: chroma reports neither the timeout nor
// which rule it hit, so a timed-out match cannot be told from a real miss.
// The copies are built from chroma's public API alone: each lexer's rules
// (RegexLexer.Rules) are given to chroma.NewLexer with one extra rule whose
// LexerMutator chroma calls while it compiles the copy, after every rule's
// regexp exists and before any is matched; it sets each regexp's timeout
// to regexp2's "never" and removes itself. The copies live in their own
// registry, so a rule that lexes part of its text with another language
// (chroma's Using) reaches the untimed copy of that language too.
//
// Lexing still ends: markii bounds a code block's size before it is lexed
// (render's parse limits), and chroma's rules are the same rules, only
// without the clock.

// untimedRegistry is the registry of untimed copies, built on first use
// (building it reads only each lexer's configuration; a lexer's rules are
// read and compiled when a fence in its language is first lexed).
func untimedRegistry() *chroma.LexerRegistry {
	untimedOnce.Do(func() {
		untimedReg = chroma.NewLexerRegistry()
		for _, lx := range lexers.GlobalLexerRegistry.Lexers {
			if c := untimedCopy(lx); c != nil {
				untimedReg.Register(c)
			}
		}
	})
	return untimedReg
}

var (
	untimedOnce sync.Once
	untimedReg  *chroma.LexerRegistry
)

// untimedCopy is a copy of lx whose rules match without a timeout, or nil
// when none can be made. A lexer that wraps a regex lexer in an embedded
// Lexer field (chroma's markdown and HTTP lexers, which add front matter
// and body detection) is copied as the regex lexer it wraps, under the
// wrapper's name. chroma's template lexers that delegate between two
// languages (ERB, PHTML, Svelte, YAML+Jinja, Go HTML Template) and the
// two Lisps whose token types are remapped keep their inner lexers
// private, so no untimed copy of them can be made: their fences are drawn
// unhighlighted, the same on every machine, rather than highlighted
// differently under load.
func untimedCopy(lx chroma.Lexer) chroma.Lexer {
	orig, ok := lx.(*chroma.RegexLexer)
	if !ok {
		orig, ok = embeddedRegexLexer(lx)
	}
	if !ok || lx == lexers.Fallback {
		return nil
	}
	c, err := chroma.NewLexer(lx.Config(), func() chroma.Rules { return withoutTimeout(orig) })
	if err != nil {
		return nil
	}
	return c
}

// embeddedRegexLexer is the regex lexer a wrapper embeds as its exported
// Lexer field, if it does.
func embeddedRegexLexer(lx chroma.Lexer) (*chroma.RegexLexer, bool) {
	v := reflect.ValueOf(lx)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	f := v.Elem().FieldByName("Lexer")
	if !f.IsValid() || !f.CanInterface() {
		return nil, false
	}
	inner, ok := f.Interface().(*chroma.RegexLexer)
	return inner, ok
}

// withoutTimeout is orig's rules with the rule that removes the timeout
// added at the end of its root state. orig's own rules are not changed.
// When orig's rules cannot be read, the copy gets none, and chroma then
// refuses to lex with it (Tokens draws the code plain).
func withoutTimeout(orig *chroma.RegexLexer) chroma.Rules {
	raw, err := orig.Rules()
	if err != nil {
		return chroma.Rules{}
	}
	rules := make(chroma.Rules, len(raw))
	for state, rs := range raw {
		rules[state] = slices.Clone(rs)
	}
	rules["root"] = append(rules["root"], chroma.Rule{Pattern: `(?!)`, Mutator: noTimeout{}})
	return rules
}

// noTimeout is the LexerMutator that sets every compiled rule's match
// timeout to regexp2's "never" and then removes its own rule.
type noTimeout struct{}

// Mutate is never reached: the rule is gone before anything is lexed.
func (noTimeout) Mutate(*chroma.LexerState) error { return nil }

// MutateLexer runs while chroma compiles the lexer, once every rule's
// regexp is compiled; the mutators chroma runs after it (Include,
// Combined) only rearrange these same compiled rules.
func (noTimeout) MutateLexer(rules chroma.CompiledRules, _ string, _ int) error {
	for _, rs := range rules {
		for _, r := range rs {
			if r.Regexp != nil {
				r.Regexp.MatchTimeout = regexp2.DefaultMatchTimeout
			}
		}
	}
	// An Include of the root state that ran first copied this rule
	// too; it goes from every state.
	for st, rs := range rules {
		rules[st] = slices.DeleteFunc(slices.Clone(rs), func(r *chroma.CompiledRule) bool {
			_, ours := r.Mutator.(noTimeout)
			return ours
		})
	}
	return nil
}
