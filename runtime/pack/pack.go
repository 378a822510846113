package pack

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/script"
	"github.com/markii/markii/sanitize"
)

// Limits bound reading packs. Archive and directory caps are the bundle
// caps; ModuleBytes caps one Lua module.
type Limits struct {
	Archive     bundle.Limits
	ModuleBytes int
}

// DefaultLimits are the bundle caps plus a 1 MiB cap per Lua module.
var DefaultLimits = Limits{Archive: bundle.DefaultLimits, ModuleBytes: 1 << 20}

// Extension is a pack archive's file extension.
const Extension = ".mkp"

// Pack is one installed pack.
type Pack struct {
	Manifest
	// Path is the folder or .mkp file it was read from.
	Path string
	// modules maps a module path ("http", "util/strings") to its source.
	modules map[string]string
}

// Modules returns the pack's Lua module sources by module path, for the
// closure key.
func (p *Pack) Modules() map[string]string {
	out := make(map[string]string, len(p.modules))
	for k, v := range p.modules {
		out[k] = v
	}
	return out
}

// ComponentNames returns the pack's directive names (pack_local), sorted.
func (p *Pack) ComponentNames() []string {
	out := make([]string, 0, len(p.Components))
	for local := range p.Components {
		out = append(out, p.Name+"_"+local)
	}
	sort.Strings(out)
	return out
}

// Set is the packs installed from the user's configured folders.
type Set struct {
	packs map[string]*Pack
	// Problems are the packs and folders that were refused, in the order
	// they were found.
	Problems []Problem
}

// ProblemKind is why a pack or a configured folder was refused.
type ProblemKind int

// The kinds of Problem.
const (
	// ProblemFolderUnreadable: a configured pack folder cannot be read.
	ProblemFolderUnreadable ProblemKind = iota + 1
	// ProblemNotLoaded: a pack folder or archive is not a valid pack.
	ProblemNotLoaded
	// ProblemDuplicateNamespace: several packs claim one namespace, so
	// none of them is installed.
	ProblemDuplicateNamespace
)

// Problem is one refused pack or folder.
type Problem struct {
	Kind ProblemKind
	// Path is the folder or pack; for a duplicate namespace, Claimants
	// are every claiming pack's path and Namespace the name they share.
	Path      string
	Claimants []string
	Namespace string
	// Err is the reason a folder or pack was refused.
	Err error
}

// String is the problem as one line of text, for the edge that shows it.
func (p Problem) String() string {
	switch p.Kind {
	case ProblemFolderUnreadable:
		return fmt.Sprintf("packs folder %s cannot be read: %s", p.Path, sanitize.Line(p.Err.Error()))
	case ProblemDuplicateNamespace:
		return fmt.Sprintf("packs %s all claim the namespace %s, so none of them is installed (remove or rename all but one)",
			strings.Join(p.Claimants, " and "), strconv.Quote(p.Namespace))
	}
	return fmt.Sprintf("pack %s was not loaded: %s", p.Path, sanitize.Line(p.Err.Error()))
}

// Load reads every pack in paths, which come only from the user's own
// config. Each path is a pack folder (it holds pack.json), a .mkp file, or
// a folder whose children are pack folders and .mkp files. A refused pack
// is left out and reported in Problems; packs that share a namespace are
// all refused, with one problem naming every one of them.
func Load(paths []string) *Set { return LoadLimits(paths, DefaultLimits) }

// LoadLimits is Load with explicit limits.
func LoadLimits(paths []string, lim Limits) *Set {
	s := &Set{packs: map[string]*Pack{}}
	claims := map[string][]*Pack{}
	var order []string
	for _, p := range paths {
		for _, candidate := range s.candidates(p) {
			pk, err := read(candidate, lim)
			if err != nil {
				s.Problems = append(s.Problems, Problem{Kind: ProblemNotLoaded, Path: candidate, Err: err})
				continue
			}
			if len(claims[pk.Name]) == 0 {
				order = append(order, pk.Name)
			}
			claims[pk.Name] = append(claims[pk.Name], pk)
		}
	}
	for _, name := range order {
		if c := claims[name]; len(c) > 1 {
			s.Problems = append(s.Problems, duplicateNamespace(name, c))
			continue
		}
		s.packs[name] = claims[name][0]
	}
	return s
}

// duplicateNamespace is the problem of two or more packs claiming one
// namespace: none of them is installed, since which one a note meant
// cannot be known.
func duplicateNamespace(name string, claimants []*Pack) Problem {
	paths := make([]string, len(claimants))
	for i, p := range claimants {
		paths[i] = p.Path
	}
	return Problem{Kind: ProblemDuplicateNamespace, Path: paths[0], Claimants: paths, Namespace: name}
}

// candidates expands one configured path into pack folders and archives.
func (s *Set) candidates(p string) []string {
	info, err := os.Stat(p)
	if err != nil {
		s.Problems = append(s.Problems, Problem{Kind: ProblemFolderUnreadable, Path: p, Err: err})
		return nil
	}
	if !info.IsDir() {
		return []string{p}
	}
	if _, err := os.Lstat(filepath.Join(p, ManifestName)); err == nil {
		return []string{p}
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		s.Problems = append(s.Problems, Problem{Kind: ProblemFolderUnreadable, Path: p, Err: err})
		return nil
	}
	var out []string
	for _, e := range entries {
		full := filepath.Join(p, e.Name())
		switch {
		case e.Type().IsRegular() && strings.EqualFold(filepath.Ext(e.Name()), Extension):
			out = append(out, full)
		case e.IsDir():
			if _, err := os.Lstat(filepath.Join(full, ManifestName)); err == nil {
				out = append(out, full)
			}
		}
	}
	return out
}

// read opens one pack folder or .mkp archive.
func read(p string, lim Limits) (*Pack, error) {
	files, isArchive, err := openFiles(p, lim)
	if err != nil {
		return nil, err
	}
	raw, ok := files.Get(ManifestName)
	if !ok {
		return nil, errors.New("it has no " + ManifestName)
	}
	m, err := ParseManifest(raw)
	if err != nil {
		return nil, err
	}
	if _, ok := files.Get("webview.js"); isArchive && !ok {
		return nil, errors.New("it has no webview.js")
	}
	modules, err := packModules(files, lim)
	if err != nil {
		return nil, err
	}
	return &Pack{Manifest: *m, Path: p, modules: modules}, nil
}

// openFiles reads a pack folder, or a .mkp archive (isArchive).
func openFiles(p string, lim Limits) (files *bundle.Files, isArchive bool, err error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, false, err
	}
	if info.IsDir() {
		files, err = bundle.ReadDir(p, "pack", lim.Archive)
		return files, false, err
	}
	if !strings.EqualFold(filepath.Ext(p), Extension) {
		return nil, true, fmt.Errorf("it is neither a pack folder nor a %s file", Extension)
	}
	files, err = bundle.ReadZip(p, "pack", lim.Archive)
	return files, true, err
}

// packModules is the pack's Lua modules under scripts/, by name without
// ".lua", each within the module size limit.
func packModules(files *bundle.Files, lim Limits) (map[string]string, error) {
	modules := map[string]string{}
	for _, name := range files.Names() {
		rest, ok := strings.CutPrefix(name, bundle.ScriptsDir+"/")
		if !ok || !strings.HasSuffix(rest, ".lua") {
			continue
		}
		src, _ := files.Get(name)
		if len(src) > lim.ModuleBytes {
			return nil, fmt.Errorf("module %s is %d bytes, over the %d-byte limit", strconv.Quote(name), len(src), lim.ModuleBytes)
		}
		modules[strings.TrimSuffix(rest, ".lua")] = string(src)
	}
	return modules, nil
}

// Names returns the installed pack names, sorted.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.packs))
	for n := range s.packs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Get returns an installed pack by name.
func (s *Set) Get(name string) (*Pack, bool) {
	if s == nil {
		return nil, false
	}
	p, ok := s.packs[name]
	return p, ok
}

// SplitDirective splits a pack component's directive name ("ana_timeline")
// into the pack namespace and the local name. ok is false when the name
// cannot be a pack component (no underscore, or an invalid namespace).
func SplitDirective(directive string) (packName, local string, ok bool) {
	packName, local, found := strings.Cut(directive, "_")
	if !found || local == "" || !ValidName(packName) {
		return "", "", false
	}
	return packName, local, true
}

// Module returns the source of module in pack packName. A pack that is not
// installed (or no Set at all) is a capability denial; a missing module or
// compiled bytecode is a *bundle.ModuleError (a script error).
func (s *Set) Module(packName, module string) (string, error) {
	p, ok := s.Get(packName)
	if !ok {
		return "", &script.Denial{Capability: script.CapRequire,
			Reason: fmt.Sprintf("require: no pack named %s is installed", strconv.Quote(packName))}
	}
	clean, err := bundle.ModuleKey(module)
	if err != nil {
		return "", &script.Denial{Capability: script.CapRequire, Reason: "require: " + err.Error()}
	}
	src, ok := p.modules[clean]
	if !ok {
		return "", &bundle.ModuleError{Path: packName + "/" + clean,
			Reason: fmt.Sprintf("pack %s has no module %s", strconv.Quote(packName), strconv.Quote(clean))}
	}
	if len(src) > 0 && src[0] == 0x1b {
		return "", &bundle.ModuleError{Path: packName + "/" + clean,
			Reason: fmt.Sprintf("%s is refused: %s", strconv.Quote(packName+"/"+clean), bundle.ErrBytecode)}
	}
	return src, nil
}
