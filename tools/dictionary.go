package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// DictionaryIn asks for the swap dictionary of one namespace and language (spec endpoint
// 14). Origin is the browser's Origin header ("" when none); PriorsOnly is src=0.
type DictionaryIn struct {
	ProjectID  string
	Language   string
	Namespace  string
	Origin     string
	PriorsOnly bool
}

// Dictionary is a pre-serialized dictionary: the cached bytes and an ETag that differs
// between the full map and the priors-only one even when their bytes are equal.
type Dictionary struct {
	File     *model.File
	ETag     string
	Language string // the language served, after regional fallback
}

// ReadDictionary returns the swap dictionary (spec endpoint 14): a flat map from text a
// page may show to the text it should say. Source-to-current entries map a key's source
// value to the language's current value; prior-to-current entries, only while the
// project keeps sites up to date between deploys, map every earlier value of the
// language's row (from the history) to the current one. PriorsOnly returns the latter only.
// "Current" is the newest value, or with auto_apply off the newest approved one. A regional
// tag falls back to its base language. The bytes are cached until a write to the project,
// and the read counts as visitor demand for the language. The page namespace reads as
// empty until the first harvest creates it (embedNamespace). CodeNotFound for an unknown
// project, namespace or language, a project the Embed is not set up for, or while the
// workspace's Embed is off; CodeForbidden for an origin the project does not allow.
func (c *Catalog) ReadDictionary(ctx context.Context, in DictionaryIn) (Dictionary, error) {
	if err := c.gate(ctx, model.OpDictionary, on{}); err != nil {
		return Dictionary{}, err
	}
	p, err := c.publicProject(ctx, in.ProjectID)
	if err != nil {
		return Dictionary{}, err
	}
	if err := p.checkOrigin(in.Origin); err != nil {
		return Dictionary{}, err
	}
	lang, err := publicLanguage(&p, in.Language)
	if err != nil {
		return Dictionary{}, err
	}
	if checkNamespace(in.Namespace) != nil {
		return Dictionary{}, errNoNamespace(in.Namespace)
	}
	name, suffix := "dict\x00"+in.Namespace+"\x00"+lang, ""
	if in.PriorsOnly {
		name, suffix = name+"\x00src0", "-p"
	}
	f, err := c.cachedValues(ctx, in.ProjectID, in.Namespace, lang, name, func(st *dictState) ([]byte, error) {
		return marshalFlat(st.dictionary(in.PriorsOnly))
	})
	if err != nil {
		return Dictionary{}, err
	}
	c.countDemand(in.ProjectID, lang)
	etag := f.ETag
	if suffix != "" {
		etag = strings.TrimSuffix(etag, `"`) + suffix + `"`
	}
	return Dictionary{File: f, ETag: etag, Language: lang}, nil
}

// cachedValues returns the file cached under name that render makes of the namespace's
// values in language (dictState). A write of a few keys re-reads those keys alone (the
// store's CachedPatch, as for endpoint 1): the first read after it costs milliseconds, not
// the namespace's every key and history again (0.9 s at 50,000 keys).
func (c *Catalog) cachedValues(ctx context.Context, projectID, namespace, language, name string, render func(*dictState) ([]byte, error)) (*model.File, error) {
	build := func(ctx context.Context, old *dictState, only []string) (*dictState, []byte, error) {
		var st *dictState
		var body []byte
		err := c.store.View(ctx, func(tx model.Tx) error {
			var err error
			if st, err = readDictionary(ctx, tx, projectID, namespace, language, old, only); err != nil {
				return err
			}
			body, err = render(st)
			return err
		})
		return st, body, err
	}
	if ps, ok := c.store.(patchingStore); ok {
		return ps.CachedPatch(ctx, projectID, namespace, name,
			func(ctx context.Context) (any, []byte, error) { return build(ctx, nil, nil) },
			func(ctx context.Context, state any, keys []string) (any, []byte, error) {
				return build(ctx, state.(*dictState), keys)
			})
	}
	return c.store.Cached(ctx, projectID, name, func(ctx context.Context) ([]byte, error) {
		_, body, err := build(ctx, nil, nil)
		return body, err
	})
}

// keyValues is one key's current value in a language and its earlier values.
type keyValues struct {
	key     string
	source  string
	current string
	priors  []string
	changed time.Time // the newest history entry
}

// namespaceValues reads, for every visible key with a source value (of the keys named by
// only, when any are), the current value in language under the auto-apply rule and the
// earlier values from the history, in key order.
func namespaceValues(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, language string, only ...string) ([]keyValues, error) {
	keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, language, only...)
	if err != nil {
		return nil, err
	}
	var ids []int64
	if len(only) > 0 {
		if len(keys) == 0 {
			return nil, nil
		}
		for _, k := range keys {
			ids = append(ids, k.ID)
		}
	}
	hist, err := tx.NamespaceHistory(ctx, ns, language, ids...)
	if err != nil {
		return nil, err
	}
	byKey := map[int64][]model.HistoryValue{}
	for _, h := range hist {
		byKey[h.KeyID] = append(byKey[h.KeyID], h)
	}
	autoApply := proj.Settings.AutoApply || language == proj.SourceLanguage
	out := make([]keyValues, 0, len(keys))
	for _, k := range keys {
		if k.Hidden || k.Source == nil || k.Source.Value == "" {
			continue
		}
		kv := keyValues{key: k.Key, source: k.Source.Value}
		if v := servedRow(k.Value); v != nil && v.Value != "" && (autoApply || v.Status == model.StatusApproved) {
			kv.current = v.Value
		}
		hs := byKey[k.ID]
		if kv.current == "" {
			// A draft newer than the last approved value is not served yet: the approved
			// one stays current.
			for i := len(hs) - 1; i >= 0; i-- {
				if hs[i].Status == model.StatusApproved && hs[i].Value != "" {
					kv.current = hs[i].Value
					break
				}
			}
		}
		seen := map[string]bool{kv.current: true, "": true}
		for _, h := range hs {
			if !seen[h.Value] {
				seen[h.Value] = true
				kv.priors = append(kv.priors, h.Value)
			}
			if h.At.After(kv.changed) {
				kv.changed = h.At
			}
		}
		if k.Value != nil && k.Value.UpdatedAt.After(kv.changed) {
			kv.changed = k.Value.UpdatedAt
		}
		out = append(out, kv)
	}
	return out, nil
}

// embedNamespace finds a namespace the Embed reads. The Embed's own namespace (page) is
// there from a project's first visit on, empty (ok false) until the first harvest creates
// it, so that a new site's first dictionary read succeeds and harvesting starts; any other
// unknown namespace is CodeNotFound.
func embedNamespace(ctx context.Context, tx model.Tx, projectID, name string) (ns model.Namespace, ok bool, err error) {
	ns, err = tx.Namespace(ctx, projectID, name)
	switch {
	case err == nil:
		return ns, true, nil
	case !model.IsNotFound(err):
		return ns, false, err
	case name == EmbedNamespace:
		return ns, false, nil
	}
	return ns, false, errNoNamespace(name)
}

// dictState is what a dictionary is made of, kept with the cached file: the project's
// settings it depends on and, in key order, the values of the namespace's keys.
type dictState struct {
	source    string // the project's source language
	language  string
	keepSite  bool // the project keeps sites up to date: prior values are served too
	values    []keyValues
	namespace model.Namespace
}

// readDictionary reads the dictionary's values whole, or with old only the keys named,
// patched into old's values (a project change rebuilds the file whole, so old's settings
// still hold).
func readDictionary(ctx context.Context, tx model.Tx, projectID, namespace, language string, old *dictState, only []string) (*dictState, error) {
	proj, err := tx.Project(ctx, projectID)
	if err != nil {
		return nil, err
	}
	// The Embed's page namespace before its first harvest has no state to patch.
	if old != nil && old.namespace.ID != 0 {
		fresh, err := namespaceValues(ctx, tx, proj, old.namespace, language, only...)
		if err != nil {
			return nil, err
		}
		return old.with(fresh, only), nil
	}
	st := &dictState{source: proj.SourceLanguage, language: language, keepSite: proj.Settings.KeepSiteCurrent}
	ns, ok, err := embedNamespace(ctx, tx, projectID, namespace)
	if err != nil || !ok {
		return st, err
	}
	st.namespace = ns
	st.values, err = namespaceValues(ctx, tx, proj, ns, language)
	return st, err
}

// with is st with the keys named set to their fresh values, or dropped when they have
// none, each in its place: sorting the namespace's 50,000 values again cost more than the
// rest of a patch.
func (st dictState) with(fresh []keyValues, only []string) *dictState {
	now := make(map[string]keyValues, len(fresh))
	for _, kv := range fresh {
		now[kv.key] = kv
	}
	st.values = slices.Clone(st.values)
	seen := make(map[string]bool, len(only))
	for _, k := range only {
		if seen[k] {
			continue
		}
		seen[k] = true
		i, found := slices.BinarySearchFunc(st.values, k, func(kv keyValues, k string) int { return strings.Compare(kv.key, k) })
		kv, keep := now[k]
		switch {
		case found && keep:
			st.values[i] = kv
		case found:
			st.values = slices.Delete(st.values, i, i+1)
		case keep:
			st.values = slices.Insert(st.values, i, kv)
		}
	}
	return &st
}

// dictionary is the flat map the state serves; priorsOnly leaves out source-to-current.
func (st *dictState) dictionary(priorsOnly bool) map[string]string {
	m := map[string]string{}
	// Source entries first, so that a prior value that is also some key's source text
	// never hides that key's translation.
	if !priorsOnly && st.language != st.source {
		for _, kv := range st.values {
			if kv.current == "" || kv.source == kv.current {
				continue
			}
			if pairs, ok := familyPairs(st.source, st.language, kv.source, kv.current); ok {
				// A plural family: each source form's text to the same form's translation.
				for _, p := range pairs {
					if _, dup := m[p.Key]; !dup && p.Key != p.Value {
						m[p.Key] = p.Value
					}
				}
				continue
			}
			if _, dup := m[kv.source]; !dup {
				m[kv.source] = kv.current
			}
		}
	}
	if st.keepSite {
		for _, kv := range st.values {
			if kv.current == "" {
				continue
			}
			for _, prior := range kv.priors {
				if _, dup := m[prior]; !dup && (st.language == st.source || prior != kv.source) {
					m[prior] = kv.current
				}
			}
		}
	}
	return m
}

// ChangesIn asks for the changes of one namespace and language after Since (spec
// endpoint 15); Since is the raw query value.
type ChangesIn struct {
	ProjectID string
	Language  string
	Namespace string
	Origin    string
	Since     string
}

// ChangeEntry is one changed key: its current value and the values it had before.
type ChangeEntry struct {
	Key     string   `json:"key"`
	Current string   `json:"current"`
	Priors  []string `json:"priors"`
}

// ChangesOut is endpoint 15's answer.
type ChangesOut struct {
	Since      time.Time     `json:"since"`
	ServerTime time.Time     `json:"server_time"`
	Changes    []ChangeEntry `json:"changes"`
	Truncated  bool          `json:"truncated"`
}

// Changes lists the keys whose value in the language changed after since (spec endpoint
// 15), newest first, at most MaxChanges. CodeInvalid when since is missing, unparsable, in
// the future or more than seven days back; otherwise as ReadDictionary.
func (c *Catalog) Changes(ctx context.Context, in ChangesIn) (ChangesOut, error) {
	now := c.opts.Now().UTC()
	var out ChangesOut
	if err := c.gate(ctx, model.OpChanges, on{}); err != nil {
		return out, err
	}
	if in.Since == "" {
		return out, model.Errorf(model.CodeInvalid, "since is required (an ISO 8601 date-time, at most seven days back)")
	}
	since, err := time.Parse(time.RFC3339Nano, in.Since)
	if err != nil {
		return out, model.Errorf(model.CodeInvalid, "since %q is not an ISO 8601 date-time such as 2026-01-02T15:04:05Z", model.Truncate(in.Since, 60))
	}
	switch {
	case since.After(now):
		return out, model.Errorf(model.CodeInvalid, "since is in the future (server time %s)", now.Format(time.RFC3339))
	case since.Before(now.Add(-ChangesWindow)):
		return out, model.Errorf(model.CodeInvalid, "since is more than seven days back (server time %s)", now.Format(time.RFC3339))
	}
	p, err := c.publicProject(ctx, in.ProjectID)
	if err != nil {
		return out, err
	}
	if err := p.checkOrigin(in.Origin); err != nil {
		return out, err
	}
	lang, err := publicLanguage(&p, in.Language)
	if err != nil {
		return out, err
	}
	if checkNamespace(in.Namespace) != nil {
		return out, errNoNamespace(in.Namespace)
	}
	out = ChangesOut{Since: since.UTC(), ServerTime: now, Changes: []ChangeEntry{}}
	f, err := c.cachedValues(ctx, in.ProjectID, in.Namespace, lang, "chg\x00"+in.Namespace+"\x00"+lang, changesFeed)
	if err != nil {
		return out, err
	}
	// The feed is newest first: read it only as far as since.
	for body := f.Body; len(body) > 0; {
		line := body
		if n := bytes.IndexByte(body, '\n'); n >= 0 {
			line, body = body[:n], body[n+1:]
		} else {
			body = nil
		}
		var e changeLine
		if err := json.Unmarshal(line, &e); err != nil {
			return out, err
		}
		if !e.At.After(since) {
			break
		}
		if len(out.Changes) == MaxChanges {
			out.Truncated = true
			break
		}
		out.Changes = append(out.Changes, ChangeEntry{Key: e.Key, Current: e.Current, Priors: e.Priors})
	}
	return out, nil
}

// changeLine is one line of the changes feed.
type changeLine struct {
	At      time.Time `json:"at"`
	Key     string    `json:"key"`
	Current string    `json:"current"`
	Priors  []string  `json:"priors"`
}

// changesFeed renders the keys with a current value, newest change first (then by key), one
// JSON object a line, so that an answer decodes only the lines after its since.
func changesFeed(st *dictState) ([]byte, error) {
	var changed []keyValues
	for _, kv := range st.values {
		if kv.current != "" {
			changed = append(changed, kv)
		}
	}
	sort.SliceStable(changed, func(i, j int) bool { return changed[i].changed.After(changed[j].changed) })
	var b bytes.Buffer
	for _, kv := range changed {
		priors := kv.priors
		if priors == nil {
			priors = []string{}
		}
		line, err := json.Marshal(changeLine{At: kv.changed, Key: kv.key, Current: kv.current, Priors: priors})
		if err != nil {
			return nil, err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
