package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/workflows"
)

func serveCommand() *command {
	return &command{name: "serve", args: "[flags]", synopsis: "run the HTTP and MCP server",
		about: "Creates the database and a first workspace when there is none. Also read from the\n" +
			"environment: LOKAL_LOG_FORMAT=text for text logs instead of JSON, GOGC (default 400) and\n" +
			"GOMEMLIMIT (default a soft 640MiB).",
		flags: []flagDef{
			{name: "listen", arg: "ADDR", usage: "address to serve on", env: "LOKAL_LISTEN", def: "127.0.0.1:8080"},
			databaseFlag,
			{name: "base-url", arg: "URL", usage: "public address of the service, for links; http://ADDR when empty", env: "LOKAL_BASE_URL"},
			{name: "metrics-listen", arg: "ADDR", usage: "serve Prometheus metrics on this separate address (off when empty)", env: "LOKAL_METRICS_LISTEN"},
			{name: "trusted-proxies", kind: listFlag, arg: "CIDR,...", usage: "take client IPs from X-Forwarded-For only on connections from these networks", env: "LOKAL_TRUSTED_PROXIES"},
			{name: "allow-private-nets", kind: listFlag, arg: "CIDR,...", usage: "private networks that webhooks, redeploy and AI providers may call", env: "LOKAL_ALLOW_PRIVATE_NETS"},
			{name: "ai-concurrency", kind: intFlag, arg: "N", usage: "model calls in flight per AI provider", env: "LOKAL_AI_CONCURRENCY", def: "4"},
			{name: "workers", kind: intFlag, arg: "N", usage: "background jobs (automatic translation batches, checkups) run at once", env: "LOKAL_WORKERS", def: "8"},
			{name: "job-lease", arg: "DURATION", usage: "how long a background job stays claimed without a renewal; a killed server's jobs resume after it", env: "LOKAL_JOB_LEASE", def: "30s"},
			{name: "webhook-backoff", kind: listFlag, arg: "D,D,D", usage: "waits before the retries of a failed webhook delivery (one retry per wait)", env: "LOKAL_WEBHOOK_BACKOFF", def: "5s,30s,2m"},
			{name: "max-conns-per-ip", kind: intFlag, arg: "N", usage: "open connections per client IP, 0 for no cap (trusted proxies are exempt)", env: "LOKAL_MAX_CONNS_PER_IP", def: "64"},
			{name: "oauth-redirect-hosts", kind: listFlag, arg: "HOST,...", usage: "https hosts MCP clients connecting by OAuth may redirect to (loopback always may); empty: loopback only", env: "LOKAL_OAUTH_REDIRECT_HOSTS", def: strings.Join(tools.DefaultOAuthRedirectHosts, ",")},
			{name: "oauth-dynamic-registration", kind: boolFlag, usage: "let MCP clients register themselves by OAuth dynamic client registration (RFC 7591); off: clients identify by a metadata document", env: "LOKAL_OAUTH_DYNAMIC_REGISTRATION", def: "false"},
		},
		run: func(ctx context.Context, c *call) (any, string, error) {
			cfg, err := parseServeConfig(c.in)
			if err != nil {
				return nil, "", err
			}
			return nil, "", serve(ctx, cfg, c)
		}}
}

// serveConfig is `lokal serve`'s parsed and checked configuration.
type serveConfig struct {
	listen           string
	database         string
	baseURL          string
	metricsListen    string         // "" when metrics are off
	trustedProxies   []netip.Prefix // X-Forwarded-For is believed only from these
	allowPrivateNets []netip.Prefix // private networks outbound calls may reach
	maxConnsPerIP    int            // 0: no cap
	aiConcurrency    int            // model calls in flight per provider
	workers          int            // background jobs at once
	jobLease         time.Duration
	webhookBackoff   []time.Duration
	oauthRedirects   []string // https hosts OAuth clients may redirect to
	oauthRegister    bool     // RFC 7591 registration open
}

func parseServeConfig(in *input) (serveConfig, error) {
	cfg := serveConfig{listen: in.str("listen"), database: in.str("database"),
		baseURL: strings.TrimRight(in.str("base-url"), "/"), metricsListen: in.str("metrics-listen"),
		maxConnsPerIP: in.integer("max-conns-per-ip"), aiConcurrency: in.integer("ai-concurrency"), workers: in.integer("workers")}
	lease, err := time.ParseDuration(in.str("job-lease"))
	if err != nil || lease < time.Second || lease > 10*time.Minute {
		return cfg, fmt.Errorf("--job-lease %q: give a duration from 1s to 10m, such as 30s", in.str("job-lease"))
	}
	cfg.jobLease = lease
	if cfg.aiConcurrency < 1 || cfg.aiConcurrency > 256 {
		return cfg, errors.New("--ai-concurrency must be from 1 to 256")
	}
	if cfg.workers < 1 || cfg.workers > 256 {
		return cfg, errors.New("--workers must be from 1 to 256")
	}
	if cfg.baseURL == "" {
		cfg.baseURL = "http://" + cfg.listen
	}
	for _, a := range []struct{ flag, addr string }{{"listen", cfg.listen}, {"metrics-listen", cfg.metricsListen}} {
		if a.addr == "" && a.flag == "metrics-listen" {
			continue
		}
		if _, _, err := net.SplitHostPort(a.addr); err != nil {
			return cfg, fmt.Errorf("--%s %q is not HOST:PORT", a.flag, a.addr)
		}
	}
	if cfg.metricsListen != "" && cfg.metricsListen == cfg.listen {
		return cfg, errors.New("--metrics-listen must differ from --listen: metrics are served apart from the API")
	}
	if cfg.maxConnsPerIP < 0 {
		return cfg, errors.New("--max-conns-per-ip must be 0 (no cap) or more")
	}
	if cfg.trustedProxies, err = parsePrefixes("trusted-proxies", in.list("trusted-proxies")); err != nil {
		return cfg, err
	}
	if cfg.allowPrivateNets, err = parsePrefixes("allow-private-nets", in.list("allow-private-nets")); err != nil {
		return cfg, err
	}
	if cfg.webhookBackoff, err = parseBackoff(in.list("webhook-backoff")); err != nil {
		return cfg, err
	}
	if cfg.oauthRedirects, err = parseRedirectHosts(in.list("oauth-redirect-hosts")); err != nil {
		return cfg, err
	}
	cfg.oauthRegister = in.boolean("oauth-dynamic-registration")
	return cfg, nil
}

// parsePrefixes reads networks in CIDR form; a bare address is a network of one.
func parsePrefixes(flag string, items []string) ([]netip.Prefix, error) {
	out := []netip.Prefix{}
	for _, s := range items {
		if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("--%s: %q is neither a network in CIDR form (such as 10.0.0.0/8) nor an IP address", flag, s)
		}
		if p.Masked() != p {
			return nil, fmt.Errorf("--%s: %s has bits set past its /%d; did you mean %s?", flag, s, p.Bits(), p.Masked())
		}
		out = append(out, p)
	}
	return out, nil
}

// bodyTimeout is the time a request body has to arrive, on every door.
const bodyTimeout = 20 * time.Second

// defaultMemoryLimit is the soft heap limit when GOMEMLIMIT is not set.
const defaultMemoryLimit = 640 << 20

func serve(ctx context.Context, cfg serveConfig, c *call) error {
	// The secret key and the operator's AI provider come from the environment; a bad key
	// stops the start before anything listens.
	opts, err := catalogOptions(c.in, cfg.database)
	if err != nil {
		return err
	}
	// Listen before anything is created: on a busy port the first start must not print a
	// token for a server that never runs.
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return fmt.Errorf("listening: %w", err)
	}
	defer ln.Close()
	var metricsLn net.Listener
	if cfg.metricsListen != "" {
		if metricsLn, err = net.Listen("tcp", cfg.metricsListen); err != nil {
			return fmt.Errorf("listening for metrics: %w", err)
		}
		defer metricsLn.Close()
	}

	logs := newLogBuffer(c.stderr, 200*time.Millisecond)
	defer logs.Close()
	// JSON, with the request line of every API and Embed request written directly.
	logger := slog.New(httpx.NewJSONLog(logs, nil))
	if os.Getenv("LOKAL_LOG_FORMAT") == "text" {
		logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	if os.Getenv("GOGC") == "" {
		// The heap is mostly cached files that live long; collecting less often buys
		// about a tenth of the read path's CPU for a little memory.
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// GOGC 400 lets the heap grow to five times what is live: fine for the read path,
		// but big writes in flight then took 1.6 GB. A soft limit makes the collector work
		// harder near it instead (it is not a cap: a larger live heap still fits).
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := storage.Open(ctx, cfg.database, &storage.Options{Logger: logger, Secrets: opts.Secrets})
	if err != nil {
		return err
	}
	defer db.Close()
	var metrics *rest.Metrics
	if metricsLn != nil {
		metrics = rest.NewMetrics()
		metrics.AddCounterFunc("cache_hits_total", "Reads answered from the translation cache.", func() float64 { h, _ := db.CacheStats(); return float64(h) })
		metrics.AddCounterFunc("cache_misses_total", "Reads that built a cache entry.", func() float64 { _, m := db.CacheStats(); return float64(m) })
		metrics.AddGaugeFunc("jobs_pending", "Background jobs waiting to run.", func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := db.PendingJobs(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		})
	}
	opts.BaseURL, opts.Logger, opts.AIConcurrency = cfg.baseURL, logger, cfg.aiConcurrency
	// Budgets live in PostgreSQL when several servers share it, in memory on SQLite; every
	// refusal, the public routes' included, is counted by budget name.
	opts.Limiter, opts.OnRefused = db.Limiter(nil), metrics.Refused
	// Webhooks, redeploy and workspace AI providers call out through this guard.
	opts.Outbound = outbound.NewGuard(cfg.allowPrivateNets)
	opts.OAuthRedirectHosts, opts.OAuthDynamicRegistration = cfg.oauthRedirects, cfg.oauthRegister
	opts.Hooks = writeHooks(opts)
	cat := tools.NewCatalog(db, opts)
	boot, err := cat.BootstrapIfEmpty(model.WithPrincipal(ctx, tools.System))
	if err != nil {
		return fmt.Errorf("creating the first workspace: %w", err)
	}
	if boot != nil {
		fmt.Fprintf(c.stdout, "Created a first workspace on this empty database (shown once, keep the token):\n"+
			"  workspace:       %s (%s)\n  public token:    %s\n  user:            %s (%s)\n  workspace token: %s\n",
			boot.Workspace.ID, boot.Workspace.Name, boot.Workspace.PublicToken, boot.User.ID, boot.User.Email, boot.Token)
	}

	// One bound on request bytes in flight for the API and the editor's uploads.
	bodies := reqbody.NewBudget(3 * rest.MaxBody)
	restOpts := &rest.Options{Logger: logger, Health: db.Ping, Metrics: metrics, BodyTimeout: bodyTimeout, Bodies: bodies}
	for _, p := range cfg.trustedProxies {
		restOpts.TrustedProxies = append(restOpts.TrustedProxies, p.String())
	}
	restOpts.Public = public.Mount(cat, &public.Options{Logger: logger})
	handler := rest.New(cat, restOpts)
	// The editor and Connect page at /app/, outside the token API's route table.
	handler = app.Mount(handler, app.New(cat, &app.Options{Logger: logger, SecureCookies: strings.HasPrefix(cfg.baseURL, "https://"),
		ClientIP: app.ClientIPFrom(cfg.trustedProxies), BodyTimeout: bodyTimeout, Bodies: bodies}))
	worker := workflows.New(cat, &workflows.Options{Logger: logger, Lease: cfg.jobLease, Concurrency: cfg.workers})
	workerCtx, stopWorker := context.WithCancel(context.Background())
	workerDone := make(chan struct{})
	go func() { defer close(workerDone); worker.Run(workerCtx) }()
	defer func() { stopWorker(); <-workerDone }()
	// Visitor demand is stored and old install pings removed every few seconds, and once
	// more on the way out.
	embedCtx, stopEmbed := context.WithCancel(context.Background())
	embedDone := make(chan struct{})
	go func() { defer close(embedDone); cat.RunEmbedMaintenance(embedCtx, 10*time.Second) }()
	defer func() { stopEmbed(); <-embedDone }()
	deliverer := workflows.NewDeliverer(cat, &workflows.DeliveryOptions{Logger: logger, Store: db, Guard: opts.Outbound,
		Backoff: cfg.webhookBackoff})
	deliveriesDone := make(chan struct{})
	go func() { defer close(deliveriesDone); deliverer.Run(workerCtx) }()
	defer func() { stopWorker(); <-deliveriesDone }()
	// A project whose syntax detection is missing (made before one was stored) or stale (a
	// process stopped before its recount) is detected in the background, not by a read.
	syntaxDone := make(chan struct{})
	go func() {
		defer close(syntaxDone)
		if err := cat.RecountSyntaxes(workerCtx); err != nil && workerCtx.Err() == nil {
			logger.Warn("detecting the projects' syntax", "err", err)
		}
	}()
	defer func() { stopWorker(); <-syntaxDone }()

	errorLog := slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	// Headers must come within 10 s; a body within bodyTimeout of the handler asking for
	// it (package reqbody, which also closes the connection of an unfinished body);
	// ReadTimeout bounds the rest of a request's reading.
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute,
		WriteTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10, ErrorLog: errorLog}
	if w := baseURLWarning(cfg.listen, cfg.baseURL); w != "" {
		logger.Warn(w, "base_url", cfg.baseURL)
	}
	logger.Info("serving", "addr", ln.Addr().String(), "database", db.Dialect(), "base_url", cfg.baseURL,
		"max_conns_per_ip", cfg.maxConnsPerIP)
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(limitConnsPerIP(ln, cfg.maxConnsPerIP, cfg.trustedProxies)) }()
	var metricsSrv *http.Server
	if metricsLn != nil {
		metricsSrv = &http.Server{Handler: reqbody.Guard(metrics.Handler(), bodyTimeout), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, ErrorLog: errorLog}
		logger.Info("serving metrics", "addr", metricsLn.Addr().String())
		go func() { errc <- metricsSrv.Serve(metricsLn) }()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// SIGTERM: stop accepting, let in-flight requests finish, exit 0. Background jobs stop
	// meanwhile (a checkup within one chunk): what they leave is durable and taken up again.
	logger.Info("shutting down")
	stopWorker()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if metricsSrv != nil {
		metricsSrv.Shutdown(shutdownCtx) //nolint:errcheck // the API's shutdown error is the one to report
	}
	return srv.Shutdown(shutdownCtx)
}

// parseBackoff reads --webhook-backoff: one Go duration per retry, above 0 and at most 24h.
func parseBackoff(items []string) ([]time.Duration, error) {
	if len(items) == 0 {
		return nil, errors.New("--webhook-backoff needs at least one wait, such as 5s,30s,2m")
	}
	if len(items) > 10 {
		return nil, errors.New("--webhook-backoff takes at most 10 waits")
	}
	out := make([]time.Duration, 0, len(items))
	for _, it := range items {
		d, err := time.ParseDuration(it)
		if err != nil || d <= 0 || d > 24*time.Hour {
			return nil, fmt.Errorf("--webhook-backoff: %q is not a wait above 0 and at most 24h (such as 30s or 2m)", it)
		}
		out = append(out, d)
	}
	return out, nil
}

// writeHooks are the side effects of every write, run in the write's transaction in this
// order: the caches first (every write that changed something moves its project's
// revision), the status counters, then the AI usage ledger, then the work a write leaves for later (the
// checkup's queue, automatic translation of new keys) and last the webhook outbox. A hook's
// error rolls the write back. The admin commands register the same hooks: a change made
// from the CLI is checked, translated and announced as one made over HTTP.
func writeHooks(opts *tools.Options) []tools.WriteHook { return tools.DefaultHooks(opts) }

// parseRedirectHosts reads --oauth-redirect-hosts: host names, no scheme, port or path.
func parseRedirectHosts(items []string) ([]string, error) {
	out := []string{}
	for _, h := range items {
		u, err := url.Parse("https://" + h + "/")
		if err != nil || u.Host != h || u.Port() != "" || u.User != nil || strings.ContainsAny(h, "/*") {
			return nil, fmt.Errorf("--oauth-redirect-hosts: %q is not a host name (give claude.ai, not https://claude.ai/)", h)
		}
		out = append(out, strings.ToLower(h))
	}
	return out, nil
}
