package rest

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/tools"
)

// Options configure the router; nil means the defaults.
type Options struct {
	Logger *slog.Logger
	// Health reports whether the database answers; /healthz uses it.
	Health func(context.Context) error
	// SyncBudget bounds one sync request (the spec's 25 seconds).
	SyncBudget time.Duration
	// WritesPerMinute caps writes per project (the spec's 300).
	WritesPerMinute int
	// PageStringsPerMinute caps endpoint 7 per project (the spec's 60).
	PageStringsPerMinute int
}

type server struct {
	cat         *tools.Catalog
	opts        Options
	writes      *limiter
	pageStrings *limiter
	mcp         http.Handler
}

// New returns the handler of the token-authenticated API (spec endpoints 1-11), the locize
// languages route and /healthz.
//
// It panics if a catalogue tool's schema cannot be built: that is a programming error the
// tests catch, as with mcp.AddTool.
func New(cat *tools.Catalog, opts *Options) http.Handler {
	s := &server{cat: cat}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Logger == nil {
		s.opts.Logger = slog.Default()
	}
	if s.opts.SyncBudget <= 0 {
		s.opts.SyncBudget = 25 * time.Second
	}
	if s.opts.WritesPerMinute <= 0 {
		s.opts.WritesPerMinute = 300
	}
	if s.opts.PageStringsPerMinute <= 0 {
		s.opts.PageStringsPerMinute = 60
	}
	s.writes = newLimiter(s.opts.WritesPerMinute, time.Minute)
	s.pageStrings = newLimiter(s.opts.PageStringsPerMinute, time.Minute)
	var err error
	if s.mcp, err = s.newMCPHandler(); err != nil {
		panic(err)
	}

	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	r.Use(s.logRequests, s.recover, cors)
	r.NoRoute(func(c *gin.Context) {
		writeError(c, tools.Errorf(tools.CodeNotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
	})
	r.NoMethod(func(c *gin.Context) {
		c.AbortWithStatusJSON(http.StatusMethodNotAllowed, errorBody{Error: "method_not_allowed", Message: c.Request.Method + " is not allowed here"})
	})

	r.GET("/healthz", s.health)
	r.GET("/api/openapi.json", openAPIHandler)
	r.GET("/api/languages/:project_id", s.locizeLanguages)

	auth := r.Group("/api", s.authenticate)
	auth.GET("/:project_id/latest/:language/:namespace", s.readNamespace)
	auth.POST("/missing/:project_id/latest/:language/:namespace", s.limitWrites, s.reportMissing)
	auth.PUT("/sync/:project_id/latest/:language/:namespace", s.limitWrites, s.sync)
	auth.PUT("/overwrite/:project_id/latest/:language/:namespace", s.limitWrites, s.overwrite)
	auth.GET("/stale/:project_id/latest/:namespace", s.stale)
	auth.POST("/:project_id/sync_page_strings/:namespace", s.limitWrites, s.limitPageStrings, s.registerPageStrings)
	auth.GET("/me", s.me)
	auth.POST("/mcp", s.serveMCP(true))
	auth.POST("/:project_id/mcp", s.serveMCP(false))
	for _, path := range []string{"/api/mcp", "/api/:project_id/mcp"} {
		r.GET(path, mcpMethodNotAllowed)
		r.DELETE(path, mcpMethodNotAllowed)
	}
	return r
}

func (s *server) logRequests(c *gin.Context) {
	start := time.Now()
	c.Next()
	// Paths and statuses only: headers and queries may carry tokens.
	s.opts.Logger.LogAttrs(c.Request.Context(), slog.LevelInfo, "request",
		slog.String("method", c.Request.Method), slog.String("path", c.Request.URL.Path),
		slog.Int("status", c.Writer.Status()), slog.Int("bytes", c.Writer.Size()),
		slog.Duration("duration", time.Since(start)), slog.String("ip", c.RemoteIP()))
}

func (s *server) recover(c *gin.Context) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.opts.Logger.Error("panic serving request", "path", c.Request.URL.Path, "panic", v)
			if !c.Writer.Written() {
				writeError(c, tools.Errorf(tools.CodeInternal, "internal error"))
			}
			c.Abort()
		}
	}()
	c.Next()
}

// Header values set on every response, built once (the keys are already canonical).
var (
	corsOrigin   = []string{"*"}
	corsExpose   = []string{"ETag, Retry-After, Mcp-Session-Id"}
	noCache      = []string{"no-cache"}
	varyEncoding = []string{"Accept-Encoding"}
	jsonType     = []string{"application/json; charset=utf-8"}
	gzipEncoding = []string{"gzip"}
)

// cors opens the API to browsers: tokens travel in headers, never in cookies, so any
// origin may call it.
func cors(c *gin.Context) {
	h := c.Writer.Header()
	h["Access-Control-Allow-Origin"] = corsOrigin
	h["Access-Control-Expose-Headers"] = corsExpose
	if c.Request.Method == http.MethodOptions {
		h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, X-Service-Read-Only, Mcp-Protocol-Version, Mcp-Session-Id")
		h.Set("Access-Control-Max-Age", "86400")
		c.AbortWithStatus(http.StatusNoContent)
		return
	}
	c.Next()
}

// authenticate puts the caller's principal in the request context, or answers 401.
func (s *server) authenticate(c *gin.Context) {
	token := tools.ParseAuthorization(c.GetHeader("Authorization"))
	p, err := s.cat.Authenticate(c.Request.Context(), token)
	if err != nil {
		writeError(c, err)
		return
	}
	c.Request = c.Request.WithContext(tools.WithPrincipal(c.Request.Context(), p))
	c.Next()
}

func (s *server) limitWrites(c *gin.Context) { s.limit(c, s.writes, "writes") }

func (s *server) limitPageStrings(c *gin.Context) {
	s.limit(c, s.pageStrings, "page string registrations")
}

// limit counts a write against its project's cap. Only callers allowed to write count:
// another project's token gets its 401 and a read-only key its 403, never a share of the
// project's budget (a read-only key is public and must not be able to block CI).
func (s *server) limit(c *gin.Context, l *limiter, what string) {
	pid := c.Param("project_id")
	if err := s.cat.AuthorizeWrite(c.Request.Context(), pid); err != nil {
		writeError(c, err)
		return
	}
	ok, wait := l.allow(pid)
	if ok {
		c.Next()
		return
	}
	secs := int((wait + time.Second - 1) / time.Second)
	c.Header("Retry-After", strconv.Itoa(secs))
	writeError(c, tools.Errorf(tools.CodeRateLimited, "too many %s for this project; retry in %d s", what, secs))
}

func (s *server) health(c *gin.Context) {
	if s.opts.Health != nil {
		ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
		defer cancel()
		if err := s.opts.Health(ctx); err != nil {
			c.AbortWithStatusJSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "error": "database unreachable"})
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

func ref(c *gin.Context) tools.NamespaceRef {
	return tools.NamespaceRef{ProjectID: c.Param("project_id"), Language: c.Param("language"), Namespace: c.Param("namespace")}
}

// readNamespace serves spec endpoint 1 from the cache: ETag and 304, gzip when accepted.
func (s *server) readNamespace(c *gin.Context) {
	f, err := s.cat.ReadNamespace(c.Request.Context(), ref(c))
	if err != nil {
		writeError(c, err)
		return
	}
	serveFile(c, f)
}

func serveFile(c *gin.Context, f *tools.File) {
	h := c.Writer.Header()
	h["Etag"] = []string{f.ETag}
	h["Cache-Control"] = noCache
	h["Vary"] = varyEncoding
	if etagMatches(c.GetHeader("If-None-Match"), f.ETag) {
		c.AbortWithStatus(http.StatusNotModified)
		return
	}
	h["Content-Type"] = jsonType
	body := f.Body
	if acceptsGzip(c.GetHeader("Accept-Encoding")) {
		h["Content-Encoding"] = gzipEncoding
		body = f.Gzip
	}
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	c.Status(http.StatusOK)
	if c.Request.Method != http.MethodHead {
		c.Writer.Write(body)
	}
}

// etagMatches applies If-None-Match's weak comparison: W/ prefixes are ignored, * matches.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		if part == "*" || strings.TrimPrefix(part, "W/") == etag {
			return true
		}
	}
	return false
}

// acceptsGzip reads Accept-Encoding; gzip counts unless its q-value is zero.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				q, _ = strconv.ParseFloat(v, 64)
			}
		}
		return q > 0
	}
	return false
}

func (s *server) reportMissing(c *gin.Context) {
	m, err := decodeMissing(c)
	if err != nil {
		writeError(c, err)
		return
	}
	if _, err := s.cat.ReportMissing(c.Request.Context(), tools.ReportMissingIn{NamespaceRef: ref(c), Translations: m}); err != nil {
		writeError(c, err)
		return
	}
	c.Status(http.StatusCreated)
}

func (s *server) sync(c *gin.Context) {
	in := tools.SyncIn{NamespaceRef: ref(c)}
	if err := decodeSync(c, &in); err != nil {
		writeError(c, err)
		return
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), s.opts.SyncBudget)
	defer cancel()
	out, err := s.cat.Sync(ctx, in)
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) overwrite(c *gin.Context) {
	m, err := decodeFlat(c)
	if err != nil {
		writeError(c, err)
		return
	}
	out, err := s.cat.Overwrite(c.Request.Context(), tools.OverwriteIn{NamespaceRef: ref(c), Translations: m})
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) stale(c *gin.Context) {
	in := tools.StaleIn{ProjectID: c.Param("project_id"), Namespace: c.Param("namespace"), Language: c.Query("lang"), IncludeNull: true}
	if v, ok := c.GetQuery("include_null"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			writeError(c, tools.Errorf(tools.CodeInvalid, "include_null must be true or false"))
			return
		}
		in.IncludeNull = b
	}
	out, err := s.cat.ListStale(c.Request.Context(), in)
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) registerPageStrings(c *gin.Context) {
	var body struct {
		SourceStrings []string `json:"source_strings"`
	}
	if err := decodeStrict(c, &body); err != nil {
		writeError(c, err)
		return
	}
	if body.SourceStrings == nil {
		writeError(c, tools.Errorf(tools.CodeInvalid, "source_strings is required"))
		return
	}
	out, err := s.cat.RegisterPageStrings(c.Request.Context(), tools.PageStringsIn{ProjectID: c.Param("project_id"),
		Namespace: c.Param("namespace"), SourceStrings: body.SourceStrings})
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) me(c *gin.Context) {
	out, err := s.cat.Me(c.Request.Context())
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) locizeLanguages(c *gin.Context) {
	out, err := s.cat.LocizeLanguages(c.Request.Context(), c.Param("project_id"))
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
