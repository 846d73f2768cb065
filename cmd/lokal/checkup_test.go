package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestServeStopsMidCheckup: SIGTERM while the checkup of a 20,000-key project runs ends the
// server within its drain, leaving the report running with the chunks it stored; the next
// start carries it on to a completed report that analysed every key once.
func TestServeStopsMidCheckup(t *testing.T) {
	t.Parallel()
	// 20,000 keys seeded into a real server per database, a SIGTERM and a restart.
	storagetest.Long(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.SQL(t, dsn)
		// A short job lease: the job the stopped server held is due again soon after.
		serve := func() *serveProcess {
			addr := freeAddr(t)
			return startServeWith(t, addr, nil, "serve", "--listen", addr, "--database", dsn, "--job-lease", "2s")
		}
		srv := serve()
		keys := make(map[string]string, 20000)
		for i := range 20000 {
			keys[fmt.Sprintf("page_%d.line_%d", i/100, i%100)] = fmt.Sprintf("Line %d of the long page", i)
		}
		body, _ := json.Marshal(map[string]any{"translations": keys})
		if status, out := srv.do(t, "PUT", "/api/sync/"+f.Project.ID+"/latest/en/big", "Token token="+f.RW, string(body)); status != http.StatusOK {
			t.Fatalf("sync: %d %s", status, truncate(string(out), 300))
		}
		report := func() (status string, checked int) {
			t.Helper()
			err := db.QueryRowContext(t.Context(), "SELECT status, keys_checked FROM checkup_reports WHERE project_id = '"+f.Project.ID+"' ORDER BY seq DESC LIMIT 1").
				Scan(&status, &checked)
			if err != nil && err.Error() != "sql: no rows in result set" {
				t.Fatal(err)
			}
			return status, checked
		}
		// The checkup job is due 10 s after the sync.
		poll(t, 60*time.Second, "the checkup to start", func() bool { s, _ := report(); return s != "" })
		if s, _ := report(); s != "running" {
			t.Fatalf("the checkup was %s before SIGTERM, want running", s)
		}
		sent := time.Now()
		if code := srv.stop(t); code != 0 {
			t.Errorf("exit code %d after SIGTERM, want 0", code)
		}
		if d := time.Since(sent); d > 30*time.Second {
			t.Errorf("the server took %v to stop, past its 30 s drain", d)
		}
		if s, checked := report(); s != "running" || checked >= 20000 {
			t.Errorf("after SIGTERM the report is %s with %d keys checked; want it running, midway", s, checked)
		}

		again := serve()
		poll(t, 60*time.Second, "the checkup to complete after the restart", func() bool { s, _ := report(); return s == "completed" })
		if _, checked := report(); checked != 20000 {
			t.Errorf("the completed report checked %d keys, want each of 20,000 once", checked)
		}
		if code := again.stop(t); code != 0 {
			t.Errorf("exit code %d after SIGTERM, want 0", code)
		}
	})
}
