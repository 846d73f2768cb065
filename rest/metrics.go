package rest

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the Prometheus metrics of one server, in a registry of their own (no global
// state, so tests and several servers in one process do not collide). A nil *Metrics
// records nothing, so callers need no "metrics on?" checks.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	refused  *prometheus.CounterVec
	// series holds the counter and histogram of each route, method and status seen, so
	// that a request does not hash its labels into the vectors again.
	series sync.Map // requestLabels -> *requestSeries
}

type requestLabels struct {
	route, method string
	status        int
}

type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// NewMetrics returns the HTTP and budget metrics plus the Go runtime and process
// collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lokal_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lokal_http_request_duration_seconds",
			Help: "Time to answer an HTTP request, by route pattern.",
			// Up to the 25-second write budget.
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 25},
		}, []string{"route"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lokal_write_refusals_total",
			Help: "Requests refused by a write budget or rate limit, by bucket.",
		}, []string{"bucket"}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.refused,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus exposition format, for the separate
// metrics listener (never the public one).
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Middleware records every request by route pattern, never the raw path: paths carry
// project ids and namespaces, and one series per path would grow without bound. The
// router records from its own logging middleware instead (record), reading the clock once.
func (m *Metrics) Middleware() gin.HandlerFunc {
	if m == nil {
		return func(c *gin.Context) { c.Next() }
	}
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		m.record(c.FullPath(), c.Request.Method, c.Writer.Status(), time.Since(start))
	}
}

// record counts one answered request of route (gin's pattern, "" when none matched).
func (m *Metrics) record(route, meth string, status int, d time.Duration) {
	if m == nil {
		return
	}
	if route == "" {
		route = "unmatched"
	}
	k := requestLabels{route: route, method: method(meth), status: status}
	v, ok := m.series.Load(k)
	if !ok {
		// Bounded as the vectors are: routes and methods are fixed sets, statuses ours.
		v, _ = m.series.LoadOrStore(k, &requestSeries{
			count:    m.requests.WithLabelValues(k.route, k.method, strconv.Itoa(status)),
			duration: m.duration.WithLabelValues(k.route),
		})
	}
	rs := v.(*requestSeries)
	rs.count.Inc()
	rs.duration.Observe(d.Seconds())
}

// method bounds the method label: a client can send any token as a method.
func method(s string) string {
	switch s {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return s
	}
	return "other"
}

// Refused counts one refusal by a budget, given as the catalogue's tools.Options.OnRefused;
// bucket is the budget's Name ("writes", "page_strings", "resolve", ...), a fixed set, so
// the label stays bounded.
func (m *Metrics) Refused(bucket string) {
	if m == nil {
		return
	}
	m.refused.WithLabelValues(bucket).Inc()
}

// AddGaugeFunc registers a gauge read from fn at every scrape (jobs pending, ...), so the
// numbers can come from packages rest does not import. A name without the lokal_ prefix
// gets it. It panics on a duplicate name, a programming error.
func (m *Metrics) AddGaugeFunc(name, help string, fn func() float64) {
	if m == nil {
		return
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: prefixed(name), Help: help}, fn))
}

// AddCounterFunc registers a counter read from fn at every scrape (cache hits, ...); fn
// must never decrease. Naming as in AddGaugeFunc.
func (m *Metrics) AddCounterFunc(name, help string, fn func() float64) {
	if m == nil {
		return
	}
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: prefixed(name), Help: help}, fn))
}

func prefixed(name string) string {
	if strings.HasPrefix(name, "lokal_") {
		return name
	}
	return "lokal_" + name
}
