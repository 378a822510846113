package render

import "testing"

func TestTitle(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"---\ntitle: Quarterly numbers\nuses: [x]\n---\n# Heading\n", "Quarterly numbers"},
		{"---\ntitle: 'Quoted: yes'\n---\n", "Quoted: yes"},
		{"---\ntitle: \"Double\"\n---\n", "Double"},
		{"---\ntitle: plain # a comment\n---\n", "plain"},
		{"---\ntitle: |\n  block\n---\n# Fallback\n", "Fallback"},
		{"---\nsubtitle: no\n---\nText.\n\n## Second *level*\n", "Second level"},
		{"Intro.\n\nSetext title\n============\n", "Setext title"},
		{"```\n# in code\n```\n\n> # In a quote\n", "In a quote"},
		{"No heading at all.\n", ""},
		{"# Bell\a and \x1b[31mescape\n", "Bell and [31mescape"},
		{"---\ntitle: tab\there\x1b]0;x\a\n---\n", "tab here]0;x"},
		{"---\ntitle: unclosed\n# Heading\n", "Heading"},
		{"# Node Version Manager [![Tests](https://x.org/t.svg)][3] [![CII](https://x.org/c.svg)](https://x.org)\n", "Node Version Manager"},
		{"# Tool [![Build](https://x.org/b.svg)](https://x.org/ci)\n", "Tool"},
		{"# ![Logo only](logo.png)\n", "Logo only"},
		{"# ![Logo](logo.png) Project *name*\n", "Project name"},
		{"# Spaced  *out*\t title\n", "Spaced out title"},
		{"### [Warp, the AI terminal](https://warp.dev)\n\n# eza\n\n## Install\n", "eza"},
		{"<h3 align=\"center\">Gold sponsors</h3>\n\n<h1>axios</h1>\n", "axios"},
		{"## Sponsors\n\n## Features\n\n### More\n", "Sponsors"},
	} {
		if got := Title([]byte(c.src)); got != c.want {
			t.Errorf("Title(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}
