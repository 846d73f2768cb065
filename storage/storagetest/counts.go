package storagetest

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// NamespaceCountsByRule applies LanguageCounts' rule to every key of each named namespace
// of the project, read with Keys: what the namespace counters must hold for language. A
// namespace that does not exist counts zero.
func NamespaceCountsByRule(ctx context.Context, tx model.Tx, p model.Project, namespaces []string, language string) (map[string]model.LanguageCounts, error) {
	out := map[string]model.LanguageCounts{}
	for _, name := range namespaces {
		c := model.LanguageCounts{Language: language}
		ns, err := tx.Namespace(ctx, p.ID, name)
		if model.IsNotFound(err) {
			out[name] = c
			continue
		} else if err != nil {
			return nil, err
		}
		keys, err := tx.Keys(ctx, ns, p.SourceLanguage, language)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if k.Hidden || k.SourceVersion <= 0 {
				continue
			}
			c.Total++
			v := k.Value
			switch {
			case v == nil || v.Value == "":
			case v.SourceVersion == nil:
				c.NullVersion++
			case *v.SourceVersion < k.SourceVersion:
				c.Behind++
			default:
				c.Current++
				if v.Status == model.StatusNeedsReview && strings.HasPrefix(v.UpdatedBy, "ai:") {
					c.AIDrafts++
				} else if v.Status == model.StatusNeedsReview {
					c.ToReview++
				}
			}
		}
		out[name] = c
	}
	return out, nil
}

// CheckNamespaceCounts compares what NamespaceRowCounts, NamespaceProgress and
// NamespaceCounts read from the namespace counters of the project with
// NamespaceCountsByRule, in every enabled language, over the named namespaces and those
// the reads list; it describes the first difference, or returns "".
func CheckNamespaceCounts(ctx context.Context, tx model.Tx, projectID string, namespaces []string) (string, error) {
	p, err := tx.Project(ctx, projectID)
	if err != nil {
		return "", err
	}
	counts, err := tx.NamespaceCounts(ctx, projectID)
	if err != nil {
		return "", err
	}
	names := slices.Clone(namespaces)
	for _, n := range counts {
		names = append(names, n.Namespace)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	wantCounts := map[string]model.NamespaceCount{}
	for _, lang := range p.EnabledLanguages {
		want, err := NamespaceCountsByRule(ctx, tx, p, names, lang)
		if err != nil {
			return "", err
		}
		got, err := tx.NamespaceRowCounts(ctx, projectID, lang)
		if err != nil {
			return "", err
		}
		for _, name := range names {
			g, ok := got[name]
			if !ok {
				g.Language = lang // a namespace that does not exist counts zero
			}
			if g != want[name] {
				return fmt.Sprintf("%s in %s: the counters say %+v, the rule %+v", name, lang, g, want[name]), nil
			}
		}
		var wantProgress []model.NamespaceProgress
		for _, name := range names {
			if want[name].Total > 0 {
				wantProgress = append(wantProgress, model.NamespaceProgress{Namespace: name, LanguageCounts: want[name]})
			}
		}
		progress, err := tx.NamespaceProgress(ctx, projectID, lang)
		if err != nil {
			return "", err
		}
		if !slices.Equal(progress, wantProgress) {
			return fmt.Sprintf("progress in %s is %+v, the rule says %+v", lang, progress, wantProgress), nil
		}
		for name, c := range want {
			w, ok := wantCounts[name]
			if !ok {
				w = model.NamespaceCount{Namespace: name, Keys: c.Total, Translated: map[string]int{}}
			}
			if n := c.Current + c.Behind + c.NullVersion; n > 0 {
				w.Translated[lang] = n
			}
			wantCounts[name] = w
		}
	}
	listed := map[string]bool{}
	for _, c := range counts {
		listed[c.Namespace] = true
	}
	for name, w := range wantCounts {
		if !listed[name] && (w.Keys > 0 || len(w.Translated) > 0) {
			return fmt.Sprintf("NamespaceCounts leaves out %s, which has %+v", name, w), nil
		}
	}
	for _, c := range counts {
		w := wantCounts[c.Namespace]
		if c.Keys != w.Keys || !maps.Equal(c.Translated, w.Translated) {
			return fmt.Sprintf("NamespaceCounts says %s has %+v, the rule %+v", c.Namespace, c, w), nil
		}
	}
	return "", nil
}
