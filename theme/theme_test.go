package theme

import (
	"math"
	"reflect"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// luminance is the WCAG relative luminance of c.
func luminance(c Color) float64 {
	ch := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
}

// contrast is the WCAG contrast ratio of two colors.
func contrast(a, b Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// backgrounds are typical terminal backgrounds each theme must read on.
var backgrounds = map[string][]Color{
	"dark":  {{R: 0, G: 0, B: 0}, {R: 30, G: 30, B: 30}, {R: 40, G: 44, B: 52}},
	"light": {{R: 255, G: 255, B: 255}, {R: 250, G: 250, B: 245}, {R: 238, G: 238, B: 238}},
	// high-contrast is for dark backgrounds like dark.
	"high-contrast": {{R: 0, G: 0, B: 0}, {R: 30, G: 30, B: 30}, {R: 40, G: 44, B: 52}},
}

// floors are the least contrast each token needs: text and code 4.5
// (WCAG AA), headings, links and status colors 3, quiet tokens 2.
var floors = map[string]float64{
	"Text": 4.5, "Code": 4.5, "Identifier": 4.5, "Keyword": 4.5, "String": 4.5, "Number": 4.5,
	"Function": 4.5, "Type": 4.5, "Operator": 4.5,
	"Heading": 4.5, "Accent": 3, "Info": 3, "Success": 3, "Warning": 3, "Danger": 3, "Limit": 3,
	"Muted": 4.5, "Comment": 3, "Faint": 2,
}

func TestThemesReadOnTheirBackground(t *testing.T) {
	for _, name := range Names {
		th, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		v := reflect.ValueOf(th)
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			c, ok := v.Field(i).Interface().(Color)
			if !ok {
				continue
			}
			if c.ANSI16 != 0 && !(c.ANSI16 >= 30 && c.ANSI16 <= 37 || c.ANSI16 >= 90 && c.ANSI16 <= 97) {
				t.Errorf("%s.%s: 16-color code %d is not a foreground code", name, f.Name, c.ANSI16)
			}
			floor, ok := floors[f.Name]
			if !ok {
				continue
			}
			for _, bg := range backgrounds[name] {
				if r := contrast(c, bg); r < floor {
					t.Errorf("%s.%s %02x%02x%02x on %02x%02x%02x: contrast %.2f, want at least %.1f",
						name, f.Name, c.R, c.G, c.B, bg.R, bg.G, bg.B, r, floor)
				}
			}
		}
	}
}

func TestCodeBackgroundStaysClose(t *testing.T) {
	// The inline code background is a gentle tint: near its background,
	// and the code color reads on it.
	for _, name := range Names {
		th, _ := ByName(name)
		bg := backgrounds[name][0]
		if r := contrast(th.CodeBG, bg); r > 1.6 {
			t.Errorf("%s: code background contrast %.2f against the page is loud", name, r)
		}
		if r := contrast(th.Code, th.CodeBG); r < 4.5 {
			t.Errorf("%s: code on its background %.2f", name, r)
		}
	}
}

func TestByName(t *testing.T) {
	if th, err := ByName("light"); err != nil || th.Name != "light" {
		t.Fatalf("light: %v %v", th.Name, err)
	}
	if _, err := ByName("sepia"); err == nil {
		t.Fatal("unknown theme accepted")
	}
	if Dark == Light {
		t.Fatal("dark and light are the same")
	}
}

// TestHighContrastIsHigh holds the high-contrast theme to WCAG AAA (7:1)
// on black for every token but the quiet ones, which get 4.5:1.
func TestHighContrastIsHigh(t *testing.T) {
	v := reflect.ValueOf(HighContrast)
	black := Color{}
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		c, ok := v.Field(i).Interface().(Color)
		if !ok || f.Name == "CodeBG" {
			continue
		}
		floor := 7.0
		if f.Name == "Faint" {
			floor = 4.5
		}
		if r := contrast(c, black); r < floor {
			t.Errorf("high-contrast %s: %.2f on black, want %.1f", f.Name, r, floor)
		}
	}
	if !HighContrast.IsDark() || !Dark.IsDark() || Light.IsDark() {
		t.Error("IsDark is wrong for a built-in theme")
	}
}
