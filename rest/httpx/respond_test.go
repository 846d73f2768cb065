package httpx

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// answer is what a door wrote for err.
func answer(t *testing.T, d *Door, err error) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	d.WriteError(w, httptest.NewRequest("GET", "/api/x", nil), err)
	if ct := w.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	return w
}

func TestWriteErrorEveryCode(t *testing.T) {
	for code, status := range statusOfCode {
		for _, door := range []struct {
			name string
			d    *Door
		}{{"api", API}, {"public", Public}} {
			w := answer(t, door.d, model.Errorf(code, "the <b>%s</b> & more", code))
			want := fmt.Sprintf(`{"error":%q,"message":"the <b>%s</b> & more"}`+"\n", code, code)
			if door.d == API && (code == model.CodeNotConfigured || code == tools.CodeDispatchFailed) {
				want = fmt.Sprintf(`{"ok":false,"error":%q,"message":"the <b>%s</b> & more"}`+"\n", code, code)
			}
			if w.Code != status || w.Body.String() != want {
				t.Errorf("%s %s: %d %s, want %d %s", door.name, code, w.Code, w.Body, status, want)
			}
		}
	}
}

func TestWriteErrorWithoutMessage(t *testing.T) {
	w := answer(t, API, &model.Error{Code: model.CodeNotFound})
	if got := w.Body.String(); got != `{"error":"not_found"}`+"\n" {
		t.Errorf("body %s", got)
	}
}

// captureLog points the default logger at a buffer for the test; tests using it do not
// run in parallel.
func captureLog(t *testing.T) *bytes.Buffer {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(old) })
	return &buf
}

func TestWriteErrorInternal(t *testing.T) {
	for _, door := range []*Door{API, Public} {
		logs := captureLog(t)
		w := answer(t, door, fmt.Errorf("query: %w", errors.New("password=hunter2 refused")))
		if w.Code != 500 || w.Body.String() != `{"error":"internal","message":"internal error"}`+"\n" {
			t.Errorf("%s: %d %s", door.LogMessage, w.Code, w.Body)
		}
		if !strings.Contains(logs.String(), door.LogMessage) || !strings.Contains(logs.String(), "hunter2") {
			t.Errorf("the internal error was not logged in full: %s", logs)
		}
	}
	logs := captureLog(t)
	answer(t, API, model.Errorf(model.CodeNotFound, "no such key"))
	if logs.Len() != 0 {
		t.Errorf("a caller's error was logged: %s", logs)
	}
}

func TestWriteErrorDeadline(t *testing.T) {
	captureLog(t)
	err := fmt.Errorf("writing: %w", context.DeadlineExceeded)
	if w := answer(t, API, err); w.Code != 503 || !strings.HasPrefix(w.Body.String(), `{"error":"timeout","message":"the request ran past its time budget`) {
		t.Errorf("api: %d %s", w.Code, w.Body)
	}
	if w := answer(t, Public, err); w.Code != 500 || w.Body.String() != `{"error":"internal","message":"internal error"}`+"\n" {
		t.Errorf("public: %d %s", w.Code, w.Body)
	}
}

func TestRetryAfter(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&model.Error{Code: model.CodeRateLimited, RetryAfter: 1500 * time.Millisecond}, "2"},
		{&model.Error{Code: model.CodeRateLimited, RetryAfter: time.Millisecond}, "1"},
		{&model.Error{Code: model.CodeUnavailable, RetryAfter: time.Minute}, "60"},
		{&model.Error{Code: model.CodeRateLimited}, ""},
		{model.Errorf(model.CodeInvalid, "x"), ""},
	} {
		for _, d := range []*Door{API, Public} {
			w := answer(t, d, c.err)
			if got := w.Header().Get("Retry-After"); got != c.want {
				t.Errorf("%v: Retry-After %q, want %q", c.err, got, c.want)
			}
		}
	}
}

func TestWriteJSONDoesNotEscapeHTML(t *testing.T) {
	w := httptest.NewRecorder()
	WriteJSON(w, httptest.NewRequest("GET", "/", nil), http.StatusCreated, map[string]string{"v": `<a href="x">&</a>`})
	if w.Code != 201 || w.Body.String() != `{"v":"<a href=\"x\">&</a>"}`+"\n" {
		t.Errorf("%d %s", w.Code, w.Body)
	}
	b, err := Marshal(map[string]string{"v": "<&>"})
	if err != nil || string(b) != `{"v":"<&>"}` {
		t.Errorf("Marshal: %s, %v", b, err)
	}
	if _, err := Marshal(make(chan int)); err == nil {
		t.Error("Marshal took a channel")
	}
}

func TestGinErrorAbortsTheChain(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	reached := false
	r.GET("/x", func(c *gin.Context) { API.GinError(c, model.Errorf(model.CodeForbidden, "no")) }, func(*gin.Context) { reached = true })
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("GET", "/x", nil))
	if reached || w.Code != 403 || w.Body.String() != `{"error":"forbidden","message":"no"}`+"\n" {
		t.Errorf("reached %v, %d %s", reached, w.Code, w.Body)
	}
}
