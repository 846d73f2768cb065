package formats

import (
	"bytes"
	"encoding/json"
)

// renderJSON writes a flat object. encoding/json sorts map keys, so the output is deterministic;
// HTML escaping is off because values carry markup (<strong>) that must stay readable.
func renderJSON(_ string, entries []Row) ([]byte, error) {
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		m[e.Key] = e.Value
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
