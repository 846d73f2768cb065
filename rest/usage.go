package rest

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/tools"
)

// usage is a project's AI spend, for personal access tokens.
func (s *server) usage(c *gin.Context) {
	in := tools.UsageIn{ProjectArg: tools.ProjectArg{ProjectID: c.Param("project_id")}}
	if v := c.Query("since"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			writeError(c, tools.Errorf(tools.CodeInvalid, "since must be an RFC 3339 time, such as 2026-11-01T00:00:00Z"))
			return
		}
		in.Since = t
	}
	out, err := s.cat.Usage(c.Request.Context(), in)
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
