package public_test

import (
	"testing"
)

// TestArchivedProjectPublic: an archived site's dictionary is still served (the site keeps
// its translations) and its harvest answers 204 and stores nothing; restored, it harvests.
func TestArchivedProjectPublic(t *testing.T) {
	t.Parallel()
	forEachDialect(t, nil, func(t *testing.T, e *env) {
		id := e.site(t, "www.example.test")
		harvest := func(s string) {
			t.Helper()
			r := e.call(t, "POST", "/api/embed/"+id+"/harvest", map[string]any{"strings": []string{s}},
				map[string]string{"Content-Type": "text/plain", "Origin": "https://www.example.test"})
			e.want(t, r, 204)
		}
		harvest("Welcome home")
		if _, err := e.cat.ArchiveProject(sys(t), id); err != nil {
			t.Fatal(err)
		}
		harvest("Planted while archived")
		if got := e.page(t, id, "en", "page"); got["Welcome home"] == "" || got["Planted while archived"] != "" {
			t.Errorf("archived: %v, want the old string and not the new one", keys(got))
		}
		e.want(t, e.call(t, "GET", "/api/"+id+"/dictionary/de/page", nil, map[string]string{"Origin": "https://www.example.test"}), 200)
		if _, err := e.cat.RestoreProject(sys(t), id); err != nil {
			t.Fatal(err)
		}
		harvest("After restore")
		if got := e.page(t, id, "en", "page"); got["After restore"] == "" {
			t.Errorf("restored: %v, want the new string", keys(got))
		}
	})
}
