package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/sync/singleflight"
)

// Who OAuth clients are: a Client ID Metadata Document (the client_id is the https URL of
// a JSON document the client publishes; MCP 2025-11-25's preferred way), fetched through
// the outbound guard and cached; or, when the operator allows it, a client that registered
// itself (RFC 7591).

// DefaultOAuthRedirectHosts are the https hosts of the clients people connect most: Claude
// (claude.ai, the desktop app), ChatGPT and VS Code on the web.
var DefaultOAuthRedirectHosts = []string{"claude.ai", "claude.com", "chatgpt.com", "vscode.dev", "insiders.vscode.dev"}

// Caps on fetching a client's metadata document.
const (
	cimdMaxBytes = 16 << 10
	cimdTimeout  = 5 * time.Second
	cimdCacheFor = time.Hour
	// cimdFetchesPerMinute caps the fetches of one host's documents; cached ones are free.
	cimdFetchesPerMinute = 30
	// registrationsPerHour caps dynamic registrations, all clients together.
	registrationsPerHour = 100
)

// Caps on what a client's metadata may say.
const (
	maxRedirectURIs  = 20
	maxClientURILen  = 2000
	maxClientNameLen = 200
)

// PrefixRegisteredClient marks the client_id of a client that registered itself.
const PrefixRegisteredClient = "lkdc_"

type oauthState struct {
	fetches singleflight.Group
	once    sync.Once
	client  *http.Client
}

// cimdClient is the HTTP client of metadata documents: every connection through the
// guard, 5 s for everything, redirects not followed.
func (c *Catalog) cimdClient() *http.Client {
	c.oauth.once.Do(func() {
		c.oauth.client = c.guard().Client(outbound.ClientOptions{Timeout: cimdTimeout, RootCAs: c.opts.OAuthRootCAs})
	})
	return c.oauth.client
}

// IsMetadataDocumentID reports whether a client_id is a metadata document's URL: https,
// a host, a path other than "/", no user, query, fragment or dot segments.
func IsMetadataDocumentID(clientID string) bool {
	return checkMetadataDocumentID(clientID) == nil
}

func checkMetadataDocumentID(clientID string) error {
	u, err := url.Parse(clientID)
	switch {
	case err != nil || len(clientID) > maxClientURILen:
		return errors.New("client_id is not a URL")
	case u.Scheme != "https":
		return errors.New("a client metadata document must be served over https")
	case u.Host == "" || u.Hostname() == "":
		return errors.New("client_id has no host")
	case u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(clientID, "#"):
		return errors.New("client_id must not carry a user, query or fragment")
	case u.Path == "" || u.Path == "/":
		return errors.New("client_id must have a path")
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return errors.New("client_id must not have dot segments")
		}
	}
	return nil
}

// oauthClient finds a client: a metadata document (cached for an hour, fetched again
// after), or a registered client while registration is on. Failures are not redirected.
func (c *Catalog) oauthClient(ctx context.Context, clientID string) (model.OAuthClient, error) {
	if strings.HasPrefix(clientID, "https:") || strings.HasPrefix(clientID, "http:") {
		if err := checkMetadataDocumentID(clientID); err != nil {
			return model.OAuthClient{}, oauthErr("invalid_client", err.Error())
		}
		var cached model.OAuthClient
		err := c.store.View(ctx, func(tx model.Tx) error {
			var err error
			cached, err = tx.OAuthClient(ctx, clientID)
			return err
		})
		if err != nil && !model.IsNotFound(err) {
			return model.OAuthClient{}, err
		}
		if err == nil && !cached.Registered && c.opts.Now().Sub(cached.FetchedAt) < cimdCacheFor && !cached.FetchedAt.After(c.opts.Now()) {
			return cached, nil
		}
		// Anyone may start an authorization request: fetches per host are capped, so that
		// lokal cannot be made to hammer a site (nor a site make lokal work for nothing).
		host, _ := url.Parse(clientID)
		if ok, _, err := c.limiter.Take(ctx, "oauth_cimd:"+strings.ToLower(host.Hostname()), cimdFetchesPerMinute, time.Minute); err != nil {
			return model.OAuthClient{}, err
		} else if !ok {
			return model.OAuthClient{}, oauthErr("invalid_client", "too many fetches of this host's client metadata documents; try again in a minute")
		}
		v, err, _ := c.oauth.fetches.Do(clientID, func() (any, error) {
			// Not the request's context: one caller going away must not fail the others.
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cimdTimeout)
			defer cancel()
			return c.fetchClientMetadata(fctx, clientID)
		})
		if err != nil {
			return model.OAuthClient{}, err
		}
		cl := v.(model.OAuthClient)
		if err := c.bookkeep(ctx, model.OpOAuthAuthorize, func(tx model.Tx) error { return tx.PutOAuthClient(ctx, cl) }); err != nil {
			return model.OAuthClient{}, err
		}
		return cl, nil
	}
	if !strings.HasPrefix(clientID, PrefixRegisteredClient) || len(clientID) > 100 {
		return model.OAuthClient{}, oauthErr("invalid_client", "unknown client: client_id must be the https URL of its metadata document")
	}
	if !c.opts.OAuthDynamicRegistration {
		return model.OAuthClient{}, oauthErr("invalid_client", "dynamic client registration is off on this server: use a client metadata document")
	}
	var cl model.OAuthClient
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		cl, err = tx.OAuthClient(ctx, clientID)
		return err
	})
	if model.IsNotFound(err) || (err == nil && !cl.Registered) {
		return model.OAuthClient{}, oauthErr("invalid_client", "unknown client")
	}
	return cl, err
}

// fetchClientMetadata fetches and checks a client's metadata document.
func (c *Catalog) fetchClientMetadata(ctx context.Context, clientID string) (model.OAuthClient, error) {
	fail := func(format string, args ...any) (model.OAuthClient, error) {
		return model.OAuthClient{}, oauthErr("invalid_client", "client metadata document "+clientID+": "+fmt.Sprintf(format, args...))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, clientID, nil)
	if err != nil {
		return fail("%v", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.cimdClient().Do(req)
	if err != nil {
		var blocked *outbound.BlockedError
		if errors.As(err, &blocked) {
			return fail("refused: %v", blocked)
		}
		return fail("cannot be fetched: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail("answered HTTP %d, want 200 (redirects are not followed)", resp.StatusCode)
	}
	body, err := outbound.ReadLimited(resp.Body, cimdMaxBytes)
	if err != nil {
		return fail("%v", err)
	}
	var doc oauthex.ClientRegistrationMetadata
	var raw struct {
		ClientID string `json:"client_id"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return fail("is not JSON: %v", err)
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return fail("is not client metadata: %v", err)
	}
	if raw.ClientID != clientID {
		return fail("its client_id %q is not its URL", model.Truncate(raw.ClientID, 100))
	}
	cl, err := c.checkClientMetadata(&doc, false)
	if err != nil {
		return fail("%s", err.(*OAuthError).Description)
	}
	cl.ClientID = clientID
	cl.FetchedAt = c.opts.Now()
	return cl, nil
}

// checkClientMetadata checks what a client says of itself (a metadata document, or a
// registration when registering): public clients of the code flow only, redirect URIs
// lokal allows.
func (c *Catalog) checkClientMetadata(m *oauthex.ClientRegistrationMetadata, registering bool) (model.OAuthClient, error) {
	bad := func(code, desc string) (model.OAuthClient, error) {
		e := oauthErr(code, desc)
		return model.OAuthClient{}, e
	}
	if len(m.RedirectURIs) == 0 {
		return bad("invalid_redirect_uri", "redirect_uris is required")
	}
	if len(m.RedirectURIs) > maxRedirectURIs {
		return bad("invalid_redirect_uri", fmt.Sprintf("at most %d redirect_uris", maxRedirectURIs))
	}
	for _, r := range m.RedirectURIs {
		if err := c.checkRedirectURI(r); err != nil {
			return bad("invalid_redirect_uri", err.Error())
		}
	}
	if m.TokenEndpointAuthMethod != "" && m.TokenEndpointAuthMethod != "none" {
		return bad("invalid_client_metadata", "token_endpoint_auth_method must be none: lokal's clients are public and prove themselves by PKCE")
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return bad("invalid_client_metadata", "grant_types may be authorization_code and refresh_token only")
		}
	}
	if len(m.GrantTypes) > 0 && !slices.Contains(m.GrantTypes, "authorization_code") {
		return bad("invalid_client_metadata", "grant_types must include authorization_code")
	}
	for _, r := range m.ResponseTypes {
		if r != "code" {
			return bad("invalid_client_metadata", "response_types may be code only")
		}
	}
	if len(m.ClientName) > maxClientNameLen {
		return bad("invalid_client_metadata", "client_name is too long")
	}
	logo, home := httpsURL(m.LogoURI), httpsURL(m.ClientURI)
	return model.OAuthClient{Name: strings.TrimSpace(m.ClientName), RedirectURIs: slices.Clone(m.RedirectURIs), LogoURI: logo,
		ClientURI: home, Registered: registering}, nil
}

// httpsURL keeps an https URL a client gave for display (logo, home page); anything else
// is dropped rather than shown.
func httpsURL(s string) string {
	u, err := url.Parse(s)
	if s == "" || len(s) > maxClientURILen || err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return ""
	}
	return s
}

// isLoopbackHost reports a loopback redirect host (RFC 8252 §7.3): 127.0.0.1, ::1 or
// localhost.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkRedirectURI applies lokal's rule to a redirect URI: loopback over http or https on
// any port, or https to a host of the operator's list; an absolute URL without fragment
// or user, always.
func (c *Catalog) checkRedirectURI(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > maxClientURILen || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("redirect URI %q is not an absolute URL", model.Truncate(raw, 100))
	}
	if u.Fragment != "" || strings.Contains(raw, "#") || u.User != nil {
		return fmt.Errorf("redirect URI %q must not have a fragment or user", model.Truncate(raw, 100))
	}
	host := u.Hostname()
	if isLoopbackHost(host) {
		if u.Scheme != "http" && u.Scheme != "https" {
			return fmt.Errorf("redirect URI %q: loopback redirects are http or https", model.Truncate(raw, 100))
		}
		return nil
	}
	if u.Scheme != "https" {
		return fmt.Errorf("redirect URI %q must be https (or loopback)", model.Truncate(raw, 100))
	}
	hosts := c.opts.OAuthRedirectHosts
	if hosts == nil {
		hosts = DefaultOAuthRedirectHosts
	}
	for _, h := range hosts {
		if strings.EqualFold(h, host) && (u.Port() == "" || u.Port() == "443") {
			return nil
		}
	}
	return fmt.Errorf("redirect URI %q: host %s is not among the hosts this server allows (--oauth-redirect-hosts)", model.Truncate(raw, 100), host)
}

// redirectRegistered reports whether raw is one of the client's redirect URIs: exactly,
// or for a loopback one with only the port changed (RFC 8252 §7.3: native apps take
// whatever port is free).
func (c *Catalog) redirectRegistered(cl model.OAuthClient, raw string) bool {
	if slices.Contains(cl.RedirectURIs, raw) {
		return true
	}
	u, err := url.Parse(raw)
	if err != nil || !isLoopbackHost(u.Hostname()) {
		return false
	}
	for _, r := range cl.RedirectURIs {
		ru, err := url.Parse(r)
		if err != nil || !isLoopbackHost(ru.Hostname()) {
			continue
		}
		if ru.Scheme == u.Scheme && ru.Hostname() == u.Hostname() && ru.EscapedPath() == u.EscapedPath() &&
			ru.RawQuery == u.RawQuery && ru.Fragment == "" && u.Fragment == "" && ru.User == nil && u.User == nil {
			return true
		}
	}
	return false
}

// DynamicRegistration reports whether clients may register themselves (RFC 7591).
func (c *Catalog) DynamicRegistration() bool { return c.opts.OAuthDynamicRegistration }

// RegisterOAuthClient registers a public client (RFC 7591), while the operator allows it.
func (c *Catalog) RegisterOAuthClient(ctx context.Context, m oauthex.ClientRegistrationMetadata) (*oauthex.ClientRegistrationResponse, error) {
	if !c.opts.OAuthDynamicRegistration {
		return nil, &OAuthError{Code: "access_denied", Description: "dynamic client registration is off on this server: use a client metadata document", Status: 403}
	}
	if err := c.gate(ctx, model.OpOAuthRegister, on{}); err != nil {
		return nil, err
	}
	cl, err := c.checkClientMetadata(&m, true)
	if err != nil {
		return nil, err
	}
	// Registration is open to anyone: its rows are capped per hour.
	if ok, _, err := c.limiter.Take(ctx, "oauth_register", registrationsPerHour, time.Hour); err != nil {
		return nil, err
	} else if !ok {
		return nil, &OAuthError{Code: "temporarily_unavailable", Description: "too many registrations this hour; try again later", Status: 429}
	}
	cl.ClientID = newSecret(PrefixRegisteredClient)
	now := c.opts.Now()
	cl.FetchedAt, cl.CreatedAt = now, now
	if err := c.bookkeep(ctx, model.OpOAuthRegister, func(tx model.Tx) error { return tx.PutOAuthClient(ctx, cl) }); err != nil {
		return nil, err
	}
	out := &oauthex.ClientRegistrationResponse{ClientRegistrationMetadata: m, ClientID: cl.ClientID, ClientIDIssuedAt: now.UTC().Truncate(time.Second)}
	out.TokenEndpointAuthMethod = "none"
	out.LogoURI, out.ClientURI = cl.LogoURI, cl.ClientURI
	if len(out.GrantTypes) == 0 {
		out.GrantTypes = []string{"authorization_code", "refresh_token"}
	}
	if len(out.ResponseTypes) == 0 {
		out.ResponseTypes = []string{"code"}
	}
	return out, nil
}
