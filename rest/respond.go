package rest

import (
	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/httpx"
)

// writeError answers err through the token API's door (package httpx) and aborts the chain.
func writeError(c *gin.Context, err error) { httpx.API.GinError(c, err) }

// writeJSON answers v with status, without HTML escaping: values carry markup.
func writeJSON(c *gin.Context, status int, v any) { httpx.WriteJSON(c.Writer, c.Request, status, v) }
