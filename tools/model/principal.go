package model

import "context"

// Token kinds, as the spec's Authentication section names them.
const (
	KindAPIKey    = "api_key"   // project API key, read-only or read/write
	KindPersonal  = "pat"       // personal access token for one project
	KindWorkspace = "pat_ws"    // personal access token for a whole workspace
	KindSystem    = "system"    // the admin CLI and background jobs
	KindAnonymous = "anonymous" // public Embed endpoints
)

// Principal is who is calling. Transports authenticate and put it in the context; every
// catalogue operation authorizes itself against it.
type Principal struct {
	Kind        string
	TokenID     string
	UserID      string // empty for API keys
	WorkspaceID string
	ProjectID   string // empty for workspace tokens and the system
	ReadOnly    bool
	// GrantID is set for an OAuth access token: the grant a person consented to, which
	// the token acts under (as their personal token of Kind would, within its scope).
	GrantID string
	// Audience is the resource URL an OAuth access token was issued for (RFC 8707); it is
	// refused at any other. Empty for pasted tokens and keys.
	Audience string
	// Agent, when set, is who the history credits instead of the token's owner: AI
	// translations are attributed to ai:<model>.
	Agent string
}

// Actor is what the history records as the author of a change: the token's owner.
func (p Principal) Actor() string {
	switch {
	case p.Agent != "":
		return p.Agent
	case p.UserID != "":
		return "user:" + p.UserID
	case p.Kind == KindAPIKey:
		return "key:" + p.TokenID
	case p.Kind == "":
		return "unknown"
	default:
		return p.Kind
	}
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// WithPrincipalRef returns ctx carrying *p, which nobody changes afterwards, and val under
// key when key is not nil, in one context node: a request's caller, from the principals
// the catalogue keeps, costs one allocation instead of a copy and a node per value.
func WithPrincipalRef(ctx context.Context, p *Principal, key, val any) context.Context {
	return &principalCtx{Context: ctx, p: p, key: key, val: val}
}

type principalCtx struct {
	context.Context
	p        *Principal
	key, val any
}

func (c *principalCtx) Value(key any) any {
	switch {
	case key == principalKey{}:
		return c.p
	case c.key != nil && key == c.key:
		return c.val
	}
	return c.Context.Value(key)
}

// PrincipalFrom returns the principal in ctx; a context without one is anonymous.
func PrincipalFrom(ctx context.Context) Principal {
	switch p := ctx.Value(principalKey{}).(type) {
	case Principal:
		return p
	case *Principal:
		return *p
	}
	return Principal{Kind: KindAnonymous}
}
