package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// The translator's editor: the review queue of one language, a row's details, inline QA
// and the writes a reviewer makes. Every write here is update_translation's,
// set_translation_status', add_comment's or flag_translation's change, through the one
// write path; what the editor adds is its reviewer's limits (only the project's editable
// languages) and a version check so that two reviewers never overwrite each other.

// Review filters, as the queue's filter menu names them.
const (
	FilterAll         = ""
	FilterAIDrafts    = "ai"
	FilterNeedsReview = "needs_review"
	FilterHeld        = "held"
	FilterApproved    = "approved"
	FilterStale       = "stale"
	FilterMissing     = "missing"
	FilterQA          = "qa"
	FilterComments    = "comments"
)

// ReviewFilters lists the filters in menu order.
var ReviewFilters = []string{FilterAll, FilterAIDrafts, FilterNeedsReview, FilterHeld, FilterApproved, FilterStale, FilterMissing, FilterQA, FilterComments}

// ReviewPageSize is how many rows one page of the queue shows.
const ReviewPageSize = 50

// ReviewIn selects a page of the review queue.
type ReviewIn struct {
	ProjectID string
	Language  string
	Namespace string
	Filter    string
	Text      string
	After     string // the Next of the previous page
	Limit     int    // default ReviewPageSize
	KeyIDs    []int64
}

// ReviewPage is one page of the queue. Next is 0 on the last page.
type ReviewPage struct {
	Project  model.Project
	Language string
	Editable bool
	// Approvable: the caller's role also approves in Language (the page may hide the
	// buttons; the operations refuse either way).
	Approvable bool
	Rows       []ReviewItem
	// Next is where the next page starts ("" on the last page): the last row's place in
	// key order (queueCursor), or its key id in the QA filter, which follows the
	// checkup's findings in key id order.
	Next string
	// Partial: the QA filter stopped at its bound of rows checked on the request before the
	// page was full; Next is the last row it checked, where the next page goes on.
	Partial  bool
	Revision int64
}

// ReviewItem is one row of the queue as the editor shows it.
type ReviewItem struct {
	Namespace      string               `json:"namespace"`
	Key            string               `json:"key"`
	KeyID          int64                `json:"key_id"`
	Source         string               `json:"source"`
	Value          string               `json:"value"`
	Status         string               `json:"status"` // "" while missing
	Missing        bool                 `json:"missing"`
	Stale          bool                 `json:"stale"`
	AIDraft        bool                 `json:"ai_draft"`
	DoNotTranslate bool                 `json:"do_not_translate"`
	LanguageLocked bool                 `json:"language_locked"`
	UpdatedBy      string               `json:"updated_by"`
	UpdatedAt      string               `json:"updated_at"`
	Comments       int                  `json:"comments"`
	Findings       []checkup.Finding    `json:"findings"`
	Glossary       []model.GlossaryPair `json:"glossary"` // pairs whose source term is in the source text
	Version        string               `json:"version"`
	// Syntax is the project's syntax, which the editor highlights Source in.
	Syntax message.Syntax `json:"-"`
	// Forms is set when the row is edited as one field per plural or select form.
	Forms *FormsEditor `json:"forms,omitempty"`
	// Dir is the writing direction of the row's language, SourceDir the source's.
	Dir       string `json:"-"`
	SourceDir string `json:"-"`
	// SourceLanguage is the project's source language, which Source is written in.
	SourceLanguage string `json:"-"`
	// Held says why the row's value is held back from readers, in a translator's words
	// ("" while it is served: valueSyntax); ReadersGet says what readers get meanwhile ("the
	// previous value", which is Previous, or "the source text": the key is left out).
	// Such a value is never approved: the editor says why instead of offering Approve.
	Held       string `json:"held,omitempty"`
	ReadersGet string `json:"readers_get,omitempty"`
	Previous   string `json:"previous_value,omitempty"`
	// HasPrevious: readers get Previous (else the source text).
	HasPrevious bool `json:"-"`
	// Overflow is set when the value would not fit the box of a page its key was seen on
	// (review in context): shown before approval, which it does not prevent.
	Overflow *Overflow `json:"overflow,omitempty"`
	// Confirmed is set on the row a save answers with when the save kept the text of a stale
	// row and so made it current with its source (confirms).
	Confirmed bool `json:"confirmed,omitempty"`
	// Editable and Approvable say what the user may do in the row's language, on a row a
	// save answers with (SaveRow); the queue says it once per page (ReviewPage).
	Editable, Approvable bool `json:"-"`
}

// reviewWindowKeys bounds the keys one page of a walked filter reads (model.ReviewFilter.Window):
// a filter few rows pass (missing in a finished language, a rare substring no trigram
// index narrows) read the whole project, 2.3-2.5 s at a million keys; 10,000 keys cost
// about 25 ms. A page that stops there says so and links on from where it stopped.
const reviewWindowKeys = 10000

func (c *Catalog) reviewWindow() int64 {
	if c.opts.ReviewWindow > 0 {
		return c.opts.ReviewWindow
	}
	return reviewWindowKeys
}

// rowVersion fingerprints what a reviewer saw of a row: any write to it since changes it.
func rowVersion(r *model.TranslationState) string {
	if r == nil {
		return "new"
	}
	h := sha256.New()
	sv := "-"
	if r.SourceVersion != nil {
		sv = strconv.FormatInt(*r.SourceVersion, 10)
	}
	for _, s := range []string{strconv.FormatInt(r.ID, 10), r.Value, r.Status, strconv.FormatBool(r.DoNotTranslate),
		strconv.FormatBool(r.LanguageLocked), sv, r.UpdatedBy, strconv.FormatInt(r.UpdatedAt.UnixNano(), 10)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// canEdit is the editor's rule: reviewers change only the project's editable languages.
func canEdit(ctx context.Context, proj model.Project, language string) error {
	if model.PrincipalFrom(ctx).Kind == model.KindSystem || contains(proj.EditableLanguages, language) {
		return nil
	}
	return model.Errorf(model.CodeForbidden, "%s is not an editable language of this project", language)
}

// terms are a project's glossary, do-not-translate terms and syntax, loaded once per
// request.
type terms struct {
	glossary []model.GlossaryPair
	dnt      []string
	syntax   message.Syntax
}

// loadTerms reads proj's terms; proj must be read in tx (ProjectSyntax).
func (c *Catalog) loadTerms(ctx context.Context, tx model.Tx, proj model.Project) (terms, error) {
	var t terms
	var err error
	if t.glossary, err = tx.Glossary(ctx, proj.ID); err != nil {
		return t, err
	}
	if t.dnt, err = tx.DoNotTranslateTerms(ctx, proj.ID); err != nil {
		return t, err
	}
	t.syntax = c.ProjectSyntax(ctx, tx, proj)
	return t, nil
}

// qaKinds are the findings the editor calls QA problems: missing and stale rows have
// filters of their own.
var qaKinds = []string{checkup.KindPlaceholder, checkup.KindMarkup, checkup.KindSyntax, checkup.KindPluralForms,
	checkup.KindGlossary, checkup.KindDoNotTranslate, checkup.KindIdentical}

// checkRow runs the checkup's analysis on one value: the same checks as the project's
// checkup report, so the editor and the report never disagree.
func checkRow(proj model.Project, t terms, ns, key, language, source, value string, dnt bool) []checkup.Finding {
	in := checkup.Input{SourceLanguage: proj.SourceLanguage, Languages: []string{language}, DoNotTranslate: t.dnt, Syntax: t.syntax,
		Keys: []checkup.Key{{Namespace: ns, Key: key, Source: source, Translations: map[string]checkup.Translation{language: {Value: value, DoNotTranslate: dnt}}}}}
	for _, g := range t.glossary {
		in.Glossary = append(in.Glossary, checkup.GlossaryPair{SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale})
	}
	all, _ := checkup.Analyze(in)
	out := []checkup.Finding{}
	for _, f := range all {
		if contains(qaKinds, f.Kind) {
			out = append(out, f)
		}
	}
	return out
}

// glossaryHints are the pairs message.TermsFor applies to language whose source term
// appears in source, then the do-not-translate terms it contains.
func glossaryHints(t terms, language, source string) []model.GlossaryPair {
	all := make([]message.Term, len(t.glossary))
	for i, g := range t.glossary {
		all[i] = message.Term{Source: g.SourceTerm, Target: g.TargetTerm, Locale: g.Locale}
	}
	gloss, dnt := message.TermsFor(language, all, t.dnt)
	termKey := func(src, tgt, locale string) string {
		return strings.ToLower(strings.TrimSpace(src)) + "\x00" + strings.TrimSpace(tgt) + "\x00" + locale
	}
	chosen := map[string]bool{}
	for _, g := range gloss {
		chosen[termKey(g.Source, g.Target, g.Locale)] = true
	}
	out := []model.GlossaryPair{}
	lower := strings.ToLower(source)
	for _, g := range t.glossary { // the stored pairs, with their ids, in their order
		k := termKey(g.SourceTerm, g.TargetTerm, g.Locale)
		if chosen[k] && strings.Contains(lower, strings.ToLower(strings.TrimSpace(g.SourceTerm))) {
			delete(chosen, k)
			out = append(out, g)
		}
	}
	for _, d := range dnt {
		if strings.Contains(source, d) {
			out = append(out, model.GlossaryPair{SourceTerm: d, TargetTerm: d, Locale: "dnt"})
		}
	}
	return out
}

func (c *Catalog) reviewItem(proj model.Project, t terms, language string, r model.ReviewRow) ReviewItem {
	it := ReviewItem{Namespace: r.Namespace, Key: r.Key, KeyID: r.KeyID, Source: r.Source.Value, Comments: r.Comments,
		Version: rowVersion(r.Value), Findings: []checkup.Finding{}, Missing: r.Value == nil || r.Value.Value == "", Syntax: t.syntax}
	if v := r.Value; v != nil {
		it.Value, it.Status, it.DoNotTranslate, it.LanguageLocked, it.UpdatedBy = v.Value, v.Status, v.DoNotTranslate, v.LanguageLocked, v.UpdatedBy
		it.UpdatedAt = v.UpdatedAt.UTC().Format("2006-01-02 15:04:05Z")
		it.AIDraft = strings.HasPrefix(v.UpdatedBy, "ai:") && v.Status == model.StatusNeedsReview
		it.Stale = v.Value != "" && isStale(language, proj.SourceLanguage, v.SourceVersion, r.SourceVersion, true)
		if v.Held != "" {
			it.Held, it.ReadersGet = v.Held, readersGet(v)
			it.Previous, it.HasPrevious = v.Served()
		}
	}
	if !it.Missing {
		it.Findings = checkRow(proj, t, r.Namespace, r.Key, language, r.Source.Value, it.Value, it.DoNotTranslate)
	}
	it.Glossary = glossaryHints(t, language, r.Source.Value)
	it.Forms = formsEditor(r.Source.Value, it.Value, language, t.syntax)
	it.Dir, it.SourceDir, it.SourceLanguage = message.Direction(language), message.Direction(proj.SourceLanguage), proj.SourceLanguage
	return it
}

// ReviewQueue returns a page of one language's rows of a project, filtered. The QA filter
// shows the rows as they are now, never a report that may be behind: the checkup's stored
// findings for the keys it has checked since their last write, the checks run on the
// request for the others.
func (c *Catalog) ReviewQueue(ctx context.Context, in ReviewIn) (ReviewPage, error) {
	if err := c.gate(ctx, model.OpReviewQueue, on{project: in.ProjectID}); err != nil {
		return ReviewPage{Language: in.Language, Rows: []ReviewItem{}}, err
	}
	return c.reviewQueue(ctx, in)
}

// reviewQueue is ReviewQueue past its gate, for the operations that page through the queue
// under their own (translate_rows).
func (c *Catalog) reviewQueue(ctx context.Context, in ReviewIn) (ReviewPage, error) {
	out := ReviewPage{Language: in.Language, Rows: []ReviewItem{}}
	if !contains(ReviewFilters, in.Filter) {
		return out, model.Errorf(model.CodeInvalid, "filter must be one of %s", strings.Join(ReviewFilters[1:], ", "))
	}
	if err := checkFilter("text", in.Text); err != nil {
		return out, err
	}
	after, afterID, err := parseQueueCursor(in.Filter, in.After)
	if err != nil {
		return out, err
	}
	limit := in.Limit
	if limit <= 0 || limit > 200 {
		limit = ReviewPageSize
	}
	err = c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		out.Project = proj
		if err := proj.RequireLanguage(in.Language); err != nil {
			return err
		}
		if in.Language == proj.SourceLanguage {
			return model.Errorf(model.CodeInvalid, "%s is the source language; review a target language", in.Language)
		}
		r, err := c.rightsIn(ctx, tx, proj, in.Language)
		if err != nil {
			return err
		}
		out.Editable = canEdit(ctx, proj, in.Language) == nil && r&model.RightTranslate != 0
		out.Approvable = out.Editable && r&model.RightApprove != 0
		if st, ok := tx.(model.StagingTx); ok {
			var err error
			if out.Revision, err = st.ProjectRevision(ctx, proj.ID); err != nil {
				return err
			}
		}
		t, err := c.loadTerms(ctx, tx, proj)
		if err != nil {
			return err
		}
		f := model.ReviewFilter{ProjectID: proj.ID, SourceLanguage: proj.SourceLanguage, Language: in.Language, Namespace: in.Namespace,
			Text: in.Text, KeyIDs: in.KeyIDs}
		switch in.Filter {
		case FilterAIDrafts:
			f.AIDrafts = true
		case FilterNeedsReview, FilterApproved:
			f.Status = in.Filter
		case FilterStale:
			f.Stale = true
		case FilterMissing:
			f.Missing = true
			// The counters answer a language with nothing missing without a walk.
			if none, err := nothingMissing(ctx, tx, proj, in.Namespace, in.Language); err != nil || none {
				return err
			}
		case FilterComments:
			f.HasComments = true
		case FilterHeld:
			f.Held = true
		}
		if in.Filter != FilterQA {
			f.Limit, f.Window, f.After = limit+1, c.reviewWindow(), after
			rows, stop, err := tx.ReviewQueueRows(ctx, f)
			if err != nil {
				return err
			}
			switch {
			case len(rows) > limit:
				rows = rows[:limit]
				out.Next = queueCursor(rows[limit-1].Namespace, rows[limit-1].Key)
			case !stop.IsZero():
				// The window ended before a page of rows: the next page goes on after it.
				out.Next, out.Partial = queueCursor(stop.Namespace, stop.Key), true
			}
			for _, r := range rows {
				out.Rows = append(out.Rows, c.reviewItem(proj, t, in.Language, r))
			}
			return markOverflow(ctx, tx, out.Rows)
		}
		f.AfterKeyID = afterID
		if err := c.qaPage(ctx, tx, proj, t, f, limit, &out); err != nil {
			return err
		}
		return markOverflow(ctx, tx, out.Rows)
	})
	return out, err
}

// queueCursor is the queue's place after the row of key in namespace ns, as a page's Next
// says it: "namespace/key". A namespace has no '/', so the first one ends it.
func queueCursor(ns, key string) string { return ns + "/" + key }

// idCursor is the QA filter's place after the key with id id.
func idCursor(id int64) string { return strconv.FormatInt(id, 10) }

// parseQueueCursor reads a page's After: a place in key order, or in the QA filter a key id.
func parseQueueCursor(filter, s string) (model.ReviewCursor, int64, error) {
	if s == "" {
		return model.ReviewCursor{}, 0, nil
	}
	if filter == FilterQA {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id < 0 {
			return model.ReviewCursor{}, 0, model.Errorf(model.CodeInvalid, "after must be the next link of the previous page")
		}
		return model.ReviewCursor{}, id, nil
	}
	ns, key, ok := strings.Cut(s, "/")
	if !ok || checkNamespace(ns) != nil {
		return model.ReviewCursor{}, 0, model.Errorf(model.CodeInvalid, "after must be the next link of the previous page")
	}
	return model.ReviewCursor{Namespace: ns, Key: key}, 0, nil
}

// nothingMissing reports whether, by the counters, no visible key of the namespace (every
// namespace when ns is "") lacks a value in language.
func nothingMissing(ctx context.Context, tx model.Tx, proj model.Project, ns, language string) (bool, error) {
	counts, err := tx.NamespaceRowCounts(ctx, proj.ID, language)
	if err != nil {
		return false, err
	}
	for name, c := range counts {
		if (ns == "" || name == ns) && progressOf(c).Missing > 0 {
			return false, nil
		}
	}
	return true, nil
}

// qaRows runs the checkup's analysis once over rows and returns the keys with QA findings.
func (c *Catalog) qaRows(proj model.Project, t terms, language string, rows []model.ReviewRow) map[int64]bool {
	in := checkup.Input{SourceLanguage: proj.SourceLanguage, Languages: []string{language}, DoNotTranslate: t.dnt, Syntax: t.syntax}
	for _, g := range t.glossary {
		in.Glossary = append(in.Glossary, checkup.GlossaryPair{SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale})
	}
	ids := map[string]int64{}
	for _, r := range rows {
		if r.Value == nil || r.Value.Value == "" {
			continue
		}
		// Keys are unique per namespace; the analysis names findings by both.
		id := r.Namespace + "\x00" + r.Key
		ids[id] = r.KeyID
		in.Keys = append(in.Keys, checkup.Key{Namespace: r.Namespace, Key: r.Key, Source: r.Source.Value,
			Translations: map[string]checkup.Translation{language: {Value: r.Value.Value, DoNotTranslate: r.Value.DoNotTranslate}}})
	}
	found, _ := checkup.Analyze(in)
	out := map[int64]bool{}
	for _, f := range found {
		if contains(qaKinds, f.Kind) {
			out[ids[f.Namespace+"\x00"+f.Key]] = true
		}
	}
	return out
}

// CheckIn is a value being typed into one row.
type CheckIn struct {
	RowRef
	Value string `json:"value"`
	// Forms, when set, are the fields of a plural or select row: they are joined into Value.
	Forms *FormsIn `json:"-"`
}

// CheckOut is what the server would say of the value: the QA findings of the checkup and,
// when the value would be refused on save, why.
type CheckOut struct {
	Findings []checkup.Finding `json:"findings"`
	Refused  string            `json:"refused,omitempty"`
}

// CheckValue runs, on a value not yet saved, the checks a save and the checkup report run.
func (c *Catalog) CheckValue(ctx context.Context, in CheckIn) (CheckOut, error) {
	out := CheckOut{Findings: []checkup.Finding{}}
	if in.Forms != nil {
		var err error
		if in.Value, err = in.Forms.Join(); err != nil {
			return out, err
		}
	}
	if err := c.gate(ctx, model.OpCheckValue, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		_, key, cur, err := loadRow(ctx, tx, proj, in.RowRef)
		if err != nil {
			return err
		}
		src, err := sourceValue(ctx, tx, proj, key)
		if err != nil {
			return err
		}
		t, err := c.loadTerms(ctx, tx, proj)
		if err != nil {
			return err
		}
		if err := model.GateValue(in.TranslationKey, in.Value); err != nil {
			out.Refused = err.Error()
		}
		if in.Value != "" {
			out.Findings = checkRow(proj, t, in.NamespaceKey, in.TranslationKey, in.Language, src, in.Value, cur != nil && cur.DoNotTranslate)
		}
		return nil
	})
	return out, err
}

// RowDetail is one row's history and comments, newest first, with the current row.
type RowDetail struct {
	Item     ReviewItem
	History  []model.HistoryEntry
	Comments []model.Comment
	// Users names who appears in the history and the comments for people: user:<id> to
	// their email, key:<id> to the API key's prefix as the Connect page lists it.
	Users map[string]string
	// OldSource is, on a stale row, the source text its value was written for (from the
	// source row's history) and SourceDiff the words changed since; empty when the history
	// no longer holds it.
	OldSource  string
	SourceDiff []DiffPart
	// Contexts are the pages the key was seen on, newest first (review in context).
	Contexts []PageContext
}

// RowDetails returns a row of the queue with its history and comments.
func (c *Catalog) RowDetails(ctx context.Context, in RowRef) (RowDetail, error) {
	var out RowDetail
	if err := c.gate(ctx, model.OpRowDetails, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		if in.Language == proj.SourceLanguage {
			return model.Errorf(model.CodeInvalid, "%s is the source language", in.Language)
		}
		_, key, cur, err := loadRow(ctx, tx, proj, in)
		if err != nil {
			return err
		}
		if out.Item, err = c.queueItem(ctx, tx, proj, in, key); err != nil {
			return err
		}
		if out.History, err = tx.RowHistory(ctx, key.ID, in.Language, 50); err != nil {
			return err
		}
		seen, err := tx.PageContexts(ctx, []int64{key.ID})
		if err != nil {
			return err
		}
		out.Contexts = seen[key.ID]
		if out.Item.Stale && cur != nil && cur.SourceVersion != nil {
			if out.OldSource, err = sourceAt(ctx, tx, proj, key.ID, *cur.SourceVersion); err != nil {
				return err
			}
			if out.OldSource != "" {
				out.SourceDiff = WordDiff(out.OldSource, out.Item.Source)
			}
		}
		all, err := tx.Comments(ctx, key.ID)
		if err != nil {
			return err
		}
		out.Comments = commentsIn(all, in.Language)
		slices.Reverse(out.Comments)
		actors := []string{out.Item.UpdatedBy}
		for _, h := range out.History {
			actors = append(actors, h.Actor)
		}
		for _, cm := range out.Comments {
			actors = append(actors, cm.Author)
		}
		out.Users = actorNames(ctx, tx, proj, actors)
		return nil
	})
	return out, err
}

// ActorNames names the actors of a project's records (history, comments, redeploy
// attempts) for people: user:<id> to the user's email, key:<id> to "API key <prefix>…" as
// the Connect page lists it, with its name when it has one. Actors it cannot name (gone, of another workspace, the AI)
// are left out.
func (c *Catalog) ActorNames(ctx context.Context, projectID string, actors []string) (map[string]string, error) {
	var out map[string]string
	if err := c.gate(ctx, model.OpActorNames, on{project: projectID}); err != nil {
		return nil, err
	}
	err := c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		out = actorNames(ctx, tx, proj, actors)
		return nil
	})
	return out, err
}

func actorNames(ctx context.Context, tx model.Tx, proj model.Project, actors []string) map[string]string {
	out := map[string]string{}
	for _, a := range actors {
		if _, seen := out[a]; seen {
			continue
		}
		if id, ok := strings.CutPrefix(a, "user:"); ok && validID(id) {
			if u, err := tx.User(ctx, id); err == nil && u.WorkspaceID == proj.WorkspaceID {
				out[a] = u.Email
			} else if f, err := tx.FormerUser(ctx, id); err == nil && f.WorkspaceID == proj.WorkspaceID {
				out[a] = f.Email + " (deleted)" // a deleted user's history keeps their name
			}
		} else if id, ok := strings.CutPrefix(a, "key:"); ok && validID(id) {
			// A key is known to people by the prefix the Connect page lists.
			if k, err := tx.Token(ctx, id); err == nil && k.WorkspaceID == proj.WorkspaceID {
				out[a] = "API key " + k.Prefix + "…"
				if k.Name != "" {
					out[a] = "API key “" + k.Name + "” (" + k.Prefix + "…)"
				}
			}
		}
	}
	return out
}

// SaveRowIn is a reviewer's save: Version is the row's version the reviewer saw.
type SaveRowIn struct {
	RowRef
	Value string
	// Forms, when set, are the fields of a plural or select row: they are joined into Value.
	Forms   *FormsIn
	Status  string // needs_review (default) or approved
	Version string
	// Clear must be set to save an empty value, which deletes the translation: an empty
	// box saved by accident never does.
	Clear bool
	// Override approves a value with QA findings; Reason says why and is recorded on the
	// row. Without it such an approval is refused.
	Override bool
	Reason   string
}

// QAError refuses an approval of a value with QA findings; Findings are those findings.
type QAError struct {
	err      *model.Error
	Findings []checkup.Finding
}

func (e *QAError) Error() string { return e.err.Error() }
func (e *QAError) Unwrap() error { return e.err }

func qaRefusal(key string, found []checkup.Finding) *QAError {
	what := "1 QA finding"
	if len(found) != 1 {
		what = strconv.Itoa(len(found)) + " QA findings"
	}
	return &QAError{err: model.Errorf(model.CodeUnprocessable, "%q has %s (%s): fix them, or approve over them with a reason",
		key, what, findingKinds(found)), Findings: found}
}

// findingKinds names the kinds of found in plain words (checkup.KindLabel), for people.
func findingKinds(found []checkup.Finding) string {
	var kinds []string
	for _, f := range found {
		if l := checkup.KindLabel(f.Kind); !contains(kinds, l) {
			kinds = append(kinds, l)
		}
	}
	return strings.Join(kinds, "; ")
}

// errChanged is the conflict a reviewer gets for a row someone else wrote meanwhile.
// Who is named as people know them (an email, a key's prefix, the AI's model), never by id.
func errChanged(ctx context.Context, tx model.Tx, proj model.Project, key string, cur *model.TranslationState) error {
	who := "someone"
	if cur != nil && cur.UpdatedBy != "" {
		if n, ok := actorNames(ctx, tx, proj, []string{cur.UpdatedBy})[cur.UpdatedBy]; ok {
			who = n
		} else if m, ok := strings.CutPrefix(cur.UpdatedBy, "ai:"); ok {
			who = "AI (" + m + ")"
		}
	}
	return model.Errorf(model.CodeConflict, "%q was changed by %s since you opened it; nothing was saved: look at their version, then save again", key, who)
}

// SaveRow is update_translation for a reviewer: refused (CodeConflict) when the row moved
// since Version, refused (CodeForbidden) outside the editable languages. Saving what is
// already stored changes nothing, but on a stale row it confirms the text (confirms).
//
// Approving runs the row's QA first: a value with findings is refused (a *QAError) unless
// Override is set with a Reason, which is then recorded as a comment of the row in the same
// write. An empty value is saved only with Clear and is never approved.
func (c *Catalog) SaveRow(ctx context.Context, in SaveRowIn) (ReviewItem, error) {
	var out ReviewItem
	if in.Forms != nil {
		var err error
		if in.Value, err = in.Forms.Join(); err != nil {
			return out, err
		}
	}
	up := UpdateTranslationIn{RowRef: in.RowRef, Value: in.Value, Status: in.Status}
	var reason string
	var confirmed bool
	var refusal *QAError // the store may rewrap apply's error; the findings are returned as made
	err := c.write(ctx, write{op: model.OpSaveRow, project: in.ProjectID, lang: in.Language, more: approving(in.Status),
		validate: func() error {
			var err error
			if up.Status, err = statusOrDefault(up.Status); err != nil {
				return err
			}
			if in.Version == "" {
				return model.Errorf(model.CodeInvalid, "version is required")
			}
			if in.Value == "" && up.Status == model.StatusApproved {
				return model.Errorf(model.CodeInvalid, "an empty translation cannot be approved")
			}
			if in.Value == "" && !in.Clear {
				return model.Errorf(model.CodeInvalid, "the translation is empty: saving it deletes the translation; clear it explicitly to do that")
			}
			if in.Override && up.Status == model.StatusApproved {
				if reason, err = checkText("reason", in.Reason, MaxCommentBytes); err != nil {
					return err
				}
				if strings.TrimSpace(reason) == "" {
					return model.Errorf(model.CodeInvalid, "approving over QA findings needs a reason")
				}
			}
			return model.GateValue(in.TranslationKey, in.Value)
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			if err := canEdit(ctx, proj, in.Language); err != nil {
				return nil, err
			}
			if in.Language == proj.SourceLanguage {
				return nil, model.Errorf(model.CodeInvalid, "the editor reviews translations; change source texts where they are written")
			}
			var overridden []checkup.Finding
			var keyID int64
			if up.Status == model.StatusApproved {
				ns, key, cur, err := loadRow(ctx, tx, proj, in.RowRef)
				if err != nil {
					return nil, err
				}
				if rowVersion(cur) == in.Version { // a moved row is the conflict applyUpdate reports
					src, err := sourceValue(ctx, tx, proj, key)
					if err != nil && !model.IsNotFound(err) {
						return nil, err
					}
					t, err := c.loadTerms(ctx, tx, proj)
					if err != nil {
						return nil, err
					}
					found := checkRow(proj, t, ns.Key, key.Key, in.Language, src, in.Value, cur != nil && cur.DoNotTranslate)
					if len(found) > 0 && !in.Override {
						refusal = qaRefusal(in.TranslationKey, found)
						return nil, refusal
					}
					overridden, keyID = found, key.ID
				}
			}
			same := false
			_, changes, err := c.applyUpdate(ctx, tx, proj, up, func(cur *model.TranslationState, key model.KeyRecord) error {
				if rowVersion(cur) != in.Version {
					return errChanged(ctx, tx, proj, in.TranslationKey, cur)
				}
				// The same text over a stale row confirms it: current, and approved when
				// approving, in one step.
				confirmed = confirms(in.Language, proj.SourceLanguage, cur, up.Value, key.SourceVersion)
				same = cur != nil && cur.Value == up.Value && cur.Status == up.Status && !confirmed
				if same {
					return errUnchanged
				}
				return nil
			})
			if same {
				return nil, nil
			}
			if err != nil || len(overridden) == 0 {
				return changes, err
			}
			body := "Approved over QA findings (" + findingKinds(overridden) + "): " + reason
			if _, err := tx.AddComment(ctx, keyID, model.Comment{Language: in.Language, Body: body}); err != nil {
				return nil, err
			}
			return append(changes, model.Change{Kind: model.ChangeCommentAdded, Namespace: in.NamespaceKey, Key: in.TranslationKey, KeyID: keyID, Language: in.Language}), nil
		}})
	if refusal != nil && model.ErrorCode(err) == model.CodeUnprocessable {
		return out, refusal
	}
	if err != nil {
		return out, err
	}
	out, err = c.savedItem(ctx, in.RowRef)
	out.Confirmed = confirmed && err == nil
	return out, err
}

// savedItem reads the row a save wrote as the queue shows it, with what the user may do
// in its language: the editor answers with it, so approve-and-next reads the row once
// (not its history and comments, nor the queue again).
func (c *Catalog) savedItem(ctx context.Context, in RowRef) (ReviewItem, error) {
	var out ReviewItem
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		_, key, _, err := loadRow(ctx, tx, proj, in)
		if err != nil {
			return err
		}
		if out, err = c.queueItem(ctx, tx, proj, in, key); err != nil {
			return err
		}
		r, err := c.rightsIn(ctx, tx, proj, in.Language)
		out.Editable = canEdit(ctx, proj, in.Language) == nil && r&model.RightTranslate != 0
		out.Approvable = out.Editable && r&model.RightApprove != 0
		return err
	})
	return out, err
}

// queueItem reads key's row in in.Language as the review queue shows it.
func (c *Catalog) queueItem(ctx context.Context, tx model.Tx, proj model.Project, in RowRef, key model.KeyRecord) (ReviewItem, error) {
	rows, _, err := tx.ReviewRows(ctx, model.ReviewFilter{ProjectID: proj.ID, SourceLanguage: proj.SourceLanguage, Language: in.Language, KeyIDs: []int64{key.ID}, Limit: 1})
	if err != nil {
		return ReviewItem{}, err
	}
	if len(rows) == 0 {
		return ReviewItem{}, model.Errorf(model.CodeNotFound, "%q has no source text to review", in.TranslationKey)
	}
	t, err := c.loadTerms(ctx, tx, proj)
	if err != nil {
		return ReviewItem{}, err
	}
	items := []ReviewItem{c.reviewItem(proj, t, in.Language, rows[0])}
	err = markOverflow(ctx, tx, items)
	return items[0], err
}

// markOverflow sets the Overflow of the items whose value would not fit where their key
// was seen.
func markOverflow(ctx context.Context, tx model.Tx, items []ReviewItem) error {
	ids := make([]int64, 0, len(items))
	for _, it := range items {
		if !it.Missing {
			ids = append(ids, it.KeyID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	seen, err := tx.PageContexts(ctx, ids)
	if err != nil {
		return err
	}
	for i, it := range items {
		if pcs := seen[it.KeyID]; len(pcs) > 0 && !it.Missing {
			items[i].Overflow = OverflowOf(it.Source, it.Value, it.Syntax, pcs)
		}
	}
	return nil
}

// errUnchanged stops applyUpdate when a save would store what is stored.
var errUnchanged = model.Errorf(model.CodeConflict, "unchanged")

// RowVersion names a row and the version a reviewer saw of it.
type RowVersion struct {
	Namespace string
	Key       string
	Version   string
}

// ApproveIn approves rows of one language together.
type ApproveIn struct {
	ProjectID string
	Language  string
	Rows      []RowVersion
}

// ApproveOut says what became approved and what was left: rows written since the reviewer
// saw them (conflicts), rows without a value or locked (skipped) and rows whose value has
// QA findings (QA), which are approved one by one with a reason.
type ApproveOut struct {
	Approved  []string // rows this batch approved
	Confirmed []string // of Approved, the stale rows it also made current with their source (confirms)
	Already   []string // rows that were approved before it: counted apart, not as approved now
	Conflicts []string
	Skipped   []string
	QA        []string
	Held      []string // rows whose value is held back from readers: fixed first, then approved
}

// MaxApproveRows bounds one batch approval.
const MaxApproveRows = 500

// ApproveRows is set_translation_status to approved for many rows in one write; rows
// without a value, locked or with QA findings are left as they are and named.
func (c *Catalog) ApproveRows(ctx context.Context, in ApproveIn) (ApproveOut, error) {
	out := ApproveOut{Approved: []string{}, Confirmed: []string{}, Already: []string{}, Conflicts: []string{}, Skipped: []string{}, QA: []string{}, Held: []string{}}
	err := c.write(ctx, write{op: model.OpApproveRows, project: in.ProjectID, lang: in.Language,
		validate: func() error {
			if len(in.Rows) == 0 || len(in.Rows) > MaxApproveRows {
				return model.Errorf(model.CodeInvalid, "approve 1 to %d rows at a time", MaxApproveRows)
			}
			return nil
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			if err := canEdit(ctx, proj, in.Language); err != nil {
				return nil, err
			}
			t, err := c.loadTerms(ctx, tx, proj)
			if err != nil {
				return nil, err
			}
			var changes []model.Change
			for _, r := range in.Rows {
				ref := RowRef{KeyRef: KeyRef{ProjectArg: ProjectArg{ProjectID: proj.ID}, NamespaceKey: r.Namespace, TranslationKey: r.Key}, Language: in.Language}
				ns, key, cur, err := loadRow(ctx, tx, proj, ref)
				if model.IsNotFound(err) {
					out.Skipped = append(out.Skipped, r.Key)
					continue
				}
				if err != nil {
					return nil, err
				}
				switch {
				case rowVersion(cur) != r.Version:
					out.Conflicts = append(out.Conflicts, r.Key)
					continue
				case cur == nil || cur.Value == "" || cur.LanguageLocked:
					out.Skipped = append(out.Skipped, r.Key)
					continue
				case cur.Held != "":
					// A value held back would break an app: never approved (applyUpdate).
					out.Held = append(out.Held, r.Key)
					continue
				}
				// A stale row's unchanged text is confirmed by approving it, as the
				// editor's Approve of one row does.
				confirm := confirms(in.Language, proj.SourceLanguage, cur, cur.Value, key.SourceVersion)
				if cur.Status == model.StatusApproved && !confirm {
					out.Already = append(out.Already, r.Key)
					continue
				}
				src, err := sourceValue(ctx, tx, proj, key)
				if model.IsNotFound(err) {
					out.Skipped = append(out.Skipped, r.Key)
					continue
				}
				if err != nil {
					return nil, err
				}
				if len(checkRow(proj, t, ns.Key, key.Key, in.Language, src, cur.Value, cur.DoNotTranslate)) > 0 {
					out.QA = append(out.QA, r.Key)
					continue
				}
				w := model.TranslationWrite{ID: cur.ID, KeyID: key.ID, Key: key.Key, Language: cur.Language, Value: cur.Value, Status: model.StatusApproved,
					DoNotTranslate: cur.DoNotTranslate, LanguageLocked: cur.LanguageLocked, SourceVersion: cur.SourceVersion, Change: model.ChangeStatusChanged}
				if confirm {
					w.SourceVersion = versionPtr(key.SourceVersion)
					if cur.Status == model.StatusApproved {
						w.Change = model.ChangeValueRefreshed
					}
				}
				ch, err := writeRow(ctx, tx, ns, &w)
				if err != nil {
					return nil, err
				}
				changes = append(changes, ch...)
				out.Approved = append(out.Approved, r.Key)
				if confirm {
					out.Confirmed = append(out.Confirmed, r.Key)
				}
			}
			return changes, nil
		}})
	return out, err
}

// editable checks, in a read, that the principal may edit the row's language; the write
// operations it guards check everything else themselves.
func (c *Catalog) editable(ctx context.Context, op model.Operation, projectID, language string) error {
	if err := c.admit(ctx, op, on{project: projectID, entry: true}); err != nil {
		return err
	}
	return c.read(ctx, projectID, func(_ model.Tx, proj model.Project) error { return canEdit(ctx, proj, language) })
}

// reviewer applies the editor's rule in the operations a signed-in reviewer shares with the
// API (add_comment, flag_translation): a reviewer acts on the project's editable languages
// only, before anything else is looked at; tokens keep the tools' own rules.
func (c *Catalog) reviewer(ctx context.Context, op model.Operation, projectID, language string) error {
	if model.PrincipalFrom(ctx).Kind != KindSession {
		return nil
	}
	return c.editable(ctx, op, projectID, language)
}

// TranslateRowsIn asks the AI for rows of one language: Keys by namespace, or with All
// the rows still missing (at most MaxTranslateRows of them per call).
type TranslateRowsIn struct {
	ProjectID string
	Language  string
	Keys      map[string][]string
	All       bool
}

// TranslateRowsOut sums the ai_translate_keys calls made; More is true when rows are left.
type TranslateRowsOut struct {
	Translated int
	Failed     []string
	Reasons    map[string]string // why each failed key failed
	Skipped    int
	More       bool
}

// MaxTranslateRows bounds the rows one "translate with AI" press sends (ten calls).
const MaxTranslateRows = 100

// TranslateRows runs ai_translate_keys in batches of at most MaxAIKeys keys of one
// namespace: approved and locked rows are never overwritten there.
func (c *Catalog) TranslateRows(ctx context.Context, in TranslateRowsIn) (TranslateRowsOut, error) {
	var out TranslateRowsOut
	if err := c.editable(ctx, model.OpTranslateRows, in.ProjectID, in.Language); err != nil {
		return out, err
	}
	keys := in.Keys
	if in.All {
		keys = map[string][]string{}
		page, err := c.reviewQueue(ctx, ReviewIn{ProjectID: in.ProjectID, Language: in.Language, Filter: FilterMissing, Limit: MaxTranslateRows})
		if err != nil {
			return out, err
		}
		for _, r := range page.Rows {
			keys[r.Namespace] = append(keys[r.Namespace], r.Key)
		}
		out.More = page.Next != ""
	}
	n := 0
	for _, ks := range keys {
		n += len(ks)
	}
	if n == 0 {
		return out, model.Errorf(model.CodeInvalid, "no rows to translate")
	}
	if n > MaxTranslateRows {
		return out, model.Errorf(model.CodeInvalid, "translate at most %d rows at a time", MaxTranslateRows)
	}
	for _, ns := range sortedKeys(keys) {
		ks := keys[ns]
		for i := 0; i < len(ks); i += MaxAIKeys {
			batch := ks[i:min(i+MaxAIKeys, len(ks))]
			r, err := c.aiTranslateKeys(ctx, model.OpTranslateRows, AITranslateIn{ProjectArg: ProjectArg{ProjectID: in.ProjectID}, NamespaceKey: ns, TranslationKeys: batch, TargetLang: in.Language})
			if err != nil {
				return out, err
			}
			out.Translated += len(r.Translated)
			for _, k := range r.Failed {
				out.Failed = append(out.Failed, k)
				if out.Reasons == nil {
					out.Reasons = map[string]string{}
				}
				out.Reasons[k] = r.Reasons[k]
			}
			out.Skipped += len(r.SkippedApproved) + len(r.SkippedLocked) + len(r.SkippedMissingSource)
		}
	}
	return out, nil
}

// sourceAt is the key's source text at source version v, from the source row's history
// (its newest 50 entries); "" when they no longer hold it.
func sourceAt(ctx context.Context, tx model.Tx, proj model.Project, keyID, v int64) (string, error) {
	hist, err := tx.RowHistory(ctx, keyID, proj.SourceLanguage, 50)
	if err != nil {
		return "", err
	}
	for _, h := range hist {
		if h.SourceVersion != nil && *h.SourceVersion == v {
			return h.Value, nil
		}
	}
	return "", nil
}
