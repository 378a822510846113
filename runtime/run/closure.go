package run

import (
	"fmt"
	"path"
	"strings"

	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/grants"
	"github.com/markii/markii/runtime/pack"
	"github.com/markii/markii/runtime/script"
)

// closure is a note's executable code, as the run needs it.
type closure struct {
	// blocks are the scripts to run, in document order (a src= block
	// carries its file's text).
	blocks []script.Block
	// unloadable gives, by block index, why a src= block's file could not
	// be loaded ("" for a block that can run).
	unloadable []string
	// grants is the closure for the grant key and the scan: every block,
	// every src= file, and every Lua file a require could load from the
	// bundle (*.lua under scripts/, assets/ and .cache/).
	grants grants.Closure
	// declared is what the note says about its network reach.
	declared grants.Declared
}

// buildClosure lists n's executable code.
func buildClosure(n Note) closure {
	var c closure
	modules := map[string]string{}
	// loaded is each src= file's text by the file it names: the blocks
	// that name one file share one copy, however they spell it.
	loaded := map[string]string{}
	for _, s := range n.Scripts {
		c.add(s, n.Bundle, loaded, modules)
	}
	if n.Bundle != nil {
		addBundleModules(n.Bundle.Files(), modules)
		m := n.Bundle.Manifest()
		c.declared.Hosts = append(c.declared.Hosts, m.NetGet...)
		c.declared.Hosts = append(c.declared.Hosts, m.NetPost...)
	}
	for p, src := range modules {
		c.grants.BundleModules = append(c.grants.BundleModules, grants.Module{Path: p, Source: src})
	}
	return c
}

// add lists one script block: its text, or the src= file it names (kept
// in modules too), or why that file could not be loaded.
func (c *closure) add(s Script, b *bundle.Bundle, loaded, modules map[string]string) {
	gs := grants.Script{Name: s.Name, Lang: s.Lang, Src: s.Src, HasSrc: s.HasSrc, Code: s.Source}
	blk := script.Block{Name: s.Name, Lang: s.Lang, Src: s.Src, Source: s.Source}
	why := ""
	if s.HasSrc {
		gs.Code, blk.Source = "", ""
		text, err := loadSrcOnce(b, s.Src, loaded)
		if err != nil {
			why = err.Error()
			gs.Unresolved = true
		} else {
			blk.Source = text
			modules[s.Src] = text
		}
	}
	c.grants.Scripts = append(c.grants.Scripts, gs)
	c.blocks = append(c.blocks, blk)
	c.unloadable = append(c.unloadable, why)
	c.declared.Hosts = append(c.declared.Hosts, s.Permissions...)
}

// addBundleModules adds the bundle's Lua files under scripts/, assets/
// and .cache/ to modules, by path.
func addBundleModules(files *bundle.Files, modules map[string]string) {
	for _, name := range files.Names() {
		top, _, _ := strings.Cut(name, "/")
		if path.Ext(name) != ".lua" || (top != "scripts" && top != "assets" && top != ".cache") {
			continue
		}
		if data, ok := files.Get(name); ok {
			modules[name] = string(data)
		}
	}
}

// loadSrcOnce is loadSrc reading each file once: loaded holds the texts
// read so far by their clean path.
func loadSrcOnce(b *bundle.Bundle, src string, loaded map[string]string) (string, error) {
	clean, err := bundle.CleanPath(src)
	if err == nil {
		if text, ok := loaded[clean]; ok {
			return text, nil
		}
	}
	text, err := loadSrc(b, src)
	if err == nil {
		loaded[clean] = text
	}
	return text, err
}

// loadSrc reads a src= file from the bundle; the error names the path and
// why it cannot be loaded (no bundle, escaping or absolute, missing,
// bytecode).
func loadSrc(b *bundle.Bundle, src string) (string, error) {
	if b == nil {
		return "", fmt.Errorf("src=%q needs a bundle; a plain note cannot load script files", src)
	}
	return b.Resolve(src)
}

// packClosure lists every installed pack with its module sources: a
// script can require any of them, so all of them are part of the code a
// grant is given for.
func packClosure(set *pack.Set) []grants.Pack {
	var out []grants.Pack
	for _, name := range set.Names() {
		p, _ := set.Get(name)
		gp := grants.Pack{Namespace: p.Name, Version: p.Version, ModulesKnown: true}
		for path, src := range p.Modules() {
			gp.Modules = append(gp.Modules, grants.Module{Path: path, Source: src})
		}
		out = append(out, gp)
	}
	return out
}
