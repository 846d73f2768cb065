package tools_test

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestProjectSyntax: a project's syntax is detected from its source values, a setting
// overrides it, clearing the setting goes back to detection, and the detected answer is
// cached until a write moves the revision (a source sync that changes the syntax).
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

		// A change that bypasses the catalogue moves no revision: the cached answer stays.
		sqldb := storagetest.SQL(t, dsn)
		if _, err := sqldb.ExecContext(ctx, `UPDATE translations SET value = 'Saved %d files' WHERE value = 'Use it'`); err != nil {
			t.Fatal(err)
		}
		if got := syntaxOf(p.ID); got != message.ICU|message.HTML {
			t.Errorf("without a revision move: %v, want the cached icu,html", got)
		}
		// A source sync moves it: detection runs again and sees both changes.
		sync(map[string]string{"greet": "Hello {{name}}", "bold": "<b>Bold</b> text", "plain": "Saved %d files",
			"link": "See [the guide](/guide_1)", "quote": "Type '|' to split", "price": "Costs ${price}"})
		if got := syntaxOf(p.ID); got != message.I18next|message.Printf|message.HTML|message.Markdown|message.Template|message.ICU {
			t.Errorf("after a source sync: %v, want i18next,printf,template,html,markdown and icu", got)
		}
		// A full sync hides the keys it does not send: their values are no longer read.
		ns := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{
			"greet": "Hello {{name}}", "bold": "<b>Bold</b> text"}}); err != nil {
			t.Fatal(err)
		}
		if got := syntaxOf(p.ID); got != message.I18next|message.HTML {
			t.Errorf("after hiding keys: %v, want i18next,html", got)
		}
	})
}

// TestSyntaxKeptByWrites: the detection is stored and moved by the writes: a source value
// that adds a syntax is seen by the next read without reading every value again, a save in
// another language or of plain text leaves it alone, and only a write that may take a
// syntax away (a hidden key) or a recount makes the next read detect from every value. The
// catalogue's count of such detections shows it.
func TestSyntaxKeptByWrites(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
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
		check := func(step string, want message.Syntax, scans int64) {
			t.Helper()
			before := cat.SyntaxScans()
			if got := read(); got != want {
				t.Errorf("%s: syntax %v, want %v", step, got, want)
			}
			if n := cat.SyntaxScans() - before; n != scans {
				t.Errorf("%s: %d detections over every value, want %d", step, n, scans)
			}
		}
		update := func(lang, key, value string) {
			t.Helper()
			if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, "app", key), Language: lang},
				Value: value}); err != nil {
				t.Fatal(err)
			}
		}
		ns := tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{
			"greet": "Hello", "bold": "<b>Bold</b> text", "plain": "Use it"}}); err != nil {
			t.Fatal(err)
		}
		check("first read", message.HTML, 1)
		check("second read", message.HTML, 0)
		update("nb", "greet", "Hei {{navn}}")
		check("a save in nb", message.HTML, 0)
		update("en", "plain", "Use it now")
		check("a plain source save", message.HTML, 0)
		update("en", "greet", "Hello {{name}}")
		check("a source save with an i18next placeholder", message.HTML|message.I18next, 0)
		if _, err := cat.AddKey(ctx, tools.AddKeyIn{KeyRef: keyRef(pid, "app", "files"), SourceValue: "Saved %d files"}); err != nil {
			t.Fatal(err)
		}
		check("a new key with printf", message.HTML|message.I18next|message.Printf, 0)
		// Component tags read as React in an i18next project: the merged evidence decides as
		// a detection over every value would.
		update("en", "plain", "Open <Trans>it</Trans>")
		check("a component tag", message.HTML|message.I18next|message.Printf|message.React, 0)
		if _, err := cat.RecountProject(ctx, pid); err != nil {
			t.Fatal(err)
		}
		check("after a recount", message.HTML|message.I18next|message.Printf|message.React, 1)
		// A sync that hides keys may take syntaxes away: detected again from every value.
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{"greet": "Hello {{name}}"}}); err != nil {
			t.Fatal(err)
		}
		check("after hiding keys", message.I18next, 1)
		check("read again", message.I18next, 0)
		// A detection read in a View is stored after it: later reads find it.
		var s message.Syntax
		if _, err := cat.RecountProject(ctx, pid); err != nil {
			t.Fatal(err)
		}
		if err := db.View(ctx, func(tx model.Tx) error {
			proj, err := tx.Project(ctx, pid)
			s = cat.ProjectSyntax(ctx, tx, proj)
			return err
		}); err != nil || s != message.I18next {
			t.Fatalf("a View's detection: %v, %v", s, err)
		}
		for i := 0; ; i++ {
			var st model.SyntaxState
			if err := db.View(ctx, func(tx model.Tx) (err error) { st, err = tx.SyntaxState(ctx, pid); return err }); err != nil {
				t.Fatal(err)
			}
			if st.Valid {
				break
			}
			if i == 5000 {
				t.Fatal("a View's detection was never stored")
			}
			runtime.Gosched()
		}
		update("nb", "greet", "Hei")
		check("a save after a View's detection", message.I18next, 0)
	})
}

// BenchmarkProjectSyntax measures ProjectSyntax on a project of 20,000 source values (one in
// eight with markup or a placeholder): cached, as most calls find it, and detecting again
// after a write moved the revision (the write itself is not timed).
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
		b.Run("cached", func(b *testing.B) {
			call(b)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				call(b)
			}
		})
		b.Run("after_write", func(b *testing.B) {
			row := tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
				NamespaceKey: "app", TranslationKey: "section_0.element_1.label"}, Language: "nb"}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row, Value: fmt.Sprintf("Verdi %d", i)}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				call(b)
			}
		})
	})
}
