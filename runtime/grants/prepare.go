package grants

import (
	"context"

	"github.com/markii/markii/runtime/script"
)

// NoIdentity is the document key of a note without identity (read from
// standard input). Nothing is remembered for it, so its questions say a
// yes lasts for the one run.
const NoIdentity = "stdin"

// Prepared is everything about grants a run needs before it starts.
type Prepared struct {
	// Key is the closure key of the code that will run.
	Key string
	// Scan is the static host scan of the same code.
	Scan Result
	// Decision is what the run may use.
	Decision Decision
}

// Prepare computes the closure key and the scan of c and resolves the
// grants for a run at tier: a manual run may ask p, an auto run only reads
// a stored grant made for exactly this key. declared never widens anything;
// it only feeds the scan's mismatch diagnostics. bundleGrants are the
// bundle grants the manifest declares. docKey NoIdentity is a note whose
// grants last for this run only.
func Prepare(ctx context.Context, tier script.Tier, p Prompter, store *Store, docKey string, c Closure, declared Declared, bundleGrants []string) (Prepared, error) {
	out := Prepared{Key: Key(c), Scan: Scan(c, declared)}
	d, err := Resolve(ctx, tier, p, store, Request{DocKey: docKey, Key: out.Key, Scan: out.Scan, BundleGrants: bundleGrants, OneRun: docKey == NoIdentity})
	out.Decision = d
	return out, err
}
