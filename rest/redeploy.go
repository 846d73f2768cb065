package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/workflows"
)

// redeploy is endpoint 8: no body; the catalogue refreshes the cache and records the
// attempt, workflows makes the outbound call.
func (s *server) redeploy(c *gin.Context) {
	out, err := s.cat.Redeploy(c.Request.Context(), c.Param("project_id"), workflows.Dispatch)
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
