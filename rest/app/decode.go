package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/tools/jsoncheck"
	"github.com/lokal-dev/lokal/tools/model"
)

// readBody reads a POST body whole before the handler, so that one that is too large,
// slow or broken is answered as such (413, 503, 400) instead of reading as a form without
// fields, and parses a form: a malformed one is refused rather than half read. The
// handler then reads the form or the JSON from memory. A multipart form (a file upload)
// is parsed in memory too: its parts are no larger than the body already read.
func readBody(r *http.Request, limit int64) error {
	b, err := reqbody.ReadAll(r, limit)
	if err != nil {
		return err
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		err = r.ParseMultipartForm(limit)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		return model.Errorf(model.CodeInvalid, "the form is malformed: %v", err)
	}
	return nil
}

// decodeJSON reads one JSON object of at most maxForm bytes, read strictly (jsoncheck).
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxForm))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return model.Errorf(model.CodeTooLarge, "the body is over %d bytes", maxForm)
	case err != nil:
		return model.Errorf(model.CodeInvalid, "reading the body: %v", err)
	}
	if err := jsoncheck.Check(b); err != nil {
		return model.Errorf(model.CodeInvalid, "the body: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return model.Errorf(model.CodeInvalid, "the body must be a JSON object: %v", err)
	}
	return nil
}
