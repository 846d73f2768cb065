package main_test

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// seedProject writes keys, translations and a comment into a project through the catalogue.
func seedProject(t *testing.T, dsn, projectID string) {
	t.Helper()
	db, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cat := storagetest.Catalog(db, nil)
	ctx := model.WithPrincipal(t.Context(), tools.System)
	pa := tools.ProjectArg{ProjectID: projectID}
	if _, err := cat.RegisterSourceStrings(ctx, tools.RegisterIn{ProjectArg: pa, NamespaceKey: "common", Strings: map[string]string{"hello": "Hello", "bye": "Goodbye"}}); err != nil {
		t.Fatal(err)
	}
	ref := tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: pa, NamespaceKey: "common", TranslationKey: "hello"}, Language: "nb"}
	if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: ref, Value: "Hei"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.AddComment(ctx, tools.AddCommentIn{RowRef: ref, Body: "informal"}); err != nil {
		t.Fatal(err)
	}
}

// projectRows counts, in every table of the schema with a project_id, namespace_id or
// key_id column, the rows that belong to the project (cache_changes, the log that tells
// other servers to drop their caches, keeps the deletion's own entry).
func projectRows(t *testing.T, dsn, projectID string) map[string]int {
	t.Helper()
	db := storagetest.SQL(t, dsn)
	q := `SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table'`
	if !strings.HasPrefix(dsn, "sqlite:") {
		q = `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`
	}
	rows, err := db.QueryContext(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string]string{}
	for rows.Next() {
		var table, col string
		if err := rows.Scan(&table, &col); err != nil {
			t.Fatal(err)
		}
		switch {
		case table == "cache_changes":
		case col == "project_id":
			where[table] = "project_id = $1"
		case col == "namespace_id" && where[table] == "":
			where[table] = "namespace_id IN (SELECT id FROM namespaces WHERE project_id = $1) OR namespace_id NOT IN (SELECT id FROM namespaces)"
		case col == "key_id" && where[table] == "":
			where[table] = "key_id NOT IN (SELECT id FROM translation_keys) OR key_id IN (SELECT k.id FROM translation_keys AS k JOIN namespaces AS n ON n.id = k.namespace_id WHERE n.project_id = $1)"
		}
	}
	rows.Close()
	where["projects"] = "id = $1"
	where["rate_events"] = "bucket LIKE '%:' || $1"
	out := map[string]int{}
	for table, w := range where {
		var n int
		if err := db.QueryRowContext(t.Context(), fmt.Sprintf("SELECT COUNT(*) FROM %s WHERE %s", table, w), projectID).Scan(&n); err != nil && err != sql.ErrNoRows {
			t.Fatalf("counting %s: %v", table, err)
		}
		out[table] = n
	}
	return out
}

// TestCLIProjectArchiveDelete: archive hides a project from lists (--archived shows it),
// restore brings it back; delete needs the title typed back (without --confirm it refuses
// and suggests a backup; a wrong title changes nothing) and then leaves no row of the
// project in any table of the schema, while another project keeps every row.
func TestCLIProjectArchiveDelete(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--json", "--database", dsn}
		other := str(t, jsonObject(t, nil, append([]string{"project", "create", "--workspace", f.workspace, "--title", "Other", "--source", "en", "--languages", "nb"}, db...)...), "id")
		for _, p := range []string{f.project, other} {
			seedProject(t, dsn, p)
		}
		for _, title := range []string{"Web app", "Other"} {
			jsonObject(t, nil, append([]string{"key", "create", "--project", title}, db...)...)
			jsonObject(t, nil, append([]string{"token", "create", "--user", "dev@acme.test", "--project", title}, db...)...)
			jsonObject(t, nil, append([]string{"term", "add", "--project", title, "--source", "cart", "--target", "handlekurv", "--locale", "nb"}, db...)...)
			jsonObject(t, nil, append([]string{"checkup", "--project", title}, db...)...)
		}
		jsonObject(t, nil, append([]string{"user", "create", "--workspace", f.workspace, "--email", "tr@acme.test"}, db...)...)
		jsonObject(t, nil, append([]string{"member", "set", "--project", "Web app", "--user", "tr@acme.test", "--role", "translator", "--languages", "nb"}, db...)...)

		arch := jsonObject(t, nil, append([]string{"project", "archive", "--project", "Web app"}, db...)...)
		if arch["archived"] != true || arch["id"] != f.project {
			t.Errorf("project archive: %v", arch)
		}
		list := func(extra ...string) string {
			r := lokal(t, nil, append([]string{"project", "list", "--workspace", f.workspace, "--database", dsn}, extra...)...)
			return r.stdout
		}
		if l := list(); strings.Contains(l, f.project) || !strings.Contains(l, other) {
			t.Errorf("project list shows the archived project: %q", l)
		}
		if l := list("--archived"); !strings.Contains(l, f.project+"  Web app  (en, nb, sv)  archived") {
			t.Errorf("project list --archived: %q", l)
		}
		jsonObject(t, nil, append([]string{"project", "restore", "--project", f.project}, db...)...)
		if l := list(); !strings.Contains(l, f.project) {
			t.Errorf("project list after restore: %q", l)
		}

		before, otherBefore := projectRows(t, dsn, f.project), projectRows(t, dsn, other)
		for _, table := range []string{"translations", "translation_history", "comments", "tokens", "project_members", "glossary_terms", "checkup_reports", "namespaces", "projects"} {
			if before[table] == 0 {
				t.Errorf("the seed left %s empty: the test would prove nothing there", table)
			}
		}
		if line := fails(t, nil, "project", "delete", "--project", "Web app", "--database", dsn); !strings.Contains(line, "--confirm") || !strings.Contains(line, "lokal backup") {
			t.Errorf("delete without --confirm: %q", line)
		}
		if line := fails(t, nil, "project", "delete", "--project", "Web app", "--confirm", "web app", "--database", dsn); !strings.Contains(line, "“Web app”") {
			t.Errorf("delete with a wrong title: %q", line)
		}
		if got := projectRows(t, dsn, f.project); fmt.Sprint(got) != fmt.Sprint(before) {
			t.Errorf("a refused delete changed rows: %v, before %v", got, before)
		}
		del := jsonObject(t, nil, append([]string{"project", "delete", "--project", "Web app", "--confirm", "Web app"}, db...)...)
		if del["deleted"] != true || del["id"] != f.project {
			t.Errorf("project delete: %v", del)
		}
		for table, n := range projectRows(t, dsn, f.project) {
			if n != 0 {
				t.Errorf("%d rows of the deleted project left in %s", n, table)
			}
		}
		if got := projectRows(t, dsn, other); fmt.Sprint(got) != fmt.Sprint(otherBefore) {
			t.Errorf("the other project's rows changed: %v, before %v", got, otherBefore)
		}
		if line := fails(t, nil, "project", "show", "--project", "Web app", "--database", dsn); !strings.Contains(line, "not found") {
			t.Errorf("show of a deleted project: %q", line)
		}
	})
}

// TestCLINames: --user takes an email (user passwd answered not_found before) and --project
// a title; a name two records share is refused with a list of their ids and workspaces.
func TestCLINames(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--json", "--database", dsn}
		r := lokalIn(t, nil, "a long enough password\n", "user", "passwd", "--user", "DEV@acme.test", "--password-stdin", "--json", "--database", dsn)
		if r.code != 0 || !strings.Contains(r.stdout, f.user) {
			t.Fatalf("user passwd --user EMAIL: %d %q %q", r.code, r.stdout, r.stderr)
		}
		if v := jsonObject(t, nil, append([]string{"project", "show", "--project", "Web app"}, db...)...); v["id"] != f.project {
			t.Errorf("project show --project TITLE: %v", v["id"])
		}
		ws2 := str(t, jsonObject(t, nil, append([]string{"workspace", "create", "--name", "Beta"}, db...)...), "id")
		jsonObject(t, nil, append([]string{"user", "create", "--workspace", ws2, "--email", "dev@acme.test"}, db...)...)
		p2 := str(t, jsonObject(t, nil, append([]string{"project", "create", "--workspace", ws2, "--title", "Web app", "--source", "en"}, db...)...), "id")
		if line := fails(t, nil, "project", "show", "--project", "Web app", "--database", dsn); !strings.Contains(line, f.project) || !strings.Contains(line, p2) || !strings.Contains(line, "Beta") {
			t.Errorf("an ambiguous title: %q", line)
		}
		if line := fails(t, nil, "token", "list", "--user", "dev@acme.test", "--database", dsn); !strings.Contains(line, f.user) || !strings.Contains(line, "Acme") {
			t.Errorf("an ambiguous email: %q", line)
		}
		// The project's workspace narrows the email.
		jsonObject(t, nil, append([]string{"token", "create", "--user", "dev@acme.test", "--project", p2}, db...)...)
		if line := fails(t, nil, "token", "list", "--user", "nobody@acme.test", "--database", dsn); !strings.Contains(line, "nobody@acme.test") {
			t.Errorf("an unknown email: %q", line)
		}
	})
}

// TestCLIDatabaseLine: a command that finds its database in LOKAL_DATABASE (or the
// default) names it on stderr after a success, never on --json stdout, and in the one
// error line of a not found; a PostgreSQL one without its password; a missing file is
// named where it was looked for.
func TestCLIDatabaseLine(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		r := lokal(t, []string{"LOKAL_DATABASE=" + dsn}, "project", "list", "--json")
		if r.code != 0 || !strings.HasPrefix(r.stdout, `{"projects":[`) || !strings.Contains(r.stdout, f.project) {
			t.Fatalf("project list with LOKAL_DATABASE: %d %q %q", r.code, r.stdout, r.stderr)
		}
		want := "lokal: using " + dsn
		if strings.HasPrefix(dsn, "sqlite:") {
			want = "lokal: using sqlite:" + sqlitePathOf(dsn)
		}
		if strings.Contains(dsn, "@") {
			if _, pw, ok := strings.Cut(strings.SplitN(strings.TrimPrefix(dsn, "postgres://"), "@", 2)[0], ":"); ok && pw != "" {
				want = strings.Replace(want, ":"+pw+"@", ":xxxxx@", 1)
			}
		}
		if strings.TrimSpace(r.stderr) != want {
			t.Errorf("stderr %q, want %q", r.stderr, want)
		}
		// A failure stays one line, naming the database when something was not found there.
		if line := fails(t, []string{"LOKAL_DATABASE=" + dsn}, "project", "show", "--project", "Nope"); !strings.Contains(line, "not found") ||
			!strings.Contains(line, strings.TrimPrefix(want, "lokal: using ")) {
			t.Errorf("a project not found: %q", line)
		}
	})
	dir := t.TempDir()
	r := lokal(t, []string{"LOKAL_DATABASE=sqlite:" + dir + "/none.db"}, "project", "list")
	if r.code == 0 || !strings.Contains(r.stderr, dir+"/none.db") {
		t.Errorf("a missing database: %d %q", r.code, r.stderr)
	}
}
