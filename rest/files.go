package rest

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The handlers of translation files: endpoint 1 with a format, and the import endpoint.

// exportFile serves endpoint 1 with ?format=: the namespace rendered by the format's codec,
// with its ETag and 304 as the flat map has them.
func (s *server) exportFile(c *gin.Context) {
	f, err := s.cat.ExportNamespace(c.Request.Context(), tools.ExportIn{NamespaceRef: ref(c), Format: c.Query("format"), Status: c.Query("status"),
		CSVCells: c.Query("csv_cells")})
	if err != nil {
		writeError(c, err)
		return
	}
	httpx.ServeCached(c.Writer, c.Request, f.Body, f.Gzip, f.ETag, httpx.NoCache, []string{f.ContentType})
}

// importFile serves the import endpoint: the body is the file, the query its options.
func (s *server) importFile(c *gin.Context) {
	in := tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: c.Param("project_id")}, NamespaceKey: c.Param("namespace"),
		Language: c.Param("language"), Format: c.Query("format"), Status: c.Query("status"), CSVCells: c.Query("csv_cells")}
	if in.Format == "" {
		writeError(c, model.Errorf(model.CodeInvalid, "format is required, e.g. ?format=po"))
		return
	}
	for _, q := range []struct {
		name string
		set  func(bool)
	}{
		{"dry_run", func(b bool) { in.DryRun = b }},
		{"preserve_source_values", func(b bool) { in.PreserveSourceValues = &b }},
	} {
		if v, ok := c.GetQuery(q.name); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				writeError(c, model.Errorf(model.CodeInvalid, "%s must be true or false", q.name))
				return
			}
			q.set(b)
		}
	}
	// in escapes to the closures above: the body goes in a copy, so that nothing but the
	// import holds it.
	file := in
	file.Body = takeBody(c)
	out, err := s.cat.Import(c.Request.Context(), file)
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
