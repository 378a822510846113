// Package grants decides which network hosts a note's scripts may reach:
// the static host scan of the code, the closure key that ties a grant to
// that exact code, the consent flow that asks the person at the keyboard,
// and the grant store in the device state.
package grants

// Script is one runnable block of a note.
type Script struct {
	// Name and Lang are the fence's name and language ("" when absent).
	Name string
	Lang string
	// Src is the fence's src= path; HasSrc says whether it was given.
	Src    string
	HasSrc bool
	// Code is the fence body ("" for a src= fence, whose text is a
	// module of the closure).
	Code string
	// Unresolved is set for a src= fence whose file could not be read;
	// the scan then counts the note as building addresses at run time.
	Unresolved bool
}

// Module is one source file of the closure: the resolved text of a src=
// file or a required bundle module.
type Module struct {
	Path   string
	Source string
}

// VaultNamespace is one vault-library namespace and its modules.
type VaultNamespace struct {
	Namespace string
	Modules   []Module
}

// Pack is one pack the closure uses.
type Pack struct {
	Namespace string
	Version   string
	// ModulesKnown says whether Modules lists the pack's module sources.
	ModulesKnown bool
	Modules      []Module
}

// Closure is a note's whole executable code: everything that can run when
// its scripts run.
type Closure struct {
	Scripts       []Script
	BundleModules []Module
	VaultModules  []VaultNamespace
	Packs         []Pack
}

// Declared is what a note says about its own network reach: hosts named in
// fences' permissions= attributes and in a bundle manifest's
// permissions.net. It is shown beside the scan and never grants anything.
type Declared struct {
	Hosts []string
}
