package main_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestServeWarnsOfAnUnreachableBaseURL: a base URL of 0.0.0.0 gets one warning line at
// start naming it; the default loopback setup gets none. The server listens on loopback
// only: the base URL is what is judged, not the listener.
func TestServeWarnsOfAnUnreachableBaseURL(t *testing.T) {
	t.Parallel()
	warnings := func(stderr string) []map[string]any {
		var out []map[string]any
		for _, line := range strings.Split(stderr, "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["level"] == "WARN" && strings.Contains(rec["msg"].(string), "base URL") {
				out = append(out, rec)
			}
		}
		return out
	}
	addr := freeAddr(t)
	bad := startServeWith(t, addr, nil, "serve", "--listen", addr, "--base-url", "http://0.0.0.0:8095",
		"--database", storagetest.EmptyDSN(t, "sqlite"))
	poll(t, 10*time.Second, "the serving line", func() bool { return strings.Contains(bad.stderr.String(), `"msg":"serving"`) })
	ws := warnings(bad.stderr.String())
	if len(ws) != 1 || ws[0]["base_url"] != "http://0.0.0.0:8095" || !strings.Contains(ws[0]["msg"].(string), "--base-url") {
		t.Errorf("warnings %v, want one naming http://0.0.0.0:8095 and --base-url", ws)
	}
	bad.stop(t)

	good := startServe(t, storagetest.EmptyDSN(t, "sqlite"))
	poll(t, 10*time.Second, "the serving line", func() bool { return strings.Contains(good.stderr.String(), `"msg":"serving"`) })
	if ws := warnings(good.stderr.String()); len(ws) != 0 {
		t.Errorf("the default loopback setup warned: %v", ws)
	}
	good.stop(t)
}
