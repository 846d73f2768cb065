package app

import (
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// Translation files on the project page: a download per namespace, language and format
// through the catalogue's export, and an upload that is first imported as a dry run and
// shown, then imported for real when the user confirms.

// maxFile is the largest file the page imports: the import endpoint's body cap
// (rest.MaxBody), so that a file the API takes the page takes too.
const maxFile = 5 << 20

// An upload's body is the file and a few fields in a multipart form; the confirmation
// carries the file back in base64 (unpadded URL alphabet, which form encoding leaves as
// it is) with the same fields.
const (
	maxUpload  = maxFile + 64<<10
	maxConfirm = (maxFile+2)/3*4 + 64<<10
)

// previewListLen is how many keys of each list the preview and the result show.
const previewListLen = 50

// exportForm is the download form's fields, kept when the page is shown again.
type exportForm struct {
	Namespace, Language, Format string
	Approved                    bool
	RawCells                    bool // csv: cells without the formula guard
}

// importForm is the upload form's fields, kept when the page is shown again.
type importForm struct {
	Namespace, Language, Format, Status string
	Preserve                            bool
	RawCells                            bool // csv: cells read as they are
	FileName                            string
}

// filesState is what the project page's file forms show: their fields and the error of
// the one just sent.
type filesState struct {
	Export      exportForm
	ExportError string
	Import      importForm
	ImportError string
}

// formatOption is a format as the forms offer it.
type formatOption struct {
	Name         string
	Multilingual bool // takes the language "all"
}

func formatOptions() []formatOption {
	var out []formatOption
	for _, n := range formats.Names() {
		c, _ := formats.Lookup(n)
		out = append(out, formatOption{Name: n, Multilingual: c.Multilingual})
	}
	return out
}

func (h *handler) export(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	form := exportForm{Namespace: q.Get("ns"), Language: q.Get("lang"), Format: q.Get("format"), Approved: q.Get("approved") != "",
		RawCells: q.Get("csv_cells") == tools.CSVCellsRaw}
	in := tools.ExportIn{NamespaceRef: tools.NamespaceRef{ProjectID: r.PathValue("project"), Language: form.Language, Namespace: form.Namespace},
		Format: form.Format}
	if form.Approved {
		in.Status = model.StatusApproved
	}
	if form.RawCells {
		in.CSVCells = tools.CSVCellsRaw
	}
	f, err := h.cat.ExportNamespace(r.Context(), in)
	if err != nil {
		h.formFailed(w, r, err, filesState{Export: form, ExportError: model.ErrorMessage(err)})
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", f.ContentType)
	hd.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": exportName(form)}))
	hd.Set("Content-Length", strconv.Itoa(len(f.Body)))
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(f.Body) //nolint:errcheck // the client left
}

// exportName is the download's file name: namespace-language.ext, or namespace.ext for a
// file of every language (an xcstrings catalogue is named for its table).
func exportName(f exportForm) string {
	ext := "txt"
	if c, ok := formats.Lookup(f.Format); ok {
		ext = c.Extension
	}
	name := f.Namespace
	if f.Language != formats.AllLanguages {
		name += "-" + f.Language
	}
	return fileSafe(name) + "." + ext
}

// fileSafe keeps a name to letters, digits, '.', '_' and '-', which namespace keys and
// language codes are made of anyway.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// importFormFrom reads the fields of the upload form, or of the confirmation, which
// carries them hidden.
func importFormFrom(r *http.Request) importForm {
	return importForm{Namespace: r.PostFormValue("namespace"), Language: r.PostFormValue("language"), Format: r.PostFormValue("format"),
		Status: r.PostFormValue("status"), Preserve: r.PostFormValue("preserve") == "true",
		RawCells: r.PostFormValue("csv_cells") == tools.CSVCellsRaw, FileName: r.PostFormValue("filename")}
}

func (f importForm) in(projectID string, content []byte, dry bool) tools.ImportIn {
	preserve := f.Preserve
	in := tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: projectID}, NamespaceKey: f.Namespace, Language: f.Language,
		Format: f.Format, Status: f.Status, Body: content, DryRun: dry, PreserveSourceValues: &preserve}
	if f.RawCells {
		in.CSVCells = tools.CSVCellsRaw
	}
	return in
}

// importPreview imports the uploaded file as a dry run and shows what it would do, with
// the button that imports it.
func (h *handler) importPreview(w http.ResponseWriter, r *http.Request) {
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll() //nolint:errcheck // parsed in memory; nothing to remove
	}
	form := importFormFrom(r)
	content, name, err := uploadedFile(r)
	if err == nil {
		form.FileName = name
		var out tools.ImportOut
		out, err = h.cat.ImportFile(r.Context(), form.in(r.PathValue("project"), content, true))
		if err == nil {
			h.importPage(w, r, form, out, base64.RawURLEncoding.EncodeToString(content))
			return
		}
	}
	h.formFailed(w, r, err, filesState{Import: form, ImportError: importMessage(err)})
}

// importConfirm imports the file the preview carried back, for real.
func (h *handler) importConfirm(w http.ResponseWriter, r *http.Request) {
	form := importFormFrom(r)
	content, err := base64.RawURLEncoding.DecodeString(r.PostFormValue("content"))
	switch {
	case err != nil:
		err = model.Errorf(model.CodeInvalid, "the confirmation does not carry the file; upload it again")
	case len(content) > maxFile:
		err = model.Errorf(model.CodeTooLarge, "the file is over %d bytes", maxFile)
	}
	if err == nil {
		var out tools.ImportOut
		out, err = h.cat.ImportFile(r.Context(), form.in(r.PathValue("project"), content, false))
		if err == nil {
			h.importPage(w, r, form, out, "")
			return
		}
	}
	h.formFailed(w, r, err, filesState{Import: form, ImportError: importMessage(err)})
}

// holdBody reserves room for a file form's body among the server's bodies in flight
// (Options.Bodies, the API's bound), for its declared length, or limit when it declares
// none or more: the body, the form parsed from it, the file and its base64 for the preview
// live until the handler is done. A body over limit is refused by readBody, after this.
func (h *handler) holdBody(r *http.Request, limit int64) (release func(), err error) {
	return h.opts.Bodies.Acquire(r.Context(), r.ContentLength, limit, h.opts.BodyTimeout)
}

// uploadedFile reads the form's file, refusing one over maxFile as the import endpoint
// does.
func uploadedFile(r *http.Request) ([]byte, string, error) {
	if r.MultipartForm == nil {
		return nil, "", model.Errorf(model.CodeInvalid, "the form must be sent as multipart/form-data with the file")
	}
	f, fh, err := r.FormFile("file")
	if errors.Is(err, http.ErrMissingFile) {
		return nil, "", model.Errorf(model.CodeInvalid, "choose a file to import")
	}
	if err != nil {
		return nil, "", model.Errorf(model.CodeInvalid, "reading the file: %v", err)
	}
	defer f.Close()
	if fh.Size > maxFile {
		return nil, "", model.Errorf(model.CodeTooLarge, "the file is over 5 MB (%d bytes), the import's cap", maxFile)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err != nil {
		return nil, "", model.Errorf(model.CodeInvalid, "reading the file: %v", err)
	}
	if len(b) > maxFile {
		return nil, "", model.Errorf(model.CodeTooLarge, "the file is over 5 MB (%d bytes), the import's cap", maxFile)
	}
	return b, fh.Filename, nil
}

// importMessage says why an import was refused; a file that does not parse names its line.
func importMessage(err error) string {
	if model.ErrorCode(err) == model.CodeInvalidFile {
		return "The file cannot be read: " + model.ErrorMessage(err)
	}
	return model.ErrorMessage(err)
}

// keyList is one list of keys as the import page shows it: the first ones and how many.
type keyList struct {
	Keys  []string
	Total int
	More  int
}

func listOf(keys []string) keyList {
	l := keyList{Keys: keys, Total: len(keys)}
	if len(keys) > previewListLen {
		l.Keys, l.More = keys[:previewListLen], len(keys)-previewListLen
	}
	return l
}

// importPage shows a dry run's answer with the button that imports the file (content, the
// file in base64), or with content empty, the import's result.
func (h *handler) importPage(w http.ResponseWriter, r *http.Request, form importForm, out tools.ImportOut, content string) {
	id := r.PathValue("project")
	proj, err := projectOf(r)
	if err != nil {
		proj = model.Project{ID: id, Title: id}
	}
	h.render(w, r, http.StatusOK, "import", map[string]any{"Project": proj, "Form": form, "Out": out, "Content": content,
		"Done": content == "", "Created": listOf(out.Created), "Updated": listOf(out.Updated), "NotFound": listOf(out.NotFound)})
}

// formFailed answers a refused file form: with the project page, the form's fields and the
// message beside it, unless the project is not the user's or the server failed.
func (h *handler) formFailed(w http.ResponseWriter, r *http.Request, err error, st filesState) {
	status := httpx.Status(err)
	if model.ErrorCode(err) == model.CodeUnauthorized || status >= http.StatusInternalServerError {
		h.fail(w, r, err)
		return
	}
	httpx.SetRetryAfter(w, err)
	h.projectPage(w, r, status, st)
}
