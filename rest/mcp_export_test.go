package rest

import (
	"context"

	"github.com/lokal-dev/lokal/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPTools lists, through an in-memory client, the tools the MCP server offers on the
// workspace endpoint (or the project endpoint) to a read/write (or read-only) caller.
func MCPTools(ctx context.Context, cat *tools.Catalog, workspace, readOnly bool) ([]*mcp.Tool, error) {
	s, _ := newRouter(cat, nil)
	servers, err := s.mcpServers()
	if err != nil {
		return nil, err
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := servers[mcpVariant{workspace: workspace, readOnly: readOnly}].Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "export-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	return res.Tools, nil
}
