package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/jsoncheck"
	"github.com/lokal-dev/lokal/tools/model"
)

// MaxBody is the spec's 5 MB request body cap.
const MaxBody = 5 << 20

// readLimited reads the whole body under the cap. JSON is UTF-8: the decoder would quietly
// turn bad bytes into U+FFFD and store that, so invalid UTF-8 is refused, except in a
// translation file (rawBody), whose codec reads its own encoding (UTF-16 .strings).
func readLimited(c *gin.Context) ([]byte, error) {
	buf := reqbody.NewBuffer(c.Request.ContentLength, MaxBody)
	_, err := buf.ReadFrom(http.MaxBytesReader(c.Writer, c.Request.Body, MaxBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, errTooLarge(c)
	}
	if err != nil {
		return nil, reqbody.Err(err)
	}
	if !c.GetBool(rawBodyKey) && !utf8.Valid(buf.Bytes()) {
		return nil, model.Errorf(model.CodeInvalid, "body is not valid UTF-8")
	}
	return buf.Bytes(), nil
}

// errTooLarge answers a body over the cap; only a sync can be split into partial chunks.
func errTooLarge(c *gin.Context) error {
	hint := ""
	if strings.HasPrefix(c.FullPath(), "/api/sync/") {
		hint = "; send it as partial chunks (partial: true) and finish with one full sync"
	}
	return model.Errorf(model.CodeTooLarge, "body is over %d bytes%s", MaxBody, hint)
}

// decodeObject decodes body as one JSON object into a generic map; numbers stay exact.
func decodeObject(body []byte) (map[string]any, error) {
	if err := strictJSON(body); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, model.Errorf(model.CodeInvalid, "body is not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, model.Errorf(model.CodeInvalid, "body has data after the JSON object")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, model.Errorf(model.CodeInvalid, "body must be a JSON object of key to value")
	}
	return m, nil
}

// flatten turns a map of strings, possibly nested the way i18next files are, into the flat
// map of dot-separated keys. Any other leaf (number, boolean, null, array) is refused rather
// than guessed at.
func flatten(m map[string]any) (map[string]string, error) {
	out := make(map[string]string, len(m))
	var walk func(prefix string, m map[string]any, depth int) error
	walk = func(prefix string, m map[string]any, depth int) error {
		if depth > 32 {
			return model.Errorf(model.CodeInvalid, "translations are nested more than 32 levels deep")
		}
		for k, v := range m {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			switch v := v.(type) {
			case string:
				if _, dup := out[key]; dup {
					return model.Errorf(model.CodeInvalid, "key %q is given twice (flat and nested)", key)
				}
				out[key] = v
			case map[string]any:
				if err := walk(key, v, depth+1); err != nil {
					return err
				}
			default:
				return model.Errorf(model.CodeInvalid, "value of %q must be a string, not %s", key, jsonKind(v))
			}
		}
		return nil
	}
	if err := walk("", m, 0); err != nil {
		return nil, err
	}
	return out, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case []any:
		return "an array"
	}
	return "an object"
}

// readObject decodes the request body as one JSON object.
func readObject(c *gin.Context) (map[string]any, error) {
	return decodeObject(body(c))
}

// decodeFlat reads a body that must be a flat (or nested) map of strings.
func decodeFlat(c *gin.Context) (map[string]string, error) {
	m, err := readObject(c)
	if err != nil {
		return nil, err
	}
	return flatten(m)
}

// decodeMissing reads the missing-keys body. Beside plain strings it takes the entry form
// i18next-locize-backend sends when a key has a description:
// { "key": { "value": "...", "context": { "text": "..." } } }.
func decodeMissing(c *gin.Context) (map[string]string, error) {
	m, err := readObject(c)
	if err != nil {
		return nil, err
	}
	for k, v := range m {
		if entry, ok := v.(map[string]any); ok {
			if value, ok := entry["value"].(string); ok && isLocizeEntry(entry) {
				m[k] = value
			}
		}
	}
	return flatten(m)
}

func isLocizeEntry(entry map[string]any) bool {
	for k := range entry {
		if k != "value" && k != "context" {
			return false
		}
	}
	return true
}

var syncOptions = map[string]bool{"translations": true, "dynamic_key_prefixes": true, "preserve_source_values": true, "partial": true}

// decodeSync reads the sync body: the object form with translations and options, or a bare
// map of translations.
func decodeSync(c *gin.Context, in *tools.SyncIn) error {
	m, err := readObject(c)
	if err != nil {
		return err
	}
	tr, isObject := m["translations"].(map[string]any)
	for k := range m {
		if !syncOptions[k] {
			isObject = false
		}
	}
	if !isObject {
		in.Translations, err = flatten(m)
		return err
	}
	if in.Translations, err = flatten(tr); err != nil {
		return err
	}
	if v, ok := m["partial"]; ok {
		b, ok := v.(bool)
		if !ok {
			return model.Errorf(model.CodeInvalid, "partial must be a boolean")
		}
		in.Partial = b
	}
	if v, ok := m["preserve_source_values"]; ok {
		b, ok := v.(bool)
		if !ok {
			return model.Errorf(model.CodeInvalid, "preserve_source_values must be a boolean")
		}
		in.PreserveSourceValues = &b
	}
	if v, ok := m["dynamic_key_prefixes"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return model.Errorf(model.CodeInvalid, "dynamic_key_prefixes must be an array of strings")
		}
		for _, p := range list {
			s, ok := p.(string)
			if !ok {
				return model.Errorf(model.CodeInvalid, "dynamic_key_prefixes must be an array of strings")
			}
			in.DynamicKeyPrefixes = append(in.DynamicKeyPrefixes, s)
		}
	}
	return nil
}

// decodeStrict decodes body into v, refusing unknown fields so typos are reported.
func decodeStrict(c *gin.Context, v any) error {
	b := body(c)
	if err := strictJSON(b); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return model.Errorf(model.CodeInvalid, "body: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// strictJSON refuses what encoding/json would take silently: a duplicate key (which of the
// two values counts?), a lone surrogate escape or invalid UTF-8 (both become U+FFFD).
func strictJSON(body []byte) error {
	if err := jsoncheck.Check(body); err != nil {
		return model.Errorf(model.CodeInvalid, "body: %v", err)
	}
	return nil
}
