package tools

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"

	"github.com/google/uuid"
	"github.com/lokal-dev/lokal/tools/model"
)

// newSecret returns prefix followed by 192 random bits, hex-encoded.
func newSecret(prefix string) string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("reading random bytes: " + err.Error())
	}
	return prefix + hex.EncodeToString(b)
}

func newID() string { return uuid.NewString() }

func (c *Catalog) tokenKey(ctx context.Context) ([]byte, error) {
	if k := c.key.Load(); k != nil {
		return *k, nil
	}
	c.keyMu.Lock()
	defer c.keyMu.Unlock()
	if k := c.key.Load(); k != nil {
		return *k, nil
	}
	var key []byte
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		key, err = tx.TokenKey(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	c.key.Store(&key)
	return key, nil
}

// hashToken is the keyed hash stored in place of a token.
func (c *Catalog) hashToken(ctx context.Context, token string) (string, error) {
	key, err := c.tokenKey(ctx)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil)), nil
}

// ParseAuthorization extracts the token from an Authorization header value. It accepts
// `Token token=<KEY>` (quoted or not), `Bearer <TOKEN>` and the bare key that
// i18next-locize-backend sends.
func ParseAuthorization(h string) string {
	h = strings.TrimSpace(h)
	scheme, rest, found := strings.Cut(h, " ")
	if !found {
		return h
	}
	rest = strings.TrimSpace(rest)
	switch {
	case strings.EqualFold(scheme, "bearer"):
		return rest
	case strings.EqualFold(scheme, "token"):
		if v, ok := strings.CutPrefix(rest, "token="); ok {
			rest = v
		}
		return strings.Trim(rest, `"`)
	}
	return ""
}

// Authenticate returns the principal of token, or CodeUnauthorized. A token seen within
// the cache TTL is answered from memory without hashing: this is every request's path.
func (c *Catalog) Authenticate(ctx context.Context, token string) (model.Principal, error) {
	p, err := c.AuthenticateRef(ctx, token)
	if err != nil {
		return model.Principal{}, err
	}
	return *p, nil
}

// AuthenticateRef is Authenticate answering with the principal the cache keeps, shared by
// every request of the token, for WithCaller: the caller must not change it.
func (c *Catalog) AuthenticateRef(ctx context.Context, token string) (*model.Principal, error) {
	if token == "" || len(token) > 256 {
		return nil, errBadToken()
	}
	now := c.opts.Now()
	gen := c.authGen.Load()
	if v, ok := c.auth.Load(token); ok {
		if cp := v.(*cachedPrincipal); now.Before(cp.expires) {
			return cp.p, nil
		}
	}
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return nil, err
	}
	var rec model.TokenRecord
	err = c.store.View(ctx, func(tx model.Tx) error {
		var err error
		rec, err = tx.TokenByHash(ctx, hash)
		return err
	})
	if err != nil {
		if model.IsNotFound(err) {
			return nil, errBadToken()
		}
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(rec.Hash), []byte(hash)) != 1 {
		return nil, errBadToken()
	}
	// An OAuth access token ends by itself; the cache keeps it no longer than that.
	expires := now.Add(c.opts.AuthCacheTTL)
	if rec.ExpiresAt != nil {
		if !now.Before(*rec.ExpiresAt) {
			return nil, errBadToken()
		}
		if rec.ExpiresAt.Before(expires) {
			expires = *rec.ExpiresAt
		}
	}
	c.noteTokenUse(rec.ID)
	p := &model.Principal{Kind: rec.Kind, TokenID: rec.ID, UserID: rec.UserID, WorkspaceID: rec.WorkspaceID,
		ProjectID: rec.ProjectID, ReadOnly: rec.ReadOnly, GrantID: rec.GrantID, Audience: rec.Audience}
	c.authMu.Lock()
	if c.authN > 10000 {
		c.auth.Clear()
		c.authN = 0
	}
	if c.authGen.Load() == gen {
		if _, had := c.auth.Swap(token, &cachedPrincipal{p: p, expires: expires}); !had {
			c.authN++
		}
	}
	c.authMu.Unlock()
	return p, nil
}

// WithCaller returns ctx carrying p, a principal AuthenticateRef answered, and door d, in
// one context node: what WithDoor(model.WithPrincipal(ctx, *p), d) carries, for one
// allocation per request instead of three.
func WithCaller(ctx context.Context, p *model.Principal, d Door) context.Context {
	return model.WithPrincipalRef(ctx, p, doorKey{}, d)
}

// errBadToken is Authenticate's refusal, made only when it refuses: the cached path
// allocates nothing.
func errBadToken() error {
	return &model.Error{Code: model.CodeUnauthorized, Message: "missing or invalid token"}
}

// forgetPrincipals drops this process's cached principals that gone matches, so that a
// revoked token, a disabled user's or a deleted project's key is refused from the next
// request on here; other processes refuse it when their entry expires (AuthCacheTTL).
func (c *Catalog) forgetPrincipals(gone func(model.Principal) bool) {
	c.authMu.Lock()
	defer c.authMu.Unlock()
	c.authGen.Add(1)
	c.auth.Range(func(tok, v any) bool {
		if gone(*v.(*cachedPrincipal).p) {
			c.auth.Delete(tok)
			c.authN--
		}
		return true
	})
}
