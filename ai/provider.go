package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/outbound"
	openai "github.com/sashabaranov/go-openai"
)

// Config configures a Provider. Zero fields take the defaults named.
type Config struct {
	BaseURL string // an OpenAI-compatible /v1 base, e.g. http://localhost:11434/v1
	APIKey  string // may be empty for local servers
	Model   string

	Timeout       time.Duration // per request; default 60s
	MaxAttempts   int           // HTTP attempts per call; default 4
	Concurrency   int           // requests in flight per provider; default 4
	BaseBackoff   time.Duration // first backoff; default 500ms, doubling
	MaxBackoff    time.Duration // default 30s
	MaxRetryAfter time.Duration // longest Retry-After we wait for; default 60s

	// HTTPClient makes the requests; nil means a plain client. Pass the
	// private-network-guarded client for user-given base URLs.
	HTTPClient *http.Client
	// Sleep waits between attempts; nil means a timer honouring ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now reads the clock (latency, Retry-After dates); nil means time.Now.
	Now func() time.Time
	// Jitter returns a number in [0, 1); nil means math/rand.
	Jitter func() float64
}

// ErrorKind classifies why a call failed.
type ErrorKind string

// Error kinds.
const (
	ErrAuth        ErrorKind = "auth"         // 401, 403: the key is wrong; retrying will not help
	ErrRateLimited ErrorKind = "rate_limited" // 429 after every attempt, or a Retry-After too long to wait
	ErrServer      ErrorKind = "server"       // 5xx after every attempt
	ErrNetwork     ErrorKind = "network"      // connection failures and timeouts after every attempt
	ErrRequest     ErrorKind = "request"      // another 4xx: the server refused the request itself
	ErrBadAnswer   ErrorKind = "bad_answer"   // 200 but no usable message
	ErrTooLarge    ErrorKind = "too_large"    // an answer past outbound.MaxModelAnswer (or an error body past MaxErrorBody)
)

// Error is a failed provider call. Its text is outbound.Fail's reason and the status:
// never the provider's answer, which an echoing provider fills with the API key. Err is the
// cause for errors.Is (a cancelled context, a cap), never a provider's answer.
type Error struct {
	Kind       ErrorKind
	Status     int           // HTTP status, 0 when none
	RetryAfter time.Duration // from a 429, when the server said
	Reason     string        // outbound.Fail's
	Err        error
}

func (e *Error) Error() string {
	f := outbound.Failure{Status: e.Status, Reason: e.Reason}
	if f.Reason == "" {
		f = outbound.Fail(outbound.ModelProvider, e.Status, e.Err)
	}
	return "calling the model: " + f.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Provider is one OpenAI-compatible endpoint with its own concurrency
// bound. It is safe for concurrent use.
type Provider struct {
	cfg    Config
	client *openai.Client
	sem    chan struct{}
}

// NewProvider returns a provider for cfg.
func NewProvider(cfg Config) (*Provider, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" || strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("configuring the AI provider: base URL and model are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 4
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4
	}
	if cfg.BaseBackoff <= 0 {
		cfg.BaseBackoff = 500 * time.Millisecond
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.MaxRetryAfter <= 0 {
		cfg.MaxRetryAfter = 60 * time.Second
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Jitter == nil {
		cfg.Jitter = rand.Float64
	}
	hc := http.Client{}
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	// go-openai drops response headers on errors; this keeps Retry-After, and caps what
	// is read of every answer.
	hc.Transport = captureTransport{next: next}

	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &hc
	return &Provider{cfg: cfg, client: openai.NewClientWithConfig(oc), sem: make(chan struct{}, cfg.Concurrency)}, nil
}

// Model is the provider's model name.
func (p *Provider) Model() string { return p.cfg.Model }

// Completion is a model's answer to one call.
type Completion struct {
	Content          string
	PromptTokens     int
	CompletionTokens int
	Attempts         int
}

// Complete sends one chat completion asking for a JSON object and returns
// the answer's content. It retries 429 (after Retry-After), 5xx and
// network errors up to MaxAttempts; errors are *Error.
func (p *Provider) Complete(ctx context.Context, system, user string) (Completion, error) {
	req := openai.ChatCompletionRequest{
		Model: p.cfg.Model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		ResponseFormat: &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject},
	}
	var last *Error
	for attempt := 1; ; attempt++ {
		resp, err := p.attempt(ctx, req)
		if err == nil {
			if len(resp.Choices) == 0 {
				return Completion{Attempts: attempt}, &Error{Kind: ErrBadAnswer, Err: errors.New("the answer has no choices"), Reason: "the provider's answer has no choices"}
			}
			return Completion{
				Content:          resp.Choices[0].Message.Content,
				PromptTokens:     resp.Usage.PromptTokens,
				CompletionTokens: resp.Usage.CompletionTokens,
				Attempts:         attempt,
			}, nil
		}
		if ctx.Err() != nil {
			return Completion{Attempts: attempt}, &Error{Kind: ErrNetwork, Err: ctx.Err()}
		}
		last = err
		retry := err.Kind == ErrRateLimited || err.Kind == ErrServer || err.Kind == ErrNetwork
		if !retry || attempt >= p.cfg.MaxAttempts {
			return Completion{Attempts: attempt}, last
		}
		wait := p.backoff(attempt)
		if err.Kind == ErrRateLimited && err.RetryAfter > 0 {
			if err.RetryAfter > p.cfg.MaxRetryAfter {
				return Completion{Attempts: attempt}, last // the caller reschedules
			}
			wait = err.RetryAfter
		}
		if serr := p.cfg.Sleep(ctx, wait); serr != nil {
			return Completion{Attempts: attempt}, &Error{Kind: ErrNetwork, Err: serr}
		}
	}
}

// backoff is exponential with equal jitter: half fixed, half random, so
// clients that failed together do not come back together.
func (p *Provider) backoff(attempt int) time.Duration {
	d := p.cfg.BaseBackoff << (attempt - 1)
	if d > p.cfg.MaxBackoff || d <= 0 {
		d = p.cfg.MaxBackoff
	}
	return d/2 + time.Duration(p.cfg.Jitter()*float64(d/2))
}

type captureKey struct{}

type captured struct {
	status     int
	retryAfter string
}

type captureTransport struct{ next http.RoundTripper }

func (t captureTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err == nil {
		if c, ok := r.Context().Value(captureKey{}).(*captured); ok {
			c.status = resp.StatusCode
			c.retryAfter = resp.Header.Get("Retry-After")
		}
		// go-openai reads whole bodies: a provider answering without end would take the
		// server's memory. Only a message is wanted of an error.
		limit := int64(outbound.MaxModelAnswer)
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			limit = outbound.MaxErrorBody
		}
		resp.Body = outbound.LimitBody(resp.Body, limit)
	}
	return resp, err
}

// attempt makes one HTTP request inside the concurrency bound.
func (p *Provider) attempt(ctx context.Context, req openai.ChatCompletionRequest) (openai.ChatCompletionResponse, *Error) {
	select {
	case p.sem <- struct{}{}:
	case <-ctx.Done():
		return openai.ChatCompletionResponse{}, &Error{Kind: ErrNetwork, Err: ctx.Err()}
	}
	defer func() { <-p.sem }()
	c := &captured{}
	actx, cancel := context.WithTimeout(context.WithValue(ctx, captureKey{}, c), p.cfg.Timeout)
	defer cancel()
	resp, err := p.client.CreateChatCompletion(actx, req)
	if err == nil {
		return resp, nil
	}
	return resp, p.classify(err, c)
}

func (p *Provider) classify(err error, c *captured) *Error {
	status := 0
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.Is(err, outbound.ErrTooLarge):
		// Not retried: the same provider would send the same flood again.
		return &Error{Kind: ErrTooLarge, Status: c.status, Err: tooLargeOf(err), Reason: outbound.Fail(outbound.ModelProvider, c.status, err).Reason}
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	case c.status >= 200 && c.status < 300:
		// The server answered but the body was not a completion.
		return &Error{Kind: ErrBadAnswer, Status: c.status, Reason: outbound.Fail(outbound.ModelProvider, c.status, nil).Reason}
	default:
		return &Error{Kind: ErrNetwork, Err: err, Reason: outbound.Fail(outbound.ModelProvider, 0, err).Reason}
	}
	// The provider's error (its body's message) is dropped here: only the status is kept.
	e := &Error{Status: status, Reason: outbound.Fail(outbound.ModelProvider, status, nil).Reason}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = ErrAuth
	case status == http.StatusTooManyRequests:
		e.Kind = ErrRateLimited
		e.RetryAfter = parseRetryAfter(c.retryAfter, p.cfg.Now())
	case status >= 500:
		e.Kind = ErrServer
	case status == http.StatusRequestTimeout:
		e.Kind = ErrNetwork
	default:
		e.Kind = ErrRequest
	}
	return e
}

// tooLargeOf is the cap's own error, without go-openai's wrapping.
func tooLargeOf(err error) error {
	var tl *outbound.TooLargeError
	if errors.As(err, &tl) {
		return tl
	}
	return err
}

// parseRetryAfter reads delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
