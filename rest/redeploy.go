package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// redeploy is endpoint 8: no body; the catalogue refreshes the cache and dispatches.
func (s *server) redeploy(c *gin.Context) {
	out, err := s.cat.Redeploy(c.Request.Context(), c.Param("project_id"))
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}
