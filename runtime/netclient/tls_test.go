package netclient

import (
	"crypto/tls"
	"crypto/x509"
)

func tlsWithRoots(pool *x509.CertPool) *tls.Config {
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
