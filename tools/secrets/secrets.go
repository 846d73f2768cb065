package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// EnvKey is the environment variable that holds the key.
const EnvKey = "LOKAL_SECRET_KEY"

// KeySize is the size of an AES-256 key.
const KeySize = 32

const version = "v1:"

// ErrNoKey is returned when there is no key to seal or open with.
var ErrNoKey = errors.New("no secret key: set " + EnvKey + " to 32 random bytes in base64 or hex (such as the output of `openssl rand -base64 32`)")

// Box seals and opens stored secrets. The zero Box and a nil *Box have no key and refuse
// every secret; configuration without secrets still works.
type Box struct {
	mu   sync.Mutex
	aead cipher.AEAD
	file string // key file read, or written on first use, when no key was given
}

// New returns a Box sealing with key, which must be KeySize bytes.
func New(key []byte) (*Box, error) {
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

// FromFile returns a Box whose key lives in path: read when it exists, written once (mode
// 0600) the first time a secret is sealed. Processes starting together agree on one key.
func FromFile(path string) *Box { return &Box{file: path} }

// Load is the Box of a command: the key in envValue when set, else the key file beside a
// SQLite database (sqlitePath non-empty), else a Box that refuses secrets with ErrNoKey.
func Load(envValue, sqlitePath string) (*Box, error) {
	if strings.TrimSpace(envValue) != "" {
		key, err := ParseKey(envValue)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", EnvKey, err)
		}
		return New(key)
	}
	if sqlitePath != "" {
		return FromFile(KeyFile(sqlitePath)), nil
	}
	return &Box{}, nil
}

// KeyFile is the key file beside a SQLite database.
func KeyFile(dbPath string) string { return dbPath + ".secret" }

// ParseKey reads a key written as base64 (standard or URL alphabet, padded or not) or hex.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2*KeySize {
		if b, err := hex.DecodeString(s); err == nil {
			return b, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeySize {
				return nil, fmt.Errorf("the key is %d bytes, want %d", len(b), KeySize)
			}
			return b, nil
		}
	}
	return nil, fmt.Errorf("the key is neither base64 nor hex of %d bytes", KeySize)
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("the secret key is %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("making the cipher: %w", err)
	}
	return cipher.NewGCM(block)
}

// Seal encrypts plain for the place named by purpose (such as "workspace:ID:ai_key"): a
// value copied to another place does not open there.
func (b *Box) Seal(plain, purpose string) (string, error) {
	aead, err := b.cipher(true)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("making a nonce: %w", err)
	}
	out := aead.Seal(nonce, nonce, []byte(plain), []byte(purpose))
	return version + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts what Seal returned for the same purpose. A changed, truncated or foreign
// value, or another key, is an error that names none of the secret.
func (b *Box) Open(stored, purpose string) (string, error) {
	rest, ok := strings.CutPrefix(stored, version)
	if !ok {
		return "", errors.New("opening a stored secret: unknown format (want v1)")
	}
	raw, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return "", errors.New("opening a stored secret: it is not valid base64")
	}
	aead, err := b.cipher(false)
	if err != nil {
		return "", err
	}
	if len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", errors.New("opening a stored secret: it is truncated")
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(purpose))
	if err != nil {
		return "", fmt.Errorf("opening a stored secret: it was changed or sealed with another key (is %s the one it was stored with?)", EnvKey)
	}
	return string(plain), nil
}

// cipher returns the AEAD, reading or (create) writing the key file on first use.
func (b *Box) cipher(create bool) (cipher.AEAD, error) {
	if b == nil {
		return nil, ErrNoKey
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.aead != nil {
		return b.aead, nil
	}
	if b.file == "" {
		return nil, ErrNoKey
	}
	key, err := readKeyFile(b.file)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return nil, fmt.Errorf("opening a stored secret: the key file %s is missing; restore it or set %s", b.file, EnvKey)
		}
		key, err = createKeyFile(b.file)
	}
	if err != nil {
		return nil, err
	}
	if b.aead, err = newAEAD(key); err != nil {
		return nil, fmt.Errorf("reading the key file %s: %w", b.file, err)
	}
	return b.aead, nil
}

func readKeyFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("reading the key file: %w", err)
	}
	key, err := ParseKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("reading the key file %s: %w", path, err)
	}
	return key, nil
}

// createKeyFile writes a new random key to a temporary file and links it into place, so
// that a reader never sees half a key and two processes racing keep the first one's.
func createKeyFile(path string) ([]byte, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("making a secret key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, fmt.Errorf("writing the key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing the key file: %w", err)
	}
	if _, err := tmp.WriteString(base64.StdEncoding.EncodeToString(key) + "\n"); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing the key file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("writing the key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("writing the key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKeyFile(path)
		}
		return nil, fmt.Errorf("writing the key file %s: %w", path, err)
	}
	return key, nil
}

// HasKey reports whether the Box has a key or a key file to make one in.
func (b *Box) HasKey() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.aead != nil || b.file != ""
}
