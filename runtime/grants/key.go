package grants

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"sort"
)

// KeyVersion is the tag that opens every grant key message.
const KeyVersion = "markii-grant-key/1"

// Key returns the closure key of c: the lowercase hex SHA-256 of the
// markii-grant-key/1 byte layout. Any change to any byte of the code, a
// name, a language, a src= path, a module or a pack version changes it.
func Key(c Closure) string {
	sum := sha256.Sum256(KeyMessage(c))
	return hex.EncodeToString(sum[:])
}

// KeyMessage returns the canonical byte string Key hashes:
//
//	str("markii-grant-key/1")
//	0x01 set{ str(name) str(lang) opt(src) str(code) }          scripts
//	0x02 set{ str(path) str(source) }                           bundle modules
//	0x03 set{ str(namespace) modset }                           vault modules
//	0x04 set{ str(namespace) str(version) 0x01 modset | 0x00 }  packs
//
// where u32 is 4 bytes big-endian, str(s) = u32(len) + bytes, opt(s) =
// 0x00 or 0x01 + str(s), and a set is u32(count) followed by its records'
// encodings sorted bytewise.
func KeyMessage(c Closure) []byte {
	var out bytes.Buffer
	out.Write(str(KeyVersion))

	scripts := make([][]byte, 0, len(c.Scripts))
	for _, s := range c.Scripts {
		var r []byte
		r = append(r, str(s.Name)...)
		r = append(r, str(s.Lang)...)
		if s.HasSrc {
			r = append(r, 0x01)
			r = append(r, str(s.Src)...)
		} else {
			r = append(r, 0x00)
		}
		r = append(r, str(s.Code)...)
		scripts = append(scripts, r)
	}
	out.WriteByte(0x01)
	out.Write(set(scripts))

	out.WriteByte(0x02)
	out.Write(moduleSet(c.BundleModules))

	vault := make([][]byte, 0, len(c.VaultModules))
	for _, v := range c.VaultModules {
		vault = append(vault, append(str(v.Namespace), moduleSet(v.Modules)...))
	}
	out.WriteByte(0x03)
	out.Write(set(vault))

	packs := make([][]byte, 0, len(c.Packs))
	for _, p := range c.Packs {
		r := append(str(p.Namespace), str(p.Version)...)
		if p.ModulesKnown {
			r = append(r, 0x01)
			r = append(r, moduleSet(p.Modules)...)
		} else {
			r = append(r, 0x00)
		}
		packs = append(packs, r)
	}
	out.WriteByte(0x04)
	out.Write(set(packs))
	return out.Bytes()
}

func u32(n int) []byte {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(n))
	return b[:]
}

func str(s string) []byte { return append(u32(len(s)), s...) }

func moduleSet(mods []Module) []byte {
	recs := make([][]byte, 0, len(mods))
	for _, m := range mods {
		recs = append(recs, append(str(m.Path), str(m.Source)...))
	}
	return set(recs)
}

// set encodes records as u32(count) plus the records sorted bytewise
// (a shorter record first when one is a prefix of the other).
func set(recs [][]byte) []byte {
	sort.Slice(recs, func(i, j int) bool { return bytes.Compare(recs[i], recs[j]) < 0 })
	out := u32(len(recs))
	for _, r := range recs {
		out = append(out, r...)
	}
	return out
}
