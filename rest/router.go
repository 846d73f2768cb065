package rest

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Options configure the router; nil means the defaults.
type Options struct {
	Logger *slog.Logger
	// Health reports whether the database answers; /healthz uses it.
	Health func(context.Context) error
	// TrustedProxies are the networks whose X-Forwarded-For is believed: client IPs (in
	// logs and per-IP limits) come from it only when the connection comes from one of
	// them, and from the socket otherwise. Empty trusts nobody.
	TrustedProxies []string
	// BodyTimeout bounds the time to read one request body (default 20 s), so a client
	// trickling bytes cannot hold a request open: past it the answer is 503 timeout and
	// the connection is closed. It covers the public routes mounted here too.
	BodyTimeout time.Duration
	// BodyBytesInFlight bounds the bytes of request bodies being read and processed at
	// once (default 3 × MaxBody): past it a request waits for room, and answers 503 with
	// Retry-After if none frees up in time. It bounds the memory big writes take.
	BodyBytesInFlight int64
	// Bodies, when set, is the bound on bytes in flight this router shares with the other
	// doors of the server (the editor's uploads); BodyBytesInFlight is then unused.
	Bodies *reqbody.Budget
	// Metrics, when set, records every request by route, status and latency.
	Metrics *Metrics
	// Public, when set, adds the Embed's public routes (package public's Mount) behind the
	// same logging, recovery, metrics and client-address rules.
	Public func(*gin.Engine)
}

type server struct {
	cat  *tools.Catalog
	opts Options
	mcp  http.Handler
	// proxies is the client-address rule, from Options.TrustedProxies.
	proxies httpx.Proxies
}

// New returns the handler of the token-authenticated API (spec endpoints 1-11), the locize
// languages route, the API description and /healthz. This file is the route table; the
// middleware and the handlers live in files named for their subject.
//
// It panics if a catalogue tool's schema cannot be built or a trusted proxy is neither a
// network (CIDR) nor an address: programming and wiring errors that tests and the command
// line catch first.
func New(cat *tools.Catalog, opts *Options) http.Handler {
	s, r := newRouter(cat, opts)
	return reqbody.Guard(r, s.opts.BodyTimeout)
}

// newRouter is New's route table without the body guard around it.
func newRouter(cat *tools.Catalog, opts *Options) (*server, *gin.Engine) {
	s := &server{cat: cat}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Logger == nil {
		s.opts.Logger = slog.Default()
	}
	if s.opts.BodyTimeout <= 0 {
		s.opts.BodyTimeout = 20 * time.Second
	}
	if s.opts.BodyBytesInFlight <= 0 {
		s.opts.BodyBytesInFlight = 3 * MaxBody
	}
	if s.opts.Bodies == nil {
		s.opts.Bodies = reqbody.NewBudget(s.opts.BodyBytesInFlight)
	}
	var err error
	if s.mcp, err = s.newMCPHandler(); err != nil {
		panic(err)
	}

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	// Client addresses come from httpx's rule alone: Gin's own (ClientIP) is left unused.
	r.ForwardedByClientIP = false
	proxies, err := httpx.ParseProxies(s.opts.TrustedProxies)
	if err != nil {
		panic(err)
	}
	s.proxies = proxies
	r.Use(s.observe, s.recover, httpx.API.CORS.Gin)
	r.NoRoute(noRoute)
	r.NoMethod(noMethod)

	r.GET("/healthz", s.health)
	r.GET("/api/openapi.json", openAPIHandler)
	r.GET("/api/languages/:project_id", s.locizeLanguages)

	api := r.Group("/api", s.authenticate)
	api.GET("/:project_id/latest/:language/:namespace", s.readNamespace)
	api.POST("/missing/:project_id/latest/:language/:namespace", s.admit(model.OpMissing), s.readBody, s.reportMissing)
	api.PUT("/sync/:project_id/latest/:language/:namespace", s.admit(model.OpSync), s.readBody, s.sync)
	api.PUT("/overwrite/:project_id/latest/:language/:namespace", s.admit(model.OpOverwrite), s.readBody, s.overwrite)
	api.PUT("/import/:project_id/latest/:language/:namespace", s.admit(model.OpImport), rawBody, s.readBody, s.importFile)
	api.GET("/stale/:project_id/latest/:namespace", s.stale)
	api.POST("/retranslate/:project_id/latest/:language/:namespace", s.admit(model.OpRetranslate), s.readBody, s.retranslate)
	api.POST("/:project_id/sync_page_strings/:namespace", s.admit(model.OpSyncPageStrings), s.readBody, s.registerPageStrings)
	api.GET("/me", s.me)
	api.GET("/:project_id/usage", s.usage)
	api.POST("/:project_id/redeploy", s.redeploy)
	// The MCP endpoints and the OAuth routes (oauth.go): their own token check, with the
	// OAuth challenge and audience.
	s.mountOAuth(r)
	for _, path := range []string{"/api/mcp", "/api/:project_id/mcp"} {
		r.GET(path, mcpMethodNotAllowed)
		r.DELETE(path, mcpMethodNotAllowed)
	}
	if s.opts.Public != nil {
		// Mounted last, after the one middleware only they need: their per-address limits
		// read the client address it resolves (httpx.GinClientIP); the API's routes do not
		// pay for keeping it.
		r.Use(proxies.Gin)
		s.opts.Public(r)
	}
	return s, r
}
