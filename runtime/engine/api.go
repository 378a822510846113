package engine

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/markii/markii/runtime/bundle"
	"github.com/markii/markii/runtime/netclient"
	"github.com/markii/markii/runtime/script"
	lua "github.com/yuin/gopher-lua"
)

// installAPI adds the host-injected tables of SPEC §3.3: net, cache,
// bundle, require, doc and json. Every capability exists whether or not it
// was granted; the host refuses what was not. Every capability call goes
// to the host, which alone decides it (the tier, the grants, whether the
// note is a bundle) and records the decision in the audit trail: the
// engine refuses nothing on its own that the host would not see.
func (r *scriptRun) installAPI() {
	L := r.L
	g := L.G.Global
	fn := func(f lua.LGFunction) *lua.LFunction { return L.NewFunction(f) }

	net := L.CreateTable(0, 3)
	net.RawSetString("fetch_json", fn(r.netFetchJSON))
	net.RawSetString("post", fn(r.netSend("POST", "net.post")))
	net.RawSetString("patch", fn(r.netSend("PATCH", "net.patch")))
	g.RawSetString("net", net)

	cache := L.CreateTable(0, 1)
	cache.RawSetString("get", fn(r.cacheGet))
	g.RawSetString("cache", cache)

	bundle := L.CreateTable(0, 3)
	bundle.RawSetString("read", fn(r.bundleRead))
	bundle.RawSetString("exists", fn(r.bundleExists))
	bundle.RawSetString("write", fn(r.bundleWrite))
	g.RawSetString("bundle", bundle)

	g.RawSetString("require", fn(r.require))

	doc := L.CreateTable(0, 3)
	doc.RawSetString("directives", fn(r.docDirectives))
	doc.RawSetString("value", fn(r.docValue))
	g.RawSetString("doc", doc)
	r.setDocTruncated()

	js := L.CreateTable(0, 2)
	js.RawSetString("encode", fn(r.jsonEncode))
	js.RawSetString("decode", fn(r.jsonDecode))
	g.RawSetString("json", js)
}

// setDocTruncated sets doc.truncated from the run's record.
func (r *scriptRun) setDocTruncated() {
	if doc, ok := r.L.G.Global.RawGetString("doc").(*lua.LTable); ok {
		doc.RawSetString("truncated", lua.LBool(r.truncated))
	}
}

// hostError turns a host's error into a denial record, a lost request's
// record, a failed network request's record, or a script error. The host
// names the host a network call went to; the URL's host is worked out
// here only when it does not.
func (r *scriptRun) hostError(err error, what string, c script.Capability, url string) {
	hostOr := func(named string) string {
		if named == "" && url != "" {
			return netclient.HostOf(url)
		}
		return named
	}
	var d *script.Denial
	if errors.As(err, &d) {
		rec := d.Record(c, hostOr(d.Host))
		if rec.Reason == "" {
			rec.Reason = what + " was refused"
		} else {
			rec.Reason = what + ": " + rec.Reason
		}
		r.deny(&rec)
	}
	var u *script.UnknownOutcome
	if errors.As(err, &u) {
		r.unknown = u
	}
	var ne *netclient.Error
	if d == nil && u == nil && errors.As(err, &ne) {
		r.netFailure = &script.NetFailure{Kind: ne.Kind, Sent: ne.Sent, Cause: ne.Cause}
		r.netHost = hostOr(ne.Host)
	}
	r.L.RaiseError("%s: %s", what, err.Error())
}

func (r *scriptRun) netFetchJSON(L *lua.LState) int {
	u := L.CheckString(1)
	resp, err := r.host.Fetch(r.hostCtx, script.FetchRequest{Method: "GET", URL: u})
	r.afterHostCall()
	if err != nil {
		r.hostError(err, "net.fetch_json", script.CapNet, u)
	}
	host := responseHost(resp, u)
	if int64(len(resp.Body)) > r.limits.FetchBytes {
		r.deny(&script.Denial{Capability: script.CapNet, Host: host,
			Reason: fmt.Sprintf("net.fetch_json: the response from %s is larger than %d bytes", host, r.limits.FetchBytes)})
	}
	if resp.Status < 200 || resp.Status > 299 {
		L.RaiseError("net.fetch_json: %s answered HTTP %d", host, resp.Status)
	}
	v, derr := decodeJSON(L, []byte(resp.Body), r.limits.FetchBytes, r.limits.MarshalDepth, r.limits.MarshalNodes, r.meter.charge)
	r.afterDecode(derr)
	if derr != nil {
		var de *DecodeError
		if errors.As(derr, &de) && de.Reason != "syntax" && de.Reason != "number" {
			r.deny(&script.Denial{Capability: script.CapNet, Host: host,
				Reason: fmt.Sprintf("net.fetch_json: the response from %s is over a budget: %v", host, derr)})
		}
		L.RaiseError("net.fetch_json: the response from %s is not usable JSON: %v", host, derr)
	}
	L.Push(v)
	return 1
}

func (r *scriptRun) netSend(method, what string) lua.LGFunction {
	return func(L *lua.LState) int {
		u := L.CheckString(1)
		body := ""
		switch b := L.Get(2).(type) {
		case lua.LString:
			body = string(b)
		case *lua.LNilType:
		default:
			L.ArgError(2, "the body must be a string (use json.encode for a table)")
		}
		resp, err := r.host.Fetch(r.hostCtx, script.FetchRequest{Method: method, URL: u, Body: body})
		r.afterHostCall()
		if err != nil {
			r.hostError(err, what, script.CapNet, u)
		}
		host := responseHost(resp, u)
		if int64(len(resp.Body)) > r.limits.FetchBytes {
			r.deny(&script.Denial{Capability: script.CapNet, Host: host,
				Reason: fmt.Sprintf("%s: the response from %s is larger than %d bytes", what, host, r.limits.FetchBytes)})
		}
		t := L.NewTable()
		t.RawSetString("status", lua.LNumber(resp.Status))
		t.RawSetString("body", lua.LString(resp.Body))
		L.Push(t)
		return 1
	}
}

// responseHost is the host a response came from: the one the host's
// network client worked out, carried in the response, or (from a Host that
// names none) the URL's.
func responseHost(resp script.FetchResponse, url string) string {
	if resp.Host != "" {
		return resp.Host
	}
	return netclient.HostOf(url)
}

// afterHostCall stops the script if a limit tripped while the host worked.
func (r *scriptRun) afterHostCall() {
	if r.meter.tripped.Load() {
		r.L.RaiseError("%s", limitMessage(r.meter.breach()))
	}
}

func (r *scriptRun) afterDecode(err error) {
	if errors.Is(err, errStopped) {
		r.afterHostCall()
	}
}

func (r *scriptRun) bundleRead(L *lua.LState) int {
	p := L.CheckString(1)
	data, found, err := r.host.BundleRead(r.hostCtx, p)
	r.afterHostCall()
	if err != nil {
		r.hostError(err, "bundle.read", script.CapBundle, "")
	}
	if !found {
		L.Push(lua.LNil)
		return 1
	}
	r.reserve(int64(len(data)))
	L.Push(lua.LString(data))
	return 1
}

func (r *scriptRun) bundleExists(L *lua.LState) int {
	p := L.CheckString(1)
	ok, err := r.host.BundleExists(r.hostCtx, p)
	r.afterHostCall()
	if err != nil {
		r.hostError(err, "bundle.exists", script.CapBundle, "")
	}
	L.Push(lua.LBool(ok))
	return 1
}

func (r *scriptRun) bundleWrite(L *lua.LState) int {
	p := L.CheckString(1)
	data := L.CheckString(2)
	if err := r.host.BundleWrite(r.hostCtx, p, []byte(data)); err != nil {
		r.afterHostCall()
		r.hostError(err, "bundle.write", script.CapBundle, "")
	}
	r.afterHostCall()
	L.Push(lua.LTrue)
	return 1
}

// cacheGet is cache.get(key, ttl_seconds, fn).
func (r *scriptRun) cacheGet(L *lua.LState) int {
	key := L.CheckString(1)
	ttl := float64(L.CheckNumber(2))
	fn := L.CheckFunction(3)
	if v, ok := r.cacheFresh(L, key, ttl); ok {
		L.Push(v)
		return 1
	}
	L.Push(fn)
	L.Call(0, 1)
	v := L.Get(-1)
	L.Pop(1)
	enc, merr := marshal(v, r.limits.MarshalDepth, r.limits.MarshalNodes, r.limits.Memory, r.meter.charge)
	r.afterHostCall()
	if merr != nil {
		L.RaiseError("cache.get: the value for %q %s", key, merr.Error())
	}
	if err := r.host.CachePut(r.hostCtx, key, enc); err != nil {
		r.afterHostCall()
		r.cacheDenied(err)
	}
	L.Push(v)
	return 1
}

// cacheFresh is the value stored under key, when there is one younger
// than ttl seconds that decodes.
func (r *scriptRun) cacheFresh(L *lua.LState, key string, ttl float64) (lua.LValue, bool) {
	raw, storedAt, found, err := r.host.CacheGet(r.hostCtx, key)
	r.afterHostCall()
	if err != nil {
		r.cacheDenied(err)
		return nil, false
	}
	if !found || !younger(storedAt, ttl) {
		return nil, false
	}
	v, derr := decodeJSON(L, raw, r.limits.FetchBytes, r.limits.MarshalDepth, r.limits.MarshalNodes, r.meter.charge)
	r.afterDecode(derr)
	return v, derr == nil
}

// younger reports whether what was stored at storedAt is younger than
// ttl seconds; an unknown time never is.
func younger(storedAt time.Time, ttl float64) bool {
	if storedAt.IsZero() || ttl <= 0 {
		return false
	}
	age := time.Since(storedAt)
	return age >= 0 && age.Seconds() < ttl
}

// cacheDenied records a cache error that is a denial; any other makes
// the cache miss (on get) or go unwritten (on put).
func (r *scriptRun) cacheDenied(err error) {
	var d *script.Denial
	if errors.As(err, &d) {
		r.hostError(err, "cache.get", script.CapCache, "")
	}
}

// require loads a module's source from the host and runs it on this state
// with the same globals and budget. Results are cached per script; a
// module returning nil caches true; a cycle is an error.
func (r *scriptRun) require(L *lua.LState) int {
	arg, ok := L.Get(1).(lua.LString)
	if !ok {
		L.ArgError(1, "require needs a module name (a string), not a "+L.Get(1).Type().String())
	}
	name := string(arg)
	// The cache and the cycle check use the module's one spelling, so
	// every spelling of one module runs it once.
	key, kerr := bundle.ModuleKey(name)
	if kerr != nil {
		key = name // the host refuses it
	}
	if v, ok := r.modules[key]; ok {
		L.Push(v)
		return 1
	}
	if r.loading[key] {
		L.RaiseError("require: %q requires itself (a circular require)", name)
	}
	src, err := r.host.Require(r.hostCtx, name)
	r.afterHostCall()
	if err != nil {
		r.hostError(err, "require", script.CapRequire, "")
	}
	r.reserve(int64(len(src)))
	fn, cerr := compile(L, src, name)
	if cerr != nil {
		L.RaiseError("require %q: %s", name, cerr.Error())
	}
	r.loading[key] = true
	L.Push(fn)
	L.Call(0, 1)
	delete(r.loading, key)
	v := L.Get(-1)
	L.Pop(1)
	if v == lua.LNil {
		v = lua.LTrue
	}
	r.modules[key] = v
	L.Push(v)
	return 1
}

// docDirectives returns fresh tables on every call.
func (r *scriptRun) docDirectives(L *lua.LState) int {
	var only *string
	switch f := L.Get(1).(type) {
	case *lua.LNilType:
	case *lua.LTable:
		if n, ok := f.RawGetString("name").(lua.LString); ok {
			s := string(n)
			only = &s
		}
	default:
		L.ArgError(1, "the filter must be a table")
	}
	r.charge(int64(len(r.directives)))
	out := L.CreateTable(len(r.directives), 0)
	i := 0
	for _, d := range r.directives {
		if only != nil && d.Name != *only {
			continue
		}
		t := L.CreateTable(0, 4)
		t.RawSetString("name", lua.LString(d.Name))
		t.RawSetString("form", lua.LString(d.Form))
		attrs := L.CreateTable(0, len(d.Attrs))
		for _, a := range d.Attrs {
			attrs.RawSetString(a.Key, lua.LString(a.Value))
		}
		t.RawSetString("attributes", attrs)
		t.RawSetString("text", lua.LString(d.Text))
		i++
		out.RawSetInt(i, t)
	}
	L.Push(out)
	return 1
}

// docValue returns an earlier script's value as fresh tables.
func (r *scriptRun) docValue(L *lua.LState) int {
	name := L.CheckString(1)
	raw, ok := r.earlier[name]
	if !ok {
		if r.later[name] && name != r.block.Name {
			r.laterRead = LaterValueSentence
			L.RaiseError("%s", LaterValueSentence)
		}
		L.Push(lua.LNil)
		return 1
	}
	v, err := decodeJSON(L, raw, int64(len(raw)), r.limits.MarshalDepth, r.limits.MarshalNodes, r.meter.charge)
	r.afterDecode(err)
	if err != nil {
		L.RaiseError("doc.value(%q): %v", name, err)
	}
	L.Push(v)
	return 1
}

func (r *scriptRun) jsonEncode(L *lua.LState) int {
	v := L.CheckAny(1)
	enc, err := marshal(v, r.limits.MarshalDepth, r.limits.MarshalNodes, r.limits.Memory, r.meter.charge)
	r.afterHostCall()
	if err != nil {
		L.RaiseError("json.encode: the %s", err.Error())
	}
	r.reserve(int64(len(enc)))
	L.Push(lua.LString(enc))
	return 1
}

func (r *scriptRun) jsonDecode(L *lua.LState) int {
	s := L.CheckString(1)
	v, err := decodeJSON(L, []byte(s), r.limits.FetchBytes, r.limits.MarshalDepth, r.limits.MarshalNodes, r.meter.charge)
	r.afterDecode(err)
	if err != nil {
		L.RaiseError("json.decode: %s", strings.TrimPrefix(err.Error(), "json.decode: "))
	}
	L.Push(v)
	return 1
}
