package rest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/tools"
)

// wantRateLimited checks a 429 answer: the error shape and a Retry-After in whole seconds
// within the minute.
func wantRateLimited(t *testing.T, r *response) {
	t.Helper()
	r.wantStatus(t, http.StatusTooManyRequests)
	r.wantError(t, "")
	ra := r.header.Get("Retry-After")
	secs, err := strconv.Atoi(ra)
	if err != nil || secs < 1 || secs > 60 {
		t.Errorf("Retry-After %q, want whole seconds between 1 and 60", ra)
	}
}

// TestAPIWriteLimit caps writes per project (the spec's 300 a minute, 5 here): every kind
// of write counts, the write past the cap answers 429 and stores nothing, reads go on, and
// other projects keep their own budget.
func TestAPIWriteLimit(t *testing.T) {
	forEachDialectWith(t, &rest.Options{WritesPerMinute: 5}, func(t *testing.T, s *server) {
		s.sync(t, "en", "ui", map[string]string{"a": "A"})
		s.call(t, "POST", s.missingPath("en", "ui"), tokenAuth(s.rw), map[string]string{"b": "B"}).wantStatus(t, http.StatusCreated)
		s.overwrite(t, "nb", "ui", map[string]string{"a": "A-nb"})
		s.call(t, "POST", s.pageStringsPath("ui"), bearerAuth(s.pat), map[string]any{"source_strings": []string{"Hi"}}).wantStatus(t, http.StatusOK)
		s.call(t, "PUT", s.syncPath("en", "ui"), bearerAuth(s.wsToken), map[string]any{"translations": map[string]string{"c": "C"}, "partial": true}).wantStatus(t, http.StatusOK)

		for _, c := range []struct {
			name, method, path string
			body               any
		}{
			{"missing", "POST", s.missingPath("en", "ui"), map[string]string{"d": "D"}},
			{"sync", "PUT", s.syncPath("en", "ui"), map[string]any{"translations": map[string]string{"d": "D"}, "partial": true}},
			{"overwrite", "PUT", s.overwritePath("nb", "ui"), map[string]string{"b": "B-nb"}},
			{"page strings", "POST", s.pageStringsPath("ui"), map[string]any{"source_strings": []string{"Bye"}}},
		} {
			t.Run(c.name, func(t *testing.T) {
				wantRateLimited(t, s.call(t, c.method, c.path, tokenAuth(s.rw), c.body))
			})
		}
		s.wantFlat(t, "en", "ui", map[string]string{"a": "A", "b": "B", "c": "C", "Hi": "Hi"})
		s.wantFlat(t, "nb", "ui", map[string]string{"a": "A-nb"})

		t.Run("reads are not limited", func(t *testing.T) {
			for i := 0; i < 20; i++ {
				s.call(t, "GET", s.readPath("en", "ui"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
				s.call(t, "GET", s.stalePath("ui", "lang=nb"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
			}
		})
		t.Run("other projects have their own budget", func(t *testing.T) {
			s.call(t, "PUT", "/api/sync/"+s.other.ID+"/latest/en/ui", tokenAuth(s.otherRW), map[string]string{"x": "X"}).wantStatus(t, http.StatusOK)
			s.call(t, "PUT", "/api/sync/"+s.sibling.ID+"/latest/en/ui", bearerAuth(s.wsToken), map[string]string{"x": "X"}).wantStatus(t, http.StatusOK)
		})
	})
}

// TestAPIWriteLimitIsPerMinute checks the cap is per minute: once the project has made its
// writes, no write is taken for the rest of the minute (watched here for three seconds, at
// 60 a minute so that a limiter refilling continuously would let one through within one).
func TestAPIWriteLimitIsPerMinute(t *testing.T) {
	const perMinute = 60
	forEachDialectWith(t, &rest.Options{WritesPerMinute: perMinute}, func(t *testing.T, s *server) {
		s.sync(t, "en", "ui", map[string]string{"a": "A"})
		for i := 1; i < perMinute; i++ {
			s.call(t, "POST", s.missingPath("en", "ui"), tokenAuth(s.rw), map[string]string{}).wantStatus(t, http.StatusCreated)
		}
		deadline := time.Now().Add(3 * time.Second)
		for n := perMinute + 1; time.Now().Before(deadline); n++ {
			r := s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.rw), map[string]string{"k": "K"})
			if r.status != http.StatusTooManyRequests {
				t.Fatalf("write %d within the minute answered %d, want 429", n, r.status)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}

// TestAPIWriteLimitDefault checks the default cap: 300 writes a minute, the 301st refused.
func TestAPIWriteLimitDefault(t *testing.T) {
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "ui", map[string]string{"a": "A"})
		for i := 1; i < 300; i++ {
			r := s.call(t, "POST", s.missingPath("en", "ui"), tokenAuth(s.rw), map[string]string{fmt.Sprintf("k%03d", i): "V"})
			if r.status != http.StatusCreated {
				t.Fatalf("write %d answered %d: %s", i+1, r.status, r.body)
			}
		}
		wantRateLimited(t, s.call(t, "POST", s.missingPath("en", "ui"), tokenAuth(s.rw), map[string]string{"k301": "V"}))
		if _, ok := s.flat(t, "en", "ui")["k301"]; ok {
			t.Errorf("the refused write was stored")
		}
	})
}

// TestAPIWriteLimitUnauthorized checks that requests refused with 401 for the project do
// not use up its budget: another project's key must not be able to lock a project out.
func TestAPIWriteLimitUnauthorized(t *testing.T) {
	forEachDialectWith(t, &rest.Options{WritesPerMinute: 5}, func(t *testing.T, s *server) {
		for i := 1; i <= 10; i++ {
			if r := s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.otherRW), map[string]string{"x": "X"}); r.status != http.StatusUnauthorized {
				t.Errorf("write %d with another project's key answered %d, want 401: %s", i, r.status, r.body)
				break
			}
		}
		s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.rw), map[string]string{"a": "A"}).wantStatus(t, http.StatusOK)
	})
}

// TestAPIPageStringsLimit caps endpoint 7 per project (the spec's 60 a minute, 5 here);
// other writes keep their own budget.
func TestAPIPageStringsLimit(t *testing.T) {
	forEachDialectWith(t, &rest.Options{PageStringsPerMinute: 5}, func(t *testing.T, s *server) {
		for i := 0; i < 5; i++ {
			s.call(t, "POST", s.pageStringsPath("page"), tokenAuth(s.rw), map[string]any{"source_strings": []string{fmt.Sprintf("String %d", i)}}).
				wantStatus(t, http.StatusOK)
		}
		wantRateLimited(t, s.call(t, "POST", s.pageStringsPath("page"), tokenAuth(s.rw), map[string]any{"source_strings": []string{"String 6"}}))
		if len(s.flat(t, "en", "page")) != 5 {
			t.Errorf("namespace has %d strings, want the 5 taken", len(s.flat(t, "en", "page")))
		}
		s.sync(t, "en", "ui", map[string]string{"a": "A"})
		s.call(t, "POST", s.missingPath("en", "ui"), tokenAuth(s.rw), map[string]string{"b": "B"}).wantStatus(t, http.StatusCreated)
	})
}

// TestAPISyncBudget runs a sync past its time budget (the spec's 25 seconds, a nanosecond
// here): it answers an error in the error shape and stores nothing.
func TestAPISyncBudget(t *testing.T) {
	forEachDialectWith(t, &rest.Options{SyncBudget: time.Nanosecond}, func(t *testing.T, s *server) {
		// Seeded through the catalogue: no sync can finish on this server.
		ref := tools.NamespaceRef{ProjectID: s.proj.ID, Language: "en", Namespace: "ui"}
		if _, err := s.cat.Sync(sys(t), tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"a": "A", "b": "B"}}); err != nil {
			t.Fatal(err)
		}
		r := s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.rw), map[string]string{"a": "A2", "c": "C"})
		if r.status < 400 {
			t.Fatalf("status %d past the budget, want an error", r.status)
		}
		r.wantError(t, "")
		s.wantFlat(t, "en", "ui", map[string]string{"a": "A", "b": "B"})
	})
}

// TestAPIWriteLimitReadOnlyKey checks that writes refused to a read-only key (403) do not
// use up the project's budget: a read-only key is safe to ship publicly (Authentication,
// rule 7), so whoever holds it must not be able to lock the project's CI out of writing.
func TestAPIWriteLimitReadOnlyKey(t *testing.T) {
	forEachDialectWith(t, &rest.Options{WritesPerMinute: 5}, func(t *testing.T, s *server) {
		for i := 1; i <= 10; i++ {
			if r := s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.ro), map[string]string{"x": "X"}); r.status != http.StatusForbidden {
				t.Errorf("write %d with the read-only key answered %d, want 403: %s", i, r.status, r.body)
				break
			}
		}
		s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.rw), map[string]string{"a": "A"}).wantStatus(t, http.StatusOK)
	})
}
