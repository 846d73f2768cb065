package rest_test

// The API tests run the real router over a real database, SQLite and PostgreSQL, through
// httptest: a server per test (or per scenario) with fixtures made through the catalogue,
// a small request helper, and a table runner in the style of pocketbase's API scenarios.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// server is the API over a fresh database of one dialect holding storagetest's Fixture
// (the field names below are the fixture's, shortened):
//
//   - workspace ws with user u, project proj (source en; nb and sv on) and project sibling;
//   - on proj: read/write key rw, read-only key ro, the user's project token pat;
//   - the user's workspace token wsToken, which opens proj and sibling;
//   - workspace otherWS with project other, its read/write key otherRW, read-only key otherRO
//     and a workspace token otherWSToken, for cross-project and cross-workspace checks.
type server struct {
	dialect string
	db      *storage.DB
	cat     *tools.Catalog
	http    *httptest.Server
	client  *http.Client

	ws      model.Workspace
	user    model.User
	proj    model.Project
	sibling model.Project
	rw      string
	ro      string
	pat     string
	wsToken string

	otherWS      model.Workspace
	other        model.Project
	otherRW      string
	otherRO      string
	otherWSToken string
}

// newServer opens a fresh database of dialect with the fixture and builds the router over a
// catalogue with opts (nil for the defaults).
func newServer(t *testing.T, dialect string, opts *tools.Options) *server {
	t.Helper()
	return newServerWith(t, dialect, opts, nil)
}

// newServerWith is newServer with router options too (body budgets and timeouts); nil
// router options are the defaults.
func newServerWith(t *testing.T, dialect string, opts *tools.Options, routerOpts *rest.Options) *server {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	s := serveWith(t, dialect, db, opts, routerOpts)
	s.useFixture(f)
	return s
}

// serve is the router over db, without fixtures.
func serve(t *testing.T, dialect string, db *storage.DB, opts *tools.Options) *server {
	t.Helper()
	return serveWith(t, dialect, db, opts, nil)
}

// serveWith is serve with router options; their Health and Logger are the harness's.
func serveWith(t *testing.T, dialect string, db *storage.DB, opts *tools.Options, routerOpts *rest.Options) *server {
	t.Helper()
	cat := storagetest.Catalog(db, opts)
	o := rest.Options{}
	if routerOpts != nil {
		o = *routerOpts
	}
	o.Health = db.Ping
	o.Logger = slog.New(slog.DiscardHandler)
	hs := httptest.NewServer(rest.New(cat, &o))
	t.Cleanup(hs.Close)
	// No transparent gzip: the tests look at Content-Encoding themselves.
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	t.Cleanup(client.CloseIdleConnections)
	return &server{dialect: dialect, db: db, cat: cat, http: hs, client: client}
}

// peer is another server instance over db, a second connection to s's database, as a
// second process would be; it knows s's fixtures.
func (s *server) peer(t *testing.T, db *storage.DB) *server {
	t.Helper()
	p := serve(t, s.dialect, db, nil)
	cp := *s
	cp.db, cp.cat, cp.http, cp.client = p.db, p.cat, p.http, p.client
	return &cp
}

// useFixture names the fixture's rows on s.
func (s *server) useFixture(f storagetest.Fixture) {
	s.ws, s.user, s.proj, s.sibling = f.Workspace, f.User, f.Project, f.Sibling
	s.rw, s.ro, s.pat, s.wsToken = f.RW, f.RO, f.PAT, f.WSToken
	s.otherWS, s.other = f.OtherWorkspace, f.Other
	s.otherRW, s.otherRO, s.otherWSToken = f.OtherRW, f.OtherRO, f.OtherWSToken
}

// key makes another API key on a project.
func (s *server) key(t *testing.T, projectID string, readOnly bool) string {
	t.Helper()
	k, err := s.cat.CreateAPIKey(sys(t), tools.CreateAPIKeyIn{ProjectID: projectID, ReadOnly: readOnly})
	if err != nil {
		t.Fatalf("creating API key: %v", err)
	}
	return k.Key
}

// sys is a context of the system principal, as the admin CLI has.
func sys(t *testing.T) context.Context {
	return model.WithPrincipal(t.Context(), tools.System)
}

// forEachDialect runs fn on a fresh server of each dialect, as parallel subtests "sqlite"
// and "postgres" (the PostgreSQL one skips without LOKAL_TEST_POSTGRES, and fails under
// CI=true). Subtests that fn runs on its server stay in order.
func forEachDialect(t *testing.T, fn func(t *testing.T, s *server)) {
	t.Helper()
	forEachDialectWith(t, nil, fn)
}

// oneAtATime skips a test in the race run (-short): it sends its requests one at a time
// (hostile inputs, tables of calls), so the detector would see nothing the concurrent tests
// (api_concurrency_test.go, api_instances_test.go) do not, at a few times the cost. The
// plain run keeps it.
func oneAtATime(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: requests one at a time; the plain run covers it")
	}
}

// forEachDialectWith is forEachDialect with catalogue options (limits, clock, budgets).
func forEachDialectWith(t *testing.T, opts *tools.Options, fn func(t *testing.T, s *server)) {
	t.Helper()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		fn(t, newServer(t, dialect, opts))
	})
}

// forEachDialectRouter is forEachDialect with router options (body budgets, timeouts).
func forEachDialectRouter(t *testing.T, routerOpts *rest.Options, fn func(t *testing.T, s *server)) {
	t.Helper()
	storagetest.ForEachDialectInOrder(t, func(t *testing.T, dialect string) {
		fn(t, newServerWith(t, dialect, nil, routerOpts))
	})
}

// Authorization header values.
func tokenAuth(key string) string  { return "Token token=" + key }
func bearerAuth(tok string) string { return "Bearer " + tok }

// expand replaces the fixture placeholders of a scenario string: {project}, {sibling},
// {other}, {rw}, {ro}, {pat}, {ws}, {other_rw}, {other_ro}, {other_ws}, {user}.
func (s *server) expand(v string) string {
	return strings.NewReplacer(
		"{project}", s.proj.ID, "{sibling}", s.sibling.ID, "{other}", s.other.ID,
		"{rw}", s.rw, "{ro}", s.ro, "{pat}", s.pat, "{ws}", s.wsToken,
		"{other_rw}", s.otherRW, "{other_ro}", s.otherRO, "{other_ws}", s.otherWSToken,
		"{user}", s.user.ID,
	).Replace(v)
}

// response is what a request answered.
type response struct {
	status int
	header http.Header
	body   []byte
}

// request is one call: Auth is the whole Authorization header value (none when empty);
// Body is sent as is when it is a string or []byte, as JSON otherwise, and not at all when
// nil; Chunked hides the length so the server sees a chunked body.
type request struct {
	Method  string
	Path    string
	Auth    string
	Header  map[string]string
	Body    any
	Chunked bool
}

func (s *server) do(t *testing.T, r request) *response {
	t.Helper()
	res, err := s.send(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// send is do for other goroutines than the test's: it returns its error.
func (s *server) send(ctx context.Context, r request) (*response, error) {
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, fmt.Errorf("encoding request body: %w", err)
		}
		body = bytes.NewReader(data)
	}
	if r.Chunked && body != nil {
		body = io.MultiReader(body) // an unknown length: sent chunked
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, s.http.URL+r.Path, body)
	if err != nil {
		return nil, fmt.Errorf("building %s %s: %w", r.Method, r.Path, err)
	}
	if r.Auth != "" {
		req.Header.Set("Authorization", r.Auth)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.Header {
		req.Header.Set(k, v)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the answer to %s %s: %w", r.Method, r.Path, err)
	}
	return &response{status: res.StatusCode, header: res.Header, body: data}, nil
}

// call is do for the common case.
func (s *server) call(t *testing.T, method, path, auth string, body any) *response {
	t.Helper()
	return s.do(t, request{Method: method, Path: path, Auth: auth, Body: body})
}

// Paths of the endpoints on the main project.
func (s *server) readPath(lang, ns string) string {
	return "/api/" + s.proj.ID + "/latest/" + lang + "/" + ns
}
func (s *server) missingPath(lang, ns string) string {
	return "/api/missing/" + s.proj.ID + "/latest/" + lang + "/" + ns
}
func (s *server) syncPath(lang, ns string) string {
	return "/api/sync/" + s.proj.ID + "/latest/" + lang + "/" + ns
}
func (s *server) overwritePath(lang, ns string) string {
	return "/api/overwrite/" + s.proj.ID + "/latest/" + lang + "/" + ns
}
func (s *server) stalePath(ns, query string) string {
	p := "/api/stale/" + s.proj.ID + "/latest/" + ns
	if query != "" {
		p += "?" + query
	}
	return p
}
func (s *server) pageStringsPath(ns string) string {
	return "/api/" + s.proj.ID + "/sync_page_strings/" + ns
}

// wantStatus fails the test when r has another status.
func (r *response) wantStatus(t *testing.T, want int) *response {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body: %s", r.status, want, truncated(r.body))
	}
	return r
}

func truncated(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// decode decodes the JSON body into v.
func (r *response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("body is not the JSON expected (%v): %s", err, truncated(r.body))
	}
}

// wantError checks the spec's error shape {"error": code, "message"?: text}: an object
// with a string error (equal to code unless code is empty) and at most a string message.
func (r *response) wantError(t *testing.T, code string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("error body is not a JSON object (%v): %s", err, truncated(r.body))
	}
	e, ok := m["error"].(string)
	if !ok || e == "" {
		t.Fatalf("error body has no error code: %s", truncated(r.body))
	}
	if code != "" && e != code {
		t.Errorf("error code %q, want %q; body: %s", e, code, truncated(r.body))
	}
	for k, v := range m {
		switch k {
		case "error":
		case "message":
			if _, ok := v.(string); !ok {
				t.Errorf("error message is not a string: %s", truncated(r.body))
			}
		default:
			t.Errorf("error body has an extra field %q: %s", k, truncated(r.body))
		}
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("error Content-Type %q, want application/json", ct)
	}
}

// jsonEqual reports whether two JSON-encodable values are equal once both are in their
// decoded form (numbers as float64, maps and slices as any).
func jsonEqual(t *testing.T, got, want any) bool {
	t.Helper()
	return reflect.DeepEqual(normalize(t, got), normalize(t, want))
}

func normalize(t *testing.T, v any) any {
	t.Helper()
	var data []byte
	switch v := v.(type) {
	case []byte:
		data = v
	case json.RawMessage:
		data = v
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			t.Fatalf("encoding %v: %v", v, err)
		}
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("decoding %s: %v", truncated(data), err)
	}
	return out
}

// flat fetches a namespace through endpoint 1 with the read/write key; a namespace that
// does not exist (404) gives nil.
func (s *server) flat(t *testing.T, lang, ns string) map[string]string {
	t.Helper()
	r := s.call(t, "GET", s.readPath(lang, ns), tokenAuth(s.rw), nil)
	if r.status == http.StatusNotFound {
		return nil
	}
	r.wantStatus(t, http.StatusOK)
	m := map[string]string{}
	r.decode(t, &m)
	return m
}

// wantFlat checks the namespace in lang; want nil means the namespace must not exist.
func (s *server) wantFlat(t *testing.T, lang, ns string, want map[string]string) {
	t.Helper()
	got := s.flat(t, lang, ns)
	if want == nil {
		if got != nil {
			t.Fatalf("namespace %s exists, want none; %s: %v", ns, lang, got)
		}
		return
	}
	if got == nil {
		t.Fatalf("namespace %s does not exist, want %s: %v", ns, lang, want)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("namespace %s in %s:\n got %v\nwant %v", ns, lang, got, want)
	}
}

// syncOut is the 200 body of endpoint 3.
type syncOut struct {
	Summary struct {
		TotalIncoming      int `json:"total_incoming"`
		Created            int `json:"created"`
		Hidden             int `json:"hidden"`
		Unhidden           int `json:"unhidden"`
		SourceValueChanged int `json:"source_value_changed"`
		Unchanged          int `json:"unchanged"`
		Filled             int `json:"filled"`
	} `json:"summary"`
	Created            []string `json:"created"`
	Unhidden           []string `json:"unhidden"`
	Hidden             []string `json:"hidden"`
	SourceValueChanged []string `json:"source_value_changed"`
	Filled             []string `json:"filled"`
}

// overwriteOut is the 200 body of endpoint 4.
type overwriteOut struct {
	Summary struct {
		TotalIncoming int `json:"total_incoming"`
		Updated       int `json:"updated"`
		Refreshed     int `json:"refreshed"`
		Unchanged     int `json:"unchanged"`
		NotFound      int `json:"not_found"`
	} `json:"summary"`
	Updated   []string `json:"updated"`
	Refreshed []string `json:"refreshed"`
	Unchanged []string `json:"unchanged"`
	NotFound  []string `json:"not_found"`
}

// sync runs endpoint 3 with the read/write key and wants 200.
func (s *server) sync(t *testing.T, lang, ns string, body any) syncOut {
	t.Helper()
	var out syncOut
	s.call(t, "PUT", s.syncPath(lang, ns), tokenAuth(s.rw), body).wantStatus(t, http.StatusOK).decode(t, &out)
	return out
}

// overwrite runs endpoint 4 with the read/write key and wants 200.
func (s *server) overwrite(t *testing.T, lang, ns string, values map[string]string) overwriteOut {
	t.Helper()
	var out overwriteOut
	s.call(t, "PUT", s.overwritePath(lang, ns), tokenAuth(s.rw), values).wantStatus(t, http.StatusOK).decode(t, &out)
	return out
}

// stale runs endpoint 5 with the read/write key and wants 200; it returns the sorted keys.
func (s *server) stale(t *testing.T, ns, query string) []string {
	t.Helper()
	var out struct {
		Lang      string   `json:"lang"`
		StaleKeys []string `json:"stale_keys"`
	}
	s.call(t, "GET", s.stalePath(ns, query), tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK).decode(t, &out)
	if out.StaleKeys == nil {
		t.Fatalf("stale_keys is not an array")
	}
	sort.Strings(out.StaleKeys)
	return out.StaleKeys
}

// sameKeys compares key lists in any order; nil and empty are the same.
func sameKeys(got, want []string) bool {
	g := append([]string{}, got...)
	w := append([]string{}, want...)
	sort.Strings(g)
	sort.Strings(w)
	return reflect.DeepEqual(g, w)
}

func wantKeys(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !sameKeys(got, want) {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

// rowRef names one key's row in lang on the main project.
func (s *server) rowRef(ns, key, lang string) tools.RowRef {
	return tools.RowRef{KeyRef: s.keyRef(ns, key), Language: lang}
}

func (s *server) keyRef(ns, key string) tools.KeyRef {
	return tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID}, NamespaceKey: ns, TranslationKey: key}
}

// translation reads one key's row in lang through the catalogue (MCP get_translation):
// flags, statuses and source versions have no REST view. ok is false when the key exists
// but has no row in lang; a key that does not exist fails the test.
func (s *server) translation(t *testing.T, ns, key, lang string) (tools.TranslationView, bool) {
	t.Helper()
	out, err := s.cat.GetTranslation(sys(t), s.keyRef(ns, key))
	if err != nil {
		t.Fatalf("reading %s/%s: %v", ns, key, err)
	}
	for _, v := range out.Translations {
		if v.Language == lang {
			return v, true
		}
	}
	return tools.TranslationView{}, false
}

// keyExists reports whether the namespace has key, hidden or not.
func (s *server) keyExists(t *testing.T, ns, key string) bool {
	t.Helper()
	_, err := s.cat.GetTranslation(sys(t), s.keyRef(ns, key))
	if model.IsNotFound(err) {
		return false
	}
	if err != nil {
		t.Fatalf("reading %s/%s: %v", ns, key, err)
	}
	return true
}

// lock sets language_locked on a row through the catalogue (MCP flag_translation): REST
// has no way to.
func (s *server) lock(t *testing.T, ns, key, lang string) {
	t.Helper()
	if _, err := s.cat.FlagTranslation(sys(t), tools.FlagIn{RowRef: s.rowRef(ns, key, lang), Flag: model.FlagLanguageLocked, Value: true}); err != nil {
		t.Fatalf("locking %s/%s in %s: %v", ns, key, lang, err)
	}
}

// draft stores a needs_review value through the catalogue (MCP update_translation), the
// way AI drafts land: REST writes are approved.
func (s *server) draft(t *testing.T, ns, key, lang, value string) {
	t.Helper()
	if _, err := s.cat.UpdateTranslation(sys(t), tools.UpdateTranslationIn{RowRef: s.rowRef(ns, key, lang), Value: value}); err != nil {
		t.Fatalf("drafting %s/%s in %s: %v", ns, key, lang, err)
	}
	if v, _ := s.translation(t, ns, key, lang); v.Status != model.StatusNeedsReview {
		t.Fatalf("draft %s/%s in %s has status %q", ns, key, lang, v.Status)
	}
}

// scenario is one row of an API table: a request (placeholders of expand allowed in Path,
// Auth and string bodies), the answer wanted, and optional set-up and extra checks.
type scenario struct {
	name   string
	setup  func(t *testing.T, s *server)
	method string
	path   string
	auth   string
	header map[string]string
	body   any
	// chunked sends the body without a length.
	chunked bool

	wantStatus int               // 0: checked by check
	wantError  string            // the error code of an error body ("" = do not check)
	wantJSON   string            // the whole body, compared as JSON
	wantFields map[string]any    // these top-level fields of a JSON object body
	wantEmpty  bool              // an empty body
	wantHeader map[string]string // these headers, exactly
	check      func(t *testing.T, s *server, r *response)
}

// runScenarios runs each scenario on a fresh server of each dialect, all in parallel.
//
// The race run (-race -short) skips the tables: a scenario sends one request at a time to
// a server of its own, so the detector could only catch what the other tests catch, which
// start the same server and its watcher and run the same handlers, some concurrently
// (api_concurrency_test.go, api_instances_test.go). `go test` without -short runs them.
func runScenarios(t *testing.T, scenarios []scenario) {
	t.Helper()
	if testing.Short() {
		t.Skip("scenario table: one request at a time; run without -short")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		if dialect == "postgres" && os.Getenv(storagetest.EnvPostgres) == "" {
			storagetest.DSN(t, dialect) // skips (or fails under CI=true) once, not per scenario
		}
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				sc.run(t, newServer(t, dialect, nil))
			})
		}
	})
}

func (sc scenario) run(t *testing.T, s *server) {
	t.Helper()
	if sc.setup != nil {
		sc.setup(t, s)
	}
	body := sc.body
	if str, ok := body.(string); ok {
		body = s.expand(str)
	}
	r := s.do(t, request{Method: sc.method, Path: s.expand(sc.path), Auth: s.expand(sc.auth), Header: sc.header, Body: body, Chunked: sc.chunked})
	if sc.wantStatus != 0 && r.status != sc.wantStatus {
		t.Errorf("status %d, want %d; body: %s", r.status, sc.wantStatus, truncated(r.body))
	}
	if sc.wantError != "" {
		r.wantError(t, sc.wantError)
	}
	if sc.wantJSON != "" && !jsonEqual(t, r.body, []byte(s.expand(sc.wantJSON))) {
		t.Errorf("body %s, want %s", truncated(r.body), s.expand(sc.wantJSON))
	}
	if len(sc.wantFields) > 0 {
		var m map[string]json.RawMessage
		r.decode(t, &m)
		for k, want := range sc.wantFields {
			got, ok := m[k]
			if !ok {
				t.Errorf("body has no field %q: %s", k, truncated(r.body))
				continue
			}
			if !jsonEqual(t, got, want) {
				t.Errorf("field %q is %s, want %v", k, got, want)
			}
		}
	}
	if sc.wantEmpty && len(r.body) != 0 {
		t.Errorf("body %q, want none", truncated(r.body))
	}
	for k, want := range sc.wantHeader {
		if got := r.header.Get(k); got != want {
			t.Errorf("header %s is %q, want %q", k, got, want)
		}
	}
	if sc.check != nil {
		sc.check(t, s, r)
	}
}

// seed gives the main project a namespace "common" with a visible key, a hidden key and a
// Norwegian value, and "common" on the sibling project too.
func seed(t *testing.T, s *server) {
	t.Helper()
	s.sync(t, "en", "common", map[string]string{"greeting": "Hello", "old": "Old"})
	s.sync(t, "en", "common", map[string]string{"greeting": "Hello"}) // hides old
	s.overwrite(t, "nb", "common", map[string]string{"greeting": "Hei"})
	s.call(t, "PUT", "/api/sync/"+s.sibling.ID+"/latest/en/common", bearerAuth(s.wsToken),
		map[string]string{"title": "Docs"}).wantStatus(t, http.StatusOK)
}
