package render

import (
	"fmt"
	"slices"
	"sync"

	"github.com/markii/markii/ansi"
)

// Component draws every directive with one name. A component is plain data
// plus render functions; it never touches the terminal, the clock or the
// filesystem, and it may read only what its Context gives it.
type Component struct {
	// Name is the directive name the component answers to.
	Name string
	// Form is the form the component is written in: FormInline for
	// components that draw inside a line (badge, kbd), FormLeaf or
	// FormContainer for block components.
	Form Form
	// SelfSizing marks a block component that sizes its own box from the
	// width preset (Context.BoxWidth) instead of being laid out at the
	// preset's width by the frame (card, callout, divider, table).
	SelfSizing bool
	// Block draws a leaf or container directive as lines no wider than
	// Context.Width. Block components must set it.
	Block func(c *Context) []ansi.Line
	// Inline draws an inline directive as spans (the frame wraps them with
	// the surrounding text). Inline components must set it.
	Inline func(c *Context) []ansi.Span
}

// alias maps a name to a registered target plus preset attributes.
type alias struct {
	target string
	preset Attrs
}

// Registry maps directive names to components. The zero Registry is not
// usable; call NewRegistry or StandardRegistry. A Registry is safe for
// concurrent lookups once registration is done.
type Registry struct {
	components map[string]*Component
	aliases    map[string]alias
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{components: map[string]*Component{}, aliases: map[string]alias{}}
}

// Register adds c, replacing any component of the same name. It refuses a
// component without a name, with a form that is not one of the three, or
// without the render function its form needs.
func (r *Registry) Register(c Component) error {
	if err := c.check(); err != nil {
		return err
	}
	cc := c
	r.components[c.Name] = &cc
	return nil
}

// check reports what makes c unusable: no name, a form that is not one of
// the three, or no render function for its form.
func (c *Component) check() error {
	if c.Name == "" {
		return fmt.Errorf("component has no name")
	}
	switch c.Form {
	case FormInline:
		if c.Inline == nil {
			return fmt.Errorf("inline component %q has no Inline function", c.Name)
		}
	case FormLeaf, FormContainer:
		if c.Block == nil {
			return fmt.Errorf("block component %q has no Block function", c.Name)
		}
	default:
		return fmt.Errorf("component %q has an unknown form %d", c.Name, int(c.Form))
	}
	return nil
}

// MustRegister is Register for static component tables; it panics on a
// malformed component, which is a programming error.
func (r *Registry) MustRegister(cs ...Component) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic("render: " + err.Error())
		}
	}
}

// RegisterAlias makes name draw as target with preset attributes added
// before the document's own (the document's win). Aliases resolve one hop;
// a registered component of the same name beats the alias.
func (r *Registry) RegisterAlias(name, target string, preset Attrs) {
	r.aliases[name] = alias{target: target, preset: append(Attrs(nil), preset...)}
}

// Lookup returns the component for name, resolving one alias hop, plus the
// alias's preset attributes. ok is false when nothing answers to name;
// target is then the name the fallback should show (the alias target for
// a dangling alias).
func (r *Registry) Lookup(name string) (c *Component, preset Attrs, target string, ok bool) {
	if r == nil {
		return nil, nil, name, false
	}
	if c, ok := r.components[name]; ok {
		return c, nil, name, true
	}
	if a, ok := r.aliases[name]; ok {
		if c, ok := r.components[a.target]; ok {
			return c, a.preset, a.target, true
		}
		return nil, nil, a.target, false
	}
	return nil, nil, name, false
}

// Len returns the number of registered components.
func (r *Registry) Len() int { return len(r.components) }

// standardComponents returns the table of the standard component set
// (SPEC §2), gathered from the files that implement the components. It is
// built when a registry is made, not at process start, so a process that
// lays out no note pays nothing for it.
func standardComponents() []Component {
	return slices.Concat(boxComponents(), dataComponents(), inlineComponents(), layoutComponents())
}

var (
	standardOnce sync.Once
	standard     *Registry
)

// StandardRegistry returns the shared registry of markii's standard
// components. Do not register into it; start from NewStandardRegistry to
// add components of your own.
func StandardRegistry() *Registry {
	standardOnce.Do(func() { standard = NewStandardRegistry() })
	return standard
}

// NewStandardRegistry returns a new registry holding the standard
// components, to which a program embedding markii may add its own.
func NewStandardRegistry() *Registry {
	table := standardComponents()
	r := &Registry{components: make(map[string]*Component, len(table)), aliases: map[string]alias{}}
	// The table is this registry's own, so its entries are registered in
	// place rather than copied one allocation at a time.
	for i := range table {
		if err := table[i].check(); err != nil {
			panic("render: " + err.Error())
		}
		r.components[table[i].Name] = &table[i]
	}
	return r
}
