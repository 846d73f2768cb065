package tools

import (
	"strings"
	"testing"
)

// TestCheckEntriesNamesFirstKey: of several refused rows, the error names the first key in
// order whatever order the map gives, so that a client sees the same error every time.
func TestCheckEntriesNamesFirstKey(t *testing.T) {
	t.Parallel()
	m := map[string]string{"a": "fine", "m\x00": "x", "b": "ok", "z\x00": "x", "c\x00": "x", "y": "<img src=x onerror=alert(1)>"}
	for range 20 { // map order varies from run to run
		err := checkEntries(valueMap(m))
		if err == nil || !strings.Contains(err.Error(), `"c\x00"`) {
			t.Fatalf("checkEntries: %v, want the error of key \"c\\x00\"", err)
		}
	}
	if err := checkEntries(valueMap{"a": "A", "b": "B"}); err != nil {
		t.Errorf("checkEntries of valid rows: %v", err)
	}
}
