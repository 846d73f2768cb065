package rest_test

// Slow, unread and broken bodies on every door lokal serve mounts (the API, MCP, the Embed's
// public routes and the editor), sent by a raw TCP client so that the framing can be
// broken and the connection watched: the answer must come in the error shape, and the
// connection must end after it.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// edgeBodyTimeout is the body time budget of the edge tests. The answer to a slow body is
// the proof that the budget ran out (the body never completes); how soon it came is not
// asserted, since a loaded machine would make that fail, and "never" is caught by the
// connection's one-minute read deadline.
const edgeBodyTimeout = time.Second

// edgeServer is s with every door on one handler, wired as lokal serve wires them, and a
// signed-in editor session.
type edgeServer struct {
	*server
	session string // the editor's session cookie value
	csrf    string
	version string // of the editor's row edit.greeting in nb
}

func newEdgeServer(t *testing.T, dialect string) *edgeServer {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	// Public limits off: the tables call resolve more often than a visitor may.
	off := map[string]int{tools.PublicResolveBudget.Name: -1, tools.PublicHarvestBudget.Name: -1}
	cat := storagetest.Catalog(db, &tools.Options{Budgets: off})
	quiet := slog.New(slog.DiscardHandler)
	api := rest.New(cat, &rest.Options{Logger: quiet, Health: db.Ping, BodyTimeout: edgeBodyTimeout,
		Public: public.Mount(cat, &public.Options{Logger: quiet})})
	hs := httptest.NewServer(app.Mount(api, app.New(cat, &app.Options{Logger: quiet, BodyTimeout: edgeBodyTimeout})))
	t.Cleanup(hs.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	t.Cleanup(client.CloseIdleConnections)
	s := &server{dialect: dialect, db: db, cat: cat, http: hs, client: client}
	s.useFixture(f)

	const pw = "correct horse battery"
	if err := cat.SetPassword(sys(t), f.User.ID, pw); err != nil {
		t.Fatal(err)
	}
	in, err := cat.SignIn(t.Context(), tools.SignInIn{Email: f.User.Email, Password: pw, ClientIP: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	_, sess, err := cat.OpenSession(t.Context(), in.Token)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.AddKey(sys(t), tools.AddKeyIn{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
		NamespaceKey: "edit", TranslationKey: "greeting"}, SourceValue: "Hello"}); err != nil {
		t.Fatal(err)
	}
	row, err := cat.RowDetails(sys(t), tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
		NamespaceKey: "edit", TranslationKey: "greeting"}, Language: "nb"})
	if err != nil {
		t.Fatal(err)
	}
	return &edgeServer{server: s, session: in.Token, csrf: sess.CSRF, version: row.Item.Version}
}

// door is one way in that reads a body: where to send it, the headers it needs, a whole
// body that it takes, and what the whole body answers.
type door struct {
	name    string
	method  string
	path    string
	header  map[string]string
	payload string
	whole   int // the status of the whole payload
	// broken is the status of a body that is slow, cut short or malformed, with its error
	// code (none for the harvest, which answers 204 to everything, as the spec says).
	slow, broken   int
	slowCode, code string
	// stored reports whether the payload was taken; nil when nothing can be seen.
	stored func(t *testing.T) bool
}

func (s *edgeServer) doors() []door {
	api := map[string]string{"Authorization": tokenAuth(s.rw), "Content-Type": "application/json"}
	mcp := map[string]string{"Authorization": tokenAuth(s.rw), "Content-Type": "application/json", "Accept": "application/json"}
	pub := map[string]string{"Content-Type": "application/json", "Origin": "https://edge.example"}
	editor := map[string]string{"Cookie": "lokal_session=" + s.session, "Content-Type": "application/x-www-form-urlencoded",
		"Accept": "application/json"}
	form := url.Values{"ns": {"edit"}, "key": {"greeting"}, "value": {"Hei"}, "version": {s.version}, "csrf": {s.csrf}}.Encode()
	ns := func(name string) func(t *testing.T) bool {
		return func(t *testing.T) bool { return s.flat(t, "en", name) != nil }
	}
	return []door{
		{name: "rest", method: "PUT", path: s.syncPath("en", "edge"), header: api, payload: `{"cut":"Value"}`,
			whole: 200, slow: 503, slowCode: "timeout", broken: 400, code: "invalid", stored: ns("edge")},
		{name: "mcp", method: "POST", path: "/api/" + s.proj.ID + "/mcp", header: mcp,
			payload: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"register_source_strings",` +
				`"arguments":{"namespace_key":"edgemcp","strings":{"cut":"Value"}}}}`,
			whole: 200, slow: 503, slowCode: "timeout", broken: 400, code: "invalid", stored: ns("edgemcp")},
		// An unknown public token: the whole body answers 404, so a 400 is the framing's.
		{name: "public-resolve", method: "POST", path: "/api/embed/resolve", header: pub, whole: 404,
			slow: 503, slowCode: "timeout", broken: 400, code: "invalid",
			payload: `{"token":"pub_unknown","host":"edge.example","page_lang":"en"}`},
		{name: "public-harvest", method: "POST", path: "/api/embed/" + s.proj.ID + "/harvest", header: pub, whole: 204,
			slow: 204, broken: 204, payload: `{"strings":["A sentence on the page that is long enough"]}`},
		{name: "app", method: "POST", path: "/app/p/" + s.proj.ID + "/review/nb/save", header: editor, payload: form,
			whole: 200, slow: 503, slowCode: "timeout", broken: 400, code: "invalid",
			stored: func(t *testing.T) bool { return s.nb(t, "edit", "greeting") == "Hei" }},
	}
}

// nb is the Norwegian value of key.
func (s *edgeServer) nb(t *testing.T, ns, key string) string {
	t.Helper()
	out, err := s.cat.GetTranslation(sys(t), tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID}, NamespaceKey: ns, TranslationKey: key})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range out.Translations {
		if v.Language == "nb" {
			return v.Value
		}
	}
	return ""
}

// rawConn is a client connection written byte by byte.
type rawConn struct {
	c *net.TCPConn
	r *bufio.Reader
}

func (s *edgeServer) dial(t *testing.T) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", s.http.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	// A guard against a hang, not the measure: the tests time the end themselves.
	c.SetReadDeadline(time.Now().Add(time.Minute))
	return &rawConn{c: c.(*net.TCPConn), r: bufio.NewReader(c)}
}

// head is a request head for d; framing is its Content-Length or Transfer-Encoding line.
func (d door) head(framing string, header map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n", d.method, d.path, framing)
	for k, v := range header {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	b.WriteString("\r\n")
	return b.String()
}

func contentLength(n int) string { return "Content-Length: " + strconv.Itoa(n) }

const chunked = "Transfer-Encoding: chunked"

func (c *rawConn) write(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(c.c, s); err != nil {
		t.Fatalf("writing the request: %v", err)
	}
}

// rawAnswer is a response and whether it closes the connection (net/http takes
// Connection: close out of the header into Close).
type rawAnswer struct {
	*response
	close bool
}

// answer reads one response.
func (c *rawConn) answer(t *testing.T) rawAnswer {
	t.Helper()
	res, err := http.ReadResponse(c.r, nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return rawAnswer{&response{status: res.StatusCode, header: res.Header, body: body}, res.Close}
}

// ended waits for the server to end the connection: EOF, or a reset when it closed with
// bytes of the body still unread.
func (c *rawConn) ended(t *testing.T) {
	t.Helper()
	n, err := c.r.Read(make([]byte, 1))
	var ne net.Error
	switch {
	case n > 0:
		t.Fatal("the server sent more after its answer")
	case err == io.EOF, errors.Is(err, syscall.ECONNRESET):
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatal("the connection is still open a minute after the answer")
	default:
		t.Fatalf("reading after the answer: %v", err)
	}
}

// trickle sends a byte of body every 200 ms until the server stops taking them or the test
// ends.
func (c *rawConn) trickle(t *testing.T, b byte) {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := c.c.Write([]byte{b}); err != nil {
					return
				}
			}
		}
	}()
}

// wantAnswer checks status and, when code is set, the error shape; every answer to a body
// that did not arrive whole closes the connection.
func wantAnswer(t *testing.T, r rawAnswer, status int, code string) {
	t.Helper()
	r.wantStatus(t, status)
	if code != "" {
		r.wantError(t, code)
	}
	if !r.close {
		t.Error("the answer lacks Connection: close")
	}
}

// TestSlowBodyEndsConnection: a client that sends its headers and then one byte of body every
// 200 ms gets 503 timeout in the error shape (the harvest its 204) once the body time budget
// has passed, and the connection then ends. With a declared length and chunked alike, on every door and both databases; a
// request answered before its body is read (no valid token, no session) ends the same way.
func TestSlowBodyEndsConnection(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := newEdgeServer(t, dialect)
		type row struct {
			name    string
			d       door
			framing string
			header  map[string]string
			status  int
			code    string
		}
		var rows []row
		for _, d := range s.doors() {
			for _, f := range []struct{ name, framing string }{{"length", contentLength(10000)}, {"chunked", chunked}} {
				rows = append(rows, row{name: d.name + "/" + f.name, d: d, framing: f.framing, header: d.header, status: d.slow, code: d.slowCode})
			}
		}
		ds := s.doors()
		rows = append(rows,
			row{name: "rest/unauthorized", d: ds[0], framing: contentLength(10000),
				header: map[string]string{"Authorization": "Token token=nope", "Content-Type": "application/json"}, status: 401, code: "unauthorized"},
			row{name: "app/signed-out", d: ds[4], framing: chunked,
				header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}, status: 401, code: "unauthorized"})
		for _, r := range rows {
			t.Run(r.name, func(t *testing.T) {
				t.Parallel()
				c := s.dial(t)
				c.write(t, r.d.head(r.framing, r.header))
				if r.framing == chunked {
					c.write(t, "2710\r\n") // one chunk of 10,000 bytes, never sent whole
				}
				c.trickle(t, ' ')
				wantAnswer(t, c.answer(t), r.status, r.code)
				c.ended(t)
			})
		}
	})
	// The stores are checked by TestBrokenBodyIsInvalid: a slow body never completes.
}

// TestBrokenBodyIsInvalid: a body whose framing is broken or that ends early (the client
// half-closes) answers 400 invalid in the error shape, never 500, stores nothing and ends
// the connection, on every door and both databases; the harvest answers its 204. Each
// broken body carries the door's whole payload where its framing lets it, so that reading
// it as if whole would store it. The same payload sent whole is then taken, keeps the
// connection open, and is stored: the check of "nothing stored" can fail.
func TestBrokenBodyIsInvalid(t *testing.T) {
	t.Parallel()
	variants := []struct {
		name    string
		framing func(p string) string
		body    func(p string) string
	}{
		// The issue's: five bytes announced, two sent.
		{"chunk cut short", func(string) string { return chunked }, func(string) string { return "5\r\nab" }},
		{"no last chunk", func(string) string { return chunked }, func(p string) string { return fmt.Sprintf("%x\r\n%s\r\n", len(p), p) }},
		{"chunk size not hex", func(string) string { return chunked }, func(p string) string { return "zz\r\n" + p + "\r\n0\r\n\r\n" }},
		{"chunk size overflows", func(string) string { return chunked }, func(p string) string { return "fffffffffffffffffff\r\n" + p }},
		{"no CRLF after chunk", func(string) string { return chunked }, func(p string) string { return fmt.Sprintf("%x\r\n%sXY0\r\n\r\n", len(p), p) }},
		{"broken trailer", func(string) string { return chunked }, func(p string) string { return fmt.Sprintf("%x\r\n%s\r\n0\r\nno colon\r\n\r\n", len(p), p) }},
		{"shorter than its length", func(p string) string { return contentLength(len(p) + 100) }, func(p string) string { return p }},
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := newEdgeServer(t, dialect)
		for _, d := range s.doors() {
			t.Run(d.name, func(t *testing.T) {
				t.Parallel()
				for _, v := range variants {
					c := s.dial(t)
					c.write(t, d.head(v.framing(d.payload), d.header)+v.body(d.payload))
					if err := c.c.CloseWrite(); err != nil {
						t.Fatal(err)
					}
					r := c.answer(t)
					if r.status != d.broken {
						t.Errorf("%s: status %d, want %d; body: %s", v.name, r.status, d.broken, truncated(r.body))
						continue
					}
					wantAnswer(t, r, d.broken, d.code)
					c.ended(t)
				}
				if d.stored != nil && d.stored(t) {
					t.Fatal("a broken body was stored")
				}

				c := s.dial(t)
				c.write(t, d.head(contentLength(len(d.payload)), d.header)+d.payload)
				r := c.answer(t)
				r.wantStatus(t, d.whole)
				if r.close {
					t.Error("a whole body's answer closes the connection; want it kept")
				}
				if d.stored != nil && !d.stored(t) {
					t.Fatal("the whole payload was not stored")
				}
			})
		}
	})
}
