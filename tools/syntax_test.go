package tools_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestProjectSyntax: a project's syntax is detected from its source values, a setting
// overrides it, clearing the setting goes back to detection, and the detection is moved by
// the writes only: a source sync adds its values' syntaxes at once, and one that replaced
// or hid values has every value read again in the background.
func TestProjectSyntax(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		p := f.Project
		syntaxOf := func(projectID string) message.Syntax {
			t.Helper()
			var s message.Syntax
			if err := db.View(ctx, func(tx model.Tx) error {
				proj, err := tx.Project(ctx, projectID)
				s = cat.ProjectSyntax(ctx, tx, proj)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return s
		}
		show := func(want tools.SyntaxView) {
			t.Helper()
			v, err := cat.ShowProject(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Settings.Syntax; !slices.Equal(got.Names, want.Names) || got.Source != want.Source {
				t.Errorf("project show syntax = %+v, want %+v", got, want)
			}
		}
		sync := func(values map[string]string) {
			t.Helper()
			ns := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
			overwrite := false
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: values, PreserveSourceValues: &overwrite}); err != nil {
				t.Fatal(err)
			}
		}

		if got := syntaxOf(p.ID); got != 0 {
			t.Errorf("project without values: %v, want none", got)
		}
		show(tools.SyntaxView{Names: []string{}, Source: tools.SyntaxDetected})
		sync(map[string]string{"greet": "Hello {name}", "bold": "<b>Bold</b> text", "plain": "Use it"})
		if got := syntaxOf(p.ID); got != message.ICU|message.HTML {
			t.Errorf("detected %v, want icu,html", got)
		}
		show(tools.SyntaxView{Names: []string{"icu", "html"}, Source: tools.SyntaxDetected})
		if got := syntaxOf(f.Sibling.ID); got != 0 {
			t.Errorf("sibling project: %v, want none (its own values only)", got)
		}

		set := func(list string) (tools.ProjectView, error) {
			return cat.SetProject(ctx, p.ID, tools.SetProjectIn{Syntax: &list})
		}
		v, err := set(" Printf, ICU ")
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Settings.Syntax; !slices.Equal(got.Names, []string{"icu", "printf"}) || got.Source != tools.SyntaxSet {
			t.Errorf("project set answered %+v, want icu,printf set", got)
		}
		if got := syntaxOf(p.ID); got != message.ICU|message.Printf {
			t.Errorf("set: %v, want icu,printf", got)
		}
		_, err = set("icu,handlebars")
		if model.ErrorCode(err) != model.CodeInvalid || !strings.Contains(err.Error(), `"handlebars"`) ||
			!strings.Contains(err.Error(), strings.Join(message.SyntaxNames(), ", ")) {
			t.Errorf("unknown syntax: %v, want invalid naming it and the known ones", err)
		}
		if got := syntaxOf(p.ID); got != message.ICU|message.Printf {
			t.Errorf("after a refused set: %v, want icu,printf unchanged", got)
		}
		if _, err := set("none"); err != nil {
			t.Fatal(err)
		}
		if got := syntaxOf(p.ID); got != 0 {
			t.Errorf("set none: %v, want no syntax", got)
		}
		show(tools.SyntaxView{Names: []string{}, Source: tools.SyntaxSet})
		if _, err := set(""); err != nil {
			t.Fatal(err)
		}
		if got := syntaxOf(p.ID); got != message.ICU|message.HTML {
			t.Errorf("cleared: %v, want icu,html detected again", got)
		}
		show(tools.SyntaxView{Names: []string{"icu", "html"}, Source: tools.SyntaxDetected})

		// A change that bypasses the catalogue is not seen: the stored detection stays.
		sqldb := storagetest.SQL(t, dsn)
		if _, err := sqldb.ExecContext(ctx, `UPDATE translations SET value = 'Saved %d files' WHERE value = 'Use it'`); err != nil {
			t.Fatal(err)
		}
		if got := syntaxOf(p.ID); got != message.ICU|message.HTML {
			t.Errorf("after a change bypassing the catalogue: %v, want the stored icu,html", got)
		}
		// A source sync adds what its values show at once; the value it replaced has the
		// syntax recounted in the background, which sees the other change too.
		sync(map[string]string{"greet": "Hello {{name}}", "bold": "<b>Bold</b> text", "plain": "Saved %d files",
			"link": "See [the guide](/guide_1)", "quote": "Type '|' to split", "price": "Costs ${price}"})
		sent := message.I18next | message.HTML | message.Markdown | message.Template | message.ICU
		if got := syntaxOf(p.ID); got&sent != sent {
			t.Errorf("right after a source sync: %v, want at least i18next,template,html,markdown and icu", got)
		}
		tools.WaitSyntaxRecounts(cat)
		if got := syntaxOf(p.ID); got != sent|message.Printf {
			t.Errorf("after the recount: %v, want i18next,printf,template,html,markdown and icu", got)
		}
		// A full sync hides the keys it does not send: their values are no longer read
		// once the recount landed; until then the wider detection protects them.
		ns := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{
			"greet": "Hello {{name}}", "bold": "<b>Bold</b> text"}}); err != nil {
			t.Fatal(err)
		}
		if got := syntaxOf(p.ID); got&(message.I18next|message.HTML) != message.I18next|message.HTML {
			t.Errorf("right after hiding keys: %v, want at least i18next,html", got)
		}
		tools.WaitSyntaxRecounts(cat)
		if got := syntaxOf(p.ID); got != message.I18next|message.HTML {
			t.Errorf("after hiding keys and the recount: %v, want i18next,html", got)
		}
	})
}

// TestSyntaxKeptByWrites: the detection is stored and moved by the writes, so that no read
// after a write detects from every value: a source value that adds a syntax is seen by
// the next read at once, a save in another language or of plain text leaves it alone, and
// a write that may take a syntax away (a hidden key, a replaced value) keeps the wider
// detection until a recount in the background, or lokal project recount, reads every
// value. Only a project never detected (made before detections were stored) is detected
// by a read. The catalogue's counts of detections over every value show it.
func TestSyntaxKeptByWrites(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, nil)
		tools.SetSyntaxRecountPause(cat, 0)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		pid := f.Project.ID
		// read detects in a write transaction, where a detection is stored at once (a
		// View's is stored after it, in a transaction of its own).
		read := func() message.Syntax {
			t.Helper()
			var s message.Syntax
			if err := db.Update(ctx, pid, func(tx model.Tx) error {
				proj, err := tx.Project(ctx, pid)
				s = cat.ProjectSyntax(ctx, tx, proj)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return s
		}
		// check reads the syntax and counts the detections over every value on the read
		// (scans) and off it since the last check (recounts: the step's writes start them
		// as they commit, so one may be done before check begins).
		recounted := cat.SyntaxRecounts()
		check := func(step string, want message.Syntax, scans, recounts int64) {
			t.Helper()
			before := cat.SyntaxScans()
			if got := read(); got != want {
				t.Errorf("%s: syntax %v, want %v", step, got, want)
			}
			if n := cat.SyntaxScans() - before; n != scans {
				t.Errorf("%s: %d detections over every value by the read, want %d", step, n, scans)
			}
			tools.WaitSyntaxRecounts(cat)
			if n := cat.SyntaxRecounts() - recounted; n != recounts {
				t.Errorf("%s: %d recounts, want %d", step, n, recounts)
			}
			recounted = cat.SyntaxRecounts()
		}
		update := func(lang, key, value string) {
			t.Helper()
			if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, "app", key), Language: lang},
				Value: value}); err != nil {
				t.Fatal(err)
			}
		}
		// The fixture's project was made through the catalogue, detected when made; one
		// made before detections were stored has none.
		sqldb := storagetest.SQL(t, dsn)
		if _, err := sqldb.ExecContext(ctx, `DELETE FROM project_syntax`); err != nil {
			t.Fatal(err)
		}
		check("a project never detected", 0, 1, 0)
		check("read again", 0, 0, 0)
		ns := tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{"plain": "Use it"}}); err != nil {
			t.Fatal(err)
		}
		update("en", "plain", "Use it now")
		check("a plain project's value replaced: nothing to lose, no recount", 0, 0, 0)
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{
			"greet": "Hello", "bold": "<b>Bold</b> text", "plain": "Use it"}}); err != nil {
			t.Fatal(err)
		}
		check("a sync of new keys", message.HTML, 0, 0)
		update("nb", "greet", "Hei {{navn}}")
		check("a save in nb", message.HTML, 0, 0)
		update("en", "greet", "Hello {{name}}")
		check("a source save with an i18next placeholder", message.HTML|message.I18next, 0, 1)
		if _, err := cat.AddKey(ctx, tools.AddKeyIn{KeyRef: keyRef(pid, "app", "files"), SourceValue: "Saved %d files"}); err != nil {
			t.Fatal(err)
		}
		check("a new key with printf", message.HTML|message.I18next|message.Printf, 0, 0)
		// Component tags read as React in an i18next project: the merged evidence decides as
		// a detection over every value would.
		update("en", "plain", "Open <Trans>it</Trans>")
		check("a component tag", message.HTML|message.I18next|message.Printf|message.React, 0, 1)
		// A replaced value's syntax stays until the recount: "files" had the only printf.
		update("en", "files", "Saved the files")
		tools.WaitSyntaxRecounts(cat)
		check("a value that lost printf, recounted", message.HTML|message.I18next|message.React, 0, 1)
		if _, err := cat.RecountProject(ctx, pid); err != nil {
			t.Fatal(err)
		}
		check("after lokal project recount", message.HTML|message.I18next|message.React, 0, 1)
		// A sync that hides keys may take syntaxes away: recounted in the background.
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{"greet": "Hello {{name}}"}}); err != nil {
			t.Fatal(err)
		}
		tools.WaitSyntaxRecounts(cat)
		check("after hiding keys, recounted", message.I18next, 0, 1)

		// A project whose detection was never stored: a View's detection is stored after
		// it, in a transaction of its own, and later reads find it.
		if _, err := sqldb.ExecContext(ctx, `DELETE FROM project_syntax`); err != nil {
			t.Fatal(err)
		}
		var s message.Syntax
		before := cat.SyntaxScans()
		if err := db.View(ctx, func(tx model.Tx) error {
			proj, err := tx.Project(ctx, pid)
			s = cat.ProjectSyntax(ctx, tx, proj)
			return err
		}); err != nil || s != message.I18next || cat.SyntaxScans()-before != 1 {
			t.Fatalf("a View's detection: %v, %v, %d detections", s, err, cat.SyntaxScans()-before)
		}
		tools.WaitSyntaxRecounts(cat)
		var st model.SyntaxState
		if err := db.View(ctx, func(tx model.Tx) (err error) { st, err = tx.SyntaxState(ctx, pid); return err }); err != nil {
			t.Fatal(err)
		}
		if !st.Valid || st.Stale {
			t.Fatalf("a View's detection was not stored: %+v", st)
		}
		update("nb", "greet", "Hei")
		check("a save after a View's detection", message.I18next, 0, 0)
	})
}

// TestSyntaxAfterSyncs: get_project_status right after a source sync, of a few keys or of
// more than a chunked write stages, partial or full, names the syntaxes of the values it
// wrote without detecting from every value, on the read or off it; after a sync that hid
// the only key with a syntax it answers at once with the wider detection, and the recount
// in the background drops the syntax.
func TestSyntaxAfterSyncs(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		tools.SetSyntaxRecountPause(cat, 0)
		tools.SetBulkChunks(cat, 100, 50, nil) // on SQLite, the big sync's keys are staged first
		ctx := model.WithPrincipal(t.Context(), tools.System)
		pid := f.Project.ID
		status := func(step string, want []string) {
			t.Helper()
			before, bg := cat.SyntaxScans(), cat.SyntaxRecounts()
			out, err := cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: pid}})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Syntax.Names; !slices.Equal(got, want) {
				t.Errorf("%s: syntax %v, want %v", step, got, want)
			}
			if n := cat.SyntaxScans() - before; n != 0 {
				t.Errorf("%s: the read detected from every value %d times", step, n)
			}
			if n := cat.SyntaxRecounts() - bg; n != 0 {
				t.Errorf("%s: %d recounts in the background, want none", step, n)
			}
		}
		sync := func(namespace string, partial bool, values map[string]string) {
			t.Helper()
			ns := tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: namespace}
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Partial: partial, Translations: values}); err != nil {
				t.Fatal(err)
			}
		}
		sync("app", false, map[string]string{"plain": "Use it"})
		status("plain text", []string{})

		sync("app", true, map[string]string{"files": "Saved %d files"})
		status("a partial sync with printf", []string{"printf"})
		sync("app", false, map[string]string{"plain": "Use it", "files": "Saved %d files",
			"count": "{n, plural, one {# file} other {# files}}"})
		status("a full sync with ICU", []string{"icu", "printf"})

		big := map[string]string{}
		for i := range 1500 {
			big[fmt.Sprintf("row_%04d", i)] = fmt.Sprintf("Row %d", i)
		}
		big["row_0777"] = "Open <b>the row</b>"
		sync("big", true, big)
		status("a partial sync of 1,500 keys with HTML", []string{"icu", "printf", "html"})
		big["row_1500"] = "Row {{n}}"
		big["row_1501"] = "Row ${n}"
		sync("big", false, big)
		status("a full sync of 1,500 keys with i18next and a template", []string{"icu", "i18next", "printf", "template", "html"})

		// Hiding the only key with ICU: answered at once with the wider detection.
		release := tools.HoldSyntaxRecounts(cat)
		sync("app", false, map[string]string{"plain": "Use it", "files": "Saved %d files"})
		status("right after hiding the ICU key", []string{"icu", "i18next", "printf", "template", "html"})
		before := cat.SyntaxRecounts()
		release()
		tools.WaitSyntaxRecounts(cat)
		if n := cat.SyntaxRecounts() - before; n < 1 {
			t.Errorf("hiding a key: %d recounts in the background, want one at least", n)
		}
		status("after the recount", []string{"i18next", "printf", "template", "html"})
	})
}

// TestSyntaxRecountRace: a recount that read the values before a write came in does not
// store its result: the write may have added a syntax it did not see.
func TestSyntaxRecountRace(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		tools.SetSyntaxRecountPause(cat, 0)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		pid := f.Project.ID
		ns := tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{"plain": "Use it"}}); err != nil {
			t.Fatal(err)
		}
		tools.WaitSyntaxRecounts(cat)
		state := func() (st model.SyntaxState) {
			t.Helper()
			if err := db.View(ctx, func(tx model.Tx) (err error) { st, err = tx.SyntaxState(ctx, pid); return err }); err != nil {
				t.Fatal(err)
			}
			return st
		}
		// A stale detection, as a hidden key leaves it, read by a recount...
		if err := db.Update(ctx, pid, func(tx model.Tx) error {
			st, err := tx.SyntaxState(ctx, pid)
			if err != nil {
				return err
			}
			st.Stale = true
			return tx.SetSyntaxState(ctx, pid, st)
		}); err != nil {
			t.Fatal(err)
		}
		read := state()
		// ... then a write adds ICU ...
		if _, err := cat.AddKey(ctx, tools.AddKeyIn{KeyRef: keyRef(pid, "app", "count"), SourceValue: "{n, plural, other {# files}}"}); err != nil {
			t.Fatal(err)
		}
		// ... and the recount's result, made without it, must not land.
		var stored bool
		if err := db.Update(ctx, pid, func(tx model.Tx) (err error) {
			stored, err = tx.StoreDetectedSyntax(ctx, pid, message.Evidence(nil).String(), read.Gen)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if stored {
			t.Error("a recount older than a write was stored")
		}
		tools.WaitSyntaxRecounts(cat)
		if st := state(); st.Stale || !st.Valid {
			t.Errorf("the recount the write asked for did not land: %+v", st)
		}
		out, err := cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: pid}})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Syntax.Names; !slices.Equal(got, []string{"icu"}) {
			t.Errorf("syntax %v, want icu", got)
		}
	})
}

// TestRecountSyntaxes: what lokal serve runs at start detects every project whose
// detection is missing (made before one was stored) or stale (its recount never ran), so
// that no read detects; a project with a current detection is not read again.
func TestRecountSyntaxes(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		for pid, values := range map[string]map[string]string{
			f.Project.ID: {"greet": "Hello {name}"},
			f.Sibling.ID: {"files": "Saved %d files"},
			f.Other.ID:   {"bold": "<b>Bold</b>"},
		} {
			ns := tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: "app"}
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: values}); err != nil {
				t.Fatal(err)
			}
		}
		sqldb := storagetest.SQL(t, dsn)
		// The project: never detected; the sibling: stale, wider than its values.
		if _, err := sqldb.ExecContext(ctx, `DELETE FROM project_syntax WHERE project_id = $1`, f.Project.ID); err != nil {
			t.Fatal(err)
		}
		wide := message.Evidence([]string{"Saved %d files", "{n, plural, other {#}}"}).String()
		if _, err := sqldb.ExecContext(ctx, `UPDATE project_syntax SET syntax = $1, stale = TRUE WHERE project_id = $2`, wide, f.Sibling.ID); err != nil {
			t.Fatal(err)
		}
		before := cat.SyntaxRecounts()
		if err := cat.RecountSyntaxes(ctx); err != nil {
			t.Fatal(err)
		}
		if n := cat.SyntaxRecounts() - before; n != 2 {
			t.Errorf("%d projects detected, want 2 (the third's detection is current)", n)
		}
		scans := cat.SyntaxScans()
		for pid, want := range map[string][]string{f.Project.ID: {"icu"}, f.Sibling.ID: {"printf"}, f.Other.ID: {"html"}} {
			out, err := cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: pid}})
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Syntax.Names; !slices.Equal(got, want) {
				t.Errorf("project %s: syntax %v, want %v", pid, got, want)
			}
		}
		if n := cat.SyntaxScans() - scans; n != 0 {
			t.Errorf("reads detected %d times after the recounts", n)
		}
	})
}

// BenchmarkProjectSyntax measures ProjectSyntax on a project of 20,000 source values (one in
// eight with markup or a placeholder): with nothing written since the last read, and right
// after a source sync of one new key (the sync itself is not timed), which before the
// detection was kept by syncs made the read detect from every value.
//
//	go test -run '^$' -bench ProjectSyntax ./tools/
func BenchmarkProjectSyntax(b *testing.B) {
	const n = 20000
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		db, f := storagetest.MustOpenFixture(b, dialect)
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(b.Context(), tools.System)
		ns := tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: benchEntries(n)}); err != nil {
			b.Fatal(err)
		}
		call := func(b *testing.B) {
			if err := db.View(ctx, func(tx model.Tx) error {
				p, err := tx.Project(ctx, f.Project.ID)
				if s := cat.ProjectSyntax(ctx, tx, p); s != message.I18next|message.HTML {
					b.Fatalf("detected %v, want i18next,html", s)
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
		b.Run("no_write", func(b *testing.B) {
			call(b)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				call(b)
			}
		})
		b.Run("after_source_sync", func(b *testing.B) {
			scans := cat.SyntaxScans()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Partial: true,
					Translations: map[string]string{fmt.Sprintf("added_%d", i): fmt.Sprintf("Added {{count}} %d", i)}}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				call(b)
			}
			b.StopTimer()
			if n := cat.SyntaxScans() - scans; n != 0 {
				b.Fatalf("%d reads detected from every value", n)
			}
		})
	})
}
