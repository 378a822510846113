package render

import (
	"strings"
	"testing"

	"github.com/markii/markii/ansi"
	"github.com/markii/markii/theme"
)

// testRegistry holds small components that exercise the frame.
func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	r.MustRegister(
		Component{Name: "shout", Form: FormInline, Inline: func(c *Context) []ansi.Span {
			return []ansi.Span{{Text: strings.ToUpper(c.LabelText())}}
		}},
		Component{Name: "box", Form: FormContainer, Block: func(c *Context) []ansi.Line {
			inner := c.Layout(c.Blocks, c.Width-2)
			out := make([]ansi.Line, 0, len(inner))
			for _, ln := range inner {
				out = append(out, append(ansi.Line{{Text: "> "}}, ln...))
			}
			return out
		}},
		Component{Name: "attrs", Form: FormLeaf, Block: func(c *Context) []ansi.Line {
			var keys []string
			for _, a := range c.Attrs {
				keys = append(keys, a.Key+"="+a.Value)
			}
			return []ansi.Line{{{Text: strings.Join(keys, ",") + "|" + c.Preset + "|" + c.Align}}}
		}},
		Component{Name: "bar", Form: FormLeaf, SelfSizing: true, Block: func(c *Context) []ansi.Line {
			return []ansi.Line{{{Text: strings.Repeat("=", c.BoxWidth(6))}}}
		}},
		Component{Name: "boom", Form: FormLeaf, Block: func(c *Context) []ansi.Line {
			var m map[string]int
			m["x"] = 1
			return nil
		}},
		Component{Name: "inboom", Form: FormInline, Inline: func(c *Context) []ansi.Span {
			panic("inline trouble")
		}},
	)
	r.RegisterAlias("yell", "shout", nil)
	r.RegisterAlias("ghost", "nowhere", nil)
	return r
}

func layoutWith(t *testing.T, r *Registry, d *Document, width int) (string, *Page) {
	t.Helper()
	p := Layout(d, Options{Width: width, Level: ansi.None, Theme: theme.Dark, Registry: r})
	return string(ansi.Encode(p.Lines, ansi.None)), p
}

func TestRegistryRejectsMalformed(t *testing.T) {
	r := NewRegistry()
	for _, c := range []Component{
		{Form: FormInline, Inline: func(*Context) []ansi.Span { return nil }},
		{Name: "a", Form: FormInline},
		{Name: "b", Form: FormLeaf},
		{Name: "c", Form: Form(9), Block: func(*Context) []ansi.Line { return nil }},
	} {
		if err := r.Register(c); err == nil {
			t.Errorf("Register(%+v) accepted a malformed component", c)
		}
	}
	if r.Len() != 0 {
		t.Fatalf("registry holds %d components", r.Len())
	}
}

func TestUnknownComponentBlock(t *testing.T) {
	d := doc(&Directive{Name: "totally-unknown", Form: FormLeaf, Attrs: Attrs{{Key: "foo", Value: "bar"}}})
	got, _ := layoutWith(t, NewRegistry(), d, 40)
	check(t, got, ""+
		"┌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┐\n"+
		"┆ foo: bar                             ┆\n"+
		"└╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┘\n")

	// A container keeps its content, wrapped inside the box.
	d = doc(&Directive{Name: "mystery", Form: FormContainer, Blocks: []Block{para(txt("kept body text"))}})
	got, _ = layoutWith(t, NewRegistry(), d, 16)
	check(t, got, ""+
		"┌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┐\n"+
		"┆ kept body    ┆\n"+
		"┆ text         ┆\n"+
		"└╌╌╌╌╌╌╌╌╌╌╌╌╌╌┘\n")
}

func TestInlineFallbacks(t *testing.T) {
	r := testRegistry(t)
	d := doc(para(
		txt("Before "), &InlineDirective{Name: "box", Content: []Inline{txt("oops")}}, txt(" after. "),
		&InlineDirective{Name: "nope", Content: []Inline{txt("kept")}}, txt(" "),
		&InlineDirective{Name: "nope"}, txt(" "),
		&InlineDirective{Name: "yell", Content: []Inline{txt("hi")}}, txt(" "),
		&InlineDirective{Name: "ghost", Content: []Inline{txt("g")}}, txt(" "),
		&InlineDirective{Name: "shout"}, txt(" "),
		&InlineDirective{Name: "inboom", Content: []Inline{txt("x")}},
	))
	got, p := layoutWith(t, r, d, 1000)
	check(t, got, "Before oops after. kept  HI g  component `inboom` failed to render\n")
	want := []string{"block component `box` written inline", "unknown component `nope`", "unknown component `nope`",
		"unknown component `nowhere`", "`shout` has no content (an attribute may have been used where directive text was expected)"}
	if len(p.Diagnostics) != len(want)+1 || strings.Join(p.Diagnostics[:len(want)], "|") != strings.Join(want, "|") || !strings.Contains(p.Diagnostics[len(want)], "inboom") {
		t.Fatalf("diagnostics %q", p.Diagnostics)
	}
}

func TestComponentPanicIsContained(t *testing.T) {
	d := doc(para(txt("before")), &Directive{Name: "boom", Form: FormLeaf}, para(txt("after")))
	got, p := layoutWith(t, testRegistry(t), d, 30)
	check(t, got, ""+
		"before\n\n"+
		"┌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┐\n"+
		"┆ component `boom` failed to ┆\n"+
		"┆ render                     ┆\n"+
		"└╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌┘\n\n"+
		"after\n")
	if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0], "component `boom` failed to render") {
		t.Fatalf("diagnostics %q", p.Diagnostics)
	}
}

func TestReservedAttributesAndPresets(t *testing.T) {
	r := testRegistry(t)
	d := doc(&Directive{Name: "attrs", Form: FormLeaf, Attrs: Attrs{
		{Key: "a", Value: "1"}, {Key: "width", Value: "narrow"}, {Key: "align", Value: "right"}, {Key: "b", Value: "2"},
	}})
	got, _ := layoutWith(t, r, d, 80)
	// Generic block at narrow (40 of 80), its line right-aligned.
	check(t, got, strings.Repeat(" ", 80-len("a=1,b=2|narrow|right"))+"a=1,b=2|narrow|right\n")

	// A self-sizing component gets the preset and sizes itself.
	for _, tc := range []struct {
		attrs Attrs
		want  string
	}{
		{nil, strings.Repeat("=", 50)},
		{Attrs{{Key: "width", Value: "narrow"}}, strings.Repeat("=", 25)},
		{Attrs{{Key: "width", Value: "fit"}, {Key: "align", Value: "center"}}, strings.Repeat(" ", 22) + "======"},
		{Attrs{{Key: "width", Value: "bogus"}}, strings.Repeat("=", 50)},
	} {
		got, _ := layoutWith(t, r, doc(&Directive{Name: "bar", Form: FormLeaf, Attrs: tc.attrs}), 50)
		check(t, got, tc.want+"\n")
	}
	// narrow never goes below 20 columns.
	got, _ = layoutWith(t, r, doc(&Directive{Name: "bar", Form: FormLeaf, Attrs: Attrs{{Key: "width", Value: "narrow"}}}), 30)
	check(t, got, strings.Repeat("=", 20)+"\n")
}

func TestChildrenAndHeadingsInsideComponents(t *testing.T) {
	r := testRegistry(t)
	d := doc(
		para(txt("intro")),
		&Directive{Name: "box", Form: FormContainer, Blocks: []Block{
			para(txt("first")),
			&Heading{Level: 2, Content: []Inline{txt("Inside")}},
		}},
		&Heading{Level: 1, Content: []Inline{txt("After")}},
	)
	got, p := layoutWith(t, r, d, 30)
	check(t, got, "intro\n\n> first\n> \n> ## Inside\n> ─────────\n\n# After\n━━━━━━━\n")
	if len(p.Headings) != 2 || p.Headings[0].Line != 4 || p.Headings[1].Line != 7 {
		t.Fatalf("headings %+v", p.Headings)
	}
}

func TestInlineComponentWrittenAsLeaf(t *testing.T) {
	r := testRegistry(t)
	got, _ := layoutWith(t, r, doc(&Directive{Name: "shout", Form: FormLeaf, Label: []Inline{txt("loud words")}}), 30)
	check(t, got, "LOUD WORDS\n")
}

func TestOptionsRegistryDefaultsToStandard(t *testing.T) {
	if StandardRegistry() != StandardRegistry() {
		t.Fatal("StandardRegistry is not shared")
	}
	if NewStandardRegistry() == StandardRegistry() {
		t.Fatal("NewStandardRegistry returned the shared registry")
	}
	if got, want := NewStandardRegistry().Len(), len(standardComponents()); got != want {
		t.Fatalf("standard registry has %d components, table has %d", got, want)
	}
}

func TestDeepComponentNestingIsBounded(t *testing.T) {
	r := testRegistry(t)
	var inner Block = para(txt("core"))
	for i := 0; i < 2000; i++ {
		inner = &Directive{Name: "box", Form: FormContainer, Blocks: []Block{inner}}
	}
	got, p := layoutWith(t, r, doc(inner), 80)
	if !strings.HasSuffix(got, "core\n") || strings.Count(got, "\n") != 1 {
		t.Fatalf("got %q", got)
	}
	if !strings.HasPrefix(got, strings.Repeat("> ", maxComponentDepth)+"core") {
		t.Fatalf("frames not drawn to the depth limit: %q", got)
	}
	if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0], "nested more than") {
		t.Fatalf("diagnostics %q", p.Diagnostics)
	}
}
