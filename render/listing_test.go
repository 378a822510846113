package render

import (
	"fmt"
	"strings"
	"testing"
)

func TestListingOrderFormsAttrsText(t *testing.T) {
	src := "# T\n\n:::card{title=\"A\" open}\nIntro :badge[**new** `x`]{tone=info} end.\n\n```js\nlet a = 1\n```\n\n::stat[Stars]{data=stars}\n:::\n\nTail :value[repo.stars] <b>html</b>\n"
	items, truncated := Listing(Parse([]byte(src)))
	if truncated {
		t.Error("truncated on a small note")
	}
	want := []ListedDirective{
		{Name: "card", Form: "container", Attrs: []Attr{{Key: "title", Value: "A"}, {Key: "open", Bare: true}},
			Text: "Intro new x end.\nlet a = 1\nStars"},
		{Name: "badge", Form: "inline", Attrs: []Attr{{Key: "tone", Value: "info"}}, Text: "new x"},
		{Name: "stat", Form: "leaf", Attrs: []Attr{{Key: "data", Value: "stars"}}, Text: "Stars"},
		{Name: "value", Form: "inline", Text: "repo.stars"},
	}
	if got, w := fmt.Sprintf("%+v", items), fmt.Sprintf("%+v", want); got != w {
		t.Errorf("Listing\n got: %s\nwant: %s", got, w)
	}
}

func TestListingCleansControlsAndInvalidUTF8(t *testing.T) {
	// NUL, ESC and a CESU-encoded lone surrogate (ED A0 80) in text and in
	// an attribute value.
	src := "::x[a\x00b\x1bc\xed\xa0\x80d]{v=\"p\x00q\xed\xa0\x80r\"}\n"
	items, _ := Listing(Parse([]byte(src)))
	if len(items) != 1 {
		t.Fatalf("items: %d", len(items))
	}
	for _, s := range []string{items[0].Text, items[0].Attrs[0].Value} {
		for _, r := range s {
			if r < 0x20 || r == 0x7f || (r >= 0xd800 && r <= 0xdfff) {
				t.Errorf("control or surrogate %U left in %q", r, s)
			}
		}
	}
	if got := cleanListed("a\x00\tb\nc\x7f\xed\xa0\x80\xffd"); got != "a\tb\ncd" {
		t.Errorf("cleanListed = %q", got)
	}
}

func TestListingCaps(t *testing.T) {
	t.Run("text 8 KiB", func(t *testing.T) {
		src := ":::big\n" + strings.Repeat("word ", 200000) + "\n:::\n" // 1 MB of text
		items, truncated := Listing(Parse([]byte(src)))
		if !truncated || len(items) != 1 || len(items[0].Text) > ListingMaxText {
			t.Fatalf("truncated=%v items=%d len=%d", truncated, len(items), len(items[0].Text))
		}
		if len(items[0].Text) < ListingMaxText-8 {
			t.Errorf("text cut too short: %d", len(items[0].Text))
		}
	})
	t.Run("2000 directives", func(t *testing.T) {
		src := strings.Repeat(":a[x] ", 2500)
		items, truncated := Listing(Parse([]byte(src)))
		if !truncated || len(items) != ListingMaxDirectives {
			t.Fatalf("truncated=%v items=%d", truncated, len(items))
		}
	})
	t.Run("512 KiB total", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < 100; i++ {
			fmt.Fprintf(&b, ":::d%d\n%s\n:::\n\n", i, strings.Repeat("z", 8000))
		}
		items, truncated := Listing(Parse([]byte(b.String())))
		total := 0
		for _, it := range items {
			total += len(it.Name) + len(it.Form) + len(it.Text)
		}
		if !truncated || total > ListingMaxTotal || len(items) >= 100 || len(items) < 60 {
			t.Fatalf("truncated=%v items=%d total=%d", truncated, len(items), total)
		}
	})
	t.Run("attributes", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("::x{")
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, "k%d=v ", i)
		}
		fmt.Fprintf(&b, "long=%s %s=1}\n", strings.Repeat("v", 3000), strings.Repeat("n", 129))
		items, truncated := Listing(Parse([]byte(b.String())))
		if !truncated || len(items) != 1 || len(items[0].Attrs) != ListingMaxAttrs {
			t.Fatalf("truncated=%v attrs=%d", truncated, len(items[0].Attrs))
		}
		src := "::x{" + strings.Repeat("n", 129) + "=1 ok=" + strings.Repeat("v", 3000) + "}\n"
		items, truncated = Listing(Parse([]byte(src)))
		a := items[0].Attrs
		if !truncated || len(a) != 1 || a[0].Key != "ok" || len(a[0].Value) != ListingMaxAttrValue {
			t.Fatalf("truncated=%v attrs=%+v", truncated, len(a))
		}
	})
	t.Run("1000-level nesting", func(t *testing.T) {
		src := strings.Repeat(":a[", 1000) + "x" + strings.Repeat("]", 1000)
		items, truncated := Listing(Parse([]byte(src)))
		if !truncated || len(items) != ListingMaxDepth {
			t.Fatalf("truncated=%v items=%d", truncated, len(items))
		}
		var b strings.Builder
		for i := 1000; i > 0; i-- {
			fmt.Fprintf(&b, "%s%s\n", strings.Repeat(":", i+3), "c")
		}
		items, truncated = Listing(Parse([]byte(b.String())))
		if !truncated || len(items) == 0 || len(items) > ListingMaxDepth {
			t.Fatalf("containers: truncated=%v items=%d", truncated, len(items))
		}
	})
}
