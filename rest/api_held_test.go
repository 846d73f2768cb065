package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestAPIValueSyntax covers the value-syntax rule through endpoints 4 and 1: a value that
// does not parse is refused with where, in words, and nothing is stored; a value that
// parses but would break an app is stored as a draft and held back from endpoint 1, which
// keeps serving the row's last value that passed (or leaves the key out), until a fixed
// value is served again; the ETag moves only with what is served. The project shows
// i18next, so its plural is served as a plural family (files_one, files_other).
func TestAPIValueSyntax(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "ui", map[string]string{
			"files": "{count, plural, one {# file} other {# files}}",
			"cart":  "{{count}} items",
			"new":   "{{count}} new",
		})
		s.overwrite(t, "nb", "ui", map[string]string{
			"files": "{count, plural, one {# fil} other {# filer}}",
			"cart":  "{{count}} varer",
		})
		before := s.call(t, "GET", s.readPath("nb", "ui"), tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK)
		etag := before.header.Get("ETag")

		t.Run("a plural closed early is refused, nothing stored", func(t *testing.T) {
			r := s.call(t, "PUT", s.overwritePath("nb", "ui"), tokenAuth(s.rw), map[string]string{
				"files": "{count, plural, one {# fil} few {# filer}} many {# filer}}",
				"cart":  "{{count}} varer i kurven",
			})
			r.wantStatus(t, http.StatusUnprocessableEntity).wantError(t, "invalid_translation")
			if msg := string(r.body); !strings.Contains(msg, `the } after \"filer\" closes the plural early`) || strings.Contains(msg, "character") {
				t.Errorf("message %s, want where in words", msg)
			}
			s.wantFlat(t, "nb", "ui", map[string]string{"files_one": "{{count}} fil", "files_other": "{{count}} filer", "cart": "{{count}} varer"})
		})

		t.Run("a renamed placeholder is a draft readers do not get", func(t *testing.T) {
			var out struct {
				Updated  []string `json:"updated"`
				HeldBack []struct {
					Key, Reason string
				} `json:"held_back"`
			}
			s.call(t, "PUT", s.overwritePath("nb", "ui"), tokenAuth(s.rw), map[string]string{"cart": "{{cnt}} varer", "new": "{{cnt}} nye"}).
				wantStatus(t, http.StatusOK).decode(t, &out)
			if len(out.HeldBack) != 2 || out.HeldBack[0].Key != "cart" || !strings.Contains(out.HeldBack[0].Reason, "{{cnt}}") {
				t.Errorf("overwrite answer held_back %+v, want cart and new with the reason", out.HeldBack)
			}
			s.wantFlat(t, "nb", "ui", map[string]string{"files_one": "{{count}} fil", "files_other": "{{count}} filer", "cart": "{{count}} varer"})
			r := s.call(t, "GET", s.readPath("nb", "ui"), tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK)
			if got := r.header.Get("ETag"); got != etag {
				t.Errorf("ETag moved from %s to %s though nothing served changed", etag, got)
			}
			row, _ := s.translation(t, "ui", "cart", "nb")
			if row.Value != "{{cnt}} varer" || row.Status != "needs_review" || !strings.Contains(row.Held, "{{cnt}}") {
				t.Errorf("stored row %+v, want the held value as a draft", row)
			}
		})

		t.Run("the fixed value is served again", func(t *testing.T) {
			s.overwrite(t, "nb", "ui", map[string]string{"cart": "{{count}} varer i kurven", "new": "{{count}} nye"})
			s.wantFlat(t, "nb", "ui", map[string]string{"files_one": "{{count}} fil", "files_other": "{{count}} filer",
				"cart": "{{count}} varer i kurven", "new": "{{count}} nye"})
			r := s.call(t, "GET", s.readPath("nb", "ui"), tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK)
			if r.header.Get("ETag") == etag {
				t.Errorf("ETag did not move with the served values")
			}
		})

		t.Run("a plural without other is held, the previous one served", func(t *testing.T) {
			s.overwrite(t, "nb", "ui", map[string]string{"files": "{count, plural, one {# fil} few {# filer}}"})
			if got := s.flat(t, "nb", "ui")["files_other"]; got != "{{count}} filer" {
				t.Errorf("files served %q, want the last value that passed", got)
			}
		})

		t.Run("exports serve the previous value too", func(t *testing.T) {
			r := s.call(t, "GET", s.readPath("nb", "ui")+"?format=json", tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK)
			if strings.Contains(string(r.body), "few") {
				t.Errorf("the export carries the held value: %s", r.body)
			}
			if !strings.Contains(string(r.body), "other {# filer}") {
				t.Errorf("the export lacks the served value: %s", r.body)
			}
		})
	})
}
