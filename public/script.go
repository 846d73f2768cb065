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

// The scripts lokal serves to sites: plain JavaScript kept in the repository, no build
// step. embedJS is the Embed script; editJS the edit code it (or incontextJS, the i18next
// post-processor) loads only in edit mode.
var (
	//go:embed embed/embed.js
	embedJS []byte
	//go:embed embed/edit.js
	editJS []byte
	//go:embed embed/incontext.js
	incontextJS []byte
)

// script is the served form of the Embed script, prepared once.
type script struct {
	body, gzip []byte
	etag       string
}

func loadScript(body []byte) *script {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	sum := sha256.Sum256(body)
	return &script{body: body, gzip: buf.Bytes(), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}

// ScriptSizes reports the Embed script's bytes as served plain and gzipped.
func ScriptSizes() (plain, gzipped int) {
	s := loadScript(embedJS)
	return len(s.body), len(s.gzip)
}

// EditScriptSizes reports the same for the edit code and the i18next post-processor,
// which a normal visitor never loads.
func EditScriptSizes() (edit, incontext int) {
	return len(loadScript(editJS).gzip), len(loadScript(incontextJS).gzip)
}

// Sites keep the script a day and revalidate it by ETag after that.
var (
	scriptCacheControl = []string{"public, max-age=86400"}
	scriptType         = []string{"text/javascript; charset=utf-8"}
)

// serve answers one of the scripts, cached and revalidated alike, readable from any origin.
func (s *script) serve(c *gin.Context) {
	c.Header("Access-Control-Allow-Origin", "*")
	c.Header("X-Content-Type-Options", "nosniff")
	httpx.ServeCached(c.Writer, c.Request, s.body, s.gzip, s.etag, scriptCacheControl, scriptType)
}
