package tools_test

// Endpoint 1 for an i18next namespace of 50,000 keys of which 5,000 are plural families,
// read in pl (each family served as its four suffix keys):
//
//	go test -run '^$' -bench ReadFamilies50k -benchtime 20x ./tools/
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench ReadFamilies50k -benchtime 20x ./tools/

import (
	"fmt"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

const benchFamilies = 5000

// BenchmarkReadFamilies50k times warm, a read the cache answers, and after_write, the
// first read on the writing server after one form of one family was overwritten (not
// timed).
func BenchmarkReadFamilies50k(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		a, _, _, project, ctx, _ := readCacheServers(b, dialect)
		if _, err := a.EnableLanguage(model.WithPrincipal(ctx, tools.System), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: project}, Language: "pl"}); err != nil {
			b.Fatal(err)
		}
		en := tools.NamespaceRef{ProjectID: project, Language: "en", Namespace: "big"}
		pl := en
		pl.Language = "pl"
		src := benchEntries(benchReadKeys - benchFamilies)
		tr := make(map[string]string, len(src)+4*benchFamilies)
		for k, v := range src {
			tr[k] = "pl: " + v
		}
		for i := range benchFamilies {
			base := fmt.Sprintf("plurals_%d.files", i)
			src[base+"_one"], src[base+"_other"] = "{{count}} file", fmt.Sprintf("{{count}} files %d", i)
			for _, c := range []string{"one", "few", "many", "other"} {
				tr[base+"_"+c] = fmt.Sprintf("{{count}} plik %s %d", c, i)
			}
		}
		if _, err := a.Sync(ctx, tools.SyncIn{NamespaceRef: en, Translations: src}); err != nil {
			b.Fatal(err)
		}
		if _, err := a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: pl, Translations: tr}); err != nil {
			b.Fatal(err)
		}
		f, err := a.ReadNamespace(ctx, pl)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("pl body: %d bytes", len(f.Body))
		b.Run("warm", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := a.ReadNamespace(ctx, pl); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("after_write", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				benchWrites++
				key := fmt.Sprintf("plurals_%d.files_one", (i*7919)%benchFamilies) // a key in both layouts: before families it was a key of its own
				if _, err := a.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: pl, Translations: map[string]string{key: fmt.Sprintf("{{count}} pliki %d", benchWrites)}}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := a.ReadNamespace(ctx, pl); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
