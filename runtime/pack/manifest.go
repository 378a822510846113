// Package pack reads Markii packs: pack folders and `.mkp` archives found
// in the folders the user's own config names (never a note), validated
// through the same zip reader, jail and caps as bundles. It resolves
// `require "pack/module"` to a pack's pure-Lua modules and tells the
// renderer which packs and components are installed.
package pack

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/markii/markii/runtime/bundle"
)

// MaxManifestBytes caps pack.json before it is parsed.
const MaxManifestBytes = 256 << 10

// ManifestName is a pack's manifest file.
const ManifestName = "pack.json"

// Component is one component a pack provides.
type Component struct {
	// Name is the local name; the directive is pack name + "_" + Name.
	Name        string
	Source      string
	Description string
	// Kind is inline, leaf or container (the default).
	Kind       string
	Attributes []Attribute
}

// Attribute documents one attribute of a component.
type Attribute struct {
	Name        string
	Description string
	Required    bool
	Values      []string
	Default     string
}

// Manifest is a validated pack.json.
type Manifest struct {
	Name    string
	Version string
	Engine  string
	// Components maps local names to components.
	Components map[string]Component
	// Warnings are unknown keys, each one line.
	Warnings []string
}

// ManifestError is a pack.json that cannot be used.
type ManifestError struct{ Problems []string }

func (e *ManifestError) Error() string { return bundle.InvalidMessage(ManifestName, e.Problems) }

// The name checks below are plain byte loops rather than regular
// expressions so that no process, the script worker included, compiles a
// pattern at start-up. Every accepted byte is ASCII, so a byte loop and a
// rune-wise match agree on every input, valid UTF-8 or not.

// isKebab reports whether s matches ^[a-z0-9]+(-[a-z0-9]+)*$: lowercase
// letters and digits in runs joined by single hyphens.
func isKebab(s string) bool {
	afterHyphen := true // the start, like a hyphen, needs a letter or digit next
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			afterHyphen = false
		case c == '-' && !afterHyphen:
			afterHyphen = true
		default:
			return false
		}
	}
	return !afterHyphen
}

// isVersion reports whether s matches ^[0-9]+\.[0-9]+\.[0-9]+$: three
// runs of digits joined by dots.
func isVersion(s string) bool {
	dots, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && digits > 0 && dots < 2:
			dots++
			digits = 0
		default:
			return false
		}
	}
	return dots == 2 && digits > 0
}

// isComponentName reports whether s matches ^[A-Za-z0-9][A-Za-z0-9_-]*$.
func isComponentName(s string) bool {
	return s != "" && strings.IndexByte(alphanumerics, s[0]) >= 0 && strings.TrimLeft(s, alphanumerics+"_-") == ""
}

// alphanumerics are the ASCII letters and digits.
const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// ValidName reports whether s can be a pack namespace: lowercase-kebab, no
// underscore, and not a reserved bundle folder.
func ValidName(s string) bool {
	return isKebab(s) && s != "scripts" && s != "assets"
}

// ParseManifest validates pack.json. A bad component entry rejects the
// whole manifest; unknown keys are warnings.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > MaxManifestBytes {
		return nil, &ManifestError{[]string{fmt.Sprintf("it is %d bytes, over the %d-byte limit", len(data), MaxManifestBytes)}}
	}
	fields, err := bundle.ObjectFields(data)
	if err != nil {
		return nil, &ManifestError{[]string{err.Error()}}
	}
	v := &validator{m: &Manifest{Components: map[string]Component{}}}
	v.run(fields)
	if len(v.Problems) > 0 {
		return nil, &ManifestError{v.Problems}
	}
	v.m.Warnings = v.Warnings
	return v.m, nil
}

type validator struct {
	bundle.Findings
	m *Manifest
}

func (v *validator) run(fields map[string]json.RawMessage) {
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		switch k {
		case "name", "engine", "version", "components":
		default:
			v.Warn("%s has an unknown key %s", ManifestName, strconv.Quote(k))
		}
	}
	var name string
	if json.Unmarshal(fields["name"], &name) != nil || !ValidName(name) {
		v.Fail(`"name" must be a lowercase-kebab pack name such as "charts" (no underscore; not scripts, assets or .cache)`)
	}
	v.m.Name = name
	var engine string
	if json.Unmarshal(fields["engine"], &engine) != nil || strings.TrimSpace(engine) == "" {
		v.Fail(`"engine" must be a non-empty string`)
	}
	v.m.Engine = engine
	if raw, ok := fields["version"]; ok {
		var ver string
		if json.Unmarshal(raw, &ver) != nil || !isVersion(ver) {
			v.Fail(`"version" must look like "1.2.3"`)
		}
		v.m.Version = ver
	}
	v.components(fields["components"])
}

func (v *validator) components(raw json.RawMessage) {
	var comps map[string]json.RawMessage
	if raw == nil || json.Unmarshal(raw, &comps) != nil || len(comps) == 0 {
		v.Fail(`"components" must be a non-empty object`)
		return
	}
	for _, local := range slices.Sorted(maps.Keys(comps)) {
		if c, ok := v.componentEntry(local, comps[local]); ok {
			v.m.Components[local] = c
		}
	}
}

// componentEntry reads the component named local: a source path, or an
// object with "source".
func (v *validator) componentEntry(local string, raw json.RawMessage) (Component, bool) {
	if !isComponentName(local) {
		v.Fail("%s is not a component name (letters, digits, - and _)", "components["+strconv.Quote(local)+"]")
		return Component{}, false
	}
	where := "components." + local
	c := Component{Name: local, Kind: "container"}
	var src string
	if json.Unmarshal(raw, &src) == nil {
		if src == "" {
			v.Fail("%s must name a source file", where)
			return c, false
		}
		c.Source = src
		return c, true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		v.Fail("%s must be a source path or an object with \"source\"", where)
		return c, false
	}
	return c, v.component(where, obj, &c)
}

// componentKinds are the directive forms a component can be written in.
var componentKinds = []string{"inline", "leaf", "container"}

func (v *validator) component(where string, obj map[string]json.RawMessage, c *Component) bool {
	ok := true
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		read := componentField(k)
		if read == nil {
			v.Warn("%s has an unknown key %s", where, strconv.Quote(k))
			continue
		}
		if !read(v, where, obj[k], c) {
			ok = false
		}
	}
	if c.Source == "" && ok {
		v.Fail("%s.source is missing", where)
		ok = false
	}
	return ok
}

// componentFields reads each key of a component object into c, failing
// the manifest and reporting false when its value is wrong.
var componentFields = []struct {
	key  string
	read func(v *validator, where string, raw json.RawMessage, c *Component) bool
}{
	{"source", (*validator).componentSource},
	{"description", (*validator).componentDescription},
	{"kind", (*validator).componentKind},
	{"attributes", (*validator).attributes},
}

// componentField is how a component's key is read, or nil for a key a
// component does not have.
func componentField(key string) func(v *validator, where string, raw json.RawMessage, c *Component) bool {
	for _, f := range componentFields {
		if f.key == key {
			return f.read
		}
	}
	return nil
}

func (v *validator) componentSource(where string, raw json.RawMessage, c *Component) bool {
	if json.Unmarshal(raw, &c.Source) != nil || c.Source == "" {
		v.Fail("%s.source must be a non-empty string", where)
		return false
	}
	return true
}

func (v *validator) componentDescription(where string, raw json.RawMessage, c *Component) bool {
	if json.Unmarshal(raw, &c.Description) != nil {
		v.Fail("%s.description must be a string", where)
		return false
	}
	return true
}

func (v *validator) componentKind(where string, raw json.RawMessage, c *Component) bool {
	if json.Unmarshal(raw, &c.Kind) != nil || !slices.Contains(componentKinds, c.Kind) {
		v.Fail("%s.kind must be inline, leaf or container", where)
		return false
	}
	return true
}

func (v *validator) attributes(where string, raw json.RawMessage, c *Component) bool {
	var list []struct {
		Name        *string   `json:"name"`
		Description *string   `json:"description"`
		Required    *bool     `json:"required"`
		Values      *[]string `json:"values"`
		Default     *string   `json:"default"`
	}
	if json.Unmarshal(raw, &list) != nil {
		v.Fail("%s.attributes must be a list of {name, description?, required?, values?, default?}", where)
		return false
	}
	for i, a := range list {
		if a.Name == nil || *a.Name == "" {
			v.Fail("%s.attributes[%d].name is missing", where, i)
			return false
		}
		attr := Attribute{Name: *a.Name}
		if a.Description != nil {
			attr.Description = *a.Description
		}
		if a.Required != nil {
			attr.Required = *a.Required
		}
		if a.Values != nil {
			attr.Values = *a.Values
		}
		if a.Default != nil {
			attr.Default = *a.Default
		}
		c.Attributes = append(c.Attributes, attr)
	}
	return true
}
