//go:build !linux

package isolate

func probeConfinement() map[string]string { return nil }
