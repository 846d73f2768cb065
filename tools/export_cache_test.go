package tools_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// exportVariants are the exports of namespace ns compared: every format in nb and en,
// the formats of several languages in all, with and without AI drafts.
func exportVariants(project, ns string) []tools.ExportIn {
	var out []tools.ExportIn
	for _, name := range formats.Names() {
		codec, _ := formats.Lookup(name)
		langs := []string{"nb", "en"}
		if codec.Multilingual {
			langs = append(langs, formats.AllLanguages)
		}
		for _, l := range langs {
			for _, status := range []string{"", model.StatusApproved} {
				out = append(out, tools.ExportIn{NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: l, Namespace: ns}, Format: name, Status: status})
			}
		}
	}
	return out
}

func exportName(in tools.ExportIn) string {
	return in.Format + "/" + in.Language + "/" + in.Status
}

// TestExportPatchedAsBuilt: after rounds of random writes (values, drafts, new keys with
// notes between another namespace's, changed source texts, hidden keys, what a file says
// beyond values), every format's export from a server whose cache patched its keys is
// byte for byte, ETag for ETag, what a server with an empty cache renders.
func TestExportPatchedAsBuilt(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		a, _, _, project, ctx, dsn := readCacheServers(t, dialect)
		quiet := &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
		en := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "app"}
		nb := en
		nb.Language = "nb"
		keys := map[string]string{}
		for i := range 120 {
			keys[fmt.Sprintf("k.%03d", i)] = fmt.Sprintf("Text %d <b>bold</b> {{count}}", i)
		}
		if _, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: keys}); err != nil {
			t.Fatal(err)
		}
		variants := exportVariants(project, "app")
		compare := func(round int) {
			t.Helper()
			cold := storagetest.Catalog(storagetest.MustOpen(t, dsn, &storage.Options{PollInterval: time.Hour}), quiet)
			for _, in := range variants {
				warm, err := a.ExportNamespace(ctx, in)
				if err != nil {
					t.Fatalf("round %d, %s: %v", round, exportName(in), err)
				}
				want, err := cold.ExportNamespace(ctx, in)
				if err != nil {
					t.Fatalf("round %d, %s cold: %v", round, exportName(in), err)
				}
				if !bytes.Equal(warm.Body, want.Body) || warm.ETag != want.ETag {
					t.Fatalf("round %d, %s: patched export differs from a cold one:\n%s\nwant\n%s", round, exportName(in), warm.Body, want.Body)
				}
			}
		}
		compare(0)
		rng := rand.New(rand.NewPCG(34, uint64(len(dialect))))
		pick := func(n int) []string {
			var out []string
			for k := range keys {
				if len(out) == n {
					break
				}
				if rng.IntN(3) == 0 {
					out = append(out, k)
				}
			}
			return out
		}
		for round := 1; round <= 6; round++ {
			// Translations set by the team (approved).
			set := map[string]string{}
			for _, k := range pick(15) {
				set[k] = fmt.Sprintf("Tekst %d/%s", round, k)
			}
			if _, err := a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: nb, Translations: set}); err != nil {
				t.Fatal(err)
			}
			// Drafts from a file that marks them not final, with flags the file keeps.
			var po bytes.Buffer
			po.WriteString("msgid \"\"\nmsgstr \"\"\n\"Language: nb\\n\"\n\"X-Round: " + fmt.Sprint(round) + "\\n\"\n\n")
			for _, k := range pick(10) {
				fmt.Fprintf(&po, "#, fuzzy, c-format\nmsgctxt %q\nmsgid %q\nmsgstr %q\n\n", k, keys[k], "Utkast "+k)
			}
			if _, err := a.Import(ctx, tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: project}, NamespaceKey: "app", Language: "nb", Format: "po", Content: po.String(), Status: model.StatusNeedsReview}); err != nil {
				t.Fatal(err)
			}
			// Another namespace's keys between this one's, which a read of the namespace's
			// ids as ranges passes over.
			other := en
			other.Namespace = "other"
			if _, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: other, Translations: map[string]string{
				fmt.Sprintf("o.%d.a", round): "A", fmt.Sprintf("o.%d.b", round): "B"}}); err != nil {
				t.Fatal(err)
			}
			// New keys with notes for translators, from a source file.
			var src bytes.Buffer
			for i := range 3 {
				k := fmt.Sprintf("new.%d.%d", round, i)
				keys[k] = fmt.Sprintf("New %d %d", round, i)
				fmt.Fprintf(&src, "#. Note %d %d\nmsgctxt %q\nmsgid %q\nmsgstr %q\n\n", round, i, k, keys[k], keys[k])
			}
			if _, err := a.Import(ctx, tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: project}, NamespaceKey: "app", Language: "en", Format: "po", Content: src.String()}); err != nil {
				t.Fatal(err)
			}
			// Changed source texts (their translations turn stale) and hidden keys.
			full := map[string]string{}
			hide := map[string]bool{}
			for _, k := range pick(4) {
				hide[k] = true
			}
			for k, v := range keys {
				if !hide[k] {
					full[k] = v
				}
			}
			for _, k := range pick(5) {
				if !hide[k] {
					keys[k] = fmt.Sprintf("Changed %d %s", round, k)
					full[k] = keys[k]
				}
			}
			for k := range hide {
				delete(keys, k)
			}
			f := false
			if _, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: full, PreserveSourceValues: &f}); err != nil {
				t.Fatal(err)
			}
			compare(round)
		}
	})
}

// TestExportColdFillsCoalesce: requests for one file that the cache lacks wait for one
// fill, counted by the fill hook.
func TestExportColdFillsCoalesce(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, project, ctx := benchCatalog(t, dialect)
		ref := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: benchEntries(500)}); err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		var fills atomic.Int64
		tools.SetExportFills(cat, 1, 8, func(string, int64) {
			fills.Add(1)
			<-release
		})
		const n = 12
		in := tools.ExportIn{NamespaceRef: ref, Format: "po"}
		bodies := make([][]byte, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f, err := cat.ExportNamespace(ctx, in)
				if err != nil {
					t.Error(err)
					return
				}
				bodies[i] = f.Body
			}()
		}
		for tools.ExportWaiters(cat) < n {
			runtime.Gosched()
		}
		close(release)
		wg.Wait()
		if got := fills.Load(); got != 1 {
			t.Fatalf("%d concurrent requests for one file made %d fills, want 1", n, got)
		}
		for i := range bodies {
			if !bytes.Equal(bodies[i], bodies[0]) || len(bodies[i]) == 0 {
				t.Fatalf("request %d got other bytes", i)
			}
		}
		// Cached now: no fill.
		if _, err := cat.ExportNamespace(ctx, in); err != nil || fills.Load() != 1 {
			t.Fatalf("a cached file was filled again (%d fills, %v)", fills.Load(), err)
		}
	})
}

// TestExportColdFillsBounded: every format at once, twice over, never runs more fills at
// once than the bound, one at a time per project and format.
func TestExportColdFillsBounded(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, project, ctx := benchCatalog(t, dialect)
		for _, ns := range []string{"a", "b"} {
			ref := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: ns}
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: benchEntries(300)}); err != nil {
				t.Fatal(err)
			}
		}
		const bound = 2
		var mu sync.Mutex
		peak := int64(0)
		tools.SetExportFills(cat, bound, 64, func(file string, running int64) {
			mu.Lock()
			peak = max(peak, running)
			mu.Unlock()
		})
		var wg sync.WaitGroup
		var failed atomic.Int64
		for _, ns := range []string{"a", "b"} {
			for _, name := range formats.Names() {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := cat.ExportNamespace(ctx, tools.ExportIn{NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: ns}, Format: name}); err != nil {
						t.Error(name, err)
						failed.Add(1)
					}
				}()
			}
		}
		wg.Wait()
		if peak > bound || peak == 0 {
			t.Fatalf("%d fills ran at once, bound %d", peak, bound)
		}
		if failed.Load() > 0 {
			t.Fatalf("%d exports failed", failed.Load())
		}
	})
}

// TestExportQueueFull: past the queue's bound a request is refused with 503's code and a
// time to retry, and a request whose context ends stops waiting.
func TestExportQueueFull(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, project, ctx := benchCatalog(t, dialect)
		ref := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "app"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: benchEntries(50)}); err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		tools.SetExportFills(cat, 1, 1, func(string, int64) { <-release })
		done := make(chan error, 1)
		go func() {
			_, err := cat.ExportNamespace(ctx, tools.ExportIn{NamespaceRef: ref, Format: "po"})
			done <- err
		}()
		for tools.ExportWaiters(cat) < 1 {
			runtime.Gosched()
		}
		_, err := cat.ExportNamespace(ctx, tools.ExportIn{NamespaceRef: ref, Format: "json"})
		var e *model.Error
		if model.ErrorCode(err) != model.CodeUnavailable || !asError(err, &e) || e.RetryAfter <= 0 {
			t.Fatalf("an export past the queue's bound: %v, want unavailable with a retry time", err)
		}
		gone, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := cat.ExportNamespace(gone, tools.ExportIn{NamespaceRef: ref, Format: "po"}); model.ErrorCode(err) != model.CodeUnavailable {
			t.Fatalf("a request whose client left: %v", err)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

func asError(err error, e **model.Error) bool {
	var ok bool
	*e, ok = err.(*model.Error)
	return ok
}
