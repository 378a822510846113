package grants

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	_ "github.com/markii/markii/internal/golden" // defines -update for go test ./... -update
)

// be32 is written out by hand so the vector does not reuse the code under
// test.
func be32(n byte) []byte { return []byte{0, 0, 0, n} }

func TestKeyLayoutVector(t *testing.T) {
	c := Closure{
		Scripts: []Script{
			{Name: "b", Lang: "lua", Code: "return 1"},
			{Name: "a", Lang: "", HasSrc: true, Src: "s.lua"},
		},
		BundleModules: []Module{{Path: "s.lua", Source: "x"}},
		Packs:         []Pack{{Namespace: "ana", Version: "1.0.0"}},
	}
	var want []byte
	add := func(b ...[]byte) {
		for _, x := range b {
			want = append(want, x...)
		}
	}
	add(be32(18), []byte("markii-grant-key/1"))
	// scripts: record for "a" (0x00 0x00 0x00 0x01 'a' ...) sorts before "b".
	add([]byte{0x01}, be32(2))
	add(be32(1), []byte("a"), be32(0), []byte{0x01}, be32(5), []byte("s.lua"), be32(0))
	add(be32(1), []byte("b"), be32(3), []byte("lua"), []byte{0x00}, be32(8), []byte("return 1"))
	// bundle modules
	add([]byte{0x02}, be32(1), be32(5), []byte("s.lua"), be32(1), []byte("x"))
	// vault modules: empty set
	add([]byte{0x03}, be32(0))
	// packs: modules unknown
	add([]byte{0x04}, be32(1), be32(3), []byte("ana"), be32(5), []byte("1.0.0"), []byte{0x00})

	got := KeyMessage(c)
	if !bytes.Equal(got, want) {
		t.Fatalf("layout\n got %x\nwant %x", got, want)
	}
	sum := sha256.Sum256(want)
	if Key(c) != hex.EncodeToString(sum[:]) {
		t.Fatal("Key is not the hex SHA-256 of the layout")
	}
	// The empty closure: tag, then four empty sections.
	empty := append(append(be32(18), "markii-grant-key/1"...),
		0x01, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0x03, 0, 0, 0, 0, 0x04, 0, 0, 0, 0)
	if !bytes.Equal(KeyMessage(Closure{}), empty) {
		t.Fatalf("empty closure layout %x", KeyMessage(Closure{}))
	}
}

func TestKeySetOrderAndPrefix(t *testing.T) {
	a := Closure{Scripts: []Script{{Name: "x", Code: "1"}, {Name: "y", Code: "2"}}}
	b := Closure{Scripts: []Script{{Name: "y", Code: "2"}, {Name: "x", Code: "1"}}}
	if Key(a) != Key(b) {
		t.Fatal("record order changed the key; records form a sorted set")
	}
	// Shorter record first when one is a prefix of the other.
	recs := [][]byte{[]byte("abc"), []byte("ab"), []byte("b")}
	got := set(recs)
	want := append(be32(3), "ababcb"...)
	if !bytes.Equal(got, want) {
		t.Fatalf("set = %q", got)
	}
	// Vault modules and pack module sets are part of the key.
	v := Closure{VaultModules: []VaultNamespace{{Namespace: "n", Modules: []Module{{Path: "m", Source: "s"}}}}}
	if Key(v) == Key(Closure{}) {
		t.Fatal("vault modules did not change the key")
	}
}

func TestKeyChangesWithAnyCodeChange(t *testing.T) {
	base := func() Closure {
		return Closure{
			Scripts: []Script{
				{Name: "stars", Lang: "lua", Code: "return net.fetch_json(\"https://api.github.com/x\").n"},
				{Name: "data", Lang: "lua", HasSrc: true, Src: "scripts/data.lua"},
			},
			BundleModules: []Module{{Path: "scripts/data.lua", Source: "return 1"}, {Path: "scripts/util.lua", Source: "return {}"}},
			Packs:         []Pack{{Namespace: "ana", Version: "1.2.3", ModulesKnown: true, Modules: []Module{{Path: "http", Source: "return 0"}}}},
		}
	}
	k := Key(base())
	if Key(base()) != k {
		t.Fatal("the key is not deterministic")
	}
	edits := map[string]func(*Closure){
		"whitespace":      func(c *Closure) { c.Scripts[0].Code += " " },
		"comment":         func(c *Closure) { c.Scripts[0].Code += "\n-- note" },
		"rename":          func(c *Closure) { c.Scripts[0].Name = "stars2" },
		"language":        func(c *Closure) { c.Scripts[0].Lang = "" },
		"src path":        func(c *Closure) { c.Scripts[1].Src = "scripts/other.lua" },
		"src content":     func(c *Closure) { c.BundleModules[0].Source = "return 2" },
		"module content":  func(c *Closure) { c.BundleModules[1].Source = "return { }" },
		"module added":    func(c *Closure) { c.BundleModules = append(c.BundleModules, Module{Path: "scripts/z.lua"}) },
		"script added":    func(c *Closure) { c.Scripts = append(c.Scripts, Script{Name: "z"}) },
		"pack version":    func(c *Closure) { c.Packs[0].Version = "1.2.4" },
		"pack module":     func(c *Closure) { c.Packs[0].Modules[0].Source = "return 1" },
		"pack unknown":    func(c *Closure) { c.Packs[0].ModulesKnown = false },
		"src flag":        func(c *Closure) { c.Scripts[1].HasSrc = false },
		"code moves name": func(c *Closure) { c.Scripts[0].Name, c.Scripts[0].Lang = "starslua", "" },
	}
	for name, edit := range edits {
		c := base()
		edit(&c)
		if Key(c) == k {
			t.Errorf("%s: the key did not change", name)
		}
	}
}
