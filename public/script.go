package public

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"

	"github.com/gin-gonic/gin"
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

// scriptCacheControl: sites keep the script a day and revalidate it by ETag after that.
const scriptCacheControl = "public, max-age=86400"

func (h *handler) serveScript(c *gin.Context) {
	c.Header("Access-Control-Allow-Origin", "*")
	c.Header("X-Content-Type-Options", "nosniff")
	serveBytes(c, h.script.body, h.script.gzip, h.script.etag, scriptCacheControl, "text/javascript; charset=utf-8")
}
