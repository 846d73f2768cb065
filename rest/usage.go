package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/tools"
)

// usage is a project's AI spend, for personal access tokens.
func (s *server) usage(c *gin.Context) {
	out, err := s.cat.Usage(c.Request.Context(), tools.UsageIn{ProjectArg: tools.ProjectArg{ProjectID: c.Param("project_id")}, Since: c.Query("since")})
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
