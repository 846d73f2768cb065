package storage_test

import (
	"net/url"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestPostgresConnectionsWithoutJIT: every connection runs with JIT off, which priced-high
// page walks paid hundreds of ms for, unless the operator's DSN asks for it.
func TestPostgresConnectionsWithoutJIT(t *testing.T) {
	t.Parallel()
	dsn, _ := storagetest.FixtureDSN(t, "postgres")
	if got, err := storage.Setting(t.Context(), storagetest.MustOpen(t, dsn, nil), "jit"); err != nil || got != "off" {
		t.Errorf("jit = %q (%v), want off", got, err)
	}
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("jit", "on")
	u.RawQuery = q.Encode()
	if got, err := storage.Setting(t.Context(), storagetest.MustOpen(t, u.String(), nil), "jit"); err != nil || got != "on" {
		t.Errorf("with jit=on in the DSN, jit = %q (%v), want on", got, err)
	}
}
