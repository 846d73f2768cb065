package public

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
)

// embedJS is the Embed script: plain JavaScript kept in the repository, no build step.
//
//go:embed embed/embed.js
var embedJS []byte

// script is the served form of the Embed script, prepared once.
type script struct {
	body, gzip []byte
	etag       string
}

func loadScript() *script {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(embedJS)
	zw.Close()
	sum := sha256.Sum256(embedJS)
	return &script{body: embedJS, gzip: buf.Bytes(), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}

// ScriptSizes reports the Embed script's bytes as served plain and gzipped.
func ScriptSizes() (plain, gzipped int) {
	s := loadScript()
	return len(s.body), len(s.gzip)
}

// Sites keep the script a day and revalidate it by ETag after that.
var (
	scriptCacheControl = []string{"public, max-age=86400"}
	scriptType         = []string{"text/javascript; charset=utf-8"}
)

func (h *handler) serveScript(c *gin.Context) {
	c.Header("Access-Control-Allow-Origin", "*")
	c.Header("X-Content-Type-Options", "nosniff")
	httpx.ServeCached(c.Writer, c.Request, h.script.body, h.script.gzip, h.script.etag, scriptCacheControl, scriptType)
}
