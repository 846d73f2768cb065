package tools

import (
	"context"
	"fmt"

	"github.com/lokal-dev/lokal/tools/model"
)

// The gate decides, for every operation and every door, who may call it, with which right
// and at what cost: it reads the operation's row of Operations at run time, so that a row
// changed is behaviour changed, and nothing else in the catalogue admits or refuses a kind
// of caller. Rights are computed by rights.go, budgets spent by budgets.go.

type doorKey struct{}

// WithDoor marks ctx as a call through door d. Each transport marks its requests: rest the
// token API (REST) and its MCP endpoints (MCP), rest/app the editor (Editor), public the
// Embed's routes (Public). A call without a door is the operator's or the service's own.
func WithDoor(ctx context.Context, d Door) context.Context {
	return context.WithValue(ctx, doorKey{}, d)
}

// DoorOf is the door ctx came through; 0 for none.
func DoorOf(ctx context.Context) Door {
	d, _ := ctx.Value(doorKey{}).(Door)
	return d
}

// CallerOf is the kind of caller p is among a row's Callers: an OAuth access token is a
// Grant whatever its Kind; the system is 0 (every row's).
func CallerOf(p model.Principal) Callers {
	if p.GrantID != "" {
		return Grant
	}
	switch p.Kind {
	case KindSession:
		return Session
	case model.KindWorkspace:
		return WorkspacePAT
	case model.KindPersonal:
		return PAT
	case model.KindAPIKey:
		if p.ReadOnly {
			return KeyRO
		}
		return KeyRW
	case model.KindAnonymous:
		return Anonymous
	}
	return 0
}

// doorCarries is the callers a door authenticates at all: tokens at the token API and the
// MCP endpoints, sessions at the editor, nobody at the public routes.
func doorCarries(d Door) Callers {
	switch d {
	case MCP, REST:
		return AnyToken | Grant
	case Editor:
		return Session
	}
	return 0
}

// on is what one call of an operation acts on, for its gate.
type on struct {
	project  string      // the project; "" for the workspace or nothing
	language string      // the language written, where the row's right is held per language
	more     model.Right // rights the input asks beyond the row's (approving)
	need     model.Right // when set, replaces the row's right: an import asks what its file does
	// entry is a door's check before it reads a body: the caller, the project and a
	// read-only credential; the right in a language is the operation's own check.
	entry bool
}

// gate admits the caller in ctx to op on at, then spends op's budgets: the whole check of
// an operation that has nothing to validate first.
func (c *Catalog) gate(ctx context.Context, op model.Operation, at on) error {
	if err := c.admit(ctx, op, at); err != nil {
		return err
	}
	return c.spend(ctx, op, at.project)
}

// Admit is the gate a door passes before it reads a request's body, so that a foreign
// token or a read-only key does not make the server read and hold it: the caller's kind,
// door, project and read-only credential against op's row. The operation checks all of it
// again, with its right, when it runs.
func (c *Catalog) Admit(ctx context.Context, op model.Operation, projectID string) error {
	return c.admit(ctx, op, on{project: projectID, entry: true})
}

// admit refuses the caller in ctx what op's row does not give it, in this order, so that a
// token of another project learns nothing from the rest: no credential (unauthorized), a
// door the row does not list, an OAuth grant off its MCP tools, the project (unauthorized
// for another project's or workspace's token, not_found, forbidden without a role), the
// caller's kind (pat_required for a project key where a personal token would do,
// read_only_key for a read-only one where a read/write key would, else unauthorized), a
// read-only credential on a write (read_only_key), and the row's right (forbidden). The
// system passes every row; a row listing Anonymous is open to every caller.
func (c *Catalog) admit(ctx context.Context, op model.Operation, at on) error {
	r := row(op)
	p := model.PrincipalFrom(ctx)
	if p.Kind == model.KindSystem {
		if at.project != "" {
			_, err := c.projectCached(ctx, at.project)
			return err
		}
		return nil
	}
	if r.Auth&Anonymous != 0 {
		return nil
	}
	if p.Kind == model.KindAnonymous {
		return errNoToken()
	}
	door := DoorOf(ctx)
	if door != 0 && r.Doors&door == 0 {
		return &model.Error{Code: model.CodeUnauthorized, Message: fmt.Sprintf("%s is not offered here", op)}
	}
	if door != 0 && doorCarries(door)&CallerOf(p) == 0 {
		return &model.Error{Code: model.CodeUnauthorized, Message: "this credential is not taken here"}
	}
	if p.GrantID != "" && (r.Auth&Grant == 0 || door != MCP) {
		return &model.Error{Code: model.CodeUnauthorized, Message: "an OAuth grant reaches the MCP tools only"}
	}
	if at.project != "" {
		if err := c.authorizeProject(ctx, at.project); err != nil {
			return err
		}
	}
	if who := CallerOf(p); r.Auth&who == 0 {
		return refuseCaller(r, who, at.project != "")
	}
	if p.ReadOnly && !r.ReadOnly {
		return &model.Error{Code: model.CodeReadOnlyKey, Message: "this API key is read-only"}
	}
	need := r.Needs
	if at.need != 0 {
		need = at.need
	}
	need |= at.more
	switch {
	case at.project != "" && !at.entry && need&^model.RightRead != 0:
		return c.need(ctx, at.project, at.language, need)
	case at.project == "" && need&model.RightOwner != 0:
		return c.workspaceNeed(ctx, model.RightOwner)
	}
	return nil
}

// refuseCaller is the refusal of a caller of kind who that row r does not list.
func refuseCaller(r Operation, who Callers, project bool) error {
	key := who == KeyRO || who == KeyRW
	switch {
	case who == KeyRO && r.Auth&KeyRW != 0:
		return &model.Error{Code: model.CodeReadOnlyKey, Message: "this API key is read-only"}
	case key && project && r.Auth&(PAT|WorkspacePAT) != 0:
		return &model.Error{Code: model.CodePATRequired, Message: "this needs a personal access token, not a project API key"}
	case key && r.Auth&(PAT|WorkspacePAT) != 0:
		return &model.Error{Code: model.CodeUnauthorized, Message: "a personal access token is required"}
	}
	return &model.Error{Code: model.CodeUnauthorized, Message: "admin operation"}
}

func errNoToken() error {
	return &model.Error{Code: model.CodeUnauthorized, Message: "a token is required"}
}

// spend spends op's budgets for the caller in ctx: those of the project and of the token,
// at the doors each is spent at (Budget.Doors). The system spends none; a budget of
// failures (Backoff) is counted by its operation, a per-address one by its door
// (TakeAddress), which knows the address.
func (c *Catalog) spend(ctx context.Context, op model.Operation, projectID string) error {
	p := model.PrincipalFrom(ctx)
	if p.Kind == model.KindSystem {
		return nil
	}
	door := DoorOf(ctx)
	for _, b := range row(op).Budgets {
		if (b.Doors != 0 && b.Doors&door == 0) || b.Backoff > 0 {
			continue
		}
		var key string
		switch b.Per {
		case PerProject:
			key = projectID
		case PerToken:
			key = p.TokenID
		}
		if key == "" {
			continue
		}
		if err := c.take(ctx, *b, key); err != nil {
			return err
		}
	}
	return nil
}

// TakeAddress spends op's per-address budgets for the client address ip, for the door that
// knows it (the public routes, before their operation runs).
func (c *Catalog) TakeAddress(ctx context.Context, op model.Operation, ip string) error {
	for _, b := range row(op).Budgets {
		if b.Per != PerAddress || b.Backoff > 0 {
			continue
		}
		if err := c.take(ctx, *b, AddressKey(ip)); err != nil {
			return err
		}
	}
	return nil
}
