package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// WorkspaceView is a workspace with its Embed settings, as `lokal workspace set` prints it.
// HostLimit is null when unlimited; Embed is "on" or "off" (the emergency switch).
type WorkspaceView struct {
	model.Workspace
	AuthorizedHosts []string `json:"authorized_hosts"`
	HostLimit       *int     `json:"host_limit"`
	Embed           string   `json:"embed"`
}

// SetWorkspaceIn changes a workspace's Embed settings; nil fields stay as they are. A host
// limit of 0 means unlimited.
type SetWorkspaceIn struct {
	AuthorizedHosts *[]string
	HostLimit       *int
	Embed           *bool
}

// SetWorkspace changes a workspace's Embed settings and returns them. Turning the Embed
// off or on reaches every project of the workspace at once: their public state is cached
// per project revision, so the switch is reported as a change of each (the cache hook
// moves their revisions). Admin only.
func (c *Catalog) SetWorkspace(ctx context.Context, workspaceID string, in SetWorkspaceIn) (WorkspaceView, error) {
	if err := c.gate(ctx, model.OpSetWorkspaceEmbed, on{}); err != nil {
		return WorkspaceView{}, err
	}
	var hosts []string
	if in.AuthorizedHosts != nil {
		hosts = []string{}
		for _, h := range *in.AuthorizedHosts {
			n, err := normalizeHostPattern(h)
			if err != nil {
				return WorkspaceView{}, err
			}
			if !contains(hosts, n) {
				hosts = append(hosts, n)
			}
		}
	}
	if in.HostLimit != nil && *in.HostLimit < 0 {
		return WorkspaceView{}, model.Errorf(model.CodeInvalid, "host limit must be 0 (unlimited) or more")
	}
	var out WorkspaceView
	err := c.write(ctx, write{op: model.OpSetWorkspaceEmbed, admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		w, err := tx.Workspace(ctx, workspaceID)
		if err != nil {
			return nil, err
		}
		e, err := tx.WorkspaceEmbed(ctx, workspaceID)
		if err != nil {
			return nil, err
		}
		switched := in.Embed != nil && *in.Embed == e.Off
		if hosts != nil {
			e.AuthorizedHosts = hosts
		}
		if in.HostLimit != nil {
			e.HostLimit = *in.HostLimit
		}
		if in.Embed != nil {
			e.Off = !*in.Embed
		}
		if err := tx.SetWorkspaceEmbed(ctx, workspaceID, e); err != nil {
			return nil, err
		}
		out = workspaceView(w, e)
		if !switched {
			return nil, nil
		}
		projects, err := tx.Projects(ctx, workspaceID)
		changes := make([]model.Change, len(projects))
		for i, p := range projects {
			changes[i] = model.Change{Kind: model.ChangeEmbedSwitched, ProjectID: p.ID}
		}
		return changes, err
	}})
	return out, err
}

// ShowWorkspace returns a workspace with its Embed settings. Admin only.
func (c *Catalog) ShowWorkspace(ctx context.Context, workspaceID string) (WorkspaceView, error) {
	if err := c.gate(ctx, model.OpShowWorkspace, on{}); err != nil {
		return WorkspaceView{}, err
	}
	var out WorkspaceView
	err := c.store.View(ctx, func(tx model.Tx) error {
		w, err := tx.Workspace(ctx, workspaceID)
		if err != nil {
			return err
		}
		e, err := tx.WorkspaceEmbed(ctx, workspaceID)
		out = workspaceView(w, e)
		return err
	})
	return out, err
}

func workspaceView(w model.Workspace, e model.WorkspaceEmbed) WorkspaceView {
	v := WorkspaceView{Workspace: w, AuthorizedHosts: e.AuthorizedHosts, Embed: "on"}
	if v.AuthorizedHosts == nil {
		v.AuthorizedHosts = []string{}
	}
	if e.HostLimit > 0 {
		n := e.HostLimit
		v.HostLimit = &n
	}
	if e.Off {
		v.Embed = "off"
	}
	return v
}
