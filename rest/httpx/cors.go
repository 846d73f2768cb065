package httpx

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// CORS is one door's cross-origin policy. Both doors are open to every origin: tokens
// travel in headers, never in cookies, and the public routes take neither (the project's
// allowed origins are checked by the operations, where the spec says).
type CORS struct {
	origin, expose           []string
	methods, headers, maxAge []string
}

// NewCORS opens a door to every origin: preflights allow methods and headers, and
// responses let scripts read the headers in expose. Lists are comma-separated.
func NewCORS(methods, headers, expose string) *CORS {
	return &CORS{origin: []string{"*"}, expose: []string{expose},
		methods: []string{methods}, headers: []string{headers}, maxAge: []string{"86400"}}
}

var (
	// apiCORS is the token API's and MCP's: a script reads ETag, Retry-After and the MCP
	// session, and sends its token.
	apiCORS = NewCORS("GET, POST, PUT, OPTIONS",
		"Authorization, Content-Type, If-None-Match, X-Service-Read-Only, Mcp-Protocol-Version, Mcp-Session-Id",
		"ETag, Retry-After, Mcp-Session-Id, WWW-Authenticate")
	// publicCORS is the Embed's public routes': no token, nothing but ETag and Retry-After
	// to read.
	publicCORS = NewCORS("GET, POST, OPTIONS", "Content-Type, If-None-Match", "ETag, Retry-After")
)

// Handle sets the policy's headers on the answer, and answers a preflight (OPTIONS) with
// 204 itself, reporting that it did.
func (p *CORS) Handle(w http.ResponseWriter, r *http.Request) (answered bool) {
	// Shared, read-only values: the hot path allocates nothing (keys already canonical).
	h := w.Header()
	h["Access-Control-Allow-Origin"] = p.origin
	h["Access-Control-Expose-Headers"] = p.expose
	if r.Method != http.MethodOptions {
		return false
	}
	h["Access-Control-Allow-Methods"] = p.methods
	h["Access-Control-Allow-Headers"] = p.headers
	h["Access-Control-Max-Age"] = p.maxAge
	w.WriteHeader(http.StatusNoContent)
	return true
}

// Gin is Handle as Gin middleware: a preflight ends the chain.
func (p *CORS) Gin(c *gin.Context) {
	if p.Handle(c.Writer, c.Request) {
		c.Writer.WriteHeaderNow()
		c.Abort()
		return
	}
	c.Next()
}
