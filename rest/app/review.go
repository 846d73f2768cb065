package app

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func (h *handler) projects(w http.ResponseWriter, r *http.Request) {
	h.projectsPage(w, r, http.StatusOK, notice{}) // settings.go: with the form that creates one
}

func (h *handler) project(w http.ResponseWriter, r *http.Request) {
	h.projectPage(w, r, http.StatusOK, filesState{})
}

// projectPage renders the project page; files holds the file forms' fields and errors
// when one of them was refused.
func (h *handler) projectPage(w http.ResponseWriter, r *http.Request, status int, files filesState) {
	id := r.PathValue("project")
	st, err := h.cat.GetProjectStatus(r.Context(), tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	proj, _ := projectOf(r) // admitted by the catalogue above; untitled if the session's list lags
	role, err := h.cat.MyRoleOn(r.Context(), id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	editable := map[string]bool{}
	for _, l := range proj.EditableLanguages {
		editable[l] = role.Editable[l] // the project's editable languages that the role edits
	}
	// The languages' table splits what is written as the progress page does: AI drafts are
	// not counted as translated until someone approves them.
	prog, err := h.cat.GetProgress(r.Context(), tools.ProgressIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	langs := prog.Languages
	held := 0
	for _, l := range langs {
		held += l.HeldBack
	}
	// The file forms start from the project's first namespace, its source language, JSON
	// and the import endpoint's defaults (approved, source texts kept).
	if files.Export.Format == "" {
		files.Export = exportForm{Namespace: first(st.Namespaces), Language: st.SourceLanguage, Format: "json"}
	}
	if files.Import.Format == "" {
		files.Import = importForm{Namespace: first(st.Namespaces), Language: st.SourceLanguage, Format: "json", Status: model.StatusApproved, Preserve: true}
	}
	fileLangs := append([]string{st.SourceLanguage}, slices.DeleteFunc(slices.Clone(st.EnabledLanguages), func(l string) bool { return l == st.SourceLanguage })...)
	if files.ImportError == "" {
		files.Import = importDefaults(role, files.Import, fileLangs)
	}
	h.render(w, r, status, "project", map[string]any{"Project": proj, "Languages": langs, "Editable": editable, "Role": role,
		"Namespaces": st.Namespaces, "FileLanguages": fileLangs, "Formats": formatOptions(), "Files": files,
		"ImportLanguages": importLanguages(role, fileLangs), "ImportApproves": importApproves(role), "HeldBack": held})
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// queueIn reads the queue's filters from a query.
func queueIn(r *http.Request, q url.Values) tools.ReviewIn {
	return tools.ReviewIn{ProjectID: r.PathValue("project"), Language: r.PathValue("lang"), Namespace: q.Get("ns"),
		Filter: q.Get("filter"), Text: q.Get("q"), After: q.Get("after")}
}

func queueURL(r *http.Request, in tools.ReviewIn, after string) string {
	q := url.Values{}
	for k, v := range map[string]string{"filter": in.Filter, "ns": in.Namespace, "q": in.Text} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if after != "" {
		q.Set("after", after)
	}
	u := "/app/p/" + in.ProjectID + "/review/" + in.Language
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func (h *handler) review(w http.ResponseWriter, r *http.Request) {
	h.reviewPage(w, r, http.StatusOK, r.URL.Query(), nil)
}

// reviewPage renders a page of the queue chosen by q; fe, when set, is a refused form of
// the page, said beside it with the reviewer's text and selection kept.
func (h *handler) reviewPage(w http.ResponseWriter, r *http.Request, status int, q url.Values, fe *formError) {
	in := queueIn(r, q)
	page, err := h.cat.ReviewQueue(r.Context(), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	selected := map[string]bool{}
	if fe != nil {
		kept := false
		for i := range page.Rows {
			kept = fe.keep(&page.Rows[i]) || kept
		}
		if fe.Form == "save" && !kept {
			// The row left this page of the queue (its filter no longer matches): the
			// row's own page keeps the text.
			h.rowPage(w, r, status, fe.NS, fe.Key, queueURL(r, in, in.After), fe)
			return
		}
		for _, v := range r.PostForm["sel"] {
			selected[v] = true
		}
	}
	back := queueURL(r, in, in.After)
	h.render(w, r, status, "review", map[string]any{"Page": page, "Language": in.Language, "ProjectID": in.ProjectID,
		"Filter": in.Filter, "Namespace": in.Namespace, "Text": in.Text, "After": in.After, "Editable": page.Editable, "Approvable": page.Approvable,
		"Back": back, "NextURL": queueURL(r, in, page.Next), "FirstURL": queueURL(r, in, ""),
		"Flash": q.Get("done"), "FormError": fe, "Selected": selected})
}

// formError is a refused form of the review or row page: which form (save, comment, flag,
// batch), of which row, the message, and what the reviewer had typed.
type formError struct {
	Form, NS, Key, Message string
	Body                   string   // a comment's text
	Value                  string   // a translation's text
	Texts                  []string // a plural or select row's fields, in order
}

// keep puts the typed translation back into the row it was typed in, and tells whether
// it was that row.
func (fe *formError) keep(it *tools.ReviewItem) bool {
	if fe.Form != "save" || it.Namespace != fe.NS || it.Key != fe.Key {
		return false
	}
	it.Value = fe.Value
	if it.Forms != nil && len(fe.Texts) > 0 {
		f := *it.Forms
		f.Fields = slices.Clone(f.Fields)
		for i := range f.Fields {
			if i < len(fe.Texts) {
				f.Fields[i].Text = fe.Texts[i]
			}
		}
		it.Forms = &f
	}
	return true
}

// formFail answers a refused form of the review pages. A script gets JSON; a person gets
// the page the form was on again, the message beside the form and what they typed kept.
// Not found, not signed in and server faults get the error page.
func (h *handler) formFail(w http.ResponseWriter, r *http.Request, err error, form string) {
	status := httpx.Status(err)
	if wantsJSON(r) || isFragment(r) || !inPlace(status) {
		h.fail(w, r, err)
		return
	}
	httpx.SetRetryAfter(w, err)
	in := tools.ReviewIn{ProjectID: r.PathValue("project"), Language: r.PathValue("lang")}
	fe := &formError{Form: form, NS: r.PostFormValue("ns"), Key: r.PostFormValue("key"), Message: model.ErrorMessage(err),
		Body: r.PostFormValue("body"), Value: strings.ReplaceAll(r.PostFormValue("value"), "\r\n", "\n"), Texts: r.PostForm["form_text"]}
	back, _ := url.Parse(safeBack(r.PostFormValue("back"), in))
	if form == "comment" || form == "flag" || strings.HasSuffix(back.Path, "/row") {
		h.rowPage(w, r, status, fe.NS, fe.Key, back.String(), fe)
		return
	}
	h.reviewPage(w, r, status, back.Query(), fe)
}

// inPlace tells the statuses a form can be sent again after: bad input, not allowed,
// changed meanwhile, too many, the provider failing.
func inPlace(status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusConflict, http.StatusRequestEntityTooLarge,
		http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable:
		return true
	}
	return false
}

// rows renders rows of the queue by key id, unfiltered: the live refresh asks for the rows
// on screen whatever they show now.
func (h *handler) rows(w http.ResponseWriter, r *http.Request) {
	var ids []int64
	for _, s := range strings.Split(r.URL.Query().Get("keys"), ",") {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 && len(ids) < tools.ReviewPageSize*4 {
			ids = append(ids, id)
		}
	}
	in := tools.ReviewIn{ProjectID: r.PathValue("project"), Language: r.PathValue("lang"), KeyIDs: ids, Limit: 200}
	if len(ids) == 0 {
		h.fail(w, r, model.Errorf(model.CodeInvalid, "keys must list key ids"))
		return
	}
	page, err := h.cat.ReviewQueue(r.Context(), in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	data := map[string]any{"Page": page, "Language": in.Language, "ProjectID": in.ProjectID, "Editable": page.Editable, "Approvable": page.Approvable,
		"CSRF": sessionFrom(r.Context()).CSRF, "Back": safeBack(r.URL.Query().Get("back"), in)}
	var b strings.Builder
	for _, it := range page.Rows {
		if err := h.pages["review"].ExecuteTemplate(&b, "row", rowDataOf(data, it)); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	w.Header().Set("X-Lokal-Revision", strconv.FormatInt(page.Revision, 10))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(b.String())) //nolint:errcheck // the client left
}

func rowDataOf(page map[string]any, it tools.ReviewItem) map[string]any {
	return map[string]any{"Item": it, "ProjectID": page["ProjectID"], "Language": page["Language"], "CSRF": page["CSRF"],
		"Editable": page["Editable"], "Approvable": page["Approvable"], "Back": page["Back"], "FormError": page["FormError"], "Selected": page["Selected"]}
}

// revision answers the project's revision, which moves on every write: the review page
// polls it and fetches its rows again when it moves.
func (h *handler) revision(w http.ResponseWriter, r *http.Request) {
	page, err := h.cat.ReviewQueue(r.Context(), tools.ReviewIn{ProjectID: r.PathValue("project"), Language: r.PathValue("lang"), KeyIDs: []int64{-1}, Limit: 1})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, map[string]int64{"revision": page.Revision})
}

func rowRef(r *http.Request, ns, key string) tools.RowRef {
	return tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: r.PathValue("project")}, NamespaceKey: ns, TranslationKey: key},
		Language: r.PathValue("lang")}
}

func (h *handler) rowDetail(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	h.rowPage(w, r, http.StatusOK, q.Get("ns"), q.Get("key"), q.Get("back"), nil)
}

// rowPage renders one row with its history and comments; fe as for reviewPage.
func (h *handler) rowPage(w http.ResponseWriter, r *http.Request, status int, ns, key, back string, fe *formError) {
	row, err := h.rowData(r, ns, key, back, fe)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if isFragment(r) {
		h.renderFragment(w, r, "review", "detail", row)
		return
	}
	base := map[string]any{"ProjectID": row["ProjectID"], "Language": row["Language"], "Row": row}
	h.render(w, r, status, "rowpage", base)
}

// rowData reads one row with its history, comments and memory suggestions, for the
// row's page and the in-context panel.
func (h *handler) rowData(r *http.Request, ns, key, back string, fe *formError) (map[string]any, error) {
	ref := rowRef(r, ns, key)
	d, err := h.cat.RowDetails(r.Context(), ref)
	if err != nil {
		return nil, err
	}
	page, err := h.cat.ReviewQueue(r.Context(), tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language, KeyIDs: []int64{d.Item.KeyID}, Limit: 1})
	if err != nil {
		return nil, err
	}
	if fe != nil {
		fe.keep(&d.Item)
	}
	in := tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language}
	base := map[string]any{"ProjectID": ref.ProjectID, "Language": ref.Language, "CSRF": sessionFrom(r.Context()).CSRF,
		"Editable": page.Editable, "Approvable": page.Approvable, "Back": safeBack(back, in), "FormError": fe}
	row := rowDataOf(base, d.Item)
	row["History"], row["Comments"], row["Users"] = d.History, d.Comments, d.Users
	row["OldSource"], row["SourceDiff"] = d.OldSource, d.SourceDiff
	row["Contexts"] = d.Contexts
	// Memory is help, not the row: a failure to find suggestions is said in its place.
	if mem, err := h.cat.MemorySuggestions(r.Context(), ref); err == nil {
		row["Memory"] = mem
	} else {
		row["MemoryError"] = model.ErrorMessage(err)
	}
	return row, nil
}

// safeBack is where a form returns to: a page of this queue, never elsewhere.
func safeBack(back string, in tools.ReviewIn) string {
	prefix := "/app/p/" + in.ProjectID + "/review/" + in.Language
	if back == prefix || strings.HasPrefix(back, prefix+"?") || strings.HasPrefix(back, prefix+"/row?") {
		return back
	}
	return prefix
}

// done returns a plain form to its page with a message; scripts get JSON instead.
func (h *handler) done(w http.ResponseWriter, r *http.Request, back, msg, anchor string) {
	u, _ := url.Parse(back)
	q := u.Query()
	q.Set("done", msg)
	u.RawQuery = q.Encode()
	u.Fragment = anchor
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

func (h *handler) save(w http.ResponseWriter, r *http.Request) {
	ref := rowRef(r, r.PostFormValue("ns"), r.PostFormValue("key"))
	status := model.StatusNeedsReview
	if r.PostFormValue("action") == "approve" {
		status = model.StatusApproved
	}
	value := strings.ReplaceAll(r.PostFormValue("value"), "\r\n", "\n")
	it, err := h.cat.SaveRow(r.Context(), tools.SaveRowIn{RowRef: ref, Value: value, Forms: formsOf(r), Status: status, Version: r.PostFormValue("version"),
		Clear: r.PostFormValue("clear") == "1", Override: r.PostFormValue("override") == "1", Reason: r.PostFormValue("reason")})
	back := safeBack(r.PostFormValue("back"), tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language})
	var qa *tools.QAError
	if errors.As(err, &qa) && (wantsJSON(r) || isFragment(r)) {
		// The editor asks for a reason and sends the approval again with override.
		writeJSON(w, r, http.StatusUnprocessableEntity, map[string]any{"error": model.ErrorCode(err), "message": model.ErrorMessage(err), "findings": qa.Findings})
		return
	}
	if err != nil {
		if model.ErrorCode(err) == model.CodeConflict && (wantsJSON(r) || isFragment(r)) {
			// The reviewer's text stays in their browser; they get the row as it is now.
			cur, derr := h.cat.RowDetails(r.Context(), ref)
			if derr == nil {
				writeJSON(w, r, http.StatusConflict, map[string]any{"error": model.CodeConflict, "message": model.ErrorMessage(err),
					"current": map[string]any{"value": cur.Item.Value, "status": cur.Item.Status, "version": cur.Item.Version, "updated_by": nameOf(cur.Users, cur.Item.UpdatedBy)}})
				return
			}
		}
		h.formFail(w, r, err, "save")
		return
	}
	if isFragment(r) {
		// The saved row carries the user's rights in its language: no queue read.
		data := map[string]any{"ProjectID": ref.ProjectID, "Language": ref.Language, "CSRF": sessionFrom(r.Context()).CSRF, "Editable": it.Editable, "Approvable": it.Approvable, "Back": back}
		h.renderFragment(w, r, "review", "row", rowDataOf(data, it))
		return
	}
	if wantsJSON(r) {
		writeJSON(w, r, http.StatusOK, it)
		return
	}
	msg := "Saved " + it.Key
	switch {
	case it.Confirmed && status == model.StatusApproved:
		msg = "Approved " + it.Key + " and confirmed it for the changed source text: it is current again"
	case it.Confirmed:
		msg = "Saved " + it.Key + " and confirmed it for the changed source text: it is current again"
	case status == model.StatusApproved:
		msg = "Approved " + it.Key
	}
	if it.Held != "" {
		msg += ", but it is held back from readers: " + it.Held + "; " + readersGetWords(it)
	}
	h.done(w, r, back, msg, "row-"+strconv.FormatInt(it.KeyID, 10))
}

// readersGetWords says what readers get in place of a held-back row (the catalogue's
// ReadersGet), with the value they get.
func readersGetWords(it tools.ReviewItem) string {
	if it.HasPrevious {
		return "readers get " + it.ReadersGet + ": " + strconv.Quote(it.Previous)
	}
	return "readers get " + it.ReadersGet + ": the key is left out"
}

// formsOf reads the fields of a plural or select row, or nil for a row edited as text.
func formsOf(r *http.Request) *tools.FormsIn {
	if _, ok := r.PostForm["forms_shape"]; !ok {
		return nil
	}
	return &tools.FormsIn{Shape: r.PostFormValue("forms_shape"), Texts: r.PostForm["form_text"]}
}

// selection reads the batch form's checked rows: namespace, key and version by tabs.
func selection(r *http.Request) []tools.RowVersion {
	var out []tools.RowVersion
	for _, v := range r.PostForm["sel"] {
		parts := strings.SplitN(v, "\t", 3)
		if len(parts) == 3 {
			out = append(out, tools.RowVersion{Namespace: parts[0], Key: parts[1], Version: parts[2]})
		}
	}
	return out
}

func (h *handler) approve(w http.ResponseWriter, r *http.Request) {
	in := tools.ReviewIn{ProjectID: r.PathValue("project"), Language: r.PathValue("lang")}
	out, err := h.cat.ApproveRows(r.Context(), tools.ApproveIn{ProjectID: in.ProjectID, Language: in.Language, Rows: selection(r)})
	if err != nil {
		h.formFail(w, r, err, "batch")
		return
	}
	if wantsJSON(r) {
		writeJSON(w, r, http.StatusOK, map[string]any{"approved": out.Approved, "confirmed": out.Confirmed, "already_approved": out.Already, "conflicts": out.Conflicts, "skipped": out.Skipped, "skipped_qa": out.QA, "held_back": out.Held})
		return
	}
	msg := "Approved " + plural(len(out.Approved), "row")
	if n := len(out.Confirmed); n > 0 {
		msg += " (" + itoa(n) + " of them stale, now confirmed for the changed source text: " + strings.Join(out.Confirmed, ", ") + ")"
	}
	if n := len(out.Already); n == 1 {
		msg += "; 1 was approved already"
	} else if n > 1 {
		msg += "; " + itoa(n) + " were approved already"
	}
	if len(out.Conflicts) > 0 {
		msg += "; " + itoa(len(out.Conflicts)) + " changed meanwhile and were left as they are: " + strings.Join(out.Conflicts, ", ")
	}
	if len(out.QA) > 0 {
		msg += "; skipped " + itoa(len(out.QA)) + " with QA findings (approve them one by one with a reason): " + strings.Join(out.QA, ", ")
	}
	if len(out.Skipped) > 0 {
		msg += "; skipped " + itoa(len(out.Skipped)) + " untranslated or locked: " + strings.Join(out.Skipped, ", ")
	}
	if len(out.Held) > 0 {
		msg += "; skipped " + itoa(len(out.Held)) + " held back from readers (fix them first): " + strings.Join(out.Held, ", ")
	}
	h.done(w, r, safeBack(r.PostFormValue("back"), in), msg, "")
}

func (h *handler) translate(w http.ResponseWriter, r *http.Request) {
	in := tools.ReviewIn{ProjectID: r.PathValue("project"), Language: r.PathValue("lang")}
	ti := tools.TranslateRowsIn{ProjectID: in.ProjectID, Language: in.Language, All: r.PostFormValue("all") == "1", Keys: map[string][]string{}}
	if !ti.All {
		for _, s := range selection(r) {
			ti.Keys[s.Namespace] = append(ti.Keys[s.Namespace], s.Key)
		}
	}
	out, err := h.cat.TranslateRows(r.Context(), ti)
	if err != nil {
		h.formFail(w, r, err, "batch")
		return
	}
	if wantsJSON(r) {
		writeJSON(w, r, http.StatusOK, map[string]any{"translated": out.Translated, "failed": out.Failed, "reasons": out.Reasons, "skipped": out.Skipped, "more": out.More})
		return
	}
	msg := "AI translated " + plural(out.Translated, "row")
	if len(out.Failed) > 0 {
		failed := make([]string, len(out.Failed))
		for i, k := range out.Failed {
			failed[i] = k
			if why := out.Reasons[k]; why != "" {
				failed[i] += " (" + why + ")"
			}
		}
		msg += "; failed: " + strings.Join(failed, ", ")
	}
	if out.Skipped > 0 {
		msg += "; " + itoa(out.Skipped) + " approved, locked or without source were left"
	}
	if out.More {
		msg += "; more rows are missing: press again for the next batch"
	}
	h.done(w, r, safeBack(r.PostFormValue("back"), in), msg, "")
}

func (h *handler) comment(w http.ResponseWriter, r *http.Request) {
	ref := rowRef(r, r.PostFormValue("ns"), r.PostFormValue("key"))
	if _, err := h.cat.CommentRow(r.Context(), tools.AddCommentIn{RowRef: ref, Body: r.PostFormValue("body")}); err != nil {
		h.formFail(w, r, err, "comment")
		return
	}
	if wantsJSON(r) {
		writeJSON(w, r, http.StatusOK, map[string]bool{"ok": true})
		return
	}
	h.done(w, r, safeBack(r.PostFormValue("back"), tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language}), "Comment added", "")
}

func (h *handler) flag(w http.ResponseWriter, r *http.Request) {
	ref := rowRef(r, r.PostFormValue("ns"), r.PostFormValue("key"))
	name, val, _ := strings.Cut(r.PostFormValue("flag"), ":")
	if _, err := h.cat.FlagRow(r.Context(), tools.FlagIn{RowRef: ref, Flag: name, Value: val == "1"}); err != nil {
		h.formFail(w, r, err, "flag")
		return
	}
	if wantsJSON(r) {
		writeJSON(w, r, http.StatusOK, map[string]bool{"ok": true})
		return
	}
	h.done(w, r, safeBack(r.PostFormValue("back"), tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language}), "Flag changed", "")
}

// check is the inline QA: the server's own checks on a value being typed.
func (h *handler) check(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Namespace string `json:"namespace_key"`
		Key       string `json:"translation_key"`
		Value     string `json:"value"`
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		if err := decodeJSON(w, r, &in); err != nil {
			h.fail(w, r, err)
			return
		}
	} else {
		in.Namespace, in.Key, in.Value = r.PostFormValue("ns"), r.PostFormValue("key"), r.PostFormValue("value")
	}
	ci := tools.CheckIn{RowRef: rowRef(r, in.Namespace, in.Key), Value: in.Value}
	if r.PostForm != nil {
		ci.Forms = formsOf(r)
	}
	out, err := h.cat.CheckValue(r.Context(), ci)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, r, http.StatusOK, out)
}

// suggest answers the AI's suggestion for one row as JSON; nothing is stored.
func (h *handler) suggest(w http.ResponseWriter, r *http.Request) {
	v, fields, err := h.cat.SuggestAIFields(r.Context(), rowRef(r, r.PostFormValue("ns"), r.PostFormValue("key")))
	if err != nil {
		if model.ErrorCode(err) == model.CodeNotConfigured {
			err = model.Errorf(model.CodeNotConfigured, "AI is not set up for this project: a manager or owner sets it up on the Connect page")
		}
		writeJSON(w, r, httpx.Status(err), map[string]string{"error": model.ErrorCode(err), "message": model.ErrorMessage(err)})
		return
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"value": v, "fields": fields})
}

// revert puts back a value from the row's history: the row as it is then for the script,
// the queue with a message for a plain form.
func (h *handler) revert(w http.ResponseWriter, r *http.Request) {
	ref := rowRef(r, r.PostFormValue("ns"), r.PostFormValue("key"))
	id, _ := strconv.ParseInt(r.PostFormValue("history"), 10, 64)
	it, err := h.cat.RevertRow(r.Context(), tools.RevertRowIn{RowRef: ref, HistoryID: id, Version: r.PostFormValue("version")})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	back := safeBack(r.PostFormValue("back"), tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language})
	if isFragment(r) {
		page, err := h.cat.ReviewQueue(r.Context(), tools.ReviewIn{ProjectID: ref.ProjectID, Language: ref.Language, KeyIDs: []int64{it.KeyID}, Limit: 1})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		data := map[string]any{"ProjectID": ref.ProjectID, "Language": ref.Language, "CSRF": sessionFrom(r.Context()).CSRF, "Editable": page.Editable,
			"Approvable": page.Approvable, "Back": back}
		h.renderFragment(w, r, "review", "row", rowDataOf(data, it))
		return
	}
	h.done(w, r, back, "Reverted "+it.Key, "row-"+strconv.FormatInt(it.KeyID, 10))
}
