package main_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestCLIProjectRecount spoils a project's status counters in the database and has
// project recount put them back; an unknown project is refused.
func TestCLIProjectRecount(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		if _, err := storagetest.SQL(t, dsn).ExecContext(t.Context(),
			`INSERT INTO status_counts (project_id, language, key_count, current_rows, behind_rows, null_rows) VALUES ('`+f.project+`', '', 5, 0, 0, 0)`); err != nil {
			t.Fatal(err)
		}
		got := jsonObject(t, []string{"project_id", "languages"}, "project", "recount", "--project", f.project, "--database", dsn, "--json")
		wantJSON(t, "recounted", got, `{"project_id":"`+f.project+`","languages":[
			{"language":"en","total":0,"translated":0,"missing":0,"source_drifted":0,"queued":0,"ai_failed":0},
			{"language":"nb","total":0,"translated":0,"missing":0,"source_drifted":0,"queued":0,"ai_failed":0},
			{"language":"sv","total":0,"translated":0,"missing":0,"source_drifted":0,"queued":0,"ai_failed":0}]}`)
		if r := lokal(t, nil, "project", "recount", "--project", f.project, "--database", dsn); r.code != 0 || !strings.Contains(r.stdout, "recomputed") {
			t.Errorf("plain recount: %d %q %q", r.code, r.stdout, r.stderr)
		}
		if r := lokal(t, nil, "project", "recount", "--project", "nope", "--database", dsn); r.code == 0 {
			t.Errorf("recounting an unknown project succeeded: %q", r.stdout)
		}
	})
}
