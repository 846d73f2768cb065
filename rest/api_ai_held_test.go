package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestRetranslateOneBrokenAnswer: a model answer that adds a syntax error (a brace left
// open after the name) is that key failed, the rest of the batch stored; nothing of the
// broken answer is stored or served. (The AI's own checks refuse it before the value
// rule sees it; the catalogue drops an answer the rule refuses the same way, so that one
// answer never fails the batch either way.)
func TestRetranslateOneBrokenAnswer(t *testing.T) {
	t.Parallel()
	answer := aitest.Echo(func(_, masked string) string {
		if strings.HasPrefix(masked, "Hello") {
			return strings.Replace(masked, "Hello", "Hei", 1) + " {"
		}
		return "NB " + masked
	})
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, _ := aiServer(t, dialect, answer, nil)
		s.sync(t, "en", "g", map[string]string{"greet": "Hello {name}", "cart": "Cart", "files": "{n, plural, one {# file} other {# files}}"})
		r := s.call(t, "POST", s.retranslatePath("nb", "g"), tokenAuth(s.rw), []string{"greet", "cart"}).wantStatus(t, http.StatusOK)
		var out retranslateOut
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatal(err)
		}
		if out.Retranslated["cart"] != "NB Cart" || !slices.Equal(out.Failed, []string{"greet"}) {
			t.Errorf("retranslated %v, failed %v; want cart stored and greet failed", out.Retranslated, out.Failed)
		}
		if got := s.flat(t, "nb", "g"); got["cart"] != "NB Cart" || got["greet"] != "" {
			t.Errorf("endpoint 1 serves %v", got)
		}
	})
}
