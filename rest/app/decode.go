package app

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/jsoncheck"
)

// decodeJSON reads one JSON object of at most maxForm bytes, read strictly (jsoncheck).
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxForm))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return tools.Errorf(tools.CodeTooLarge, "the body is over %d bytes", maxForm)
	case err != nil:
		return tools.Errorf(tools.CodeInvalid, "reading the body: %v", err)
	}
	if err := jsoncheck.Check(b); err != nil {
		return tools.Errorf(tools.CodeInvalid, "the body: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return tools.Errorf(tools.CodeInvalid, "the body must be a JSON object: %v", err)
	}
	return nil
}
