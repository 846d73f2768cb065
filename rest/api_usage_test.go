package rest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestUsage: every model call of endpoint 6 is in the project's usage, for personal tokens
// only; since filters; a bad since is a 400 that the ledger does not notice.
func TestUsage(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, _ := aiServer(t, dialect, nbEcho, nil)
		path := "/api/" + s.proj.ID + "/usage"
		var empty tools.UsageOut
		json.Unmarshal(s.call(t, "GET", path, bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK).body, &empty)
		if empty.Calls != 0 || empty.ByModel == nil || len(empty.ByModel) != 0 {
			t.Fatalf("usage before any call %+v, want zero and an empty by_model list", empty)
		}
		s.call(t, "POST", s.retranslatePath("nb", "ui"), tokenAuth(s.rw), []string{"hello", "bold"}).wantStatus(t, http.StatusOK)
		s.call(t, "POST", s.retranslatePath("sv", "ui"), tokenAuth(s.rw), []string{"plain"}).wantStatus(t, http.StatusOK)

		for _, auth := range []string{bearerAuth(s.pat), bearerAuth(s.wsToken)} {
			var u tools.UsageOut
			json.Unmarshal(s.call(t, "GET", path, auth, nil).wantStatus(t, http.StatusOK).body, &u)
			// nbEcho bills 10 prompt and 8 completion tokens a string.
			if u.Calls != 2 || u.PromptTokens != 30 || u.CompletionTokens != 24 || u.StringsTranslated != 3 || u.StringsFailed != 0 ||
				len(u.ByModel) != 1 || u.ByModel[0].Model != "test-model" || u.ByModel[0].Calls != 2 {
				t.Errorf("usage %+v, want 2 calls of test-model, 30+24 tokens, 3 strings", u)
			}
		}
		var later tools.UsageOut
		json.Unmarshal(s.call(t, "GET", path+"?since=2999-01-01T00:00:00Z", bearerAuth(s.pat), nil).wantStatus(t, http.StatusOK).body, &later)
		if later.Calls != 0 || later.Since == nil {
			t.Errorf("usage since 2999 %+v, want none and the since echoed", later)
		}
		s.call(t, "GET", path, tokenAuth(s.rw), nil).wantStatus(t, http.StatusForbidden).wantError(t, model.CodePATRequired)
		s.call(t, "GET", path, tokenAuth(s.ro), nil).wantStatus(t, http.StatusForbidden).wantError(t, model.CodePATRequired)
		s.call(t, "GET", path, bearerAuth(s.otherWSToken), nil).wantStatus(t, http.StatusUnauthorized)
		s.call(t, "GET", path, "", nil).wantStatus(t, http.StatusUnauthorized)
		s.call(t, "GET", path+"?since=yesterday", bearerAuth(s.pat), nil).wantStatus(t, http.StatusBadRequest).wantError(t, model.CodeInvalid)
		s.call(t, "GET", "/api/00000000-0000-0000-0000-000000000000/usage", bearerAuth(s.wsToken), nil).wantStatus(t, http.StatusNotFound)
	})
}
