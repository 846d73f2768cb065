package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// NamespaceRef names one namespace in one language of a project.
type NamespaceRef struct {
	ProjectID string `json:"project_id"`
	Language  string `json:"language"`
	Namespace string `json:"namespace_key"`
}

// ReadNamespace returns the flat map of one namespace in one language (spec endpoint 1),
// pre-serialized with its ETag. Hidden keys are not served; in a target language every key
// with a value is, approved or draft, and keys without one are absent so clients fall back.
func (c *Catalog) ReadNamespace(ctx context.Context, ref NamespaceRef) (*File, error) {
	if err := requireToken(ctx); err != nil {
		return nil, err
	}
	p := PrincipalFrom(ctx)
	if err := authorizeProjectID(p, ref.ProjectID); err != nil {
		return nil, err
	}
	if p.Kind == KindWorkspace {
		// The project's workspace is needed; the project's own cache entry serves it.
		if _, err := c.projectCached(ctx, ref.ProjectID); err != nil {
			return nil, err
		}
	}
	return c.store.Cached(ctx, ref.ProjectID, "ns\x00"+ref.Namespace+"\x00"+ref.Language, func(ctx context.Context) ([]byte, error) {
		var body []byte
		err := c.store.View(ctx, func(tx Tx) error {
			proj, err := tx.Project(ctx, ref.ProjectID)
			if err != nil {
				return err
			}
			if err := proj.requireLanguage(ref.Language); err != nil {
				return err
			}
			ns, err := tx.Namespace(ctx, ref.ProjectID, ref.Namespace)
			if err != nil {
				return err
			}
			keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, ref.Language)
			if err != nil {
				return err
			}
			m := make(map[string]string, len(keys))
			for _, k := range keys {
				if !k.Hidden && k.Value != nil {
					m[k.Key] = k.Value.Value
				}
			}
			body, err = marshalFlat(m)
			return err
		})
		return body, err
	})
}

// projectCached returns the project through the cache and checks the principal against it.
func (c *Catalog) projectCached(ctx context.Context, projectID string) (Project, error) {
	f, err := c.store.Cached(ctx, projectID, "project", func(ctx context.Context) ([]byte, error) {
		var body []byte
		err := c.store.View(ctx, func(tx Tx) error {
			p, err := tx.Project(ctx, projectID)
			if err != nil {
				return err
			}
			body, err = json.Marshal(cachedProject{Project: p, WorkspaceID: p.WorkspaceID, Active: p.Active})
			return err
		})
		return body, err
	})
	if err != nil {
		return Project{}, err
	}
	var cp cachedProject
	if err := json.Unmarshal(f.Body, &cp); err != nil {
		return Project{}, err
	}
	cp.Project.WorkspaceID, cp.Project.Active = cp.WorkspaceID, cp.Active
	if err := authorizeProject(PrincipalFrom(ctx), cp.Project); err != nil {
		return Project{}, err
	}
	return cp.Project, nil
}

type cachedProject struct {
	Project
	WorkspaceID string `json:"workspace_id"`
	Active      bool   `json:"active"`
}

// marshalFlat renders a flat map with sorted keys and without HTML escaping: values carry
// markup, and clients read them verbatim.
func marshalFlat(m map[string]string) ([]byte, error) {
	b, err := encodeJSON(m, false)
	return bytes.TrimRight(b, "\n"), err
}

// writeScope loads the project for a write and checks the language and namespace; create
// makes a missing namespace instead of answering not_found.
func (c *Catalog) writeScope(ctx context.Context, tx Tx, ref NamespaceRef, create bool) (Project, Namespace, error) {
	proj, err := c.loadProject(ctx, tx, ref.ProjectID)
	if err != nil {
		return Project{}, Namespace{}, err
	}
	if ref.Language != "" {
		if err := proj.requireLanguage(ref.Language); err != nil {
			return Project{}, Namespace{}, err
		}
	}
	ns, err := tx.Namespace(ctx, proj.ID, ref.Namespace)
	if IsNotFound(err) {
		if !create {
			return Project{}, Namespace{}, errNoNamespace(ref.Namespace)
		}
		if err := checkNamespace(ref.Namespace); err != nil {
			return Project{}, Namespace{}, err
		}
		ns, err = tx.CreateNamespace(ctx, proj.ID, ref.Namespace)
	}
	return proj, ns, err
}

func versionPtr(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

// ReportMissingIn is the body of spec endpoint 2: keys the runtime met with their source
// values.
type ReportMissingIn struct {
	NamespaceRef
	Translations map[string]string `json:"translations"`
}

// ReportMissingOut counts what was added.
type ReportMissingOut struct {
	Created []string `json:"created"`
}

// ReportMissing adds the keys the namespace lacks with their source values and touches
// nothing that exists (spec endpoint 2).
func (c *Catalog) ReportMissing(ctx context.Context, in ReportMissingIn) (ReportMissingOut, error) {
	out := ReportMissingOut{Created: []string{}}
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if err := checkEntries(in.Translations); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, ns, err := c.writeScope(ctx, tx, in.NamespaceRef, false)
		if err != nil {
			return err
		}
		out.Created, _, err = c.addMissingKeys(ctx, tx, proj, ns, in.Translations)
		return err
	})
	return out, err
}

// addMissingKeys creates, with their source values, the keys of values that ns lacks, and
// schedules what a write sets off when it made any. Existing keys are not touched.
func (c *Catalog) addMissingKeys(ctx context.Context, tx Tx, proj Project, ns Namespace, values map[string]string) (created, existing []string, err error) {
	keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, proj.SourceLanguage)
	if err != nil {
		return nil, nil, err
	}
	have := make(map[string]bool, len(keys))
	for _, k := range keys {
		have[k.Key] = true
	}
	created, existing = []string{}, []string{}
	for _, k := range sortedKeys(values) {
		if have[k] {
			existing = append(existing, k)
		} else {
			created = append(created, k)
		}
	}
	if len(created) == 0 {
		return created, existing, nil
	}
	if err := c.createKeys(ctx, tx, proj, ns, proj.SourceLanguage, created, values); err != nil {
		return nil, nil, err
	}
	return created, existing, c.afterWrite(ctx, tx, proj.ID)
}

// createKeys inserts keys with their values in language: in the source language the value
// is the source (version 1); in a target language it is that language's translation and the
// key has no source yet.
func (c *Catalog) createKeys(ctx context.Context, tx Tx, proj Project, ns Namespace, language string, keys []string, values map[string]string) error {
	if len(keys) == 0 {
		return nil
	}
	isSource := language == proj.SourceLanguage
	var version int64
	if isSource {
		version = 1
	}
	newKeys := make([]NewKey, len(keys))
	for i, k := range keys {
		newKeys[i] = NewKey{NamespaceID: ns.ID, Key: k, SourceVersion: version}
	}
	ids, err := tx.InsertKeys(ctx, newKeys)
	if err != nil {
		return err
	}
	writes := make([]TranslationWrite, 0, len(keys))
	for i, k := range keys {
		v := values[k]
		if v == "" && !isSource {
			continue
		}
		writes = append(writes, TranslationWrite{KeyID: ids[i], Language: language, Value: v, Status: StatusApproved,
			SourceVersion: versionPtr(version), Change: "created"})
	}
	return tx.WriteTranslations(ctx, writes)
}

// SyncIn is the body of spec endpoint 3.
type SyncIn struct {
	NamespaceRef
	Translations         map[string]string `json:"translations"`
	DynamicKeyPrefixes   []string          `json:"dynamic_key_prefixes"`
	PreserveSourceValues *bool             `json:"preserve_source_values"`
	Partial              bool              `json:"partial"`
}

// SyncSummary counts what a sync did.
type SyncSummary struct {
	TotalIncoming      int `json:"total_incoming"`
	Created            int `json:"created"`
	Hidden             int `json:"hidden"`
	Unhidden           int `json:"unhidden"`
	SourceValueChanged int `json:"source_value_changed"`
	Unchanged          int `json:"unchanged"`
}

// SyncOut is the 200 body of spec endpoint 3.
type SyncOut struct {
	Summary            SyncSummary `json:"summary"`
	Created            []string    `json:"created"`
	Unhidden           []string    `json:"unhidden"`
	Hidden             []string    `json:"hidden"`
	SourceValueChanged []string    `json:"source_value_changed"`
}

// Sync declares the full key set of a namespace (spec endpoint 3). Keys sent are created or
// unhidden; in the source language, keys not sent are hidden unless the sync is partial or
// they match a dynamic prefix; nothing is deleted. With preserve_source_values false a
// changed source value is overwritten, which makes its translations stale and clears their
// language locks. In a target language the values become that language's translations of
// the keys that have none yet, and nothing is hidden.
func (c *Catalog) Sync(ctx context.Context, in SyncIn) (SyncOut, error) {
	out := SyncOut{Created: []string{}, Unhidden: []string{}, Hidden: []string{}, SourceValueChanged: []string{}}
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if err := checkEntries(in.Translations); err != nil {
		return out, err
	}
	preserve := in.PreserveSourceValues == nil || *in.PreserveSourceValues
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, ns, err := c.writeScope(ctx, tx, in.NamespaceRef, true)
		if err != nil {
			return err
		}
		isSource := in.Language == proj.SourceLanguage
		keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, in.Language)
		if err != nil {
			return err
		}
		existing := make(map[string]*KeyState, len(keys))
		for i := range keys {
			existing[keys[i].Key] = &keys[i]
		}
		var unhide, changedIDs []int64
		var writes []TranslationWrite
		for _, k := range sortedKeys(in.Translations) {
			v := in.Translations[k]
			ks := existing[k]
			if ks == nil {
				out.Created = append(out.Created, k)
				continue
			}
			touched := false
			if ks.Hidden {
				unhide = append(unhide, ks.ID)
				out.Unhidden = append(out.Unhidden, k)
				touched = true
			}
			switch {
			case isSource && (ks.Source == nil || (!preserve && ks.Source.Value != v)):
				// A key first made in a target language gets its source from the first
				// source sync; otherwise only preserve_source_values=false overwrites.
				next := ks.SourceVersion + 1
				w := TranslationWrite{KeyID: ks.ID, Language: proj.SourceLanguage, Value: v, Status: StatusApproved,
					SourceVersion: &next, Change: "value"}
				if ks.Source != nil {
					w.ID, w.DoNotTranslate = ks.Source.ID, ks.Source.DoNotTranslate
				}
				writes = append(writes, w)
				changedIDs = append(changedIDs, ks.ID)
				out.SourceValueChanged = append(out.SourceValueChanged, k)
				touched = true
			case !isSource && ks.Value == nil && v != "":
				writes = append(writes, TranslationWrite{KeyID: ks.ID, Language: in.Language, Value: v,
					Status: StatusApproved, SourceVersion: versionPtr(ks.SourceVersion), Change: "created"})
			}
			if !touched {
				out.Summary.Unchanged++
			}
		}
		var hide []int64
		if isSource && !in.Partial {
			for i := range keys {
				k := &keys[i]
				if k.Hidden || hasKey(in.Translations, k.Key) || hasPrefix(k.Key, in.DynamicKeyPrefixes) {
					continue
				}
				hide = append(hide, k.ID)
				out.Hidden = append(out.Hidden, k.Key)
			}
		}
		if err := c.createKeys(ctx, tx, proj, ns, in.Language, out.Created, in.Translations); err != nil {
			return err
		}
		if err := tx.SetHidden(ctx, unhide, false); err != nil {
			return err
		}
		if err := tx.SetHidden(ctx, hide, true); err != nil {
			return err
		}
		if err := tx.SourceChanged(ctx, changedIDs); err != nil {
			return err
		}
		if err := tx.WriteTranslations(ctx, writes); err != nil {
			return err
		}
		return c.afterWrite(ctx, tx, proj.ID)
	})
	if err != nil {
		return SyncOut{}, err
	}
	out.Summary.TotalIncoming = len(in.Translations)
	out.Summary.Created = len(out.Created)
	out.Summary.Hidden = len(out.Hidden)
	out.Summary.Unhidden = len(out.Unhidden)
	out.Summary.SourceValueChanged = len(out.SourceValueChanged)
	return out, nil
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

func hasPrefix(k string, prefixes []string) bool {
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// OverwriteIn is the body of spec endpoint 4.
type OverwriteIn struct {
	NamespaceRef
	Translations map[string]string `json:"translations"`
}

// OverwriteSummary counts what an overwrite did.
type OverwriteSummary struct {
	TotalIncoming int `json:"total_incoming"`
	Updated       int `json:"updated"`
	Refreshed     int `json:"refreshed"`
	Unchanged     int `json:"unchanged"`
	NotFound      int `json:"not_found"`
}

// OverwriteOut is the 200 body of spec endpoint 4.
type OverwriteOut struct {
	Summary   OverwriteSummary `json:"summary"`
	Updated   []string         `json:"updated"`
	Refreshed []string         `json:"refreshed"`
	Unchanged []string         `json:"unchanged"`
	NotFound  []string         `json:"not_found"`
}

// Overwrite force-sets values of existing keys in one language (spec endpoint 4). A value
// sent unchanged while the source moved is stamped current (refreshed). Overwritten target
// values are approved: they are the team's own files. Unknown keys are reported, never made.
// A language_locked row keeps its value and is reported unchanged.
func (c *Catalog) Overwrite(ctx context.Context, in OverwriteIn) (OverwriteOut, error) {
	out := OverwriteOut{Updated: []string{}, Refreshed: []string{}, Unchanged: []string{}, NotFound: []string{}}
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if err := checkEntries(in.Translations); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, ns, err := c.writeScope(ctx, tx, in.NamespaceRef, false)
		if err != nil {
			return err
		}
		isSource := in.Language == proj.SourceLanguage
		keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, in.Language)
		if err != nil {
			return err
		}
		existing := make(map[string]*KeyState, len(keys))
		for i := range keys {
			existing[keys[i].Key] = &keys[i]
		}
		var writes []TranslationWrite
		var changedIDs []int64
		for _, k := range sortedKeys(in.Translations) {
			v := in.Translations[k]
			ks := existing[k]
			if ks == nil {
				out.NotFound = append(out.NotFound, k)
				continue
			}
			cur := ks.Value
			if cur != nil && cur.LanguageLocked && cur.Value != v {
				// A locked value must not be overwritten, not even by the team's files: it
				// stays as it is until someone clears the lock.
				out.Unchanged = append(out.Unchanged, k)
				continue
			}
			if isSource {
				if cur != nil && cur.Value == v {
					out.Unchanged = append(out.Unchanged, k)
					continue
				}
				next := ks.SourceVersion + 1
				w := TranslationWrite{KeyID: ks.ID, Language: in.Language, Value: v, Status: StatusApproved, SourceVersion: &next, Change: "value"}
				if cur != nil {
					w.ID, w.DoNotTranslate = cur.ID, cur.DoNotTranslate
				}
				writes = append(writes, w)
				changedIDs = append(changedIDs, ks.ID)
				out.Updated = append(out.Updated, k)
				continue
			}
			w := TranslationWrite{KeyID: ks.ID, Language: in.Language, Value: v, Status: StatusApproved,
				SourceVersion: versionPtr(ks.SourceVersion), Change: "value"}
			switch {
			case cur == nil:
				w.Change = "created"
				out.Updated = append(out.Updated, k)
			case cur.Value != v:
				w.ID, w.DoNotTranslate, w.LanguageLocked = cur.ID, cur.DoNotTranslate, cur.LanguageLocked
				out.Updated = append(out.Updated, k)
			case cur.Stale(ks.SourceVersion, true):
				w.ID, w.Status, w.DoNotTranslate, w.LanguageLocked = cur.ID, cur.Status, cur.DoNotTranslate, cur.LanguageLocked
				w.Change = "refresh"
				out.Refreshed = append(out.Refreshed, k)
			default:
				out.Unchanged = append(out.Unchanged, k)
				continue
			}
			writes = append(writes, w)
		}
		if err := tx.SourceChanged(ctx, changedIDs); err != nil {
			return err
		}
		if err := tx.WriteTranslations(ctx, writes); err != nil {
			return err
		}
		return c.afterWrite(ctx, tx, proj.ID)
	})
	if err != nil {
		return OverwriteOut{}, err
	}
	out.Summary = OverwriteSummary{TotalIncoming: len(in.Translations), Updated: len(out.Updated),
		Refreshed: len(out.Refreshed), Unchanged: len(out.Unchanged), NotFound: len(out.NotFound)}
	return out, nil
}

// StaleIn asks for the stale translations of a namespace (spec endpoint 5).
type StaleIn struct {
	ProjectID   string `json:"project_id"`
	Namespace   string `json:"namespace_key"`
	Language    string `json:"lang"`
	IncludeNull bool   `json:"include_null"`
}

// StaleOut is the 200 body of spec endpoint 5.
type StaleOut struct {
	Lang      string   `json:"lang"`
	StaleKeys []string `json:"stale_keys"`
}

// ListStale lists visible keys whose translation in Language was made against an older
// source value; rows with no recorded source version count when IncludeNull is set.
func (c *Catalog) ListStale(ctx context.Context, in StaleIn) (StaleOut, error) {
	out := StaleOut{Lang: in.Language, StaleKeys: []string{}}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	if in.Language == "" {
		return out, Errorf(CodeInvalid, "query parameter lang is required")
	}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		if err := proj.requireLanguage(in.Language); err != nil {
			return err
		}
		ns, err := tx.Namespace(ctx, proj.ID, in.Namespace)
		if err != nil {
			return err
		}
		if in.Language == proj.SourceLanguage {
			return nil
		}
		keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, in.Language)
		if err != nil {
			return err
		}
		for _, k := range keys {
			if !k.Hidden && k.Value != nil && k.Value.Stale(k.SourceVersion, in.IncludeNull) {
				out.StaleKeys = append(out.StaleKeys, k.Key)
			}
		}
		return nil
	})
	return out, err
}

// PageStringsIn is the body of spec endpoint 7.
type PageStringsIn struct {
	ProjectID     string   `json:"project_id"`
	Namespace     string   `json:"namespace_key"`
	SourceStrings []string `json:"source_strings"`
}

// PageStringsOut is the 200 body of spec endpoint 7.
type PageStringsOut struct {
	Created        int    `json:"created"`
	Skipped        int    `json:"skipped"`
	SourceLanguage string `json:"source_language"`
}

// MaxPageStrings bounds one registration call.
const MaxPageStrings = 5000

// RegisterPageStrings creates a source row, key equal to value, for every string new to the
// namespace, creating the namespace on first use (spec endpoint 7). Existing rows, blank
// strings and repeats are skipped.
func (c *Catalog) RegisterPageStrings(ctx context.Context, in PageStringsIn) (PageStringsOut, error) {
	var out PageStringsOut
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if len(in.SourceStrings) > MaxPageStrings {
		return out, Errorf(CodeUnprocessable, "at most %d strings per call", MaxPageStrings)
	}
	values := map[string]string{}
	for _, s := range in.SourceStrings {
		if strings.TrimSpace(s) == "" {
			out.Skipped++
			continue
		}
		if _, dup := values[s]; dup {
			out.Skipped++
			continue
		}
		values[s] = s
	}
	if err := checkEntries(values); err != nil {
		return PageStringsOut{}, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, ns, err := c.writeScope(ctx, tx, NamespaceRef{ProjectID: in.ProjectID, Namespace: in.Namespace}, true)
		if err != nil {
			return err
		}
		out.SourceLanguage = proj.SourceLanguage
		created, existing, err := c.addMissingKeys(ctx, tx, proj, ns, values)
		out.Created, out.Skipped = len(created), out.Skipped+len(existing)
		return err
	})
	if err != nil {
		return PageStringsOut{}, err
	}
	return out, nil
}
