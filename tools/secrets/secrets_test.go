package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testKey(b byte) []byte { return bytes.Repeat([]byte{b}, KeySize) }

func TestSealOpenRoundTrip(t *testing.T) {
	t.Parallel()
	box, err := New(testKey(1))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := box.Seal("sk-live-secret", "workspace:w1:ai_key")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sealed, "v1:") || strings.Contains(sealed, "sk-live-secret") {
		t.Fatalf("sealed value %q: want v1: and no plain text", sealed)
	}
	again, _ := box.Seal("sk-live-secret", "workspace:w1:ai_key")
	if again == sealed {
		t.Error("sealing twice gave the same ciphertext: the nonce is not random")
	}
	got, err := box.Open(sealed, "workspace:w1:ai_key")
	if err != nil || got != "sk-live-secret" {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestOpenDetectsTampering(t *testing.T) {
	t.Parallel()
	box, _ := New(testKey(1))
	other, _ := New(testKey(2))
	sealed, _ := box.Seal("secret", "p")
	raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(sealed, "v1:"))
	flipped := append([]byte(nil), raw...)
	flipped[len(flipped)-1] ^= 1
	for name, tc := range map[string]struct {
		box            *Box
		stored, purpos string
	}{
		"flipped bit":   {box, "v1:" + base64.StdEncoding.EncodeToString(flipped), "p"},
		"truncated":     {box, "v1:" + base64.StdEncoding.EncodeToString(raw[:10]), "p"},
		"other purpose": {box, sealed, "q"},
		"other key":     {other, sealed, "p"},
		"no version":    {box, strings.TrimPrefix(sealed, "v1:"), "p"},
		"v2":            {box, "v2:" + strings.TrimPrefix(sealed, "v1:"), "p"},
		"not base64":    {box, "v1:***", "p"},
		"empty":         {box, "", "p"},
		"no key":        {nil, sealed, "p"},
	} {
		got, err := tc.box.Open(tc.stored, tc.purpos)
		if err == nil || got != "" {
			t.Errorf("%s: Open = %q, %v; want an error", name, got, err)
		}
		if err != nil && strings.Contains(err.Error(), "secret\"") {
			t.Errorf("%s: error %q shows the secret", name, err)
		}
	}
}

func TestParseKey(t *testing.T) {
	t.Parallel()
	key := testKey(7)
	for _, s := range []string{hex.EncodeToString(key), base64.StdEncoding.EncodeToString(key),
		base64.RawURLEncoding.EncodeToString(key), " " + base64.StdEncoding.EncodeToString(key) + "\n"} {
		got, err := ParseKey(s)
		if err != nil || !bytes.Equal(got, key) {
			t.Errorf("ParseKey(%q) = %x, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "short", base64.StdEncoding.EncodeToString(key[:16]), hex.EncodeToString(key[:16])} {
		if _, err := ParseKey(s); err == nil {
			t.Errorf("ParseKey(%q) accepted a bad key", s)
		}
	}
	if _, err := Load("not a key", ""); err == nil || !strings.Contains(err.Error(), EnvKey) {
		t.Errorf("Load with a bad key: %v, want an error naming %s", err, EnvKey)
	}
}

// TestKeyFile: without LOKAL_SECRET_KEY a SQLite database gets a key file, mode 0600, on
// the first seal; a later process reads the same key.
func TestKeyFile(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "lokal.db")
	box, err := Load("", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(KeyFile(db)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("key file exists before any secret was stored: %v", err)
	}
	if _, err := box.Open("v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "p"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Open without a key file: %v, want the missing file named", err)
	}
	sealed, err := box.Seal("secret", "p")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(KeyFile(db))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	first, _ := os.ReadFile(KeyFile(db))
	later, _ := Load("", db)
	if got, err := later.Open(sealed, "p"); err != nil || got != "secret" {
		t.Fatalf("a later process opens %q, %v", got, err)
	}
	if _, err := later.Seal("more", "p"); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(KeyFile(db)); !bytes.Equal(first, now) {
		t.Error("the key file was rewritten")
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "*.tmp*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

// TestNoKeyRefuses: PostgreSQL without LOKAL_SECRET_KEY has no place for a key file.
func TestNoKeyRefuses(t *testing.T) {
	t.Parallel()
	box, err := Load("", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := box.Seal("secret", "p"); !errors.Is(err, ErrNoKey) || !strings.Contains(err.Error(), EnvKey) {
		t.Errorf("Seal without a key: %v, want ErrNoKey naming %s", err, EnvKey)
	}
	var nilBox *Box
	if _, err := nilBox.Seal("secret", "p"); !errors.Is(err, ErrNoKey) {
		t.Errorf("nil Box Seal: %v", err)
	}
}
