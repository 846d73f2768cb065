package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure the application; nil means the defaults.
type Options struct {
	Logger *slog.Logger
	// SecureCookies sets Secure on cookies even when a request did not arrive over TLS
	// (behind a proxy that ends TLS): lokal serve sets it for an https base URL.
	SecureCookies bool
	// ClientIP returns the address that sign-in attempts are counted by; default the
	// connection's.
	ClientIP func(*http.Request) string
	// Sections are further parts of the Connect page, in order.
	Sections []Section
	// BodyTimeout bounds the time to read a request body (default 20 s): past it the
	// answer is 503 timeout and the connection is closed, as on the API.
	BodyTimeout time.Duration
	// Bodies is the server's bound on request bytes in flight, shared with the API
	// (rest.Options.Bodies): an upload and a confirmation hold room in it while they are
	// read and imported. nil: a bound of the API's default size for this application alone.
	Bodies *reqbody.Budget
}

// Cookie names.
const (
	sessionCookie = "lokal_session"
	signinCookie  = "lokal_signin"
)

type handler struct {
	cat   *tools.Catalog
	opts  Options
	pages map[string]*template.Template
	mux   *http.ServeMux
}

// New returns the application; its routes all start with /app/.
func New(cat *tools.Catalog, opts *Options) http.Handler {
	h := &handler{cat: cat, mux: http.NewServeMux()}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.Logger == nil {
		h.opts.Logger = slog.Default()
	}
	if h.opts.BodyTimeout <= 0 {
		h.opts.BodyTimeout = 20 * time.Second
	}
	if h.opts.Bodies == nil {
		h.opts.Bodies = reqbody.NewBudget(3 * maxFile)
	}
	if h.opts.ClientIP == nil {
		h.opts.ClientIP = httpx.Proxies{}.ClientIP
	}
	h.pages = parsePages()
	static, _ := fs.Sub(staticFS, "static")
	fileServer := http.StripPrefix("/app/static/", http.FileServerFS(static))
	m := h.mux
	m.Handle("/app", http.RedirectHandler("/app/", http.StatusMovedPermanently))
	m.Handle("GET /app/static/", cacheStatic(fileServer))
	m.HandleFunc("GET /app/{$}", h.signedIn(h.projects))
	m.HandleFunc("GET /app/signin", h.signinForm)
	m.HandleFunc("POST /app/signin", h.signin)
	m.HandleFunc("POST /app/signout", h.signedIn(h.signout))
	m.HandleFunc("GET /app/p/{project}/{$}", h.signedIn(h.project))
	m.HandleFunc("GET /app/p/{project}/progress", h.signedIn(h.progress))
	m.HandleFunc("GET /app/p/{project}/export", h.signedIn(h.export))
	m.HandleFunc("POST /app/p/{project}/import", h.signedInBody(maxUpload, h.importPreview))
	m.HandleFunc("POST /app/p/{project}/import/confirm", h.signedInBody(maxConfirm, h.importConfirm))
	m.HandleFunc("GET /app/p/{project}/review/{lang}", h.signedIn(h.review))
	m.HandleFunc("GET /app/p/{project}/review/{lang}/rows", h.signedIn(h.rows))
	m.HandleFunc("GET /app/p/{project}/review/{lang}/revision", h.signedIn(h.revision))
	m.HandleFunc("GET /app/p/{project}/review/{lang}/row", h.signedIn(h.rowDetail))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/save", h.signedIn(h.save))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/approve", h.signedIn(h.approve))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/comment", h.signedIn(h.comment))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/flag", h.signedIn(h.flag))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/translate", h.signedIn(h.translate))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/check", h.signedIn(h.check))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/suggest", h.signedIn(h.suggest))
	m.HandleFunc("POST /app/p/{project}/review/{lang}/revert", h.signedIn(h.revert))
	m.HandleFunc("GET /app/p/{project}/incontext/{lang}", h.signedIn(h.incontext))
	m.HandleFunc("GET /app/p/{project}/incontext/{lang}/row", h.signedIn(h.incontextRow))
	m.HandleFunc("POST /app/p/{project}/incontext/{lang}/open", h.signedIn(h.incontextOpen))
	m.HandleFunc("POST /app/p/{project}/incontext/{lang}/seen", h.signedIn(h.incontextSeen))
	m.HandleFunc("GET /app/p/{project}/connect", h.signedIn(h.connect))
	m.HandleFunc("POST /app/p/{project}/connect/keys", h.signedIn(h.createKey))
	m.HandleFunc("POST /app/p/{project}/connect/keys/revoke", h.signedIn(h.revokeKey))
	m.HandleFunc("POST /app/p/{project}/connect/tokens", h.signedIn(h.createToken))
	m.HandleFunc("POST /app/p/{project}/connect/tokens/revoke", h.signedIn(h.revokeToken))
	m.HandleFunc("POST /app/p/{project}/connect/ai", h.signedIn(h.setAI))
	m.HandleFunc("POST /app/p/{project}/connect/ai/workspace", h.signedIn(h.setWorkspaceAI))
	m.HandleFunc("POST /app/p/{project}/connect/embed", h.signedIn(h.setEmbed))
	m.HandleFunc("POST /app/p/{project}/connect/webhooks", h.signedIn(h.addWebhook))
	m.HandleFunc("POST /app/p/{project}/connect/webhooks/state", h.signedIn(h.setWebhookState))
	m.HandleFunc("POST /app/p/{project}/connect/webhooks/url", h.signedIn(h.setWebhookURL))
	m.HandleFunc("POST /app/p/{project}/connect/redeploy", h.signedIn(h.setRedeploy))
	m.HandleFunc("POST /app/p/{project}/connect/redeploy/dispatch", h.signedIn(h.dispatchRedeploy))
	m.HandleFunc("GET /app/p/{project}/members", h.signedIn(h.members))
	m.HandleFunc("POST /app/p/{project}/members/invite", h.signedIn(h.invite))
	m.HandleFunc("POST /app/p/{project}/members/set", h.signedIn(h.setMember))
	m.HandleFunc("POST /app/p/{project}/members/remove", h.signedIn(h.removeMember))
	m.HandleFunc("POST /app/p/{project}/members/owner", h.signedIn(h.setUserRole))
	m.HandleFunc("POST /app/p/{project}/members/invitations/revoke", h.signedIn(h.revokeInvitation))
	m.HandleFunc("POST /app/p/{project}/members/reset", h.signedIn(h.resetLink))
	m.HandleFunc("GET /app/oauth/authorize", h.authorize)
	m.HandleFunc("POST /app/oauth/authorize", h.signedIn(h.authorizeAnswer))
	m.HandleFunc("POST /app/p/{project}/connect/grants/revoke", h.signedIn(h.revokeGrant))
	m.HandleFunc("GET /app/invite/{token}", h.inviteForm)
	m.HandleFunc("GET /app/reset/{token}", h.resetForm)
	// settings.go, terminology.go, checkups.go
	m.HandleFunc("POST /app/projects", h.signedIn(h.createProject))
	m.HandleFunc("GET /app/p/{project}/settings", h.signedIn(h.settings))
	m.HandleFunc("POST /app/p/{project}/settings/title", h.signedIn(h.setTitle))
	m.HandleFunc("POST /app/p/{project}/settings/syntax", h.signedIn(h.setSyntax))
	m.HandleFunc("POST /app/p/{project}/settings/archive", h.signedIn(h.archiveProject))
	m.HandleFunc("POST /app/p/{project}/settings/delete", h.signedIn(h.deleteProject))
	m.HandleFunc("POST /app/p/{project}/members/user-state", h.signedIn(h.setUserState))
	m.HandleFunc("POST /app/p/{project}/settings/languages", h.signedIn(h.addLanguage))
	m.HandleFunc("POST /app/p/{project}/settings/languages/remove", h.signedIn(h.removeLanguage))
	m.HandleFunc("POST /app/p/{project}/settings/languages/flags", h.signedIn(h.setLanguageFlags))
	m.HandleFunc("GET /app/p/{project}/terminology", h.signedIn(h.terminology))
	m.HandleFunc("POST /app/p/{project}/terminology/glossary", h.signedIn(h.addGlossary))
	m.HandleFunc("POST /app/p/{project}/terminology/glossary/remove", h.signedIn(h.removeGlossary))
	m.HandleFunc("POST /app/p/{project}/terminology/dnt", h.signedIn(h.addDNT))
	m.HandleFunc("POST /app/p/{project}/terminology/dnt/remove", h.signedIn(h.removeDNT))
	m.HandleFunc("POST /app/p/{project}/terminology/substitutions", h.signedIn(h.addSubstitution))
	m.HandleFunc("POST /app/p/{project}/terminology/substitutions/remove", h.signedIn(h.removeSubstitution))
	m.HandleFunc("GET /app/p/{project}/checkups", h.signedIn(h.checkups))
	m.HandleFunc("POST /app/p/{project}/checkups/run", h.signedIn(h.runCheckup))
	m.HandleFunc("POST /app/invite/{token}", h.acceptInvite)
	m.HandleFunc("POST /app/reset/{token}", h.resetPassword)
	for _, s := range h.opts.Sections {
		s.Routes(m, h.signedIn)
	}
	m.HandleFunc("/app/", func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, model.Errorf(model.CodeNotFound, "no such page"))
	})

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.fail(w, r, model.Errorf(model.CodeForbidden, "cross-site request refused"))
	}))
	return reqbody.Guard(secureHeaders(editorDoor(cop.Handler(m))), h.opts.BodyTimeout)
}

// Mount serves the application at /app/ and everything else with api: /app/ stays out of
// the API's route table and its OpenAPI description, which are the token API's.
func Mount(api, app http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/app" || strings.HasPrefix(r.URL.Path, "/app/") {
			app.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// cspPolicy is every page's Content-Security-Policy; the consent page adds the client's
// redirect origin to form-action, where its answer sends the browser.
const cspPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

// editorDoor marks every request as the editor's: the catalogue's gate admits to each
// operation the callers its row lists at this door.
func editorDoor(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(tools.WithDoor(r.Context(), tools.Editor)))
	})
}

// secureHeaders keep the pages from being framed or running scripts from anywhere else.
func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", cspPolicy)
		h.Set("X-Frame-Options", "DENY") // frame-ancestors for browsers that predate it
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

func cacheStatic(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		next.ServeHTTP(w, r)
	})
}

// session is the signed-in request's context.
type session struct {
	model.Session
	user     model.User
	projects []model.Project // the active projects of the user's workspace
}

type sessionKey struct{}

func sessionFrom(ctx context.Context) session {
	s, _ := ctx.Value(sessionKey{}).(session)
	return s
}

// signedIn opens the request's session or sends the browser to sign in; on POST it also
// reads the form (at most maxForm bytes) and checks the CSRF token.
func (h *handler) signedIn(next http.HandlerFunc) http.HandlerFunc {
	return h.signedInBody(maxForm, next)
}

// signedInBody is signedIn for a form of up to limit bytes (a file upload).
func (h *handler) signedInBody(limit int64, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(sessionCookie)
		var ctx context.Context
		var s model.Session
		if err == nil {
			ctx, s, err = h.cat.OpenSession(r.Context(), c.Value)
		}
		if err != nil {
			if model.ErrorCode(err) != model.CodeUnauthorized && err != http.ErrNoCookie {
				h.fail(w, r, err)
				return
			}
			if r.Method == http.MethodGet && !wantsJSON(r) && !isFragment(r) {
				http.Redirect(w, r, "/app/signin?next="+urlEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			h.fail(w, r, model.Errorf(model.CodeUnauthorized, "not signed in"))
			return
		}
		if r.Method == http.MethodPost {
			if limit > maxForm {
				// A file form: its body holds room in the server's bound on bytes in flight.
				release, err := h.holdBody(r, limit)
				if err != nil {
					h.fail(w, r, err)
					return
				}
				defer release()
			}
			if err := readBody(r, limit); err != nil {
				h.fail(w, r, err)
				return
			}
			tok := r.Header.Get("X-CSRF-Token")
			if tok == "" {
				tok = r.PostFormValue("csrf")
			}
			if !tools.CheckCSRF(s, tok) {
				h.fail(w, r, model.Errorf(model.CodeForbidden, "the form's CSRF token is missing or wrong; reload the page"))
				return
			}
		}
		me, err := h.cat.Me(ctx)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		next(w, r.WithContext(context.WithValue(ctx, sessionKey{}, session{Session: s, user: me.User, projects: *me.Projects})))
	}
}

// maxForm bounds a form body: a translation value is at most tools.MaxValueBytes.
const maxForm = 1 << 20

func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json") || strings.HasPrefix(r.Header.Get("Content-Type"), "application/json")
}

func isFragment(r *http.Request) bool { return r.Header.Get("X-Lokal-Fragment") != "" }

// fail answers an error: JSON in the API's error shape for scripts, a page for people. A
// token of another workspace is told the project does not exist.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	if sessionFrom(r.Context()).UserID != "" && model.ErrorCode(err) == model.CodeUnauthorized {
		// Signed in, but the project is another workspace's: to this user it does not exist.
		err = model.Errorf(model.CodeNotFound, "project not found")
	}
	code, msg := model.ErrorCode(err), model.ErrorMessage(err)
	status := httpx.Status(err)
	if status == http.StatusInternalServerError {
		h.opts.Logger.ErrorContext(r.Context(), "app request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		code, msg = model.CodeInternal, "something went wrong; it was logged"
	}
	httpx.SetRetryAfter(w, err)
	if wantsJSON(r) || isFragment(r) {
		writeJSON(w, r, status, map[string]string{"error": code, "message": msg})
		return
	}
	h.render(w, r, status, "error", map[string]any{"Status": status, "Code": code, "Message": msg})
}

// writeJSON answers v as the API would (package httpx); the editor's answers are the
// signed-in user's, so no cache keeps them.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, r, status, v)
}

// render writes a page, or the named fragment alone.
func (h *handler) render(w http.ResponseWriter, r *http.Request, status int, page string, data map[string]any) {
	t, ok := h.pages[page]
	if !ok {
		http.Error(w, "no template "+page, http.StatusInternalServerError)
		return
	}
	if data == nil {
		data = map[string]any{}
	}
	s := sessionFrom(r.Context())
	data["CSRF"] = s.CSRF
	if s.UserID != "" {
		data["User"] = s.user
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "page", data); err != nil {
		h.opts.Logger.ErrorContext(r.Context(), "rendering a page", "page", page, "err", err)
		http.Error(w, "rendering failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes()) //nolint:errcheck // the client left
}

// renderFragment writes one named template of page without the layout.
func (h *handler) renderFragment(w http.ResponseWriter, r *http.Request, page, name string, data any) {
	var buf bytes.Buffer
	if err := h.pages[page].ExecuteTemplate(&buf, name, data); err != nil {
		h.opts.Logger.ErrorContext(r.Context(), "rendering a fragment", "name", name, "err", err)
		http.Error(w, "rendering failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes()) //nolint:errcheck // the client left
}

func (h *handler) cookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/app/", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: h.opts.SecureCookies || r.TLS != nil})
}

func randomToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("reading random bytes: " + err.Error())
	}
	return hex.EncodeToString(b)
}

func (h *handler) signinForm(w http.ResponseWriter, r *http.Request) {
	tok := randomToken()
	h.cookie(w, r, signinCookie, tok, 3600)
	h.render(w, r, http.StatusOK, "signin", map[string]any{"SigninCSRF": tok, "Next": safeNext(r.URL.Query().Get("next"))})
}

func (h *handler) signin(w http.ResponseWriter, r *http.Request) {
	if err := readBody(r, 64<<10); err != nil {
		h.fail(w, r, err)
		return
	}
	c, err := r.Cookie(signinCookie)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		h.fail(w, r, model.Errorf(model.CodeForbidden, "the sign-in form expired; reload it and try again"))
		return
	}
	next := safeNext(r.PostFormValue("next"))
	out, err := h.cat.SignIn(r.Context(), tools.SignInIn{Email: r.PostFormValue("email"), Password: r.PostFormValue("password"), ClientIP: h.opts.ClientIP(r)})
	if err != nil {
		status := httpx.Status(err)
		if status == http.StatusInternalServerError {
			h.fail(w, r, err)
			return
		}
		httpx.SetRetryAfter(w, err)
		h.render(w, r, status, "signin", map[string]any{"SigninCSRF": c.Value, "Next": next, "Email": r.PostFormValue("email"), "Error": model.ErrorMessage(err)})
		return
	}
	h.cookie(w, r, sessionCookie, out.Token, int(tools.SessionLifetime.Seconds()))
	h.cookie(w, r, signinCookie, "", -1)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (h *handler) signout(w http.ResponseWriter, r *http.Request) {
	c, _ := r.Cookie(sessionCookie)
	if err := h.cat.SignOut(r.Context(), c.Value); err != nil {
		h.fail(w, r, err)
		return
	}
	h.cookie(w, r, sessionCookie, "", -1)
	http.Redirect(w, r, "/app/signin", http.StatusSeeOther)
}

// safeNext keeps redirects after sign-in inside the application.
func safeNext(next string) string {
	if strings.HasPrefix(next, "/app/") && !strings.HasPrefix(next, "/app//") && !strings.ContainsAny(next, "\\\r\n") {
		return next
	}
	return "/app/"
}

// ClientIPFrom returns the client address of a request by httpx's rule: the connection's,
// or when the connection comes from a trusted proxy, the nearest address in X-Forwarded-For
// that is not a trusted proxy.
func ClientIPFrom(trusted []netip.Prefix) func(*http.Request) string {
	return httpx.NewProxies(trusted).ClientIP
}
