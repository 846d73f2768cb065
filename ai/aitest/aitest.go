// Package aitest is an OpenAI-compatible chat completions server for tests:
// an httptest server on loopback that speaks lokal's model wire format and
// answers what a test scripts, including misbehaviour (429, 5xx, 401, slow
// answers, non-JSON, broken tokens).
package aitest

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Call is one request the server received.
type Call struct {
	N              int // 1-based order of arrival
	Model          string
	System         string // the system message
	SourceLanguage string
	TargetLanguage string
	Strings        map[string]string // the last user message's "strings"
	ResponseFormat string
	Authorization  string
}

// Reply is what the server answers to one call.
type Reply struct {
	Status           int         // default 200
	Header           http.Header // e.g. Retry-After
	Content          string      // the message content of a 200 completion
	Body             string      // a raw body instead of a completion envelope
	PromptTokens     int
	CompletionTokens int
	Hang             bool          // never answer; wait until the client gives up
	Delay            time.Duration // answer after this long (a model's latency, for benchmarks)
}

// Responder decides the reply to a call.
type Responder func(Call) Reply

// Server is the double. URL is the /v1 base to configure a provider with.
type Server struct {
	URL   string
	mu    sync.Mutex
	calls []Call
	done  chan struct{}
}

// New starts a server answering with r; it stops when the test ends.
func New(tb testing.TB, r Responder) *Server {
	tb.Helper()
	s := &Server{done: make(chan struct{})}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || req.URL.Path != "/v1/chat/completions" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		c, err := decode(req)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":{"message":%q}}`, err.Error())
			return
		}
		s.mu.Lock()
		c.N = len(s.calls) + 1
		s.calls = append(s.calls, c)
		s.mu.Unlock()
		rep := r(c)
		if rep.Delay > 0 {
			select {
			case <-time.After(rep.Delay):
			case <-req.Context().Done():
				return
			case <-s.done:
				return
			}
		}
		if rep.Hang {
			select {
			case <-req.Context().Done():
			case <-s.done:
			}
			return
		}
		maps.Copy(w.Header(), rep.Header)
		w.Header().Set("Content-Type", "application/json")
		if rep.Status == 0 {
			rep.Status = http.StatusOK
		}
		w.WriteHeader(rep.Status)
		if rep.Body != "" || rep.Status != http.StatusOK {
			body := rep.Body
			if body == "" {
				body = fmt.Sprintf(`{"error":{"message":"scripted %d","type":"test"}}`, rep.Status)
			}
			io.WriteString(w, body)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{
			"id":      fmt.Sprintf("chatcmpl-%d", c.N),
			"object":  "chat.completion",
			"model":   c.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": rep.Content}}},
			"usage":   map[string]int{"prompt_tokens": rep.PromptTokens, "completion_tokens": rep.CompletionTokens, "total_tokens": rep.PromptTokens + rep.CompletionTokens},
		})
	}))
	s.URL = hs.URL + "/v1"
	tb.Cleanup(func() {
		close(s.done)
		hs.Close()
	})
	return s
}

func decode(req *http.Request) (Call, error) {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		ResponseFormat struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		return Call{}, fmt.Errorf("decoding the request: %w", err)
	}
	c := Call{Model: body.Model, ResponseFormat: body.ResponseFormat.Type, Authorization: req.Header.Get("Authorization")}
	var user string
	for _, m := range body.Messages {
		switch m.Role {
		case "system":
			c.System = m.Content
		case "user":
			user = m.Content
		}
	}
	var in struct {
		SourceLanguage string            `json:"source_language"`
		TargetLanguage string            `json:"target_language"`
		Strings        map[string]string `json:"strings"`
	}
	if err := json.Unmarshal([]byte(user), &in); err != nil {
		return Call{}, fmt.Errorf("the last user message is not the JSON object of the wire format: %w", err)
	}
	c.SourceLanguage, c.TargetLanguage, c.Strings = in.SourceLanguage, in.TargetLanguage, in.Strings
	return c, nil
}

// Calls returns the calls received so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Content renders a wire-format answer: {"strings": m}.
func Content(m map[string]string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(map[string]any{"strings": m})
	return strings.TrimSpace(b.String())
}

// Echo answers every id with f applied to its masked text.
func Echo(f func(id, masked string) string) Responder {
	return func(c Call) Reply {
		out := make(map[string]string, len(c.Strings))
		for id, s := range c.Strings {
			out[id] = f(id, s)
		}
		return Reply{Content: Content(out), PromptTokens: 10 * len(c.Strings), CompletionTokens: 8 * len(c.Strings)}
	}
}

// Sequence answers the n-th call with rs[n-1], and later calls with the
// last responder.
func Sequence(rs ...Responder) Responder {
	return func(c Call) Reply {
		return rs[min(c.N, len(rs))-1](c)
	}
}

// Fixed always answers r.
func Fixed(r Reply) Responder { return func(Call) Reply { return r } }
