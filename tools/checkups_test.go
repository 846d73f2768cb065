package tools_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/model"
)

// checkupFixture is a catalogue on a fresh fixture database with a clock the test moves.
type checkupFixture struct {
	cat  *tools.Catalog
	ctx  context.Context
	proj string
	dsn  string
	now  time.Time
}

// newCheckupFixture is a fixture project's catalogue on a fake clock; with adjust, its
// options changed first.
func newCheckupFixture(t *testing.T, dialect string, adjust ...func(*tools.Options)) *checkupFixture {
	t.Helper()
	dsn, f := storagetest.FixtureDSN(t, dialect)
	db := storagetest.MustOpen(t, dsn, nil)
	x := &checkupFixture{ctx: model.WithPrincipal(t.Context(), tools.System), proj: f.Project.ID, dsn: dsn,
		now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	// The write budget is out of reach: the big syncs here are not about it, and the race
	// run on a loaded machine can take longer than 25 s.
	opts := &tools.Options{Now: func() time.Time { return x.now }, WriteTimeout: time.Hour}
	for _, f := range adjust {
		f(opts)
	}
	x.cat = storagetest.Catalog(db, opts)
	return x
}

func (x *checkupFixture) sync(t *testing.T, lang, ns string, tr map[string]string, partial bool) {
	t.Helper()
	keep := false
	if _, err := x.cat.Sync(x.ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: x.proj, Language: lang, Namespace: ns},
		Translations: tr, Partial: partial, PreserveSourceValues: &keep}); err != nil {
		t.Fatalf("sync %s/%s: %v", lang, ns, err)
	}
}

func (x *checkupFixture) overwrite(t *testing.T, lang, ns string, tr map[string]string) {
	t.Helper()
	if _, err := x.cat.Overwrite(x.ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: x.proj, Language: lang, Namespace: ns},
		Translations: tr}); err != nil {
		t.Fatalf("overwrite %s/%s: %v", lang, ns, err)
	}
}

func (x *checkupFixture) run(t *testing.T) tools.CheckupReportOut {
	t.Helper()
	r, err := x.cat.RunCheckup(x.ctx, x.proj, "test")
	if err != nil {
		t.Fatalf("RunCheckup: %v", err)
	}
	return r
}

// allFindings pages through report id (newest when "") and returns its findings.
func (x *checkupFixture) allFindings(t *testing.T, id string) (tools.CheckupReportOut, []checkup.Finding) {
	t.Helper()
	var all []checkup.Finding
	var first tools.CheckupReportOut
	offset := 0
	for page := 0; ; page++ {
		r, err := x.cat.GetCheckupReport(x.ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}, ReportID: id, Offset: offset})
		if err != nil {
			t.Fatalf("get_checkup_report offset %d: %v", offset, err)
		}
		if page == 0 {
			first = r
		}
		all = append(all, r.Findings...)
		if r.NextOffset == nil {
			break
		}
		if *r.NextOffset != offset+len(r.Findings) || page > 1000 {
			t.Fatalf("next_offset %d after %d findings from %d", *r.NextOffset, len(r.Findings), offset)
		}
		offset = *r.NextOffset
	}
	return first, all
}

func findingKey(f checkup.Finding) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s|%v", f.Namespace, f.Key, f.Language, f.Kind, f.Message, f.Detail)
}

func sortedFindings(fs []checkup.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = findingKey(f)
	}
	slices.Sort(out)
	return out
}

// sameAsReference checks that report id (newest when "") holds exactly what one pass over
// the whole project finds now, with the same summary.
func (x *checkupFixture) sameAsReference(t *testing.T, id string) tools.CheckupReportOut {
	t.Helper()
	want, wantSum, err := tools.CheckupReference(x.ctx, x.cat, x.proj)
	if err != nil {
		t.Fatal(err)
	}
	r, got := x.allFindings(t, id)
	if g, w := sortedFindings(got), sortedFindings(want); !slices.Equal(g, w) {
		t.Errorf("report %s has %d findings, a whole pass finds %d:\n got %v\nwant %v", r.ID, len(g), len(w), g, w)
	}
	if !reflect.DeepEqual(r.Summary, wantSum) || r.FindingsTotal != len(want) {
		t.Errorf("report %s summary %+v (total %d), want %+v", r.ID, r.Summary, r.FindingsTotal, wantSum)
	}
	return r
}

// TestCheckupIncremental: the first checkup analyses every key; later ones only the keys
// written since (and every key again when the glossary changes), carry the other
// findings over, and drop those of hidden keys. Each report equals one pass over the
// whole project, and older reports keep showing what they found.
func TestCheckupIncremental(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		tools.SetCheckupChunks(x.cat, 3, nil) // several chunks per pass
		x.sync(t, "en", "qa", map[string]string{
			"missing.one": "Only in English",
			"greet":       "Hello %{name}, welcome back",
			"cart":        "{count} items in your cart",
			"bold":        "<strong>Bold</strong> statement here",
			"same":        "Welcome to the dashboard",
			"fine":        "Save your changes",
			"login":       "Sign in to continue",
			"moved":       "The old wording of this line",
		}, false)
		x.sync(t, "en", "other", map[string]string{"a": "First line of text", "b": "Second line of text"}, false)
		x.overwrite(t, "nb", "qa", map[string]string{
			"login": "Meld deg på for å fortsette", "moved": "Den gamle ordlyden i denne linjen", "greet": "Hei, velkommen tilbake",
			"cart": "varer i handlekurven", "bold": "Fet uttalelse her", "same": "Welcome to the dashboard", "fine": "Lagre endringene dine",
		})
		first := x.run(t)
		if !first.Full || first.KeysChecked != 10 {
			t.Errorf("first report: full %v, keys checked %d; want a full pass over 10 keys", first.Full, first.KeysChecked)
		}
		firstFindings := sortedFindings(x.sameAsReference(t, "").Findings)

		// Three keys change: a placeholder fixed, a source rewritten (stale), one hidden.
		x.overwrite(t, "nb", "qa", map[string]string{"greet": "Hei %{name}, velkommen tilbake"})
		x.sync(t, "en", "qa", map[string]string{"moved": "The new wording of this line"}, true)
		x.sync(t, "en", "other", map[string]string{"a": "First line of text"}, false) // hides b
		second := x.run(t)
		if second.Full || second.KeysChecked != 3 {
			t.Errorf("second report: full %v, keys checked %d; want 3 keys, incrementally", second.Full, second.KeysChecked)
		}
		got := x.sameAsReference(t, "")
		for _, f := range got.Findings {
			if f.Key == "b" {
				t.Errorf("the hidden key b still has a finding: %+v", f)
			}
		}
		if _, old := x.allFindings(t, first.ID); !slices.Equal(sortedFindings(old), firstFindings) {
			t.Errorf("the first report changed: %v, want %v", sortedFindings(old), firstFindings)
		}

		// The glossary changes what every key is checked against: a full pass.
		if _, err := x.cat.AddGlossaryTerm(x.ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj},
			SourceTerm: "Sign in", TargetTerm: "Logg inn", Locale: "nb"}); err != nil {
			t.Fatal(err)
		}
		third := x.run(t)
		if !third.Full || third.KeysChecked != 9 {
			t.Errorf("third report: full %v, keys checked %d; want a full pass over the 9 visible keys", third.Full, third.KeysChecked)
		}
		x.sameAsReference(t, "")

		// Unhiding brings its findings back; nothing else is analysed.
		x.sync(t, "en", "other", map[string]string{"a": "First line of text", "b": "Second line of text"}, false)
		fourth := x.run(t)
		if fourth.Full || fourth.KeysChecked != 1 {
			t.Errorf("fourth report: full %v, keys checked %d; want 1 key", fourth.Full, fourth.KeysChecked)
		}
		x.sameAsReference(t, "")
		x.sameAsReference(t, fourth.ID)
	})
}

// TestCheckupPages: get_checkup_report answers at most MaxReportFindings findings and
// pages through the rest with offset and next_offset; a bad offset is refused.
func TestCheckupPages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: paging of one finished report, one call at a time; the plain run keeps it")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		keys := map[string]string{}
		for i := range 700 { // missing in nb and sv: 1,400 findings
			keys[fmt.Sprintf("k%03d", i)] = fmt.Sprintf("Source text number %d", i)
		}
		x.sync(t, "en", "many", keys, false)
		x.run(t)
		r, all := x.allFindings(t, "")
		if len(r.Findings) != tools.MaxReportFindings || !r.Truncated || r.NextOffset == nil || *r.NextOffset != tools.MaxReportFindings {
			t.Errorf("first page: %d findings, truncated %v, next_offset %v; want %d and more", len(r.Findings), r.Truncated, r.NextOffset, tools.MaxReportFindings)
		}
		if r.FindingsTotal != 1400 || len(all) != 1400 {
			t.Errorf("findings_total %d, paged %d; want 1400", r.FindingsTotal, len(all))
		}
		x.sameAsReference(t, "")
		last, err := x.cat.GetCheckupReport(x.ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}, Offset: 5000})
		if err != nil || len(last.Findings) != 0 || last.NextOffset != nil {
			t.Errorf("offset past the end: %d findings, next %v, err %v; want an empty last page", len(last.Findings), last.NextOffset, err)
		}
		if _, err := x.cat.GetCheckupReport(x.ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}, Offset: -1}); model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("offset -1: %v, want invalid", err)
		}
	})
}

// TestCheckupCancelled: a checkup of 5,000 keys (chunks of the default 1,000) whose context
// ends after its third chunk stores no fourth chunk and returns the context's error;
// readers still see the report before it, and the next checkup carries on from where it
// stopped to the same result as one pass over everything. The race run (-short) takes
// 2,000 keys in chunks of 100, within the sync's write budget under the detector.
func TestCheckupCancelled(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		x.sync(t, "en", "small", map[string]string{"hello": "Hello there, friend"}, false)
		before := x.run(t)

		n, chunk := 5000, 0 // the default chunk, 1,000 keys
		if testing.Short() {
			n, chunk = 2000, 100
		}
		tools.SetCheckupChunks(x.cat, chunk, nil)
		keys := make(map[string]string, n)
		for i := range n {
			keys[fmt.Sprintf("page_%d.line_%d", i/100, i%100)] = fmt.Sprintf("Line %d of the long page {{count}}", i)
		}
		x.sync(t, "en", "big", keys, true)
		// A glossary term: every key is analysed again, so the pass is long.
		if _, err := x.cat.AddGlossaryTerm(x.ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj},
			SourceTerm: "page", TargetTerm: "side", Locale: "nb"}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(x.ctx)
		defer cancel()
		stored := 0
		tools.SetCheckupChunks(x.cat, chunk, func(_ context.Context, chunks int) {
			stored = chunks
			if chunks == 3 {
				cancel()
			}
		})
		_, err := x.cat.RunCheckup(ctx, x.proj, "test")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled checkup: %v, want context.Canceled", err)
		}
		if stored != 3 {
			t.Errorf("%d chunks stored, want 3: the checkup went on after its context ended", stored)
		}
		r, err := x.cat.GetCheckupReport(x.ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}})
		if err != nil || r.ID != before.ID || r.FindingsTotal != before.FindingsTotal {
			t.Errorf("after the cancelled checkup the newest report is %s with %d findings (%v), want %s with %d",
				r.ID, r.FindingsTotal, err, before.ID, before.FindingsTotal)
		}

		tools.SetCheckupChunks(x.cat, chunk, nil)
		again := x.run(t)
		if !again.Full || again.KeysChecked != n+1 {
			t.Errorf("resumed report: full %v, keys checked %d; want a full pass of %d keys, each once", again.Full, again.KeysChecked, n+1)
		}
		x.sameAsReference(t, "")
	})
}

// TestCheckupPruning: of daily checkups for two weeks, several a day, the newest five and
// the newest of each of the last seven days stay; the others are gone with the findings
// only they showed.
func TestCheckupPruning(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: checkups one after another; the plain run keeps it")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		db := storagetest.SQL(t, x.dsn)
		type made struct {
			id string
			at time.Time
		}
		var reports []made
		start := x.now
		x.sync(t, "en", "daily", map[string]string{"line": "Wording {v0} of the line"}, false)
		x.overwrite(t, "nb", "daily", map[string]string{"line": "Ordlyden av linjen"})
		for day := range 14 {
			for n := range 3 {
				x.now = start.Add(time.Duration(day)*24*time.Hour + time.Duration(n)*time.Hour)
				// A new placeholder each time: every report closes the nb placeholder
				// finding of the one before and opens its own; sv stays missing and nb
				// stale, the same findings all along.
				x.sync(t, "en", "daily", map[string]string{"line": fmt.Sprintf("Wording {v%d} of the line", day*3+n+1)}, false)
				reports = append(reports, made{x.run(t).ID, x.now})
			}
		}
		var want []string
		days := map[string]bool{}
		for i := len(reports) - 1; i >= 0; i-- {
			r := reports[i]
			day := r.at.Format(time.DateOnly)
			if len(reports)-1-i < 5 || (x.now.Sub(r.at) < 7*24*time.Hour && !days[day]) {
				days[day] = true
				want = append(want, r.id)
			}
		}
		var got []string
		for _, r := range reports {
			_, err := x.cat.GetCheckupReport(x.ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}, ReportID: r.id})
			switch {
			case err == nil:
				got = append(got, r.id)
			case model.ErrorCode(err) != model.CodeNotFound:
				t.Fatal(err)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || len(want) != 10 {
			t.Errorf("kept %d reports %v, want the %d %v", len(got), got, len(want), want)
		}
		// Left: the nb placeholder finding of each kept report, and the sv missing and
		// nb stale findings all of them share.
		var rows int
		if err := db.QueryRowContext(x.ctx, "SELECT COUNT(*) FROM checkup_findings WHERE project_id = '"+x.proj+"'").Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if rows != len(want)+2 {
			t.Errorf("%d finding rows left, want %d (one of each kept report and two shared)", rows, len(want)+2)
		}
		for _, id := range want {
			if _, fs := x.allFindings(t, id); len(fs) != 3 {
				t.Errorf("kept report %s shows %d findings, want 3: %v", id, len(fs), sortedFindings(fs))
			}
		}
		x.sameAsReference(t, "")
	})
}

// TestCheckupWholeProjectMark: a write of more keys than a write queues one by one (300
// here, 10,000 in use: a sync of 301 keys, chunked) queues the project once; the next checkup makes a
// full pass of it, finds every finding a whole pass finds, and empties the queue. A small
// write after it is checked incrementally again.
func TestCheckupWholeProjectMark(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect, wholeProjectAt(300))
		tools.SetCheckupChunks(x.cat, 120, nil)
		tools.SetBulkChunks(x.cat, 100, 100, nil)
		db := storagetest.SQL(t, x.dsn)
		queued := func() (marks, wholes int) {
			t.Helper()
			if err := db.QueryRowContext(x.ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN key_id = 0 THEN 1 ELSE 0 END), 0)
FROM checkup_queue WHERE project_id = '`+x.proj+`'`).Scan(&marks, &wholes); err != nil {
				t.Fatal(err)
			}
			return marks, wholes
		}
		x.sync(t, "en", "qa", map[string]string{"greet": "Hello %{name}", "fine": "Save your changes"}, false)
		x.overwrite(t, "nb", "qa", map[string]string{"greet": "Hei", "fine": "Lagre endringene dine"})
		x.run(t)
		x.sameAsReference(t, "")

		many := map[string]string{}
		for i := range 301 {
			many[fmt.Sprintf("k%05d", i)] = fmt.Sprintf("Line %d", i)
		}
		many["k00007"] = "Hello {name}, %{count} left"
		x.sync(t, "en", "many", many, false)
		x.overwrite(t, "nb", "many", map[string]string{"k00007": "Hei {name}", "k00008": "Linje 8"})
		if marks, wholes := queued(); wholes != 1 || marks != 1+2 {
			t.Errorf("after a write of 301 keys and one of 2: %d queue marks, %d of the whole project; want the project once and the 2 keys", marks, wholes)
		}
		r := x.run(t)
		if !r.Full || r.KeysChecked != 303 {
			t.Errorf("report after the big write: full %v, keys checked %d; want a full pass over 303 keys", r.Full, r.KeysChecked)
		}
		x.sameAsReference(t, "")
		if marks, _ := queued(); marks != 0 {
			t.Errorf("%d queue marks left after the checkup", marks)
		}

		x.overwrite(t, "nb", "many", map[string]string{"k00007": "Hei {name}, %{count} igjen"})
		if marks, wholes := queued(); wholes != 0 || marks != 1 {
			t.Errorf("after a 1-key write: %d queue marks, %d of the whole project; want 1 key", marks, wholes)
		}
		if r := x.run(t); r.Full || r.KeysChecked != 1 {
			t.Errorf("report after a 1-key write: full %v, keys checked %d; want 1 key, incrementally", r.Full, r.KeysChecked)
		}
		x.sameAsReference(t, "")
	})
}

// wholeProjectAt makes a write of more than n keys queue the whole project for the checkup.
func wholeProjectAt(n int) func(*tools.Options) {
	return func(o *tools.Options) { o.CheckupWholeProjectKeys = n }
}

// TestCheckupQueuedKeyOnce: a key written several times since the last checkup (queued
// once a write) is analysed once, whichever chunks its marks fall in, and the queue ends
// empty with the report equal to a whole pass.
func TestCheckupQueuedKeyOnce(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		tools.SetCheckupChunks(x.cat, 2, nil)
		en := map[string]string{}
		for i := range 6 {
			en[fmt.Sprintf("k%d", i)] = fmt.Sprintf("Hello {name}, line %d", i)
		}
		x.sync(t, "en", "app", en, false)
		x.run(t)
		// Four writes of the same four keys: sixteen marks, in writes of four.
		for round := range 4 {
			nb := map[string]string{}
			for i := range 4 {
				nb[fmt.Sprintf("k%d", i)] = fmt.Sprintf("Hei {name}, linje %d (%d)", i, round)
			}
			x.overwrite(t, "nb", "app", nb)
		}
		if r := x.run(t); r.Full || r.KeysChecked != 4 {
			t.Errorf("after four writes of four keys: full %v, keys checked %d; want the 4 keys once each", r.Full, r.KeysChecked)
		}
		x.sameAsReference(t, "")
		var marks int
		if err := storagetest.SQL(t, x.dsn).QueryRowContext(x.ctx, `SELECT COUNT(*) FROM checkup_queue`).Scan(&marks); err != nil {
			t.Fatal(err)
		}
		if marks != 0 {
			t.Errorf("%d queue marks left after the checkup", marks)
		}
	})
}
