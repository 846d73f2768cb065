package tools

import (
	"bytes"
	"context"

	"github.com/lokal-dev/lokal/tools/model"
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
func (c *Catalog) ReadNamespace(ctx context.Context, ref NamespaceRef) (*model.File, error) {
	if err := c.begin(ctx, ref.ProjectID, false); err != nil {
		return nil, err
	}
	if checkNamespace(ref.Namespace) != nil {
		return nil, errNoNamespace(ref.Namespace)
	}
	return c.store.Cached(ctx, ref.ProjectID, "ns\x00"+ref.Namespace+"\x00"+ref.Language, func(ctx context.Context) ([]byte, error) {
		var body []byte
		err := c.store.View(ctx, func(tx model.Tx) error {
			proj, err := tx.Project(ctx, ref.ProjectID)
			if err != nil {
				return err
			}
			if err := proj.RequireLanguage(ref.Language); err != nil {
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

// marshalFlat renders a flat map with sorted keys and without HTML escaping: values carry
// markup, and clients read them verbatim.
func marshalFlat(m map[string]string) ([]byte, error) {
	b, err := encodeJSON(m, false)
	return bytes.TrimRight(b, "\n"), err
}
