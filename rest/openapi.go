package rest

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
)

// openAPIDocument is the OpenAPI 3.1 description of API version 1. It is written by hand
// so that it says what a generator cannot (the rules, the limits, the choices); a test
// holds it to the router's route table.
//
//go:embed openapi.json
var openAPIDocument []byte

// openAPIETag is computed once: the document only changes with the binary.
var openAPIETag = func() string {
	sum := sha256.Sum256(openAPIDocument)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}()

// openAPIHandler serves GET /api/openapi.json: the embedded document with a strong ETag,
// and 304 when the client already has it.
func openAPIHandler(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("ETag", openAPIETag)
	h.Set("Cache-Control", "no-cache")
	if httpx.ETagMatches(c.GetHeader("If-None-Match"), openAPIETag) {
		c.AbortWithStatus(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(openAPIDocument)))
	c.Status(http.StatusOK)
	c.Writer.Write(openAPIDocument)
}
