package tools

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Plural families at the doors. In a project whose syntax has i18next, the suffix keys of
// one plural (files.count_one, files.count_few, ...) are one key, files.count, whose value
// in each language is one ICU plural on count with i18next text inside: the value the
// i18next file codec reads. Writes gather a request's suffix keys into that key and reads
// expand it into the language's suffix keys, both through the message model
// (message.GatherFamilies, message.ExpandFamily), so every door agrees with the files.

// familyProject reports whether proj's keys are read as i18next plural families: its
// syntax has i18next. A project whose syntax is detected and not yet known (its first
// sync) is judged by values, the request's own: one that shows i18next is enough.
func (c *Catalog) familyProject(ctx context.Context, tx model.Tx, proj model.Project, values map[string]string) bool {
	if c.ProjectSyntax(ctx, tx, proj).Has(message.I18next) {
		return true
	}
	if proj.Settings.Syntax != "" {
		return false
	}
	for _, v := range values {
		if strings.Contains(v, "{{") || strings.Contains(v, "$t(") {
			if message.Evidence([]string{v}).Found.Has(message.I18next) {
				return true
			}
		}
	}
	return false
}

// isFamilyValue reports whether a key whose source value is v is a plural family: v is one
// plural or selectordinal block on count, i18next's plural argument.
func isFamilyValue(v string) bool {
	if !strings.HasPrefix(v, "{count") {
		return false
	}
	p, ok := message.SinglePlural(v)
	return ok && p.Arg == "count"
}

// familyRequest is a request's keys as stored: each family gathered under its base key.
type familyRequest struct {
	values  map[string]string   // the request as stored
	names   map[string][]string // a family's stored key to the request's names of its forms
	dropped []string            // request keys whose form the language does not have
}

// gatherRequest gathers the plural families of values, keys of namespace nsName in lang,
// for a write: nil when the project does not read families or values has no suffix key
// (the request is stored as it is). It reads in a transaction of its own before the write
// (whose chunked staging must see the stored names); a namespace changed in between
// costs nothing worse than a family gathered or not as the namespace was a moment ago.
func (c *Catalog) gatherRequest(ctx context.Context, projectID, nsName, lang string, values map[string]string) *familyRequest {
	var bases []string
	seen := map[string]bool{}
	for k := range values {
		if base, _, _, ok := message.SplitPluralKey(k); ok && !seen[base] {
			seen[base] = true
			bases = append(bases, base)
		}
	}
	if len(bases) == 0 {
		return nil
	}
	var out *familyRequest
	_ = c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		if !c.familyProject(ctx, tx, proj, values) {
			return nil
		}
		known := map[string]message.BaseKind{}
		if ns, err := tx.Namespace(ctx, proj.ID, nsName); err == nil {
			sort.Strings(bases)
			keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, proj.SourceLanguage, bases...)
			if err != nil {
				return err
			}
			for _, k := range keys {
				known[k.Key] = message.BasePlain
				if k.Source != nil && isFamilyValue(k.Source.Value) {
					known[k.Key] = message.BaseFamily
				}
			}
		}
		if lang == "" {
			lang = proj.SourceLanguage
		}
		out = gatherFamilies(lang, values, func(b string) message.BaseKind { return known[b] })
		return nil
	})
	return out
}

// gatherFamilies is gatherRequest's rule on values already read; nil when no family formed.
func gatherFamilies(lang string, values map[string]string, known func(string) message.BaseKind) *familyRequest {
	names := sortedKeys(values)
	kvs := make([]message.KeyValue, len(names))
	for i, k := range names {
		kvs[i] = message.KeyValue{Key: k, Value: values[k]}
	}
	r := &familyRequest{values: make(map[string]string, len(values)), names: map[string][]string{}}
	for _, g := range message.GatherFamilies(lang, kvs, known) {
		if g.Family == nil {
			r.values[g.Key] = g.Value
			continue
		}
		r.dropped = append(r.dropped, g.Family.Dropped...)
		if g.Value == "" {
			continue // every form sent is one the language lacks: nothing to store
		}
		r.values[g.Key] = g.Value
		// A form the language lacks is named in the warnings, not among the stored keys.
		var kept []string
		for _, m := range g.Family.Members {
			if !slices.Contains(g.Family.Dropped, m) {
				kept = append(kept, m)
			}
		}
		r.names[g.Key] = kept
	}
	if len(r.names) == 0 && len(r.dropped) == 0 {
		return nil
	}
	return r
}

// requestNames lists stored keys in the request's names: a family as the suffix keys sent.
func (r *familyRequest) requestNames(stored []string) []string {
	if r == nil {
		return stored
	}
	out := make([]string, 0, len(stored))
	for _, k := range stored {
		if ns, ok := r.names[k]; ok {
			out = append(out, ns...)
		} else {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// warnings names the forms sent that the language does not have.
func (r *familyRequest) warnings(lang string) []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.dropped))
	for _, k := range r.dropped {
		_, cat, _, _ := message.SplitPluralKey(k)
		out = append(out, fmt.Sprintf("%s: %s has no %q plural form; this form was not stored", k, lang, cat))
	}
	return out
}

// isFamily reports whether the stored key k is a family the request gathered.
func (r *familyRequest) isFamily(k string) bool {
	if r == nil {
		return false
	}
	_, ok := r.names[k]
	return ok
}

// expandRows serves a family's value in lang as its suffix keys: a key whose source value
// is a family and whose value is one plural block. Other keys are served as stored.
func expandRow(lang, key, source, value string, add func(key, value string)) {
	if isFamilyValue(source) {
		if forms, ok := message.ExpandFamily(lang, key, value); ok {
			for _, f := range forms {
				add(f.Key, f.Value)
			}
			return
		}
	}
	add(key, value)
}

// familyNames are every suffix key a family stored as key could be served as, for a read
// that patches its cached file where key changed.
func familyNames(key string) []string {
	out := make([]string, 0, 13)
	out = append(out, key)
	for _, c := range []string{"zero", "one", "two", "few", "many", "other"} {
		out = append(out, message.FormKey(key, c, false), message.FormKey(key, c, true))
	}
	return out
}

// carryFamilies is the upgrade of a namespace that stored a family's suffix keys as keys of
// their own: for each family the sync created, the values of those keys in every target
// language become the family's value there (gathered by the same rule), and the old keys
// are returned to be hidden. Nothing is deleted.
func carryFamilies(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, fam *familyRequest, created []model.Change) ([]model.TranslationWrite, []model.KeyRecord, error) {
	var writes []model.TranslationWrite
	var old []model.KeyRecord
	for ch := range model.Expand(created) {
		if ch.Kind != model.ChangeKeyCreated || !fam.isFamily(ch.Key) {
			continue
		}
		names := familyNames(ch.Key)[1:]
		sort.Strings(names)
		keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, proj.SourceLanguage, names...)
		if err != nil {
			return nil, nil, err
		}
		byLang := map[string][]message.KeyValue{}
		status := map[string]string{}
		for _, k := range keys {
			if k.Hidden {
				continue
			}
			old = append(old, model.KeyRecord{ID: k.ID, NamespaceID: ns.ID, Key: k.Key})
			rows, err := tx.KeyTranslations(ctx, k.ID)
			if err != nil {
				return nil, nil, err
			}
			for _, r := range rows {
				if r.Language == proj.SourceLanguage || r.Value == "" {
					continue
				}
				byLang[r.Language] = append(byLang[r.Language], message.KeyValue{Key: k.Key, Value: r.Value})
				if status[r.Language] != model.StatusNeedsReview {
					status[r.Language] = r.Status
				}
			}
		}
		langs := make([]string, 0, len(byLang))
		for l := range byLang {
			langs = append(langs, l)
		}
		sort.Strings(langs)
		one := func(string) message.BaseKind { return message.BaseFamily }
		for _, l := range langs {
			for _, g := range message.GatherFamilies(l, byLang[l], one) {
				if g.Family == nil || g.Value == "" {
					continue
				}
				writes = append(writes, model.TranslationWrite{KeyID: ch.KeyID, Key: ch.Key, Language: l, Value: g.Value,
					Status: status[l], SourceVersion: versionPtr(1), Change: model.ChangeValueCreated})
			}
		}
	}
	return writes, old, nil
}

// mapValues lists m's values in the order of keys (nil where a key has none).
func mapValues(m map[string]*familyRequest, keys []string) []*familyRequest {
	out := make([]*familyRequest, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// familyPairs pairs the texts of a family's forms, as the language's suffix keys serve
// them: each form the source and the translation both have, source text to translation.
func familyPairs(sourceLang, lang, source, current string) ([]message.KeyValue, bool) {
	if !isFamilyValue(source) {
		return nil, false
	}
	src, ok := message.ExpandFamily(sourceLang, "", source)
	if !ok {
		return nil, false
	}
	cur, ok := message.ExpandFamily(lang, "", current)
	if !ok {
		return nil, false
	}
	byForm := make(map[string]string, len(cur))
	for _, f := range cur {
		byForm[f.Key] = f.Value
	}
	var out []message.KeyValue
	for _, f := range src {
		if t, ok := byForm[f.Key]; ok {
			out = append(out, message.KeyValue{Key: f.Value, Value: t})
		}
	}
	return out, true
}

// familyKeyOf resolves a suffix key name that is no key of ns (files.count_few) to the
// plural family it is a form of (files.count): a key whose source value is a family.
func familyKeyOf(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, name string) (model.KeyRecord, bool, error) {
	base, _, _, ok := message.SplitPluralKey(name)
	if !ok {
		return model.KeyRecord{}, false, nil
	}
	keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, proj.SourceLanguage, base)
	if err != nil || len(keys) != 1 || keys[0].Source == nil || !isFamilyValue(keys[0].Source.Value) {
		return model.KeyRecord{}, false, err
	}
	if _, _, ord, _ := message.SplitPluralKey(name); ord != strings.Contains(keys[0].Source.Value, "selectordinal") {
		return model.KeyRecord{}, false, nil
	}
	return model.KeyRecord{ID: keys[0].ID, NamespaceID: ns.ID, Key: keys[0].Key, SourceVersion: keys[0].SourceVersion}, true, nil
}

// familyFormUpdate is the family value after one suffix key's text was set in lang: that
// form of cur replaced (or added), the others kept. A form lang does not have is refused.
func familyFormUpdate(lang, name, text, cur string) (string, error) {
	gs := message.GatherFamilies(lang, []message.KeyValue{{Key: name, Value: text}}, func(string) message.BaseKind { return message.BaseFamily })
	if len(gs) != 1 || gs[0].Family == nil || gs[0].Value == "" {
		_, cat, _, _ := message.SplitPluralKey(name)
		return "", model.Errorf(model.CodeUnprocessable, "%s has no %q plural form: i18next never reads %s in %s", lang, cat, name, lang)
	}
	if cur == "" {
		return gs[0].Value, nil
	}
	return message.MergeFamily(cur, gs[0].Value), nil
}

// familyServedNames lists keys of ns, with each family whose value in lang is one plural
// block replaced by the suffix keys a read serves it as, sorted.
func familyServedNames(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, lang string, keys []string) ([]string, error) {
	states, err := tx.Keys(ctx, ns, proj.SourceLanguage, lang, keys...)
	if err != nil {
		return nil, err
	}
	served := map[string][]string{}
	for _, k := range states {
		if k.Source == nil || k.Value == nil {
			continue
		}
		expandRow(lang, k.Key, k.Source.Value, k.Value.Value, func(name, _ string) { served[k.Key] = append(served[k.Key], name) })
	}
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if names, ok := served[k]; ok {
			out = append(out, names...)
		} else {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out, nil
}
