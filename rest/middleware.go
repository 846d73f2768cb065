package rest

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// observe logs every request and records it in the metrics, from one reading of the clock
// on each side of the chain.
func (s *server) observe(c *gin.Context) {
	start := time.Now()
	c.Next()
	end := time.Now()
	status := c.Writer.Status()
	s.opts.Metrics.record(c.FullPath(), c.Request.Method, status, end.Sub(start))
	ctx := c.Request.Context()
	h := s.opts.Logger.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	// gin's Size is -1 until something is written: a 201 or 204 without a body sent 0 bytes.
	httpx.LogRequest(ctx, h, &httpx.RequestLine{Time: end, Method: c.Request.Method, Path: c.Request.URL.Path,
		Status: status, Bytes: max(c.Writer.Size(), 0), Duration: end.Sub(start), IP: s.proxies.ClientIP(c.Request)})
}

func (s *server) recover(c *gin.Context) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.opts.Logger.Error("panic serving request", "path", c.Request.URL.Path, "panic", v)
			if !c.Writer.Written() {
				writeError(c, model.Errorf(model.CodeInternal, "internal error"))
			}
			c.Abort()
		}
	}()
	c.Next()
}

func noRoute(c *gin.Context) {
	writeError(c, model.Errorf(model.CodeNotFound, "no route %s %s", c.Request.Method, c.Request.URL.Path))
}

func noMethod(c *gin.Context) {
	c.AbortWithStatusJSON(http.StatusMethodNotAllowed, httpx.ErrorBody{Error: "method_not_allowed", Message: c.Request.Method + " is not allowed here"})
}

// authenticate puts the caller's principal in the request context, marked as the token
// API's door (the MCP endpoints mark their own), or answers 401.
func (s *server) authenticate(c *gin.Context) {
	token := tools.ParseAuthorization(c.GetHeader("Authorization"))
	p, err := s.cat.AuthenticateRef(c.Request.Context(), token)
	if err != nil {
		writeError(c, err)
		return
	}
	if p.Audience != "" {
		// An OAuth access token is for the MCP endpoint it was issued for, not the API.
		writeError(c, model.Errorf(model.CodeUnauthorized, "this token was issued for %s only", p.Audience))
		return
	}
	c.Request = c.Request.WithContext(tools.WithCaller(c.Request.Context(), p, tools.REST))
	c.Next()
}

// admit refuses a caller whom op's row does not admit to the project before its body is
// read: a foreign token or a read-only key must not make the server read and hold 5 MB.
// The operation passes its gate again (from the cache) as every operation does.
func (s *server) admit(op model.Operation) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := s.cat.Admit(c.Request.Context(), op, c.Param("project_id")); err != nil {
			writeError(c, err)
			return
		}
		c.Next()
	}
}

// readBody is the middleware of routes with a body: it reserves room for the body among
// the bodies in flight, reads it whole under the size cap and the body time budget (the
// router's reqbody.Guard), and holds the room until the request is done, since the decoded
// body lives that long. A larger body stores nothing and answers 413; a slow one 503, a
// broken one 400, and each of them closes the connection.
func (s *server) readBody(c *gin.Context) {
	if c.Request.ContentLength > MaxBody {
		writeError(c, errTooLarge(c))
		return
	}
	release, err := s.opts.Bodies.Acquire(c.Request.Context(), c.Request.ContentLength, MaxBody, s.opts.BodyTimeout)
	if err != nil {
		writeError(c, err)
		return
	}
	defer release()
	body, err := readLimited(c)
	if err != nil {
		writeError(c, err)
		return
	}
	c.Set(bodyKey, body)
	c.Next()
}

const bodyKey = "lokal.body"

// rawBody marks a route whose body is a file in its own encoding, not JSON: readBody takes
// it as bytes.
func rawBody(c *gin.Context) { c.Set(rawBodyKey, true) }

const rawBodyKey = "lokal.rawbody"

// body is the request body readBody read.
func body(c *gin.Context) []byte {
	b, _ := c.Get(bodyKey)
	bs, _ := b.([]byte)
	return bs
}

// takeBody is body for a handler that alone holds it from then on: the request no longer
// does, so that the bytes can go once the handler is done with them (an import, once
// its file is decoded).
func takeBody(c *gin.Context) []byte {
	bs := body(c)
	c.Set(bodyKey, nil)
	return bs
}
