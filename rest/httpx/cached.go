package httpx

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// Header values shared by every answer, so the hot path allocates none.
var (
	NoCache      = []string{"no-cache"}
	JSONType     = []string{"application/json; charset=utf-8"}
	varyEncoding = []string{"Accept-Encoding"}
	gzipEncoding = []string{"gzip"}
)

// ServeCached answers body (or gz, its gzip form, when not nil and accepted) with etag, or
// 304 when If-None-Match matches it. HEAD gets the headers alone. Callers pass bytes they
// built once, so that a read that changed nothing costs no serialization.
func ServeCached(w http.ResponseWriter, r *http.Request, body, gz []byte, etag string, cacheControl, contentType []string) {
	serveCached(w, r, body, gz, etag, model.FileHeader{}, cacheControl, contentType)
}

// ServeFile is ServeCached of a stored file, with the header values it carries.
func ServeFile(w http.ResponseWriter, r *http.Request, f *model.File, cacheControl, contentType []string) {
	serveCached(w, r, f.Body, f.Gzip, f.ETag, f.Header, cacheControl, contentType)
}

// serveCached is ServeCached with the header values in hv, each made here when missing.
func serveCached(w http.ResponseWriter, r *http.Request, body, gz []byte, etag string, hv model.FileHeader, cacheControl, contentType []string) {
	h := w.Header()
	if hv.ETag == nil {
		hv.ETag = []string{etag}
	}
	h["Etag"] = hv.ETag
	h["Cache-Control"] = cacheControl
	h["Vary"] = varyEncoding
	if ETagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h["Content-Type"] = contentType
	length := hv.Length
	if gz != nil && AcceptsGzip(r.Header.Get("Accept-Encoding")) {
		h["Content-Encoding"] = gzipEncoding
		body, length = gz, hv.GzipLength
	}
	if length == nil {
		length = []string{strconv.Itoa(len(body))}
	}
	h["Content-Length"] = length
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body) //nolint:errcheck // the client left
	}
}

// ETagMatches applies If-None-Match's weak comparison: W/ prefixes are ignored, * matches.
func ETagMatches(header, etag string) bool {
	for header != "" {
		var part string
		part, header, _ = strings.Cut(header, ",")
		part = strings.TrimSpace(part)
		if part == "*" || strings.TrimPrefix(part, "W/") == etag {
			return true
		}
	}
	return false
}

// AcceptsGzip reads Accept-Encoding; gzip counts unless its q-value is zero.
func AcceptsGzip(header string) bool {
	for header != "" {
		var part string
		part, header, _ = strings.Cut(header, ",")
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := 1.0
		for params != "" {
			var p string
			p, params, _ = strings.Cut(params, ";")
			if v, ok := strings.CutPrefix(strings.TrimSpace(p), "q="); ok {
				q, _ = strconv.ParseFloat(v, 64)
			}
		}
		return q > 0
	}
	return false
}
