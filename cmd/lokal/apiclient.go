package main

// The HTTP client of push and pull: they reach a lokal server only through its API, with
// a project key or personal token, never through a database.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// requestTimeout bounds one request: the server gives a request 25 s.
const requestTimeout = 60 * time.Second

// maxAnswer bounds what is read of an answer: an export of a namespace, under the 5 MB
// import cap with room for markup.
const maxAnswer = 64 << 20

type apiClient struct {
	base    string // server URL without a trailing slash
	project string
	key     string
	http    *http.Client
	agent   string
}

// apiKey is the key from --key-stdin or LOKAL_API_KEY; never from argv.
func apiKey(c *call) (string, error) {
	if c.in.boolean("key-stdin") {
		k, err := readStdinSecret("--key-stdin")
		if err != nil && strings.Contains(err.Error(), "stdin is empty") {
			return "", errors.New("--key-stdin: stdin is empty; pipe the key in, such as: printenv LOKAL_KEY | lokal pull --key-stdin")
		}
		return k, err
	}
	if k := strings.TrimSpace(os.Getenv("LOKAL_API_KEY")); k != "" {
		return k, nil
	}
	return "", errors.New("no API key: set LOKAL_API_KEY or pipe the key in with --key-stdin (a read/write project key or personal token; pull also takes a read-only key)")
}

// openRepo reads lokal.yaml and the key: what push and pull start from.
func openRepo(c *call) (*repoConfig, *apiClient, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	file, err := findConfig(c.in.str("config"), wd)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := loadConfig(file)
	if err != nil {
		return nil, nil, err
	}
	key, err := apiKey(c)
	if err != nil {
		return nil, nil, err
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = pullParallel
	return cfg, &apiClient{base: strings.TrimRight(cfg.Server, "/"), project: cfg.Project, key: key,
		http: &http.Client{Transport: transport}, agent: "lokal-cli/" + buildVersion().Version}, nil
}

// apiError is a server's refusal: its status and the body's error and message.
type apiError struct {
	Method, Path string
	Status       int
	Code, Msg    string
	retryAfter   time.Duration // from Retry-After on 429 and 503
}

func (e *apiError) Error() string {
	s := fmt.Sprintf("%s %s: the server answered %d", e.Method, e.Path, e.Status)
	if e.Code != "" {
		s += " " + e.Code
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// response is an answer the caller reads.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// do sends one request; a status outside ok is an *apiError.
func (a *apiClient) do(ctx context.Context, method, path string, query url.Values, hdr map[string]string, body []byte, ok ...int) (*response, error) {
	waited := time.Duration(0)
	for {
		res, err := a.send(ctx, method, path, query, hdr, body, ok...)
		// A server over a budget (429) or its bytes in flight (503) says when to come back:
		// a CI run waits rather than fails, up to a bound.
		var e *apiError
		if !errors.As(err, &e) || e.retryAfter <= 0 || waited+e.retryAfter > maxRetryWait {
			return res, err
		}
		t := time.NewTimer(e.retryAfter)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
		waited += e.retryAfter
	}
}

// maxRetryWait bounds the time one request waits for Retry-After in all.
const maxRetryWait = 2 * time.Minute

func (a *apiClient) send(ctx context.Context, method, path string, query url.Values, hdr map[string]string, body []byte, ok ...int) (*response, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	u := a.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+a.key)
	req.Header.Set("User-Agent", a.agent)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := a.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is in the message already
		}
		return nil, fmt.Errorf("%s %s: %w", method, u, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, u, err)
	}
	if len(data) > maxAnswer {
		return nil, fmt.Errorf("%s %s: the answer is larger than %d bytes", method, u, maxAnswer)
	}
	for _, s := range ok {
		if res.StatusCode == s {
			return &response{Status: res.StatusCode, Header: res.Header, Body: data}, nil
		}
	}
	e := &apiError{Method: method, Path: path, Status: res.StatusCode}
	if res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable {
		if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && secs > 0 {
			e.retryAfter = time.Duration(secs) * time.Second
		}
	}
	var shape struct {
		Error   any    `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(data, &shape) == nil {
		if s, ok := shape.Error.(string); ok {
			e.Code = s
		}
		e.Msg = shape.Message
	}
	if e.Code == "" && e.Msg == "" {
		e.Msg = strings.TrimSpace(string(data))
		if len(e.Msg) > 200 {
			e.Msg = e.Msg[:200] + "…"
		}
	}
	if res.StatusCode == http.StatusUnauthorized {
		e.Msg = strings.TrimSuffix(e.Msg, ".") + " (check the key: it must be one of project " + a.project + ")"
	}
	return nil, e
}

// projectInfo is what push and pull need of the project.
type projectInfo struct {
	SourceLanguage   string   `json:"source_language"`
	EnabledLanguages []string `json:"enabled_languages"`
	Namespaces       []string `json:"namespaces"`
}

// languages is the source language and the enabled ones, source first.
func (p projectInfo) languages() []string {
	out := []string{p.SourceLanguage}
	for _, l := range p.EnabledLanguages {
		if l != p.SourceLanguage {
			out = append(out, l)
		}
	}
	return out
}

// projectInfo asks the project endpoint of MCP for get_project_status: the one API that
// any token of the project (read-only keys too) may use to learn the source language,
// the enabled languages and the namespaces.
func (a *apiClient) projectInfo(ctx context.Context) (projectInfo, error) {
	var p projectInfo
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_project_status","arguments":{}}}`)
	res, err := a.do(ctx, http.MethodPost, "/api/"+url.PathEscape(a.project)+"/mcp", nil,
		map[string]string{"Content-Type": "application/json", "Accept": "application/json"}, body, http.StatusOK)
	if err != nil {
		return p, fmt.Errorf("reading the project: %w", err)
	}
	var rpc struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Result *struct {
			IsError           bool                    `json:"isError"`
			Content           []struct{ Text string } `json:"content"`
			StructuredContent *projectInfo            `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(res.Body, &rpc); err != nil {
		return p, fmt.Errorf("reading the project: the server's answer is not JSON-RPC: %w", err)
	}
	switch {
	case rpc.Error != nil:
		return p, fmt.Errorf("reading the project: %s", rpc.Error.Message)
	case rpc.Result == nil:
		return p, errors.New("reading the project: the server answered no result")
	case rpc.Result.IsError:
		var msg []string
		for _, c := range rpc.Result.Content {
			msg = append(msg, c.Text)
		}
		return p, fmt.Errorf("reading the project: %s", strings.Join(msg, " "))
	case rpc.Result.StructuredContent == nil || rpc.Result.StructuredContent.SourceLanguage == "":
		return p, errors.New("reading the project: the server's project status has no source language")
	}
	return *rpc.Result.StructuredContent, nil
}

// namespacePath is the part of an endpoint's path after the project.
func namespacePath(language, namespace string) string {
	return "/latest/" + url.PathEscape(language) + "/" + url.PathEscape(namespace)
}
