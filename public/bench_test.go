package public_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// BenchmarkEmbedDictionaryThroughput compares, in one run on loopback, the dictionary
// (endpoint 14) with endpoint 1 over a namespace of the same size and with bare net/http
// writing the dictionary's very bytes. Per-IP limits stay on (raised out of reach), so
// their cost is counted. Figures: requests per second of each and dictionary/bare.
func BenchmarkEmbedDictionaryThroughput(b *testing.B) {
	const strings = 200
	db, f := storagetest.MustOpenFixture(b, "sqlite")
	cat := storagetest.Catalog(db, &tools.Options{Budgets: map[string]int{tools.PublicDictionaryBudget.Name: 1 << 30, tools.PublicResolveBudget.Name: 10}})
	logger := slog.New(slog.DiscardHandler)
	h := rest.New(cat, &rest.Options{Logger: logger, Health: db.Ping,
		Public: public.Mount(cat, &public.Options{Logger: logger})})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx := model.WithPrincipal(b.Context(), tools.System)
	if _, err := cat.SetWorkspace(ctx, f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &[]string{"bench.example.test"}}); err != nil {
		b.Fatal(err)
	}
	res, err := cat.Resolve(b.Context(), tools.ResolveIn{Token: f.Workspace.PublicToken, Host: "bench.example.test", PageLang: "en", Languages: []string{"de"}})
	if err != nil {
		b.Fatal(err)
	}
	src, de := make([]string, strings), map[string]string{}
	for i := range src {
		src[i] = fmt.Sprintf("Page text number %d that a visitor reads", i)
		de[src[i]] = fmt.Sprintf("Seitentext Nummer %d, den ein Besucher liest", i)
	}
	if _, err := cat.RegisterPageStrings(ctx, tools.PageStringsIn{ProjectID: res.ProjectID, Namespace: "page", SourceStrings: src}); err != nil {
		b.Fatal(err)
	}
	if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: res.ProjectID, Language: "de", Namespace: "page"}, Translations: de}); err != nil {
		b.Fatal(err)
	}
	key, err := cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: res.ProjectID, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	d, err := cat.ReadDictionary(b.Context(), tools.DictionaryIn{ProjectID: res.ProjectID, Language: "de", Namespace: "page"})
	if err != nil {
		b.Fatal(err)
	}
	body, etag := d.File.Body, d.ETag
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd["Etag"] = []string{etag}
		hd["Cache-Control"] = []string{"no-cache"}
		hd["Content-Type"] = []string{"application/json; charset=utf-8"}
		w.Write(body)
	}))
	defer bare.Close()

	targets := []struct {
		name, url, auth string
	}{
		{"bare", bare.URL + "/", ""},
		{"endpoint1", srv.URL + "/api/" + res.ProjectID + "/latest/de/page", "Token token=" + key.Key},
		{"dictionary", srv.URL + "/api/" + res.ProjectID + "/dictionary/de/page", ""},
	}
	rates := map[string]float64{}
	b.ResetTimer()
	for range b.N {
		for _, tg := range targets {
			rates[tg.name] = load(b, tg.url, tg.auth, 32, 2*time.Second)
		}
	}
	b.StopTimer()
	for _, tg := range targets {
		b.ReportMetric(rates[tg.name], tg.name+"_req/s")
	}
	b.ReportMetric(rates["dictionary"]/rates["bare"], "dictionary/bare")
	b.ReportMetric(rates["dictionary"]/rates["endpoint1"], "dictionary/endpoint1")
	b.ReportMetric(float64(len(body)), "body_bytes")
}

// load sends GETs from conc goroutines over keep-alive connections for dur and returns the
// rate of 200 answers.
func load(b *testing.B, url, auth string, conc int, dur time.Duration) float64 {
	tr := &http.Transport{MaxIdleConnsPerHost: conc, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var n atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(dur)
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				req, _ := http.NewRequest("GET", url, nil)
				if auth != "" {
					req.Header.Set("Authorization", auth)
				}
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					b.Errorf("GET %s: %d", url, res.StatusCode)
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(n.Load()) / dur.Seconds()
}

// BenchmarkEmbedFirstSwap loads a page of 2,000 text nodes in Chromium and reads the time
// of the script's first swap (its performance measure "lokal:swap"): the median over b.N
// loads, in milliseconds.
func BenchmarkEmbedFirstSwap(b *testing.B) {
	chromium(b)
	db, f := storagetest.MustOpenFixture(b, "sqlite")
	cat := storagetest.Catalog(db, &tools.Options{Budgets: map[string]int{tools.PublicDictionaryBudget.Name: -1, tools.PublicInfoBudget.Name: -1,
		tools.PublicInstallPingBudget.Name: -1, tools.PublicResolveBudget.Name: -1, tools.PublicHarvestBudget.Name: -1}})
	logger := slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(rest.New(cat, &rest.Options{Logger: logger, Health: db.Ping,
		Public: public.Mount(cat, &public.Options{Logger: logger})}))
	defer srv.Close()
	ctx := model.WithPrincipal(b.Context(), tools.System)
	if _, err := cat.SetWorkspace(ctx, f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &[]string{"swap.example.test"}}); err != nil {
		b.Fatal(err)
	}
	res, err := cat.Resolve(b.Context(), tools.ResolveIn{Token: f.Workspace.PublicToken, Host: "swap.example.test", PageLang: "en", Languages: []string{"de"}})
	if err != nil {
		b.Fatal(err)
	}
	const nodes = 2000
	src, de := make([]string, nodes), map[string]string{}
	page := `<!doctype html><html lang="en"><head><script src="` + srv.URL + `/embed.js" data-lokal-token="` + f.Workspace.PublicToken +
		`" data-lokal-lang="de" defer></script></head><body>`
	for i := range src {
		src[i] = fmt.Sprintf("Paragraph %d of the long page", i)
		de[src[i]] = fmt.Sprintf("Absatz %d der langen Seite", i)
		page += "<p>" + src[i] + "</p>\n"
	}
	page += "</body></html>"
	if _, err := cat.RegisterPageStrings(ctx, tools.PageStringsIn{ProjectID: res.ProjectID, Namespace: "page", SourceStrings: src}); err != nil {
		b.Fatal(err)
	}
	if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: res.ProjectID, Language: "de", Namespace: "page"}, Translations: de}); err != nil {
		b.Fatal(err)
	}
	pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	defer pages.Close()
	port := pages.URL[len("http://127.0.0.1"):]
	tb := newTab(b)
	var ms []float64
	b.ResetTimer()
	for range b.N {
		tb.run(b, navigate("http://swap.example.test"+port+"/"))
		tb.waitJS(b, `performance.getEntriesByName('lokal:swap').length > 0`)
		d := evalJS[float64](b, tb, `performance.getEntriesByName('lokal:swap')[0].duration`)
		ms = append(ms, d)
	}
	b.StopTimer()
	if got := evalJS[string](b, tb, `document.querySelector('p').textContent`); got != "Absatz 0 der langen Seite" {
		b.Fatalf("the page was not swapped: %q", got)
	}
	sort.Float64s(ms)
	b.ReportMetric(ms[len(ms)/2], "ms/first-swap")
	b.ReportMetric(nodes, "text-nodes")
}

func navigate(url string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(url) }
