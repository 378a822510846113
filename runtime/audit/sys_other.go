//go:build !unix

package audit

const openFlags = 0
