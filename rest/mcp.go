package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/jsoncheck"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpVariant picks one of the four prebuilt servers: tool sets differ by endpoint (project_id
// in the schemas or not) and by read-only callers (no write tools at all).
type mcpVariant struct {
	workspace bool
	readOnly  bool
}

type mcpVariantKey struct{}

// Version is the server version MCP clients see.
const Version = "1.0.0"

// newMCPHandler builds the servers once and returns the stateless streamable handler.
func (s *server) newMCPHandler() (http.Handler, error) {
	servers, err := s.mcpServers()
	if err != nil {
		return nil, err
	}
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		v, _ := r.Context().Value(mcpVariantKey{}).(mcpVariant)
		return servers[v]
	}, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: s.opts.Logger,
		MaxRequestBodyBytes: MaxBody})
	return h, nil
}

// mcpServers builds one server per variant.
func (s *server) mcpServers() (map[mcpVariant]*mcp.Server, error) {
	servers := map[mcpVariant]*mcp.Server{}
	for _, v := range []mcpVariant{{false, false}, {false, true}, {true, false}, {true, true}} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "lokal", Title: "lokal translation management", Version: Version},
			&mcp.ServerOptions{Instructions: mcpInstructions, SchemaCache: mcpSchemaCache})
		r := &mcpRegistrar{s: s, srv: srv, v: v, capped: map[tools.OpName]*jsonschema.Schema{}, bound: map[tools.OpName]bool{}}
		srv.AddReceivingMiddleware(mcpToolErrors, r.listCaps)
		r.addTools()
		if r.err != nil {
			return nil, r.err
		}
		servers[v] = srv
	}
	return servers, nil
}

const mcpInstructions = `lokal keeps a project's user-facing text translated. Start with list_projects and get_project_status. ` +
	`Register new strings with register_source_strings (they are translated into every enabled language automatically); ` +
	`enable a language first with enable_language. Writes land as needs_review unless status approved is asked for.`

// addTools binds each MCP tool of tools.Operations to its catalogue method, read tools
// first; the tool's name, texts and caps come from the table, and every row with Tool info
// must be bound here (checkBound), none without.
func (r *mcpRegistrar) addTools() {
	c := r.s.cat
	addTool(r, model.OpListProjects, c.ListProjects)
	addTool(r, model.OpGetProjectStatus, c.GetProjectStatus)
	addTool(r, model.OpGetEmbedSnippet, c.GetEmbedSnippet)
	addTool(r, model.OpGetTranslations, c.GetTranslations)
	addTool(r, model.OpGetTranslation, c.GetTranslation)
	addTool(r, model.OpSearchTranslations, c.SearchTranslations)
	addTool(r, model.OpListTerminology, c.ListTerminology)
	addTool(r, model.OpGetCheckupReport, c.GetCheckupReport)

	addTool(r, model.OpEnableLanguage, c.EnableLanguage)
	addTool(r, model.OpRegisterSourceStrings, c.RegisterSourceStrings)
	addTool(r, model.OpUpdateTranslation, c.UpdateTranslation)
	addTool(r, model.OpSetTranslationStatus, c.SetTranslationStatus)
	addTool(r, model.OpAddKey, c.AddKey)
	addTool(r, model.OpAddComment, c.AddComment)
	addTool(r, model.OpFlagTranslation, c.FlagTranslation)
	addTool(r, model.OpAddGlossaryTerm, c.AddGlossaryTerm)
	addTool(r, model.OpImport, c.ImportTranslations)
	addTool(r, model.OpAITranslateKeys, c.AITranslateKeys)
}

// mcpRegistrar adds the tools of one server variant; the first error stops it.
type mcpRegistrar struct {
	s      *server
	srv    *mcp.Server
	v      mcpVariant
	capped map[tools.OpName]*jsonschema.Schema // input schemas stating caps, by tool
	bound  map[tools.OpName]bool               // the rows bound, offered or not
	err    error
}

// checkBound refuses a row with Tool info that addTools left unbound: a tool in the table
// is a tool of the server.
func (r *mcpRegistrar) checkBound() {
	for _, op := range tools.Operations {
		if op.Tool != nil && !r.bound[op.Name] && r.err == nil {
			r.err = fmt.Errorf("the MCP row %s is bound to no catalogue method (rest/mcp.go addTools)", op.Name)
		}
	}
}

// addTool registers fn as the MCP tool name with the SDK's typed handler: the SDK validates
// the arguments against the schema and decodes them into In, once.
func addTool[In, Out any](r *mcpRegistrar, name tools.OpName, fn func(context.Context, In) (Out, error)) {
	if r.err != nil {
		return
	}
	op, ok := tools.Op(name)
	if !ok || op.Tool == nil {
		r.err = fmt.Errorf("MCP tool %s has no MCP row in tools.Operations", name)
		return
	}
	if r.bound[name] {
		r.err = fmt.Errorf("MCP tool %s is bound twice", name)
		return
	}
	r.bound[name] = true
	if r.v.readOnly && !op.ReadOnly {
		return
	}
	sc, err := toolSchemas[In, Out](op, r.v.workspace)
	if err != nil {
		r.err = err
		return
	}
	r.capped[name] = sc.capped
	destructive := false
	tool := &mcp.Tool{Name: string(op.Name), Title: op.Tool.Title, Description: op.Tool.Description, InputSchema: sc.in, OutputSchema: sc.out,
		Annotations: &mcp.ToolAnnotations{Title: op.Tool.Title, ReadOnlyHint: op.ReadOnly, DestructiveHint: &destructive}}
	mcp.AddTool(r.srv, tool, mcpHandler(r.s, op, fn))
}

// The tools' schemas are the same for every server of a process: built once per tool and
// endpoint and resolved once (the SDK's cache, keyed by the schema), not per server.
// Reflecting and resolving them took a fifth of rest's test CPU, four servers per
// rest.New and one rest.New per test server.
var (
	mcpSchemaCache = mcp.NewSchemaCache()
	mcpSchemasMu   sync.Mutex
	mcpSchemas     = map[mcpSchemaKey]*mcpToolSchemas{}
)

type mcpSchemaKey struct {
	tool      tools.OpName
	workspace bool
}

// mcpToolSchemas are one tool's schemas on one endpoint. Shared between servers, they
// are never changed after they are built.
type mcpToolSchemas struct {
	in, capped, out *jsonschema.Schema
}

// toolSchemas builds op's schemas for the endpoint, or returns those built before.
func toolSchemas[In, Out any](op tools.Operation, workspace bool) (*mcpToolSchemas, error) {
	k := mcpSchemaKey{op.Name, workspace}
	mcpSchemasMu.Lock()
	defer mcpSchemasMu.Unlock()
	if sc := mcpSchemas[k]; sc != nil {
		return sc, nil
	}
	in, err := mcpInputSchema[In](op, workspace)
	if err != nil {
		return nil, err
	}
	capped, err := mcpCappedSchema(op, in)
	if err != nil {
		return nil, err
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		return nil, fmt.Errorf("output schema of %s: %w", op.Name, err)
	}
	sc := &mcpToolSchemas{in: in, capped: capped, out: out}
	mcpSchemas[k] = sc
	return sc, nil
}

// mcpInputSchema is In's schema as the endpoint offers it: project_id required on the
// workspace endpoint, absent on the project endpoint.
func mcpInputSchema[In any](op tools.Operation, workspace bool) (*jsonschema.Schema, error) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		return nil, fmt.Errorf("input schema of %s: %w", op.Name, err)
	}
	if in.Properties == nil {
		in.Properties = map[string]*jsonschema.Schema{}
	}
	in.Type, in.Types = "object", nil
	if !workspace {
		delete(in.Properties, "project_id")
	} else if tools.TakesProject[In]() {
		in.Required = append(in.Required, "project_id")
	}
	return in, nil
}

// mcpCappedSchema is the input schema that states the operation's caps, as tools/list shows
// it; nil when the operation has none.
func mcpCappedSchema(op tools.Operation, in *jsonschema.Schema) (*jsonschema.Schema, error) {
	if len(op.Tool.Caps) == 0 {
		return nil, nil
	}
	in = in.CloneSchemas()
	for name, n := range op.Tool.Caps {
		switch p := in.Properties[name]; {
		case p == nil:
			return nil, fmt.Errorf("tool %s caps %s, which its input lacks", op.Name, name)
		case p.Type == "object" || slices.Contains(p.Types, "object"):
			p.MaxProperties = &n
		default:
			p.MaxItems = &n
		}
	}
	return in, nil
}

// listCaps shapes tools/list by the rows: a tool whose row does not admit the caller's
// kind (a grant, a key, a personal token) is not offered, as its gate would refuse it; and
// the capped schemas are shown. The SDK validates arguments against the schema the tool
// was added with, which leaves the caps out: the operation refuses an excess itself, with
// its own code and the cap in the message.
func (r *mcpRegistrar) listCaps(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return res, err
		}
		who := tools.CallerOf(model.PrincipalFrom(ctx))
		out := *list
		out.Tools = make([]*mcp.Tool, 0, len(list.Tools))
		for _, t := range list.Tools {
			if op, ok := tools.Op(tools.OpName(t.Name)); ok && who != 0 && who != tools.Anonymous && op.Auth&who == 0 {
				continue
			}
			if capped := r.capped[tools.OpName(t.Name)]; capped != nil {
				stated := *t
				stated.InputSchema = capped
				t = &stated
			}
			out.Tools = append(out.Tools, t)
		}
		return &out, nil
	}
}

// mcpHandler runs one tool call on the decoded input: the arguments' strict reading and the
// project scope, then the operation, whose gate reads op's row (the MCP door's read budget
// included). Its failures carry
// their code to mcpToolErrors; a success has the output's readable text and, from the SDK,
// the output as structuredContent.
func mcpHandler[In, Out any](s *server, op tools.Operation, fn func(context.Context, In) (Out, error)) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.opts.Logger.Error("panic in MCP tool", "tool", op.Name, "panic", p)
				res, err = nil, toolFailure{model.Errorf(model.CodeInternal, "internal error")}
			}
		}()
		// The SDK's decoding takes duplicate keys and lone surrogates silently.
		if err := jsoncheck.Check(req.Params.Arguments); err != nil {
			return nil, out, toolFailure{model.Errorf(model.CodeInvalid, "arguments: %v", err)}
		}
		if err := tools.BindProject(ctx, &in); err != nil {
			return nil, out, toolFailure{err}
		}
		out, err = fn(ctx, in)
		if err != nil {
			if model.ErrorCode(err) == model.CodeInternal {
				s.opts.Logger.Error("MCP tool failed", "tool", op.Name, "err", err)
			}
			return nil, out, toolFailure{err}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tools.ToolText(out)}}}, out, nil
	}
}

// toolFailure marks an error as the operation's own, so that mcpToolErrors keeps its code.
type toolFailure struct{ err error }

func (f toolFailure) Error() string { return f.err.Error() }
func (f toolFailure) Unwrap() error { return f.err }

// mcpToolErrors gives every failed tool call the spec's error shape, so that agents can read
// the code: an operation's failure keeps its code; any other error the SDK set on the
// result is its refusal of the arguments (schema or decoding), which is invalid.
func mcpToolErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		call, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !call.IsError || call.GetError() == nil {
			return res, err
		}
		var f toolFailure
		if errors.As(call.GetError(), &f) {
			return toolError(f.err), nil
		}
		return toolError(&model.Error{Code: model.CodeInvalid, Message: call.GetError().Error()}), nil
	}
}

// toolError is a domain error as MCP wants it: a result with isError, whose text is the
// spec's error shape so that agents can read the code; rate limits add retry_after seconds.
func toolError(err error) *mcp.CallToolResult {
	body, _ := httpx.Marshal(toolErrorBody{Error: model.ErrorCode(err), Message: model.ErrorMessage(err),
		RetryAfter: tools.RetryAfterSeconds(err)})
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}
}

type toolErrorBody struct {
	Error      string `json:"error"`
	Message    string `json:"message,omitempty"`
	RetryAfter int    `json:"retry_after,omitempty"`
}

// mcpMethodNotAllowed answers GET and DELETE: the endpoints are stateless, with no stream
// to open and no session to end, and clients expect 405 for that.
func mcpMethodNotAllowed(c *gin.Context) {
	c.Header("Allow", "POST")
	c.AbortWithStatusJSON(http.StatusMethodNotAllowed, httpx.ErrorBody{Error: "method_not_allowed", Message: "MCP here is stateless: POST one JSON-RPC message"})
}

// openMCP authorizes the endpoint before the body is read: the workspace endpoint takes
// workspace tokens only, the project endpoint any token of its project.
func (s *server) openMCP(c *gin.Context) {
	ctx, err := s.cat.OpenMCP(c.Request.Context(), c.Param("project_id"))
	if err != nil {
		writeError(c, err)
		return
	}
	c.Request = c.Request.WithContext(ctx)
	c.Next()
}

// serveMCP picks the tool set and hands the request to the go-sdk handler with the headers
// it insists on.
func (s *server) serveMCP(c *gin.Context) {
	ctx := c.Request.Context()
	p := model.PrincipalFrom(ctx)
	_, header := c.Request.Header[http.CanonicalHeaderKey("X-Service-Read-Only")]
	v := mcpVariant{workspace: c.Param("project_id") == "", readOnly: p.ReadOnly || header}
	ctx = context.WithValue(ctx, mcpVariantKey{}, v)
	body := body(c)
	if code, msg, id := checkJSONRPC(body); code != 0 {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"jsonrpc": "2.0", "id": id, "error": gin.H{"code": code, "message": msg}})
		return
	}
	r := c.Request.WithContext(ctx)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	// Spec clients send Accept: application/json only; the handler insists on both.
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		r.Header.Set("Accept", "application/json, text/event-stream")
	}
	r.Header.Set("Content-Type", "application/json")
	rec := &mcpRecorder{header: http.Header{}, status: http.StatusOK}
	s.mcp.ServeHTTP(rec, r)
	rec.flush(c, body)
}

// mcpRecorder holds the go-sdk handler's answer so that its plain-text refusals (an unknown
// method, missing params) can go out as JSON-RPC errors, which is what clients parse.
type mcpRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *mcpRecorder) Header() http.Header         { return r.header }
func (r *mcpRecorder) WriteHeader(status int)      { r.status = status }
func (r *mcpRecorder) Write(b []byte) (int, error) { return r.body.Write(b) }

func (r *mcpRecorder) flush(c *gin.Context, request []byte) {
	if r.status >= 400 && !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(request, &req)
		id := any(nil)
		if len(req.ID) > 0 {
			id = req.ID
		}
		msg := strings.TrimSpace(r.body.String())
		c.AbortWithStatusJSON(r.status, gin.H{"jsonrpc": "2.0", "id": id, "error": gin.H{"code": mcpRefusalCode(request), "message": msg}})
		return
	}
	for k, v := range r.header {
		c.Writer.Header()[k] = v
	}
	c.Writer.WriteHeader(r.status)
	c.Writer.Write(r.body.Bytes())
}

// mcpRefusalCode is the JSON-RPC code of a request the go-sdk handler refused in plain text,
// where it names no code. The code follows from the request, never from the SDK's wording:
// checkJSONRPC has answered missing params and malformed members, so what is left is an id
// that does not fit the method's kind (calls have one, notifications none) or a method the
// server lacks.
func mcpRefusalCode(request []byte) int {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(request, &req)
	hasID := len(req.ID) > 0 && string(req.ID) != "null"
	if hasID == strings.HasPrefix(req.Method, "notifications/") {
		return jsonrpc.CodeInvalidRequest
	}
	return jsonrpc.CodeMethodNotFound
}

// mcpParamsRequired are the MCP methods whose params are required: without them the answer
// is Invalid params, as the go-sdk gives for params it cannot use. The list is go-sdk
// v1.8.0's: check it when upgrading the SDK (a new such method would answer -32601 unseen).
var mcpParamsRequired = map[string]bool{
	"initialize": true, "tools/call": true, "prompts/get": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "completion/complete": true,
	"logging/setLevel": true, "subscriptions/listen": true, "notifications/progress": true,
}

// checkJSONRPC answers the JSON-RPC error for a body that is not one request object, with
// the request's id once it is known to be one (else null, as JSON-RPC wants).
func checkJSONRPC(body []byte) (code int, message string, id any) {
	if !json.Valid(body) {
		return jsonrpc.CodeParseError, "Parse error: the body is not valid JSON", nil
	}
	// Tool arguments are left to the tool, which answers a tool error the agent can read;
	// the rest of the message must be strict here.
	if err := jsoncheck.CheckOutside(body, "/params/arguments"); err != nil {
		return jsonrpc.CodeInvalidRequest, "Invalid Request: " + err.Error(), nil
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return jsonrpc.CodeInvalidRequest, "Invalid Request: send one JSON-RPC 2.0 request object per POST", nil
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || msg.JSONRPC != "2.0" {
		return jsonrpc.CodeInvalidRequest, `Invalid Request: jsonrpc must be "2.0"`, nil
	}
	var method string
	if len(msg.Method) == 0 || json.Unmarshal(msg.Method, &method) != nil {
		return jsonrpc.CodeInvalidRequest, "Invalid Request: method must be a string", nil
	}
	if id := bytes.TrimSpace(msg.ID); len(id) > 0 && id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9') && string(id) != "null" {
		return jsonrpc.CodeInvalidRequest, "Invalid Request: id must be a string or a number", nil
	}
	if p := bytes.TrimSpace(msg.Params); mcpParamsRequired[method] && (len(p) == 0 || string(p) == "null") {
		return jsonrpc.CodeInvalidParams, "Invalid params: " + method + " requires params", msg.ID
	}
	return 0, "", nil
}
