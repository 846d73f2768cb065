package tools

import (
	"context"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// tokenPrefixLen is how much of the random part of a token its prefix keeps: 24 of 192 bits
// tell keys apart in a list and leave 168 to guess.
const tokenPrefixLen = 6

// tokenPrefix is the shown part of a new token: its kind prefix and a few characters.
func tokenPrefix(token string) string {
	for _, p := range []string{PrefixWorkspace, PrefixPersonal, PrefixAPIKey} {
		if len(token) >= len(p)+tokenPrefixLen && token[:len(p)] == p {
			return token[:len(p)+tokenPrefixLen]
		}
	}
	return ""
}

// KeyListing is one project API key in `key list`.
type KeyListing struct {
	ID         string     `json:"id"`
	Prefix     string     `json:"prefix"`
	Name       string     `json:"name,omitempty"` // absent when unnamed, as in the CLI contract
	ReadOnly   bool       `json:"read_only"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

// TokenListing is one personal access token in `token list`; ProjectID is null for a
// workspace token.
type TokenListing struct {
	ID          string     `json:"id"`
	Prefix      string     `json:"prefix"`
	Name        string     `json:"name,omitempty"`
	Scope       string     `json:"scope"` // "project" or "workspace"
	ProjectID   *string    `json:"project_id"`
	WorkspaceID string     `json:"workspace_id"`
	CreatedAt   time.Time  `json:"created_at"`
	LastUsedAt  *time.Time `json:"last_used_at"`
	RevokedAt   *time.Time `json:"revoked_at"`
}

// Revoked is the answer of a revocation.
type Revoked struct {
	ID        string    `json:"id"`
	RevokedAt time.Time `json:"revoked_at"`
}

// ListKeys returns the API keys of a project, revoked ones too, oldest first. For the
// operator and the project's owners (owner).
func (c *Catalog) ListKeys(ctx context.Context, projectID string) ([]KeyListing, error) {
	ctx, err := c.ownerFor(ctx, model.OpKeyList, projectID, false)
	if err != nil {
		return nil, err
	}
	var recs []model.TokenInfo
	err = c.store.View(ctx, func(tx model.Tx) error {
		if _, err := tx.Project(ctx, projectID); err != nil {
			return err
		}
		var err error
		recs, err = tx.Tokens(ctx, model.TokenFilter{Kinds: []string{model.KindAPIKey}, ProjectID: projectID})
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]KeyListing, len(recs))
	for i, r := range recs {
		out[i] = KeyListing{ID: r.ID, Prefix: r.Prefix, Name: r.Name, ReadOnly: r.ReadOnly, CreatedAt: r.CreatedAt.UTC(),
			LastUsedAt: utc(r.LastUsedAt), RevokedAt: utc(r.RevokedAt)}
	}
	return out, nil
}

// ListTokens returns the personal access tokens of a user, revoked ones too, oldest first.
// For the operator, and for a signed-in user their own (self).
func (c *Catalog) ListTokens(ctx context.Context, userID string) ([]TokenListing, error) {
	ctx, err := c.self(ctx, model.OpTokenList, userID, "")
	if err != nil {
		return nil, err
	}
	var recs []model.TokenInfo
	err = c.store.View(ctx, func(tx model.Tx) error {
		if _, err := tx.User(ctx, userID); err != nil {
			return err
		}
		var err error
		recs, err = tx.Tokens(ctx, model.TokenFilter{Kinds: []string{model.KindPersonal, model.KindWorkspace}, UserID: userID})
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]TokenListing, len(recs))
	for i, r := range recs {
		t := TokenListing{ID: r.ID, Prefix: r.Prefix, Name: r.Name, Scope: "workspace", WorkspaceID: r.WorkspaceID,
			CreatedAt: r.CreatedAt.UTC(), LastUsedAt: utc(r.LastUsedAt), RevokedAt: utc(r.RevokedAt)}
		if r.Kind == model.KindPersonal {
			t.Scope, t.ProjectID = "project", &r.ProjectID
		}
		out[i] = t
	}
	return out, nil
}

// RevokeKey revokes a project API key. Revoking twice answers the first revocation's time.
// Every server stops taking the key within its auth cache TTL (one second). For the
// operator, and for a signed-in user the keys of their workspace's projects.
func (c *Catalog) RevokeKey(ctx context.Context, id string) (Revoked, error) {
	return c.revoke(ctx, model.OpRevokeKey, id, "key", model.KindAPIKey)
}

// RevokeToken revokes a personal access token, as RevokeKey does a key. For the operator,
// and for a signed-in user their own tokens.
func (c *Catalog) RevokeToken(ctx context.Context, id string) (Revoked, error) {
	return c.revoke(ctx, model.OpRevokeToken, id, "token", model.KindPersonal, model.KindWorkspace)
}

func (c *Catalog) revoke(ctx context.Context, op model.Operation, id, what string, kinds ...string) (Revoked, error) {
	p := model.PrincipalFrom(ctx)
	ctx, err := c.self(ctx, op, "", "")
	if err != nil {
		return Revoked{}, err
	}
	var out Revoked
	err = c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		rec, err := tx.Token(ctx, id)
		ours := err == nil && contains(kinds, rec.Kind)
		if ours && p.Kind == KindSession {
			ours, err = c.sessionMayRevoke(model.WithPrincipal(ctx, p), tx, p, rec)
		}
		if err != nil || !ours {
			if err == nil || model.IsNotFound(err) {
				return nil, model.Errorf(model.CodeNotFound, "%s %s not found", what, id)
			}
			return nil, err
		}
		if rec.RevokedAt != nil {
			out = Revoked{ID: id, RevokedAt: rec.RevokedAt.UTC()}
			return nil, nil
		}
		at := c.opts.Now().UTC().Truncate(time.Microsecond)
		if err := tx.RevokeToken(ctx, id, at); err != nil {
			return nil, err
		}
		out = Revoked{ID: id, RevokedAt: at}
		return nil, nil
	}})
	if err != nil {
		return Revoked{}, err
	}
	// This process stops at once; other processes when their cache entry expires.
	c.forgetPrincipals(func(p model.Principal) bool { return p.TokenID == id })
	return out, nil
}

// sessionMayRevoke is a signed-in user's share of the tokens: their own personal tokens
// and the keys of the projects they manage. A key of a project they only see is refused
// (CodeForbidden); the rest answer not found, as unknown ones do. ctx carries p.
func (c *Catalog) sessionMayRevoke(ctx context.Context, tx model.Tx, p model.Principal, rec model.TokenInfo) (bool, error) {
	if rec.Kind != model.KindAPIKey {
		return rec.UserID == p.UserID, nil
	}
	proj, err := tx.Project(ctx, rec.ProjectID)
	if err != nil {
		return false, err
	}
	if projectAdmits(p, proj) != nil {
		return false, nil
	}
	r, err := c.rightsIn(ctx, tx, proj, "")
	if err != nil || r&model.RightRead == 0 {
		return false, err
	}
	return true, refusal(proj, "", row(model.OpRevokeKey).Needs, r)
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// tokenUseInterval is how stale a token's last_used_at may get: one write a minute per token
// and process, whatever the request rate.
const tokenUseInterval = time.Minute

// tokenUses remembers when this process last wrote each token's last_used_at.
type tokenUses struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// noteTokenUse records that a token was used, at most once a minute per token, in the
// background: it is called on an auth cache miss and must not hold up the request.
func (c *Catalog) noteTokenUse(id string) {
	now := c.opts.Now()
	c.uses.mu.Lock()
	if c.uses.last == nil {
		c.uses.last = map[string]time.Time{}
	}
	if t, ok := c.uses.last[id]; ok && now.Sub(t) < tokenUseInterval {
		c.uses.mu.Unlock()
		return
	}
	c.uses.last[id] = now
	c.uses.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(model.WithPrincipal(context.Background(), System), 10*time.Second)
		defer cancel()
		if err := c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
			return nil, tx.TouchToken(ctx, id, now.UTC())
		}}); err != nil {
			c.opts.Logger.Debug("recording a token's last use", "token_id", id, "err", err)
		}
	}()
}
