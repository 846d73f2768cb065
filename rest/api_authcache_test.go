package rest_test

import (
	"net/http"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestAuthCacheForgetsAtOnce: endpoint 1 answers a token from the server's cache of
// principals, yet a revoked key, a revoked personal token and the key of a deleted project
// are refused from the very next request (401), not when the cached entry expires.
func TestAuthCacheForgetsAtOnce(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		ctx := sys(t)
		s.sync(t, "en", "common", map[string]string{"hello": "Hello"})
		read := func(auth string, want int) {
			t.Helper()
			s.call(t, "GET", s.readPath("en", "common"), auth, nil).wantStatus(t, want)
		}

		key, err := s.cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: s.proj.ID, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		read(tokenAuth(key.Key), http.StatusOK)
		read(tokenAuth(key.Key), http.StatusOK) // now from the cache
		keys, err := s.cat.ListKeys(ctx, s.proj.ID)
		if err != nil {
			t.Fatal(err)
		}
		revoked := false
		for _, k := range keys {
			if k.Prefix == key.Key[:len(k.Prefix)] {
				if _, err := s.cat.RevokeKey(ctx, k.ID); err != nil {
					t.Fatal(err)
				}
				revoked = true
			}
		}
		if !revoked {
			t.Fatal("the new key is not listed")
		}
		read(tokenAuth(key.Key), http.StatusUnauthorized)
		read(tokenAuth(s.ro), http.StatusOK) // the project's other keys still work

		pat, err := s.cat.CreateToken(ctx, tools.CreateTokenIn{UserID: s.user.ID, ProjectID: s.proj.ID})
		if err != nil {
			t.Fatal(err)
		}
		read(bearerAuth(pat.Token), http.StatusOK)
		read(bearerAuth(pat.Token), http.StatusOK)
		toks, err := s.cat.ListTokens(ctx, s.user.ID)
		if err != nil {
			t.Fatal(err)
		}
		revoked = false
		for _, tk := range toks {
			if tk.Prefix == pat.Token[:len(tk.Prefix)] {
				if _, err := s.cat.RevokeToken(ctx, tk.ID); err != nil {
					t.Fatal(err)
				}
				revoked = true
			}
		}
		if !revoked {
			t.Fatal("the new token is not listed")
		}
		read(bearerAuth(pat.Token), http.StatusUnauthorized)

		// The sibling project's key, cached, then the project deleted.
		sk, err := s.cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: s.sibling.ID, ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		path := "/api/" + s.sibling.ID + "/latest/en/common"
		for range 2 {
			if r := s.call(t, "GET", path, tokenAuth(sk.Key), nil); r.status == http.StatusUnauthorized {
				t.Fatalf("the sibling's key before its project was deleted: %d", r.status)
			}
		}
		if _, err := s.cat.DeleteProject(ctx, s.sibling.ID, s.sibling.Title); err != nil {
			t.Fatal(err)
		}
		s.call(t, "GET", path, tokenAuth(sk.Key), nil).wantStatus(t, http.StatusUnauthorized).wantError(t, model.CodeUnauthorized)
	})
}
