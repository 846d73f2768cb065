package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// The handlers of the account and service routes: /api/me, the locize languages route and
// /healthz.

func (s *server) me(c *gin.Context) {
	out, err := s.cat.Me(c.Request.Context())
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) locizeLanguages(c *gin.Context) {
	out, err := s.cat.LocizeLanguages(c.Request.Context(), c.Param("project_id"))
	if err != nil {
		writeError(c, err)
		return
	}
	writeJSON(c, http.StatusOK, out)
}

func (s *server) health(c *gin.Context) {
	if s.opts.Health != nil {
		ctx, cancel := context.WithTimeout(c.Request.Context(), 2*time.Second)
		defer cancel()
		if err := s.opts.Health(ctx); err != nil {
			c.AbortWithStatusJSON(http.StatusServiceUnavailable, gin.H{"status": "unavailable", "error": "database unreachable"})
			return
		}
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}
