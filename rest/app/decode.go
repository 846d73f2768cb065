package app

import (
	"encoding/json"
	"net/http"

	"github.com/lokal-dev/lokal/tools"
)

// decodeJSON reads one JSON object of at most maxForm bytes.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxForm))
	if err := dec.Decode(v); err != nil {
		return tools.Errorf(tools.CodeInvalid, "the body must be a JSON object: %v", err)
	}
	return nil
}
