package grants

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/markii/markii/runtime/netclient"
)

// isNetFunction reports whether name is a net call whose first argument
// names a host.
func isNetFunction(name string) bool {
	switch name {
	case "fetch_json", "post", "patch":
		return true
	}
	return false
}

// maxWalkDepth bounds the AST walk; deeper code is not proved and counts as
// building addresses at run time.
const maxWalkDepth = 200

// Result is what the static scan found.
type Result struct {
	// Hosts are the canonical hosts written literally in the code that pass
	// the display shape check, sorted and unique. Only these can be granted.
	Hosts []string
	// Hidden counts literal hosts that failed the shape check; they are
	// never shown and count as addresses built at run time.
	Hidden int
	// RuntimeAddresses is set when some net call's address cannot be proved
	// from the code: a variable, a concatenation, a method call, an alias
	// of a net function, a script that does not parse, an unresolved src=
	// file or a pack whose modules are unknown.
	RuntimeAddresses bool
	// Reasons says where and why, one line each, for diagnostics.
	Reasons []string
	// Declared are the hosts the note declares about itself (canonical
	// where they can be read), sorted and unique; never an input to a grant.
	Declared []string
	// Mismatch holds one diagnostic line per difference between the
	// declaration and the scan.
	Mismatch []string
}

// Scan walks every piece of c's code with gopher-lua's own parser and
// lists the hosts that may be asked about. Two rules contribute a host:
//
//   - the call rule (the reference's): a net.fetch_json, net.post or
//     net.patch call whose first argument is one string literal holding an
//     absolute http(s) URL;
//   - the literal rule (markii's own): any string literal anywhere in the
//     code that is an absolute http(s) URL whose authority is closed inside
//     the literal, that is, the host (and port) is followed by "/", "?" or
//     "#" within the same literal. Nothing concatenated after such a
//     literal can change its host, so `"https://api.example/v1?" .. query`
//     lists api.example, while `"https://a.example" .. "@b.example"` and
//     `"http://127.0.0.1" .. ":9/x"` list nothing.
//
// Listing a host only decides what to ask. It never widens what a run may
// reach: each request's real host must be granted, and a net call whose
// address is not one literal still sets RuntimeAddresses. The grant key
// covers the code, not the scan, so neither rule changes it.
// d is compared with the result for diagnostics only.
func Scan(c Closure, d Declared) Result {
	s := &scanner{hosts: map[string]bool{}}
	s.scripts(c.Scripts)
	for _, m := range c.BundleModules {
		s.source(fmt.Sprintf("module %q", m.Path), m.Source)
	}
	for _, v := range c.VaultModules {
		s.modules(v.Namespace, v.Modules)
	}
	for _, p := range c.Packs {
		if !p.ModulesKnown {
			s.runtime(fmt.Sprintf("pack %q", p.Namespace), 0, "its modules are not known")
			continue
		}
		s.modules(p.Namespace, p.Modules)
	}
	r := s.result()
	r.Declared, r.Mismatch = compareDeclared(r.Hosts, d)
	return r
}

// scripts scans the note's script blocks; a block with src= is scanned
// as the bundle module it names.
func (s *scanner) scripts(list []Script) {
	for _, sc := range list {
		where := fmt.Sprintf("script %q", sc.Name)
		switch {
		case sc.HasSrc && sc.Unresolved:
			s.runtime(where, 0, "its src= file could not be read")
		case sc.HasSrc:
			// Its text is scanned as a bundle module.
		default:
			s.source(where, sc.Code)
		}
	}
}

// modules scans the modules of a vault or pack namespace.
func (s *scanner) modules(namespace string, list []Module) {
	for _, m := range list {
		s.source(fmt.Sprintf("module %q", namespace+"/"+m.Path), m.Source)
	}
}

// result is what the scan found: the presentable hosts, sorted, and a
// count of the hidden ones, which make the addresses known only at run
// time.
func (s *scanner) result() Result {
	r := Result{RuntimeAddresses: s.unknown, Reasons: s.reasons}
	for h := range s.hosts {
		if Presentable(h) {
			r.Hosts = append(r.Hosts, h)
		} else {
			r.Hidden++
			r.RuntimeAddresses = true
		}
	}
	sort.Strings(r.Hosts)
	return r
}

// compareDeclared reads the declaration and lists the differences.
func compareDeclared(found []string, d Declared) (declared, mismatch []string) {
	seen := map[string]bool{}
	for _, h := range d.Hosts {
		c, err := netclient.CanonicalHost(h)
		if err != nil || !Presentable(c) {
			mismatch = append(mismatch, "a declared network host is not a valid host name and was ignored")
			continue
		}
		if !seen[c] {
			seen[c] = true
			declared = append(declared, c)
		}
	}
	sort.Strings(declared)
	if len(d.Hosts) == 0 {
		return declared, mismatch
	}
	inCode := map[string]bool{}
	for _, h := range found {
		inCode[h] = true
		if !seen[h] {
			mismatch = append(mismatch, fmt.Sprintf("the scripts reach %s, which the note does not declare", h))
		}
	}
	for _, h := range declared {
		if !inCode[h] {
			mismatch = append(mismatch, fmt.Sprintf("the note declares %s, which no script names; a declaration grants nothing", h))
		}
	}
	return declared, mismatch
}

type scanner struct {
	hosts   map[string]bool
	unknown bool
	reasons []string
	where   string
}

func (s *scanner) runtime(where string, line int, why string) {
	s.unknown = true
	if len(s.reasons) >= 50 {
		return
	}
	if line > 0 {
		s.reasons = append(s.reasons, fmt.Sprintf("%s line %d: %s", where, line, why))
	} else {
		s.reasons = append(s.reasons, fmt.Sprintf("%s: %s", where, why))
	}
}

func (s *scanner) source(where, code string) {
	chunk, err := parse.Parse(strings.NewReader(code), "<scan>")
	if err != nil {
		s.runtime(where, 0, "it does not parse, so its addresses cannot be listed")
		return
	}
	s.where = where
	s.stmts(chunk, 0)
}

func (s *scanner) deep(n ast.PositionHolder, depth int) bool {
	if depth > maxWalkDepth {
		s.runtime(s.where, n.Line(), "the code is nested too deeply to be scanned")
		return true
	}
	return false
}

func (s *scanner) stmts(list []ast.Stmt, depth int) {
	for _, st := range list {
		s.stmt(st, depth+1)
	}
}

func (s *scanner) exprs(list []ast.Expr, depth int) {
	for _, e := range list {
		s.expr(e, depth+1)
	}
}

func (s *scanner) stmt(st ast.Stmt, depth int) {
	if st == nil || s.deep(st, depth) {
		return
	}
	switch n := st.(type) {
	case *ast.AssignStmt:
		s.targets(n.Lhs, depth)
		s.exprs(n.Rhs, depth)
	case *ast.LocalAssignStmt:
		s.exprs(n.Exprs, depth)
	case *ast.FuncCallStmt:
		s.expr(n.Expr, depth+1)
	case *ast.DoBlockStmt:
		s.stmts(n.Stmts, depth)
	case *ast.FuncDefStmt:
		s.funcDef(n, depth)
	case *ast.ReturnStmt:
		s.exprs(n.Exprs, depth)
	default:
		s.control(st, depth)
	}
}

// control walks a loop or an if statement: its conditions or loop
// expressions and its blocks.
func (s *scanner) control(st ast.Stmt, depth int) {
	switch n := st.(type) {
	case *ast.WhileStmt:
		s.condition(n.Condition, depth+1)
		s.stmts(n.Stmts, depth)
	case *ast.RepeatStmt:
		s.stmts(n.Stmts, depth)
		s.condition(n.Condition, depth+1)
	case *ast.IfStmt:
		s.condition(n.Condition, depth+1)
		s.stmts(n.Then, depth)
		s.stmts(n.Else, depth)
	case *ast.NumberForStmt:
		s.exprs([]ast.Expr{n.Init, n.Limit, n.Step}, depth)
		s.stmts(n.Stmts, depth)
	case *ast.GenericForStmt:
		s.exprs(n.Exprs, depth)
		s.stmts(n.Stmts, depth)
	}
}

// targets walks an assignment's targets, where assigning to `net`
// itself (replacing the table) is not a use of it.
func (s *scanner) targets(list []ast.Expr, depth int) {
	for _, e := range list {
		if !isNet(e) {
			s.expr(e, depth+1)
		}
	}
}

// funcDef walks a function statement's name and body.
func (s *scanner) funcDef(n *ast.FuncDefStmt, depth int) {
	if n.Name != nil {
		s.expr(n.Name.Func, depth+1)
		s.expr(n.Name.Receiver, depth+1)
	}
	if n.Func != nil {
		s.stmts(n.Func.Stmts, depth)
	}
}

// condition walks a test, where a bare `net` (checking that the table
// exists) is harmless.
func (s *scanner) condition(e ast.Expr, depth int) {
	if isNet(e) {
		return
	}
	switch n := e.(type) {
	case *ast.UnaryNotOpExpr:
		s.condition(n.Expr, depth+1)
		return
	case *ast.LogicalOpExpr:
		s.condition(n.Lhs, depth+1)
		s.condition(n.Rhs, depth+1)
		return
	case *ast.RelationalOpExpr:
		if n.Operator == "==" || n.Operator == "~=" {
			s.condition(n.Lhs, depth+1)
			s.condition(n.Rhs, depth+1)
			return
		}
	}
	s.expr(e, depth)
}

func isNet(e ast.Expr) bool {
	id, ok := e.(*ast.IdentExpr)
	return ok && id.Value == "net"
}

func (s *scanner) expr(e ast.Expr, depth int) {
	if e == nil || s.deep(e, depth) {
		return
	}
	switch n := e.(type) {
	case *ast.IdentExpr:
		s.ident(n)
	case *ast.AttrGetExpr:
		s.attrGet(n, depth)
	case *ast.TableExpr:
		s.table(n, depth)
	case *ast.FuncCallExpr:
		s.call(n, depth)
	case *ast.FunctionExpr:
		s.stmts(n.Stmts, depth)
	case *ast.StringExpr:
		if host, ok := closedURLHost(n.Value); ok {
			s.hosts[host] = true
		}
	default:
		// An operator's operands; a constant has none.
		lhs, rhs := operands(e)
		s.expr(lhs, depth+1)
		s.expr(rhs, depth+1)
	}
}

// table walks a table constructor's keys and values.
func (s *scanner) table(n *ast.TableExpr, depth int) {
	for _, f := range n.Fields {
		s.expr(f.Key, depth+1)
		s.expr(f.Value, depth+1)
	}
}

// ident is a bare name: net itself, used other than by a direct call,
// leaves its calls unknown.
func (s *scanner) ident(n *ast.IdentExpr) {
	if n.Value == "net" {
		s.runtime(s.where, n.Line(), "the net table is used other than by a direct call, so its calls cannot be listed")
	}
}

// attrGet walks t.k; a net function taken as a value leaves its calls
// unknown.
func (s *scanner) attrGet(n *ast.AttrGetExpr, depth int) {
	if isNet(n.Object) {
		s.runtime(s.where, n.Line(), "a net function is taken as a value, so its calls cannot be listed")
		return
	}
	s.expr(n.Object, depth+1)
	s.expr(n.Key, depth+1)
}

// operands are an operator expression's operands: both of a binary
// one's, or a unary one's and nil.
func operands(e ast.Expr) (lhs, rhs ast.Expr) {
	switch n := e.(type) {
	case *ast.LogicalOpExpr:
		return n.Lhs, n.Rhs
	case *ast.RelationalOpExpr:
		return n.Lhs, n.Rhs
	case *ast.StringConcatOpExpr:
		return n.Lhs, n.Rhs
	case *ast.ArithmeticOpExpr:
		return n.Lhs, n.Rhs
	case *ast.UnaryMinusOpExpr:
		return n.Expr, nil
	case *ast.UnaryNotOpExpr:
		return n.Expr, nil
	case *ast.UnaryLenOpExpr:
		return n.Expr, nil
	}
	return nil, nil
}

// closedURLHost returns the canonical host of lit when lit is an absolute
// http or https URL whose authority ends inside lit: the text after
// "scheme://" holds a "/", "?" or "#", and everything before it is a host
// with an optional port and no credentials. Any other literal has no host
// that concatenation could not still change.
func closedURLHost(lit string) (string, bool) {
	authority, ok := closedAuthority(lit)
	if !ok {
		return "", false
	}
	u, err := url.Parse(lit)
	if err != nil || u.Opaque != "" || u.User != nil || u.Host != authority {
		return "", false
	}
	host, err := netclient.CanonicalHost(u.Hostname())
	if err != nil {
		return "", false
	}
	return host, true
}

// closedAuthority is the authority of an http or https URL literal when a
// "/", "?" or "#" ends it inside the literal and it holds no "@" or backslash.
func closedAuthority(lit string) (string, bool) {
	scheme, rest, ok := strings.Cut(lit, "://")
	if !ok {
		return "", false
	}
	if sch := strings.ToLower(scheme); sch != "http" && sch != "https" {
		return "", false
	}
	end := strings.IndexAny(rest, "/?#")
	if end <= 0 || strings.ContainsAny(rest[:end], "@\\") {
		return "", false
	}
	return rest[:end], true
}

func (s *scanner) call(n *ast.FuncCallExpr, depth int) {
	if n.Receiver != nil && isNet(n.Receiver) {
		s.runtime(s.where, n.Line(), "net is called with method syntax, so its address cannot be listed")
		s.exprs(n.Args, depth)
		return
	}
	if get, ok := n.Func.(*ast.AttrGetExpr); ok && isNet(get.Object) {
		key, ok := get.Key.(*ast.StringExpr)
		switch {
		case !ok:
			s.runtime(s.where, n.Line(), "a net function is chosen at run time, so its address cannot be listed")
		case isNetFunction(key.Value):
			s.address(n)
		}
		s.exprs(n.Args, depth)
		return
	}
	s.expr(n.Func, depth+1)
	s.expr(n.Receiver, depth+1)
	s.exprs(n.Args, depth)
}

// address reads the first argument of a net call.
func (s *scanner) address(n *ast.FuncCallExpr) {
	if len(n.Args) == 0 {
		s.runtime(s.where, n.Line(), "a net call has no address")
		return
	}
	lit, ok := n.Args[0].(*ast.StringExpr)
	if !ok {
		s.runtime(s.where, n.Line(), "a net call's address is built at run time")
		return
	}
	u, err := url.Parse(lit.Value)
	if err != nil || u.Opaque != "" || u.Host == "" {
		s.runtime(s.where, n.Line(), "a net call's address is not an absolute URL")
		return
	}
	if sch := strings.ToLower(u.Scheme); sch != "http" && sch != "https" {
		s.runtime(s.where, n.Line(), "a net call's address is not http or https")
		return
	}
	if u.User != nil {
		s.runtime(s.where, n.Line(), "a net call's address carries credentials, which is refused")
		return
	}
	host, err := netclient.CanonicalHost(u.Hostname())
	if err != nil {
		s.runtime(s.where, n.Line(), "a net call's address has a host that cannot be used")
		return
	}
	s.hosts[host] = true
}
