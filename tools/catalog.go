package tools

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Catalog; nil means the defaults.
type Options struct {
	// BaseURL is the service's public address, used in snippets and links.
	BaseURL string
	Logger  *slog.Logger
	// AuthCacheTTL bounds how long a looked-up token is trusted without asking the database
	// again. Default one second, the time a change may take to reach a running server.
	AuthCacheTTL time.Duration
	Now          func() time.Time
}

// Catalog is every operation of the service. Each method authorizes the principal in its
// context, applies the rules and talks to the Store; the transports only decode and encode.
type Catalog struct {
	store Store
	opts  Options

	keyMu sync.Mutex
	key   atomic.Pointer[[]byte]

	authMu sync.RWMutex
	auth   map[string]cachedPrincipal

	uses tokenUses // last_used_at writes (tokens.go)
}

type cachedPrincipal struct {
	p       Principal
	expires time.Time
}

// NewCatalog returns the catalogue over store.
func NewCatalog(store Store, opts *Options) *Catalog {
	c := &Catalog{store: store, auth: map[string]cachedPrincipal{}}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.Logger == nil {
		c.opts.Logger = slog.Default()
	}
	if c.opts.AuthCacheTTL <= 0 {
		c.opts.AuthCacheTTL = time.Second
	}
	if c.opts.Now == nil {
		c.opts.Now = time.Now
	}
	return c
}

// BaseURL is the public address the catalogue was configured with.
func (c *Catalog) BaseURL() string { return c.opts.BaseURL }

// Store returns the store under the catalogue, for background workers and health checks.
func (c *Catalog) Store() Store { return c.store }

// loadProject loads a project and checks that the principal may use it: a token of another
// project or workspace is unauthorized, exactly as a wrong token is.
func (c *Catalog) loadProject(ctx context.Context, tx Tx, projectID string) (Project, error) {
	p := PrincipalFrom(ctx)
	if err := authorizeProjectID(p, projectID); err != nil {
		return Project{}, err
	}
	proj, err := tx.Project(ctx, projectID)
	if err != nil {
		if IsNotFound(err) {
			return Project{}, Errorf(CodeNotFound, "project %s not found", projectID)
		}
		return Project{}, err
	}
	if err := authorizeProject(p, proj); err != nil {
		return Project{}, err
	}
	return proj, nil
}

// authorizeProjectID rejects what can be rejected without the database.
func authorizeProjectID(p Principal, projectID string) error {
	switch p.Kind {
	case KindSystem, KindAnonymous, KindWorkspace:
		return nil
	case KindAPIKey, KindPersonal:
		if p.ProjectID == projectID {
			return nil
		}
	}
	return &Error{Code: CodeUnauthorized, Message: "token is not valid for this project"}
}

func authorizeProject(p Principal, proj Project) error {
	switch p.Kind {
	case KindSystem, KindAnonymous:
		return nil
	case KindWorkspace:
		if p.WorkspaceID == proj.WorkspaceID && proj.Active {
			return nil
		}
	case KindAPIKey, KindPersonal:
		if p.ProjectID == proj.ID {
			return nil
		}
	}
	return &Error{Code: CodeUnauthorized, Message: "token is not valid for this project"}
}

// requireWrite refuses read-only keys on writes.
func requireWrite(ctx context.Context) error {
	p := PrincipalFrom(ctx)
	switch {
	case p.Kind == KindAnonymous:
		return &Error{Code: CodeUnauthorized, Message: "a token is required"}
	case p.ReadOnly:
		return &Error{Code: CodeReadOnlyKey, Message: "this API key is read-only"}
	}
	return nil
}

// requireToken refuses anonymous callers on token-authenticated operations.
func requireToken(ctx context.Context) error {
	if PrincipalFrom(ctx).Kind == KindAnonymous {
		return &Error{Code: CodeUnauthorized, Message: "a token is required"}
	}
	return nil
}

func requireSystem(ctx context.Context) error {
	if PrincipalFrom(ctx).Kind != KindSystem {
		return &Error{Code: CodeUnauthorized, Message: "admin operation"}
	}
	return nil
}

// AuthorizeProject checks that the principal in ctx may use the project: CodeUnauthorized
// for a token of another project or workspace, CodeNotFound for an unknown project.
func (c *Catalog) AuthorizeProject(ctx context.Context, projectID string) error {
	if err := requireToken(ctx); err != nil {
		return err
	}
	if err := authorizeProjectID(PrincipalFrom(ctx), projectID); err != nil {
		return err
	}
	_, err := c.projectCached(ctx, projectID)
	return err
}

// AuthorizeWrite is AuthorizeProject for a write: a read-only key gets CodeReadOnlyKey.
func (c *Catalog) AuthorizeWrite(ctx context.Context, projectID string) error {
	return c.begin(ctx, projectID, true)
}

// begin authorizes a project operation before anything else is looked at, so a token of
// another project learns nothing from validation errors: unauthorized comes first, then
// read_only_key for a write.
func (c *Catalog) begin(ctx context.Context, projectID string, write bool) error {
	if err := c.AuthorizeProject(ctx, projectID); err != nil {
		return err
	}
	if write {
		return requireWrite(ctx)
	}
	return nil
}
