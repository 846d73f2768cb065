package rest_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// TestAPIConcurrentWrites sends the same write from many clients at once, as runtimes
// reporting the same missing key or CI jobs pushing the same namespace do: every request
// succeeds, and each key is created once.
func TestAPIConcurrentWrites(t *testing.T) {
	t.Parallel()
	const clients = 16
	// together sends each client's request at once and returns the answers.
	together := func(t *testing.T, s *server, req func(i int) request) []*response {
		t.Helper()
		out := make([]*response, clients)
		errs := make([]error, clients)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				out[i], errs[i] = s.send(t.Context(), req(i))
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		t.Run("first push of a namespace", func(t *testing.T) {
			created := map[string]int{}
			answers := together(t, s, func(i int) request {
				return request{Method: "PUT", Path: s.syncPath("en", "race"), Auth: tokenAuth(s.rw), Body: map[string]any{
					"translations": map[string]string{"shared": "Shared", fmt.Sprintf("own.%02d", i): "Own"}, "partial": true}}
			})
			for i, r := range answers {
				if r.status != http.StatusOK {
					t.Errorf("client %d: %d %s", i, r.status, r.body)
					continue
				}
				var out syncOut
				r.decode(t, &out)
				for _, k := range out.Created {
					created[k]++
				}
			}
			if created["shared"] > 1 {
				t.Errorf("shared was reported created %d times", created["shared"])
			}
			if got := len(s.flat(t, "en", "race")); got != clients+1 {
				t.Errorf("namespace has %d keys, want %d", got, clients+1)
			}
		})
		t.Run("the same missing key", func(t *testing.T) {
			answers := together(t, s, func(int) request {
				return request{Method: "POST", Path: s.missingPath("en", "race"), Auth: tokenAuth(s.rw), Body: map[string]string{"reported": "Reported"}}
			})
			for i, r := range answers {
				if r.status != http.StatusCreated {
					t.Errorf("client %d: %d %s", i, r.status, r.body)
				}
			}
			if got := s.flat(t, "en", "race")["reported"]; got != "Reported" {
				t.Errorf("reported is %q", got)
			}
		})
		t.Run("the same page strings", func(t *testing.T) {
			answers := together(t, s, func(int) request {
				return request{Method: "POST", Path: s.pageStringsPath("race-pages"), Auth: tokenAuth(s.rw), Body: map[string]any{"source_strings": []string{"Sign in", "Sign out"}}}
			})
			total := 0
			for i, r := range answers {
				if r.status != http.StatusOK {
					t.Errorf("client %d: %d %s", i, r.status, r.body)
					continue
				}
				var out struct{ Created, Skipped int }
				r.decode(t, &out)
				total += out.Created
			}
			if total != 2 {
				t.Errorf("%d strings reported created in all, want 2", total)
			}
		})
		t.Run("the same target values", func(t *testing.T) {
			answers := together(t, s, func(int) request {
				return request{Method: "PUT", Path: s.overwritePath("nb", "race"), Auth: tokenAuth(s.rw), Body: map[string]string{"shared": "Delt"}}
			})
			for i, r := range answers {
				if r.status != http.StatusOK {
					t.Errorf("client %d: %d %s", i, r.status, r.body)
				}
			}
			if got := s.flat(t, "nb", "race")["shared"]; got != "Delt" {
				t.Errorf("nb shared is %q", got)
			}
		})
	})
}
