package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRetryAfter: a 429 with a short Retry-After is waited out and the request sent again;
// one past the bound fails at once with the server's message.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n := calls.Add(1); {
		case r.URL.Path == "/long":
			w.Header().Set("Retry-After", "600")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":"rate_limited","message":"over 300 writes a minute"}`))
		case n == 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	a := &apiClient{base: srv.URL, project: "p", key: "k", http: srv.Client()}
	res, err := a.do(t.Context(), http.MethodPut, "/short", nil, nil, []byte("body"), http.StatusOK)
	if err != nil || res.Status != http.StatusOK || calls.Load() != 2 {
		t.Errorf("after a 429 with Retry-After 1: %v, %d calls", err, calls.Load())
	}
	_, err = a.do(t.Context(), http.MethodPut, "/long", nil, nil, nil, http.StatusOK)
	if err == nil || !strings.Contains(err.Error(), "429 rate_limited: over 300 writes a minute") || calls.Load() != 3 {
		t.Errorf("a 429 with Retry-After 600: %v, %d calls", err, calls.Load())
	}
}
