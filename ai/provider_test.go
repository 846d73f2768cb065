package ai_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/ai/aitest"
)

// sleeps records the waits a provider asks for instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.d)
}

func newProvider(t *testing.T, srv *aitest.Server, mod func(*ai.Config)) (*ai.Provider, *sleeps) {
	t.Helper()
	s := &sleeps{}
	cfg := ai.Config{
		BaseURL: srv.URL, APIKey: "sk-test", Model: "test-model",
		Sleep: s.sleep, Jitter: func() float64 { return 0.5 },
	}
	if mod != nil {
		mod(&cfg)
	}
	p, err := ai.NewProvider(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, s
}

const okContent = `{"strings":{"s1":"ok"}}`

func TestCompleteRetryAfter(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Sequence(
		aitest.Fixed(aitest.Reply{Status: 429, Header: http.Header{"Retry-After": {"7"}}}),
		aitest.Fixed(aitest.Reply{Content: okContent, PromptTokens: 12, CompletionTokens: 5}),
	))
	p, s := newProvider(t, srv, nil)
	c, err := p.Complete(t.Context(), "sys", `{"strings":{}}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := []time.Duration{7 * time.Second}; !slices.Equal(s.got(), want) {
		t.Errorf("sleeps = %v, want %v", s.got(), want)
	}
	if c.Content != okContent || c.PromptTokens != 12 || c.CompletionTokens != 5 || c.Attempts != 2 {
		t.Errorf("completion = %+v", c)
	}
}

func TestCompleteRetryAfterTooLong(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Fixed(aitest.Reply{Status: 429, Header: http.Header{"Retry-After": {"3600"}}}))
	p, s := newProvider(t, srv, nil)
	_, err := p.Complete(t.Context(), "sys", `{}`)
	var e *ai.Error
	if !errors.As(err, &e) || e.Kind != ai.ErrRateLimited || e.RetryAfter != time.Hour {
		t.Fatalf("err = %v, want rate_limited with Retry-After 1h", err)
	}
	if len(s.got()) != 0 || len(srv.Calls()) != 1 {
		t.Errorf("sleeps %v, calls %d: a wait past MaxRetryAfter must go back to the caller", s.got(), len(srv.Calls()))
	}
}

func TestCompleteBackoffOn5xx(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Sequence(
		aitest.Fixed(aitest.Reply{Status: 500}),
		aitest.Fixed(aitest.Reply{Status: 503}),
		aitest.Fixed(aitest.Reply{Content: okContent}),
	))
	p, s := newProvider(t, srv, nil)
	if _, err := p.Complete(t.Context(), "sys", `{}`); err != nil {
		t.Fatal(err)
	}
	// Equal jitter at 0.5: 3/4 of 500ms, then of 1s.
	if want := []time.Duration{375 * time.Millisecond, 750 * time.Millisecond}; !slices.Equal(s.got(), want) {
		t.Errorf("sleeps = %v, want %v", s.got(), want)
	}
}

func TestCompleteErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		reply     aitest.Reply
		kind      ai.ErrorKind
		wantCalls int
	}{
		{"401 is auth, not retried", aitest.Reply{Status: 401}, ai.ErrAuth, 1},
		{"403 is auth", aitest.Reply{Status: 403}, ai.ErrAuth, 1},
		{"400 is not retried", aitest.Reply{Status: 400}, ai.ErrRequest, 1},
		{"5xx until attempts run out", aitest.Reply{Status: 502}, ai.ErrServer, 3},
		{"429 until attempts run out", aitest.Reply{Status: 429}, ai.ErrRateLimited, 3},
		{"non-JSON body", aitest.Reply{Body: "<html>gateway</html>"}, ai.ErrBadAnswer, 1},
		{"slow past the timeout", aitest.Reply{Hang: true}, ai.ErrNetwork, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := aitest.New(t, aitest.Fixed(tc.reply))
			p, _ := newProvider(t, srv, func(c *ai.Config) {
				c.MaxAttempts = 3
				if tc.reply.Hang {
					// Short only where the answer never comes: a loaded
					// machine must not turn a 401 into a timeout.
					c.Timeout = 50 * time.Millisecond
				}
			})
			c, err := p.Complete(t.Context(), "sys", `{}`)
			var e *ai.Error
			if !errors.As(err, &e) || e.Kind != tc.kind {
				t.Fatalf("err = %v, want kind %s", err, tc.kind)
			}
			if c.Attempts != tc.wantCalls {
				t.Errorf("attempts = %d, want %d", c.Attempts, tc.wantCalls)
			}
			// A request the client abandoned may never reach the handler.
			if n := len(srv.Calls()); n != tc.wantCalls && !tc.reply.Hang {
				t.Errorf("calls = %d, want %d", n, tc.wantCalls)
			}
		})
	}
}

func TestCompleteWireBasics(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Fixed(aitest.Reply{Content: okContent}))
	p, _ := newProvider(t, srv, nil)
	if _, err := p.Complete(t.Context(), "the system", `{"source_language":"en","target_language":"fr","strings":{"s1":"Hi"}}`); err != nil {
		t.Fatal(err)
	}
	c := srv.Calls()[0]
	if c.Authorization != "Bearer sk-test" || c.Model != "test-model" || c.ResponseFormat != "json_object" ||
		c.System != "the system" || c.SourceLanguage != "en" || c.TargetLanguage != "fr" || c.Strings["s1"] != "Hi" {
		t.Errorf("call = %+v", c)
	}
}

func TestCompleteConcurrencyBound(t *testing.T) {
	t.Parallel()
	var (
		mu       sync.Mutex
		inFlight int
		maxSeen  int
	)
	arrived := make(chan struct{})
	gate := make(chan struct{})
	srv := aitest.New(t, func(aitest.Call) aitest.Reply {
		mu.Lock()
		inFlight++
		maxSeen = max(maxSeen, inFlight)
		mu.Unlock()
		arrived <- struct{}{}
		<-gate
		mu.Lock()
		inFlight--
		mu.Unlock()
		return aitest.Reply{Content: okContent}
	})
	p, _ := newProvider(t, srv, func(c *ai.Config) { c.Concurrency = 2 })
	const n = 6
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := p.Complete(context.Background(), "sys", `{}`); err != nil {
				t.Error(err)
			}
		})
	}
	<-arrived
	<-arrived // two in flight; the rest wait for a slot
	for range n - 2 {
		gate <- struct{}{}
		<-arrived
	}
	for range 2 {
		gate <- struct{}{}
	}
	wg.Wait()
	if maxSeen != 2 {
		t.Errorf("max requests in flight = %d, want 2", maxSeen)
	}
}

func TestNewProviderNeedsBaseAndModel(t *testing.T) {
	t.Parallel()
	if _, err := ai.NewProvider(ai.Config{Model: "m"}); err == nil {
		t.Error("NewProvider without base URL succeeded")
	}
	if _, err := ai.NewProvider(ai.Config{BaseURL: "http://127.0.0.1:1/v1"}); err == nil {
		t.Error("NewProvider without model succeeded")
	}
}
