package signature

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"github.com/markii/markii/runtime/internal/safefile"
)

// MaxKeyBytes bounds a private key file.
const MaxKeyBytes = 64 << 10

// ErrPassphrase is a private key that is protected by a passphrase; markii
// does not ask for one (sign with ssh-keygen -Y sign -n markii-note, or
// with a key without a passphrase).
var ErrPassphrase = errors.New("the key is protected by a passphrase; markii cannot ask for it: sign with `ssh-keygen -Y sign -n markii-note -f KEY FILE` or use a key without a passphrase")

// LoadKey reads an OpenSSH private key file and returns its signer. Only
// Ed25519 and ECDSA P-256 keys are accepted.
func LoadKey(path string) (ssh.Signer, error) {
	data, err := safefile.ReadFile(path, MaxKeyBytes, safefile.Options{OwnedByMe: true})
	if err != nil {
		return nil, err
	}
	signer, err := ssh.ParsePrivateKey(data)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		return nil, ErrPassphrase
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not an OpenSSH private key: %w", path, err)
	}
	if !supported(signer.PublicKey().Type()) {
		return nil, fmt.Errorf("%s is a %s key; markii signs with ssh-ed25519 or ecdsa-sha2-nistp256 keys", path, signer.PublicKey().Type())
	}
	return signer, nil
}

// Sign signs st with signer in the markii namespace and returns the
// armored signature, the bytes of a .sig file.
func Sign(st Statement, signer ssh.Signer) ([]byte, error) {
	if !supported(signer.PublicKey().Type()) {
		return nil, fmt.Errorf("a %s key cannot sign markii notes; use ssh-ed25519 or ecdsa-sha2-nistp256", signer.PublicKey().Type())
	}
	sig, err := sshsig.Sign(bytes.NewReader(st.Bytes()), signer, sshsig.HashSHA512, Namespace)
	if err != nil {
		return nil, fmt.Errorf("cannot sign: %w", err)
	}
	return sshsig.Armor(sig), nil
}
