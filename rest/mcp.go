package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/jsoncheck"
	"github.com/lokal-dev/lokal/tools/model"
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
	servers := map[mcpVariant]*mcp.Server{}
	for _, v := range []mcpVariant{{false, false}, {false, true}, {true, false}, {true, true}} {
		srv := mcp.NewServer(&mcp.Implementation{Name: "lokal", Title: "lokal translation management", Version: Version},
			&mcp.ServerOptions{Instructions: mcpInstructions})
		for _, t := range s.cat.Tools() {
			if v.readOnly && !t.ReadOnly {
				continue
			}
			tool, handler, err := s.mcpTool(t, v)
			if err != nil {
				return nil, err
			}
			srv.AddTool(tool, handler)
		}
		servers[v] = srv
	}
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		v, _ := r.Context().Value(mcpVariantKey{}).(mcpVariant)
		return servers[v]
	}, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: s.opts.Logger,
		MaxRequestBodyBytes: MaxBody})
	return h, nil
}

const mcpInstructions = `lokal keeps a project's user-facing text translated. Start with list_projects and get_project_status. ` +
	`Register new strings with register_source_strings (they are translated into every enabled language automatically); ` +
	`enable a language first with enable_language. Writes land as needs_review unless status approved is asked for.`

// mcpTool turns a catalogue tool into an MCP tool with the input schema of variant v.
func (s *server) mcpTool(t tools.Tool, v mcpVariant) (*mcp.Tool, mcp.ToolHandler, error) {
	in, err := jsonschema.ForType(t.In, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("input schema of %s: %w", t.Name, err)
	}
	if in.Properties == nil {
		in.Properties = map[string]*jsonschema.Schema{}
	}
	in.Type, in.Types = "object", nil
	if t.TakesProject {
		if v.workspace {
			in.Required = append(in.Required, "project_id")
		} else {
			delete(in.Properties, "project_id")
		}
	} else if !v.workspace {
		delete(in.Properties, "project_id")
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		return nil, nil, fmt.Errorf("resolving input schema of %s: %w", t.Name, err)
	}
	if len(t.Caps) > 0 {
		// The schema tells clients the caps; the operation enforces them, with its own error.
		in = in.CloneSchemas()
		for name, n := range t.Caps {
			switch p := in.Properties[name]; {
			case p == nil:
				return nil, nil, fmt.Errorf("tool %s caps %s, which its input lacks", t.Name, name)
			case p.Type == "object" || slices.Contains(p.Types, "object"):
				p.MaxProperties = &n
			default:
				p.MaxItems = &n
			}
		}
	}
	out, err := jsonschema.ForType(t.Out, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("output schema of %s: %w", t.Name, err)
	}
	destructive := false
	tool := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: in, OutputSchema: out,
		Annotations: &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: t.ReadOnly, DestructiveHint: &destructive}}
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.opts.Logger.Error("panic in MCP tool", "tool", t.Name, "panic", p)
				res, err = toolError(model.Errorf(model.CodeInternal, "internal error")), nil
			}
		}()
		args := req.Params.Arguments
		if err := jsoncheck.Check(args); err != nil {
			return toolError(model.Errorf(model.CodeInvalid, "arguments: %v", err)), nil
		}
		var m map[string]any
		if len(bytes.TrimSpace(args)) > 0 {
			if err := json.Unmarshal(args, &m); err != nil {
				return toolError(model.Errorf(model.CodeInvalid, "arguments must be a JSON object")), nil
			}
		}
		if m == nil {
			m = map[string]any{}
		}
		if err := resolved.Validate(m); err != nil {
			return toolError(model.Errorf(model.CodeInvalid, "arguments: %v", err)), nil
		}
		result, err := t.Call(ctx, args)
		if err != nil {
			if model.ErrorCode(err) == model.CodeInternal {
				s.opts.Logger.Error("MCP tool failed", "tool", t.Name, "err", err)
			}
			return toolError(err), nil
		}
		raw, err := httpx.Marshal(result)
		if err != nil {
			return toolError(err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: tools.ToolText(result)}},
			StructuredContent: json.RawMessage(raw)}, nil
	}
	return tool, handler, nil
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
	if code, msg := checkJSONRPC(body); code != 0 {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"jsonrpc": "2.0", "id": nil, "error": gin.H{"code": code, "message": msg}})
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
		msg := strings.TrimSpace(r.body.String())
		code := -32600 // Invalid Request
		switch {
		case strings.Contains(msg, "not handled") || strings.Contains(msg, "unsupported"):
			code = -32601 // Method not found
		case strings.Contains(msg, "params"):
			code = -32602 // Invalid params
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(request, &req)
		id := any(nil)
		if len(req.ID) > 0 {
			id = req.ID
		}
		c.AbortWithStatusJSON(r.status, gin.H{"jsonrpc": "2.0", "id": id, "error": gin.H{"code": code, "message": msg}})
		return
	}
	for k, v := range r.header {
		c.Writer.Header()[k] = v
	}
	c.Writer.WriteHeader(r.status)
	c.Writer.Write(r.body.Bytes())
}

// checkJSONRPC answers the JSON-RPC error for a body that is not one request object.
func checkJSONRPC(body []byte) (int, string) {
	if !json.Valid(body) {
		return -32700, "Parse error: the body is not valid JSON"
	}
	// Tool arguments are left to the tool, which answers a tool error the agent can read;
	// the rest of the message must be strict here.
	if err := jsoncheck.CheckOutside(body, "/params/arguments"); err != nil {
		return -32600, "Invalid Request: " + err.Error()
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return -32600, "Invalid Request: send one JSON-RPC 2.0 request object per POST"
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  json.RawMessage `json:"method"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || msg.JSONRPC != "2.0" {
		return -32600, `Invalid Request: jsonrpc must be "2.0"`
	}
	var method string
	if len(msg.Method) > 0 && json.Unmarshal(msg.Method, &method) != nil {
		return -32600, "Invalid Request: method must be a string"
	}
	return 0, ""
}
