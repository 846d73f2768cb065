package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/lokal-dev/lokal/tools/model"
)

// Texter is implemented by outputs with a better readable form than their JSON.
type Texter interface{ Text() string }

// ProjectArg is embedded in the input of every tool that acts on one project.
type ProjectArg struct {
	ProjectID string `json:"project_id,omitempty" jsonschema:"id of the project to act on, as list_projects returns it"`
}

func (a *ProjectArg) projectArg() *ProjectArg { return a }

type projectArger interface{ projectArg() *ProjectArg }

type scopeKey struct{}

// WithProjectScope fixes the project of every tool call in ctx: the project MCP endpoint
// names it in its URL, so tools take no project_id there.
func WithProjectScope(ctx context.Context, projectID string) context.Context {
	return context.WithValue(ctx, scopeKey{}, projectID)
}

// ProjectScope returns the project fixed by WithProjectScope, or "".
func ProjectScope(ctx context.Context) string {
	s, _ := ctx.Value(scopeKey{}).(string)
	return s
}

// TakesProject reports whether the input type In acts on one project: its project_id is
// required on the workspace MCP endpoint and absent on the project endpoint.
func TakesProject[In any]() bool {
	var zero In
	_, ok := any(&zero).(projectArger)
	return ok
}

// BindProject gives a project tool's input its project: the endpoint's scope where the URL
// fixes it (project_id then must be absent or the same), else the project_id the caller
// named, which must not be empty.
func BindProject[In any](ctx context.Context, in *In) error {
	pa, ok := any(in).(projectArger)
	if !ok {
		return nil
	}
	arg := pa.projectArg()
	if scope := ProjectScope(ctx); scope != "" {
		if arg.ProjectID != "" && arg.ProjectID != scope {
			return model.Errorf(model.CodeInvalid, "this endpoint is fixed to project %s; omit project_id", scope)
		}
		arg.ProjectID = scope
	} else if arg.ProjectID == "" {
		return model.Errorf(model.CodeInvalid, "project_id is required; list_projects gives the ids")
	}
	return nil
}

// ToolText is the readable text form of a tool's output: its Text, or indented JSON.
func ToolText(out any) string {
	if t, ok := out.(Texter); ok {
		return t.Text()
	}
	b, err := encodeJSON(out, true)
	if err != nil {
		return fmt.Sprint(out)
	}
	return string(b)
}

// encodeJSON renders v without HTML escaping: values carry markup that readers take
// verbatim.
func encodeJSON(v any, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
