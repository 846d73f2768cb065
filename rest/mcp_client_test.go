package rest_test

// Helpers of the MCP tests (issue 3): a real go-sdk client session against the server of
// testserver_test.go, tool calls that decode structuredContent or want a tool error, and
// plain JSON-RPC POSTs for the spec's "Accept: application/json only" clients.
//
// Every identifier here starts with "mcp": other test files of this package are written
// alongside.

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The spec's tool names, in the catalogue's order.
var (
	mcpReadTools = []string{"list_projects", "get_project_status", "get_embed_snippet", "get_translations",
		"get_translation", "search_translations", "list_terminology", "get_checkup_report"}
	mcpWriteTools = []string{"enable_language", "register_source_strings", "update_translation",
		"set_translation_status", "add_key", "add_comment", "flag_translation", "add_glossary_term", "import_translations", "ai_translate_keys"}
	mcpAllTools = append(append([]string{}, mcpReadTools...), mcpWriteTools...)
)

// mcpProtocolInitialize is a protocol version that connects with the classic initialize
// handshake (what the TypeScript SDK does); the go-sdk's own default tries server/discover
// first.
const mcpProtocolInitialize = "2025-11-25"

// mcpHeaderTransport sets headers on every request the MCP client sends.
type mcpHeaderTransport struct {
	base   http.RoundTripper
	header http.Header
}

func (h *mcpHeaderTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header[k] = v
	}
	return h.base.RoundTrip(r)
}

// mcpOpts shape a connection: extra headers (X-Service-Read-Only) and the protocol version
// ("" for mcpProtocolInitialize).
type mcpOpts struct {
	header   map[string]string
	protocol string
}

// mcpSession is a connected go-sdk client session and the server it talks to.
type mcpSession struct {
	s  *server
	cs *mcp.ClientSession
}

// mcpDial connects the go-sdk client to path (a server path such as /api/mcp) with the
// Authorization header auth; it returns the error of Connect.
func (s *server) mcpDial(t *testing.T, path, auth string, o mcpOpts) (*mcpSession, error) {
	t.Helper()
	h := http.Header{}
	if auth != "" {
		h.Set("Authorization", auth)
	}
	for k, v := range o.header {
		h[http.CanonicalHeaderKey(k)] = []string{v}
	}
	hc := &http.Client{Transport: &mcpHeaderTransport{base: s.client.Transport, header: h}}
	client := mcp.NewClient(&mcp.Implementation{Name: "lokal-test", Version: "1.0.0"}, nil)
	protocol := o.protocol
	if protocol == "" {
		protocol = mcpProtocolInitialize
	}
	if protocol == "latest" {
		protocol = ""
	}
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: s.http.URL + path, HTTPClient: hc, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { cs.Close() })
	return &mcpSession{s: s, cs: cs}, nil
}

// mcpConnect is mcpDial that must succeed.
func (s *server) mcpConnect(t *testing.T, path, auth string, o mcpOpts) *mcpSession {
	t.Helper()
	m, err := s.mcpDial(t, path, auth, o)
	if err != nil {
		t.Fatalf("connecting the MCP client to %s: %v", path, err)
	}
	return m
}

// mcpProject connects to the main project's endpoint with auth.
func (s *server) mcpProject(t *testing.T, auth string) *mcpSession {
	t.Helper()
	return s.mcpConnect(t, "/api/"+s.proj.ID+"/mcp", auth, mcpOpts{})
}

// mcpWorkspace connects to the workspace endpoint with the workspace token.
func (s *server) mcpWorkspace(t *testing.T) *mcpSession {
	t.Helper()
	return s.mcpConnect(t, "/api/mcp", bearerAuth(s.wsToken), mcpOpts{})
}

// tools lists the tools offered, by name.
func (m *mcpSession) tools(t *testing.T) map[string]*mcp.Tool {
	t.Helper()
	res, err := m.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		if _, dup := out[tool.Name]; dup {
			t.Errorf("tool %s is listed twice", tool.Name)
		}
		out[tool.Name] = tool
	}
	return out
}

// call runs a tool; a JSON-RPC (protocol) error fails the test.
func (m *mcpSession) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := m.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: protocol error %v", name, err)
	}
	return res
}

// mcpText is the concatenated text content of a result.
func mcpText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// mcpOK runs a tool that must succeed and decodes its structuredContent into T. It also
// checks that the result has a readable text form.
func mcpOK[T any](t *testing.T, m *mcpSession, name string, args any) T {
	t.Helper()
	var out T
	res := m.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", name, mcpArgs(args), mcpText(res))
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s: no structuredContent; text %q", name, mcpText(res))
	}
	if strings.TrimSpace(mcpText(res)) == "" {
		t.Errorf("%s: no text content", name)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatalf("%s: re-encoding structuredContent: %v", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("%s: structuredContent is not the shape expected (%v): %s", name, err, truncated(data))
	}
	return out
}

// mcpToolError is the text of an error result: the spec's error shape.
type mcpToolError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// mcpErr runs a tool that must answer a tool error (isError) with code ("" = any code),
// and returns the error.
func mcpErr(t *testing.T, m *mcpSession, name string, args any, code string) mcpToolError {
	t.Helper()
	res := m.call(t, name, args)
	return mcpWantError(t, name, res, code)
}

func mcpWantError(t *testing.T, name string, res *mcp.CallToolResult, code string) mcpToolError {
	t.Helper()
	text := mcpText(res)
	if !res.IsError {
		t.Fatalf("%s succeeded, want a tool error %q; text: %s", name, code, truncated([]byte(text)))
	}
	var e mcpToolError
	if err := json.Unmarshal([]byte(text), &e); err != nil {
		t.Fatalf("%s: error text is not {\"error\",\"message\"} (%v): %s", name, err, text)
	}
	if e.Error == "" {
		t.Fatalf("%s: error text has no code: %s", name, text)
	}
	if code != "" && e.Error != code {
		t.Errorf("%s: error %q (%s), want %q", name, e.Error, e.Message, code)
	}
	return e
}

func mcpArgs(args any) string {
	b, _ := json.Marshal(args)
	return truncated(b)
}

// mcpNames returns the sorted names of a tool map.
func mcpNames(m map[string]*mcp.Tool) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func mcpSorted(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	return out
}

// mcpSchema is the part of an input schema the tests look at.
type mcpSchema struct {
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

func mcpInputSchema(t *testing.T, tool *mcp.Tool) mcpSchema {
	t.Helper()
	data, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatalf("encoding the input schema of %s: %v", tool.Name, err)
	}
	var s mcpSchema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("input schema of %s (%v): %s", tool.Name, err, data)
	}
	return s
}

// --- structured outputs, as a client reads them ---

type mcpProjectSummary struct {
	ID               string   `json:"id"`
	Title            string   `json:"title"`
	SourceLanguage   string   `json:"source_language"`
	EnabledLanguages []string `json:"enabled_languages"`
	Namespaces       []string `json:"namespaces"`
}

type mcpProjects struct {
	Projects []mcpProjectSummary `json:"projects"`
}

type mcpLanguageStats struct {
	Language   string `json:"language"`
	Total      int    `json:"total"`
	Translated int    `json:"translated"`
	Missing    int    `json:"missing"`
	Drifted    int    `json:"source_drifted"`
}

type mcpStatus struct {
	ProjectID        string             `json:"project_id"`
	Title            string             `json:"title"`
	SourceLanguage   string             `json:"source_language"`
	EnabledLanguages []string           `json:"enabled_languages"`
	Namespaces       []string           `json:"namespaces"`
	Languages        []mcpLanguageStats `json:"languages"`
}

func (st mcpStatus) lang(t *testing.T, code string) mcpLanguageStats {
	t.Helper()
	for _, l := range st.Languages {
		if l.Language == code {
			return l
		}
	}
	t.Fatalf("get_project_status has no counts for %s: %+v", code, st.Languages)
	return mcpLanguageStats{}
}

type mcpFile struct {
	Language     string `json:"language"`
	Format       string `json:"format"`
	NamespaceKey string `json:"namespace_key"`
	Count        int    `json:"count"`
	ContentType  string `json:"content_type"`
	Content      string `json:"content"`
}

type mcpComment struct {
	ID       int64  `json:"id"`
	Language string `json:"language"`
	Body     string `json:"body"`
	Author   string `json:"author"`
}

type mcpRowView struct {
	Language       string       `json:"language"`
	Value          string       `json:"value"`
	Status         string       `json:"status"`
	DoNotTranslate bool         `json:"do_not_translate"`
	LanguageLocked bool         `json:"language_locked"`
	Stale          bool         `json:"stale"`
	UpdatedBy      string       `json:"updated_by"`
	Comments       []mcpComment `json:"comments"`
}

type mcpKeyView struct {
	NamespaceKey   string       `json:"namespace_key"`
	TranslationKey string       `json:"translation_key"`
	SourceLanguage string       `json:"source_language"`
	Translations   []mcpRowView `json:"translations"`
}

// in returns the row of lang; ok is false when the key has none.
func (k mcpKeyView) in(lang string) (mcpRowView, bool) {
	for _, r := range k.Translations {
		if r.Language == lang {
			return r, true
		}
	}
	return mcpRowView{}, false
}

type mcpSearchRow struct {
	NamespaceKey   string `json:"namespace_key"`
	TranslationKey string `json:"translation_key"`
	Language       string `json:"language"`
	Value          string `json:"value"`
	Status         string `json:"status"`
}

type mcpSearch struct {
	Rows       []mcpSearchRow `json:"rows"`
	NextOffset *string        `json:"next_offset"`
}

type mcpGlossary struct {
	SourceTerm string `json:"source_term"`
	TargetTerm string `json:"target_term"`
	Locale     string `json:"locale"`
}

type mcpTerminology struct {
	Glossary       []mcpGlossary     `json:"glossary"`
	DoNotTranslate []string          `json:"do_not_translate"`
	Substitutions  []json.RawMessage `json:"substitutions"`
}

type mcpFinding struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Language  string `json:"language"`
}

type mcpReport struct {
	ID          string       `json:"id"`
	ProjectID   string       `json:"project_id"`
	Status      string       `json:"status"`
	CompletedAt *string      `json:"completed_at"`
	Findings    []mcpFinding `json:"findings"`
	Summary     struct {
		Total  int            `json:"total"`
		ByKind map[string]int `json:"by_kind"`
	} `json:"summary"`
}

type mcpRow struct {
	NamespaceKey   string `json:"namespace_key"`
	TranslationKey string `json:"translation_key"`
	Language       string `json:"language"`
	Value          string `json:"value"`
	Status         string `json:"status"`
	DoNotTranslate bool   `json:"do_not_translate"`
	LanguageLocked bool   `json:"language_locked"`
	UpdatedBy      string `json:"updated_by"`
}

// getKey reads one key across languages through get_translation.
func (m *mcpSession) getKey(t *testing.T, ns, key string) mcpKeyView {
	t.Helper()
	return mcpOK[mcpKeyView](t, m, "get_translation", map[string]any{"namespace_key": ns, "translation_key": key})
}

// status reads get_project_status.
func (m *mcpSession) status(t *testing.T) mcpStatus {
	t.Helper()
	return mcpOK[mcpStatus](t, m, "get_project_status", nil)
}

// mcpActorOfKey is how the history names an API key's writes: key:<token id>.
func (s *server) mcpActorOfKey(t *testing.T, key string) string {
	t.Helper()
	p, err := s.cat.Authenticate(t.Context(), key)
	if err != nil {
		t.Fatalf("authenticating a fixture key: %v", err)
	}
	return p.Actor()
}

// mcpActorOfUser is how the history names a personal token's writes: user:<id>.
func (s *server) mcpActorOfUser() string { return "user:" + s.user.ID }

// --- plain JSON-RPC over HTTP ---

// mcpRPC is a JSON-RPC answer.
type mcpRPC struct {
	status int
	header http.Header
	body   []byte

	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// mcpPost POSTs body (a string sent as is, or a value sent as JSON) to path as the spec's
// plain clients do: Accept: application/json only, Content-Type: application/json.
func (s *server) mcpPost(t *testing.T, path, auth string, header map[string]string, body any) *mcpRPC {
	t.Helper()
	h := map[string]string{"Accept": "application/json", "Content-Type": "application/json"}
	for k, v := range header {
		h[k] = v
	}
	r := s.do(t, request{Method: "POST", Path: path, Auth: auth, Header: h, Body: body})
	out := &mcpRPC{status: r.status, header: r.header, body: r.body}
	var probe map[string]json.RawMessage
	if json.Unmarshal(r.body, &probe) == nil && probe["jsonrpc"] != nil || r.status == http.StatusOK {
		if err := json.Unmarshal(r.body, out); err != nil {
			t.Fatalf("POST %s: answer is not JSON-RPC (%v): %s", path, err, truncated(r.body))
		}
	}
	return out
}

// mcpRequest is a JSON-RPC request body.
func mcpRequest(id int, method string, params any) map[string]any {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	return m
}

// mcpCallResult is a tools/call result as JSON.
type mcpCallResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// result decodes the JSON-RPC result into v, failing on a JSON-RPC error.
func (r *mcpRPC) result(t *testing.T, v any) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, want 200; body: %s", r.status, truncated(r.body))
	}
	if r.Error != nil {
		t.Fatalf("JSON-RPC error %d %s", r.Error.Code, r.Error.Message)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("result is not the shape expected (%v): %s", err, truncated(r.Result))
	}
}

// mcpSeed syncs source strings into ns and, for each language in translations, overwrites
// its values (approved), through the REST API with the read/write key.
func (s *server) mcpSeed(t *testing.T, ns string, source map[string]string, translations map[string]map[string]string) {
	t.Helper()
	s.call(t, "PUT", s.syncPath("en", ns), tokenAuth(s.rw), map[string]any{"translations": source, "partial": true}).
		wantStatus(t, http.StatusOK)
	for lang, values := range translations {
		var out overwriteOut
		s.call(t, "PUT", s.overwritePath(lang, ns), tokenAuth(s.rw), values).wantStatus(t, http.StatusOK).decode(t, &out)
		if len(out.NotFound) > 0 {
			t.Fatalf("seeding %s/%s: keys not found %v", lang, ns, out.NotFound)
		}
	}
}

func mcpCallParams(name string, args any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: name, Arguments: args}
}
