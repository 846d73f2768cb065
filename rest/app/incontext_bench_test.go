package app_test

// Benchmarks of review in context (issue 36) in Chromium, on SQLite; .ci/bench
// BENCH_ONLY=incontext runs them:
//
//	go test -run '^$' -bench InContext -benchtime 5x ./rest/app/
//
// BenchmarkInContextVisitor counts what a first visit of a page with the Embed loads (a
// fresh browser context each time, so nothing is cached): requests and bytes on the wire,
// edit mode off and on, and, with LOKAL_BENCH_BASE_EMBED naming the embed.js of a commit
// before edit mode existed (.ci/bench writes it), the same page with that script: edit
// mode off must cost a visitor nothing beside it. BenchmarkInContextPanelOpen300 is the time
// from the Alt+click (the page's own mousedown) to the panel showing the key's row (lokal's
// page in the popup), on a page of 300 keys: the first open, which loads the popup, and
// the ones after, in the popup already open. Figures, never assertions on time.

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/tools/model"
)

// pageLoad is what one page load fetched: each request's path (project ids taken out) and
// the bytes received for it.
type pageLoad struct {
	mu    sync.Mutex
	paths map[network.RequestID]string
	bytes map[network.RequestID]int64
}

// watchLoads records the tab's requests from now on.
func watchLoads(b *testing.B, ctx context.Context, project string) *pageLoad {
	b.Helper()
	l := &pageLoad{paths: map[network.RequestID]string{}, bytes: map[network.RequestID]int64{}}
	if err := chromedp.Listen(ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			u, _ := url.Parse(e.Request.URL)
			if u.Path == "/favicon.ico" {
				return // the browser's own, now and then, not the page's
			}
			host := "lokal"
			if !strings.HasPrefix(u.Host, "127.0.0.1") {
				host = "site"
			}
			l.paths[e.RequestID] = e.Request.Method + " " + host + strings.ReplaceAll(u.Path, project, "{project}")
		case *network.EventLoadingFinished:
			l.bytes[e.RequestID] = int64(e.EncodedDataLength)
		case *network.EventLoadingFailed:
			l.bytes[e.RequestID] += 0
		}
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		b.Fatal(err)
	}
	return l
}

func (l *pageLoad) snapshot() (paths []string, total int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, p := range l.paths {
		paths = append(paths, p)
		total += l.bytes[id]
	}
	slices.Sort(paths)
	return paths, total
}

// quiet waits until the page has sent no request for a second and every one has ended
// (the Embed's install ping and harvest go after the swap), for at most 20 seconds.
func (l *pageLoad) quiet() {
	last, since, end := -1, time.Now(), time.Now().Add(20*time.Second)
	for time.Since(since) < time.Second && time.Now().Before(end) {
		l.mu.Lock()
		n, done := len(l.paths), len(l.bytes)
		l.mu.Unlock()
		if n != last || done < n {
			last, since = n, time.Now()
		}
		time.Sleep(50 * time.Millisecond) // waiting for the page to be done, not timing it
	}
}

// baselineEmbed serves the embed.js in file at /embed.js as lokal serves its own (gzip
// at the best level, the same headers), in front of next.
func baselineEmbed(file string, next http.Handler) (http.Handler, error) {
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/embed.js" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		h.Set("Cache-Control", "public, max-age=86400")
		h.Set("ETag", etag)
		h.Set("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
			return
		}
		w.Write(body)
	}), nil
}

func BenchmarkInContextVisitor(b *testing.B) {
	cases := []struct{ name, fragment, base string }{
		{"edit-off", "", ""},
		{"edit-on", "#lokal-edit", ""},
	}
	if f := os.Getenv("LOKAL_BENCH_BASE_EMBED"); f != "" {
		cases = append([]struct{ name, fragment, base string }{{"before-edit-mode", "", f}}, cases...)
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e := newICEnv(b, "sqlite")
			if c.base != "" {
				h, err := baselineEmbed(c.base, e.srv.Config.Handler)
				if err != nil {
					b.Fatal(err)
				}
				e.srv.Config.Handler = h
			}
			s := e.embedSite(b, "shop.example.test", siteDE)
			s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop home</title>`+s.tag(b, "de")+`</head><body>`+staticBody+`</body></html>`, nil)
			var requests, bytes int64
			var paths []string
			seen := map[string]bool{}
			for b.Loop() {
				ctx := icBrowser(b)
				l := watchLoads(b, ctx, s.project)
				icDo(b, ctx, "a visitor opens the page", chromedp.Navigate(s.url("/"+c.fragment)))
				icWait(b, ctx, "the Embed swapped the page", `document.getElementById('h').textContent === 'Hallo Welt'`)
				if c.fragment != "" {
					icWait(b, ctx, "the edit code loaded", editCodeLoaded)
				}
				l.quiet()
				p, n := l.snapshot()
				paths = append(paths, p...)
				if list := strings.Join(p, ", "); !seen[list] {
					seen[list] = true
					b.Logf("%s, %d bytes: %s", c.name, n, list)
				}
				requests += int64(len(p))
				bytes += n
			}
			if c.fragment == "" {
				for _, p := range paths {
					if strings.Contains(p, "embed-edit") || strings.Contains(p, "incontext") || strings.Contains(p, "/app/") {
						b.Errorf("edit mode off fetched %s", p)
					}
				}
			}
			b.ReportMetric(float64(requests)/float64(b.N), "requests/op")
			b.ReportMetric(float64(bytes)/float64(b.N), "bytes/op")
		})
	}
}

func BenchmarkInContextPanelOpen300(b *testing.B) {
	e := newICEnv(b, "sqlite")
	de := map[string]string{}
	var items strings.Builder
	for i := range 300 {
		src := fmt.Sprintf("Item number %03d", i)
		de[src] = fmt.Sprintf("Artikel Nummer %03d", i)
		fmt.Fprintf(&items, "<li id=\"i%d\">%s</li>\n", i, src)
	}
	s := e.embedSite(b, "big.example.test", de)
	reviewer := e.icMember(b, s.project, "reviewer@acme.test", model.RoleReviewer, "de")
	s.serveJS("/clock.js", `addEventListener('mousedown', function (e) { if (e.altKey) window.downAt = Date.now(); }, true);`)
	s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>300 keys</title><script src="/clock.js"></script>`+s.tag(b, "de")+`</head><body><ul>`+items.String()+`</ul></body></html>`, nil)

	ctx := icBrowser(b)
	e.signInAt(b, ctx, reviewer.Email)
	icDo(b, ctx, "opening the page in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
	icWait(b, ctx, "the Embed swapped 300 texts", `document.getElementById('i299').textContent === 'Artikel Nummer 299'`)
	icWait(b, ctx, "the edit code loaded", editCodeLoaded)

	// The first open loads the popup: from the Alt+click (the page's clock) to the panel's
	// mark of the row shown (the panel's clock, the same machine's), so that attaching the
	// test to the new window is not counted.
	panel := openPanel(b, ctx, "#i150")
	panelShows(b, panel, "Item number 150", "Artikel Nummer 150")
	first := icEval[float64](b, panel, `performance.timeOrigin + performance.getEntriesByName('lokal:row')[0].startTime`) -
		icEval[float64](b, ctx, `window.downAt`)
	icEval[bool](b, panel, `(() => { window.shownAt = {}; const mark = () => { const r = document.querySelector('#panel .incontext-row'), v = document.querySelector('#panel textarea[name="value"]');
	  if (r && v && !(r.dataset.key in window.shownAt)) window.shownAt[r.dataset.key] = Date.now(); };
	  new MutationObserver(mark).observe(document.getElementById('panel'), { childList: true, subtree: true }); return true; })()`)

	var ms []float64
	i := 0
	for b.Loop() {
		i++
		n := (i*37 + 11) % 300
		if n == 150 {
			n = 151
		}
		key := fmt.Sprintf("Item number %03d", n)
		icEval[bool](b, panel, fmt.Sprintf(`delete window.shownAt[%q], true`, key))
		altClick(b, ctx, fmt.Sprintf("#i%d", n))
		icWait(b, panel, "the panel shows "+key, fmt.Sprintf(`%q in window.shownAt`, key))
		down := icEval[float64](b, ctx, `window.downAt`)
		shown := icEval[float64](b, panel, fmt.Sprintf(`window.shownAt[%q]`, key))
		ms = append(ms, shown-down)
	}
	slices.Sort(ms)
	b.ReportMetric(math.Round(first), "first-open-ms")
	b.ReportMetric(ms[len(ms)/2], "median-ms")
	b.ReportMetric(ms[len(ms)-1], "max-ms")
}
