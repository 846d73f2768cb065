package rest

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The handlers of the build-time endpoints (spec 1-5 and 7): decode, call the catalogue,
// encode.

func ref(c *gin.Context) tools.NamespaceRef {
	return tools.NamespaceRef{ProjectID: c.Param("project_id"), Language: c.Param("language"), Namespace: c.Param("namespace")}
}

// readNamespace serves spec endpoint 1 from the cache: ETag and 304, gzip when accepted;
// with ?format= the namespace as a file of that format.
func (s *server) readNamespace(c *gin.Context) {
	// Without a query Gin's GetQuery would still parse one into a map.
	if c.Request.URL.RawQuery != "" {
		if _, ok := c.GetQuery("format"); ok {
			s.exportFile(c)
			return
		}
	}
	f, err := s.cat.ReadNamespace(c.Request.Context(), ref(c))
	if err != nil {
		writeError(c, err)
		return
	}
	serveFile(c, f)
}

func serveFile(c *gin.Context, f *model.File) {
	httpx.ServeFile(c.Writer, c.Request, f, httpx.NoCache, httpx.JSONType)
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
	out, err := s.cat.Sync(c.Request.Context(), in)
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
			writeError(c, model.Errorf(model.CodeInvalid, "include_null must be true or false"))
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
	out, err := s.cat.RegisterPageStrings(c.Request.Context(), tools.PageStringsIn{ProjectID: c.Param("project_id"),
		Namespace: c.Param("namespace"), SourceStrings: body.SourceStrings})
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

// retranslate serves spec endpoint 6: a JSON array of at most 10 keys.
func (s *server) retranslate(c *gin.Context) {
	var keys []string
	if err := decodeStrict(c, &keys); err != nil {
		writeError(c, err)
		return
	}
	out, err := s.cat.Retranslate(c.Request.Context(), tools.RetranslateIn{NamespaceRef: ref(c), Keys: keys})
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
