package public

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/jsoncheck"
	"github.com/lokal-dev/lokal/tools/model"
)

// Options configure the public routes; nil means the defaults. Their per-address budgets
// are the catalogue's (tools.PublicResolveBudget and the rest), overridden by
// tools.Options.Budgets.
type Options struct {
	Logger *slog.Logger
	// HarvestFloor is the least time a harvest takes to answer (default 250 ms), so that
	// storing, refusing and ignoring strings are not told apart by timing.
	HarvestFloor time.Duration
}

// PublicInfoMaxAge is how long browsers and proxies may keep public info (spec: five
// minutes).
const PublicInfoMaxAge = 5 * time.Minute

// Largest bodies taken: a resolve is a few names; a harvest is at most 50 strings of 5,000
// characters, up to 4 bytes each, with room for JSON escapes.
const (
	maxResolveBody = 16 << 10
	maxHarvestBody = 2 << 20
)

type handler struct {
	cat                  *tools.Catalog
	opts                 Options
	script, edit, i18ctx *script
}

// Mount returns the function that adds the public routes to a router: pass it as
// rest.Options.Public.
func Mount(cat *tools.Catalog, opts *Options) func(*gin.Engine) {
	h := &handler{cat: cat, script: loadScript(embedJS), edit: loadScript(editJS), i18ctx: loadScript(incontextJS)}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.Logger == nil {
		h.opts.Logger = slog.Default()
	}
	if h.opts.HarvestFloor <= 0 {
		h.opts.HarvestFloor = 250 * time.Millisecond
	}
	// Open to every origin (httpx.Public): the routes take no token and no cookie, and
	// the project's allowed origins are checked by the operations where the spec says.
	// Preflights are answered here (a router in front may answer them first).
	cors := httpx.Public.CORS.Gin
	return func(r *gin.Engine) {
		r.GET("/embed.js", h.script.serve)
		r.GET("/embed-edit.js", h.edit.serve)
		r.GET("/incontext.js", h.i18ctx.serve)
		r.POST("/api/embed/resolve", cors, h.limit(model.OpResolve), h.resolve)
		r.POST("/api/embed/:project_id/harvest", cors, h.limit(model.OpHarvest), h.harvest)
		r.GET("/api/:project_id/dictionary/:language/:namespace", cors, h.limit(model.OpDictionary), h.dictionary)
		r.GET("/api/:project_id/changes/:language/:namespace", cors, h.limit(model.OpChanges), h.changes)
		r.POST("/api/:project_id/install_ping", cors, h.limit(model.OpInstallPing), h.ping)
		r.GET("/api/:project_id/public_info", cors, h.limit(model.OpPublicInfo), h.publicInfo)
		for _, path := range []string{"/api/embed/resolve", "/api/embed/:project_id/harvest",
			"/api/:project_id/dictionary/:language/:namespace", "/api/:project_id/changes/:language/:namespace",
			"/api/:project_id/install_ping", "/api/:project_id/public_info"} {
			r.OPTIONS(path, cors)
		}
	}
}

// limit marks the request as the public routes' door and spends, for the client's
// address, the per-address budgets of op's row, in the catalogue, so that refusals are
// counted with every other.
func (h *handler) limit(op model.Operation) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := tools.WithDoor(c.Request.Context(), tools.Public)
		c.Request = c.Request.WithContext(ctx)
		if err := h.cat.TakeAddress(ctx, op, httpx.GinClientIP(c)); err != nil {
			writeError(c, err)
			return
		}
		c.Next()
	}
}

func (h *handler) resolve(c *gin.Context) {
	// The body time budget and what a slow or broken body answers are the router's
	// (rest.Options.BodyTimeout, package reqbody).
	b, err := reqbody.ReadAll(c.Request, maxResolveBody)
	if err != nil {
		writeError(c, err)
		return
	}
	if err := jsoncheck.Check(b); err != nil {
		writeError(c, model.Errorf(model.CodeInvalid, "the body: %v", err))
		return
	}
	var in tools.ResolveIn
	if err := json.Unmarshal(b, &in); err != nil {
		writeError(c, model.Errorf(model.CodeInvalid, "the body must be a JSON object with token, host, page_lang and languages"))
		return
	}
	out, err := h.cat.Resolve(c.Request.Context(), in)
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

// harvestTimeout bounds the work of one harvest.
const harvestTimeout = 10 * time.Second

// harvest always answers 204 with no body, and no sooner than HarvestFloor after the body
// arrived: whether the strings were stored, refused or ignored, the answer looks and takes
// the same. The work is done before the answer, so the strings are there once it comes. A
// body that is too large, slow or broken is ignored the same way, and the connection is
// closed after the answer (package reqbody).
func (h *handler) harvest(c *gin.Context) {
	b, err := reqbody.ReadAll(c.Request, maxHarvestBody)
	start := time.Now()
	if err == nil {
		var body struct {
			Strings []string `json:"strings"`
		}
		// A body a strict reader refuses is ignored like any other bad one.
		if jsoncheck.Check(b) == nil && json.Unmarshal(b, &body) == nil && len(body.Strings) > 0 {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), harvestTimeout)
			in := tools.HarvestIn{ProjectID: c.Param("project_id"), Origin: c.GetHeader("Origin"), Strings: body.Strings}
			if err := h.cat.Harvest(ctx, in); err != nil {
				h.opts.Logger.Warn("harvest", "project", in.ProjectID, "err", err)
			}
			cancel()
		}
	}
	if wait := h.opts.HarvestFloor - time.Since(start); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-c.Request.Context().Done():
			t.Stop()
		}
	}
	c.Status(http.StatusNoContent)
}

func (h *handler) dictionary(c *gin.Context) {
	in := tools.DictionaryIn{ProjectID: c.Param("project_id"), Language: c.Param("language"),
		Namespace: c.Param("namespace"), Origin: c.GetHeader("Origin")}
	if src, ok := c.GetQuery("src"); ok {
		if src != "0" {
			writeError(c, model.Errorf(model.CodeInvalid, "src takes only the value 0 (prior-to-current entries only)"))
			return
		}
		in.PriorsOnly = true
	}
	d, err := h.cat.ReadDictionary(c.Request.Context(), in)
	if err != nil {
		writeError(c, err)
		return
	}
	httpx.ServeCached(c.Writer, c.Request, d.File.Body, d.File.Gzip, d.ETag, httpx.NoCache, httpx.JSONType)
}

func (h *handler) changes(c *gin.Context) {
	out, err := h.cat.Changes(c.Request.Context(), tools.ChangesIn{ProjectID: c.Param("project_id"), Language: c.Param("language"),
		Namespace: c.Param("namespace"), Origin: c.GetHeader("Origin"), Since: c.Query("since")})
	if err != nil {
		writeError(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	writeJSON(c, http.StatusOK, out)
}

func (h *handler) ping(c *gin.Context) {
	if err := h.cat.InstallPing(c.Request.Context(), c.Param("project_id")); err != nil {
		writeError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// publicInfoCacheControl lets browsers keep public info as long as the server does.
var publicInfoCacheControl = []string{"public, max-age=" + strconv.Itoa(int(PublicInfoMaxAge/time.Second))}

func (h *handler) publicInfo(c *gin.Context) {
	f, err := h.cat.PublicInfo(c.Request.Context(), c.Param("project_id"))
	if err != nil {
		writeError(c, err)
		return
	}
	httpx.ServeCached(c.Writer, c.Request, f.Body, f.Gzip, f.ETag, publicInfoCacheControl, httpx.JSONType)
}

// writeError answers err through the public routes' door (package httpx) and aborts the
// chain: limits and the switch carry Retry-After, internal errors are logged.
func writeError(c *gin.Context, err error) { httpx.Public.GinError(c, err) }

func writeJSON(c *gin.Context, status int, v any) { httpx.WriteJSON(c.Writer, c.Request, status, v) }
