package app_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// upload sends the import form: fields and the file, as a browser sends it.
func (b *browser) upload(t *testing.T, path string, fields map[string]string, name string, file []byte, withCSRF bool) page {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if withCSRF {
		mw.WriteField("csrf", b.csrf) //nolint:errcheck // into memory
	}
	for k, v := range fields {
		mw.WriteField(k, v) //nolint:errcheck // into memory
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file) //nolint:errcheck // into memory
	mw.Close()     //nolint:errcheck // into memory
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, b.e.srv.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.do(t, req)
}

var hiddenField = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// confirmForm is the preview's Confirm form as a browser would send it back.
func confirmForm(t *testing.T, p page) url.Values {
	t.Helper()
	i := strings.Index(p.body, `id="confirm-form"`)
	if i < 0 {
		t.Fatalf("the preview has no Confirm form: %.1500s", p.body)
	}
	form := url.Values{}
	for _, m := range hiddenField.FindAllStringSubmatch(p.body[i:], -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	return form
}

// apiFile is the same file through endpoint 1 with a format, with the read/write key.
func (e *env) apiFile(t *testing.T, lang, ns, query string) []byte {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, e.srv.URL+"/api/"+e.f.Project.ID+"/latest/"+lang+"/"+ns+"?"+query, nil)
	req.Header.Set("Authorization", "Token token="+e.f.RW)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET endpoint 1 ?%s: %d %s", query, res.StatusCode, b)
	}
	return b
}

func (e *env) approve(t *testing.T, ns, key, lang, value string) {
	t.Helper()
	if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref(ns, key, lang), Value: value, Status: model.StatusApproved}); err != nil {
		t.Fatal(err)
	}
}

// namespaces lists the project's namespaces.
func (e *env) namespaces(t *testing.T) []string {
	t.Helper()
	st, err := e.cat.GetProjectStatus(e.sys(t), tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}})
	if err != nil {
		t.Fatal(err)
	}
	return st.Namespaces
}

func TestExportDownload(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello", "farewell", "Goodbye", "untranslated", "Not yet")
		e.approve(t, "common", "greeting", "nb", "Hei")
		e.draft(t, "common", "farewell", "nb", "Ha det")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		proj := "/app/p/" + e.f.Project.ID
		b.get(t, proj+"/").want(t, http.StatusOK, `id="export-form"`, `<option selected>common</option>`, `<option>xcstrings</option>`, `value="all"`)

		for _, c := range []struct {
			format, approved, file, query string
		}{
			{"json", "", "common-nb.json", "format=json"},
			{"json", "1", "common-nb.json", "format=json&status=approved"},
			{"po", "", "common-nb.po", "format=po"},
			{"po", "1", "common-nb.po", "format=po&status=approved"},
		} {
			q := url.Values{"ns": {"common"}, "lang": {"nb"}, "format": {c.format}}
			if c.approved != "" {
				q.Set("approved", c.approved)
			}
			p := b.get(t, proj+"/export?"+q.Encode()).want(t, http.StatusOK)
			codec, _ := formats.Lookup(c.format)
			if ct := p.header.Get("Content-Type"); ct != codec.ContentType {
				t.Errorf("%s: Content-Type %q, want %q", c.format, ct, codec.ContentType)
			}
			disp, params, err := mime.ParseMediaType(p.header.Get("Content-Disposition"))
			if err != nil || disp != "attachment" || params["filename"] != c.file {
				t.Errorf("%s: Content-Disposition %q, want an attachment named %s", c.format, p.header.Get("Content-Disposition"), c.file)
			}
			if cc := p.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("%s: Cache-Control %q", c.format, cc)
			}
			// The page serves the catalogue's export: the API's file byte for byte.
			if want := e.apiFile(t, "nb", "common", c.query); p.body != string(want) {
				t.Errorf("%s approved=%q: the page's file differs from the API's:\n%s\nwant\n%s", c.format, c.approved, p.body, want)
			}
			f, err := formats.Decode(c.format, []byte(p.body), formats.Options{Language: "nb", SourceLanguage: "en"})
			if c.format == "json" {
				// JSON reading may not be built yet: the file is a flat map anyway.
				var m map[string]string
				err = json.Unmarshal([]byte(p.body), &m)
				f = &formats.File{}
				for k, v := range m {
					f.Entries = append(f.Entries, formats.Entry{Key: k, Values: map[string]formats.Value{"nb": {Text: v}}})
				}
			}
			if err != nil {
				t.Fatalf("%s: the download does not read back: %v\n%s", c.format, err, p.body)
			}
			got := map[string]string{}
			for _, en := range f.Entries {
				if v := en.Values["nb"].Text; v != "" {
					got[en.Key] = v
				}
			}
			want := map[string]string{"greeting": "Hei", "farewell": "Ha det"}
			if c.approved != "" {
				delete(want, "farewell") // an AI draft
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s approved=%q: translations %v, want %v", c.format, c.approved, got, want)
			}
		}
		// A PO file of the source language holds every key; all-language files are named
		// for the namespace alone.
		p := b.get(t, proj+"/export?ns=common&lang=en&format=po").want(t, http.StatusOK, `msgid "Not yet"`)
		if _, params, _ := mime.ParseMediaType(p.header.Get("Content-Disposition")); params["filename"] != "common-en.po" {
			t.Errorf("source-language PO named %q", params["filename"])
		}

		p = b.get(t, proj+"/export?ns=common&lang=all&format=csv").want(t, http.StatusOK, "greeting", "Hei")
		if _, params, _ := mime.ParseMediaType(p.header.Get("Content-Disposition")); params["filename"] != "common.csv" {
			t.Errorf("every language's CSV named %q", params["filename"])
		}

		// A refused export shows the page again, the message beside the form and the
		// fields kept.
		b.get(t, proj+"/export?ns=common&lang=all&format=po&approved=1").want(t, http.StatusBadRequest,
			`id="export-error"`, "language all is for formats that hold several languages", `<option value="all" selected>`, `<option selected>po</option>`, `name="approved" value="1" checked`)
		b.get(t, proj+"/export?ns=nope&lang=nb&format=po").want(t, http.StatusNotFound, `id="export-error"`, "nope")
		b.get(t, proj+"/export?ns=common&lang=nb&format=docx").want(t, http.StatusBadRequest, `id="export-error"`, "format must be one of")
	})
}

const sourcePO = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: en\n"

msgctxt "greeting"
msgid "Hello"
msgstr ""

msgctxt "signup"
msgid "Sign up"
msgstr ""
`

func TestImportPreviewAndConfirm(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello", "farewell", "Goodbye")
		e.approve(t, "common", "greeting", "nb", "Hei")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		proj := "/app/p/" + e.f.Project.ID

		// A source-language file into a new namespace: the preview lists the keys and
		// stores nothing, not even the namespace.
		fields := map[string]string{"namespace": "onboarding", "language": "en", "format": "po", "status": "approved", "preserve": "true"}
		p := b.upload(t, proj+"/import", fields, "en.po", []byte(sourcePO), true).want(t, http.StatusOK,
			"What the import would do", "Nothing is stored yet", "2 keys: 2 created, 0 updated", `<code class="key">signup</code>`, `id="confirm-form"`, "<code>en.po</code>")
		if slices.Contains(e.namespaces(t), "onboarding") {
			t.Fatal("the preview made the namespace")
		}
		// Confirm runs the real import of the same file.
		b.post(t, proj+"/import/confirm", confirmForm(t, p), true).want(t, http.StatusOK, "Imported", "Stored: 2 keys: 2 created")
		if !slices.Contains(e.namespaces(t), "onboarding") {
			t.Fatal("confirming stored no namespace")
		}
		if out, err := e.cat.GetTranslation(e.sys(t), e.ref("onboarding", "signup", "en").KeyRef); err != nil || out.Translations[0].Value != "Sign up" {
			t.Fatalf("after confirming, signup reads %+v, %v", out, err)
		}

		// A translation file of 60 keys, of which 58 are not in the namespace: the preview
		// shows the first 50 of each list and how many more; an AI-draft status is kept.
		var po strings.Builder
		po.WriteString("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Language: nb\\n\"\n")
		po.WriteString("\nmsgctxt \"greeting\"\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n")
		po.WriteString("\nmsgctxt \"farewell\"\nmsgid \"Goodbye\"\nmsgstr \"Ha det\"\n")
		for i := range 58 {
			fmt.Fprintf(&po, "\nmsgctxt \"gone.%02d\"\nmsgid \"Gone %d\"\nmsgstr \"Borte %d\"\n", i, i, i)
		}
		fields = map[string]string{"namespace": "common", "language": "nb", "format": "po", "status": "needs_review"}
		p = b.upload(t, proj+"/import", fields, "nb.po", []byte(po.String()), true).want(t, http.StatusOK,
			"60 keys: 0 created, 2 updated, 0 unchanged, 58 not found", "<h3 id=\"not-found-h\">Not found", `id="not-found-more">and 8 more`,
			`<code class="key">gone.49</code>`, "translations need review", `name="preserve" value="false"`)
		if strings.Contains(p.body, `<code class="key">gone.50</code>`) {
			t.Error("the preview lists more than 50 keys of a list")
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hei" || got.Status != model.StatusApproved {
			t.Fatalf("the preview changed greeting: %+v", got)
		}
		if got := e.row(t, "common", "farewell", "nb"); got.Value != "" {
			t.Fatalf("the preview stored farewell: %+v", got)
		}
		// Without the CSRF token the confirmation is refused and stores nothing.
		form := confirmForm(t, p)
		form.Del("csrf")
		b.post(t, proj+"/import/confirm", form, false).want(t, http.StatusForbidden)
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hei" {
			t.Fatalf("a confirmation without CSRF stored: %+v", got)
		}
		b.post(t, proj+"/import/confirm", form, true).want(t, http.StatusOK, "Stored: 60 keys: 0 created, 2 updated")
		for key, want := range map[string]string{"greeting": "Hallo", "farewell": "Ha det"} {
			if got := e.row(t, "common", key, "nb"); got.Value != want || got.Status != model.StatusNeedsReview {
				t.Errorf("after confirming, %s reads %q (%s), want %q needing review", key, got.Value, got.Status, want)
			}
		}

		// The upload form needs its CSRF token too.
		b.upload(t, proj+"/import", fields, "nb.po", []byte(po.String()), false).want(t, http.StatusForbidden)
		// No file: the form again, with the message.
		b.post(t, proj+"/import", url.Values{"namespace": {"common"}, "language": {"nb"}, "format": {"po"}}, true).want(t, http.StatusBadRequest, `id="import-error"`, "multipart")
	})
}

func TestImportBrokenFile(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		proj := "/app/p/" + e.f.Project.ID
		broken := sourcePO + "\nmsgctxt \"oops\"\nmsgid \"Unterminated\nmsgstr \"\"\n"
		line := strings.Count(sourcePO, "\n") + 3
		fields := map[string]string{"namespace": "fresh", "language": "en", "format": "po", "status": "needs_review"}
		p := b.upload(t, proj+"/import", fields, "broken.po", []byte(broken), true).want(t, http.StatusUnprocessableEntity,
			`id="import-error"`, "The file cannot be read", fmt.Sprintf("line %d", line),
			// The chosen fields are kept.
			`id="import-ns" name="namespace" value="fresh"`, `<option selected>po</option>`, `<option value="needs_review" selected>`)
		if strings.Contains(p.body, `name="preserve" value="true" checked`) {
			t.Error("the preserve box was unticked but shows ticked")
		}
		if slices.Contains(e.namespaces(t), "fresh") {
			t.Fatal("a broken file made its namespace")
		}
		if _, err := e.cat.GetTranslation(e.sys(t), e.ref("fresh", "greeting", "en").KeyRef); model.ErrorCode(err) != model.CodeNotFound {
			t.Fatalf("a broken file stored a key: %v", err)
		}

		// A file that parses but holds a value the value gate refuses: the catalogue's
		// message beside the form, nothing stored.
		before := e.rows(t)
		hostile := "msgctxt \"greeting\"\nmsgid \"Hello\"\nmsgstr \"javascript:alert(1)\"\n"
		fields = map[string]string{"namespace": "common", "language": "nb", "format": "po", "status": "approved"}
		b.upload(t, proj+"/import", fields, "nb.po", []byte(hostile), true).want(t, http.StatusUnprocessableEntity, `id="import-error"`, "javascript")
		if after := e.rows(t); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Fatalf("a refused file changed rows:\n%v\nwas\n%v", after, before)
		}
	})
}

func TestFilesOtherWorkspace(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "greeting", "Hello")
		b := e.browser(t)
		b.signIn(t, e.f.OtherUser.Email)
		proj := "/app/p/" + e.f.Project.ID
		b.get(t, proj+"/export?ns=common&lang=en&format=po").want(t, http.StatusNotFound, "project not found")
		fields := map[string]string{"namespace": "common", "language": "en", "format": "po", "preserve": "false"}
		b.upload(t, proj+"/import", fields, "en.po", []byte(sourcePO), true).want(t, http.StatusNotFound, "project not found")
		form := url.Values{"namespace": {"common"}, "language": {"en"}, "format": {"po"}, "status": {"approved"}, "preserve": {"false"},
			"content": {base64.RawURLEncoding.EncodeToString([]byte(sourcePO))}}
		b.post(t, proj+"/import/confirm", form, true).want(t, http.StatusNotFound, "project not found")
		if out, err := e.cat.GetTranslation(e.sys(t), e.ref("common", "signup", "en").KeyRef); model.ErrorCode(err) != model.CodeNotFound {
			t.Fatalf("another workspace's session imported: %+v, %v", out, err)
		}
	})
}

// TestFileCap: the page takes files up to the import endpoint's cap.
func TestFileCap(t *testing.T) {
	t.Parallel()
	if app.MaxFile != rest.MaxBody {
		t.Fatalf("the page's file cap is %d bytes, the API's %d", app.MaxFile, rest.MaxBody)
	}
	e := newEnv(t, "sqlite", nil)
	b := e.browser(t)
	b.signIn(t, e.f.User.Email)
	proj := "/app/p/" + e.f.Project.ID
	fields := map[string]string{"namespace": "big", "language": "en", "format": "po", "preserve": "true"}
	b.upload(t, proj+"/import", fields, "big.po", bytes.Repeat([]byte("#\n"), rest.MaxBody/2+1), true).
		want(t, http.StatusRequestEntityTooLarge, `id="import-error"`, "over 5 MB")
	// A file of exactly the cap is previewed, and its confirmation, the file in base64, is
	// taken too. The race run (-short) leaves the 5 MB walk to the plain run.
	if testing.Short() {
		return
	}
	full := append(bytes.Repeat([]byte("#\n"), rest.MaxBody/2-len(sourcePO)/2), sourcePO...)
	full = append(full, bytes.Repeat([]byte("\n"), rest.MaxBody-len(full))...)
	p := b.upload(t, proj+"/import", fields, "big.po", full, true).want(t, http.StatusOK, "2 keys: 2 created")
	b.post(t, proj+"/import/confirm", confirmForm(t, p), true).want(t, http.StatusOK, "Stored: 2 keys: 2 created")
}

// TestFilesCSVCells: the editor's download guards a CSV cell a spreadsheet would run,
// writes it raw when asked, and its import (preview, then confirm) reads a raw file raw.
func TestFilesCSVCells(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "link", `=HYPERLINK("http://evil.test","x")`)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		proj := "/app/p/" + e.f.Project.ID
		b.get(t, proj+"/").want(t, http.StatusOK, `name="csv_cells" value="raw"`)
		q := url.Values{"ns": {"common"}, "lang": {"en"}, "format": {"csv"}}
		b.get(t, proj+"/export?"+q.Encode()).want(t, http.StatusOK, `link,"'=HYPERLINK(`)
		q.Set("csv_cells", "raw")
		b.get(t, proj+"/export?"+q.Encode()).want(t, http.StatusOK, `link,"=HYPERLINK(`)

		fields := map[string]string{"namespace": "raw", "language": "en", "format": "csv", "status": "approved", "preserve": "true", "csv_cells": "raw"}
		p := b.upload(t, proj+"/import", fields, "raw.csv", []byte("key,en\nquoted,'=1\n"), true).want(t, http.StatusOK, `name="csv_cells" value="raw"`)
		b.post(t, proj+"/import/confirm", confirmForm(t, p), true).want(t, http.StatusOK, "Imported")
		if out, err := e.cat.GetTranslation(e.sys(t), e.ref("raw", "quoted", "en").KeyRef); err != nil || out.Translations[0].Value != "'=1" {
			t.Fatalf("a raw import read %+v, %v; want '=1 kept", out, err)
		}
	})
}
