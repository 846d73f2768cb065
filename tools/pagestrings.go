package tools

import (
	"context"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

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

// RegisterPageStrings creates a source row, key equal to value, for every string new to the
// namespace, creating the namespace on first use (spec endpoint 7). Existing rows, blank
// strings and repeats are skipped. Thousands of new strings are committed in chunks first on
// SQLite (see Sync).
func (c *Catalog) RegisterPageStrings(ctx context.Context, in PageStringsIn) (PageStringsOut, error) {
	var out PageStringsOut
	values := map[string]string{}
	err := c.write(ctx, write{op: model.OpSyncPageStrings, project: in.ProjectID,
		bulk: &bulkCreate{namespace: in.Namespace, create: true, source: true, values: valueMap(values)},
		validate: func() error {
			switch {
			case in.SourceStrings == nil:
				return model.Errorf(model.CodeInvalid, "source_strings is required")
			case len(in.SourceStrings) > MaxPageStrings:
				return model.Errorf(model.CodeUnprocessable, "at most %d strings per call", MaxPageStrings)
			}
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
			return checkEntries(valueMap(values))
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, err := openNamespace(ctx, tx, proj, "", in.Namespace, true)
			if err != nil {
				return nil, err
			}
			out.SourceLanguage = proj.SourceLanguage
			created, existing, changes, err := addMissingKeys(ctx, tx, proj, ns, values)
			out.Created, out.Skipped = len(created), out.Skipped+len(existing)
			return changes, err
		}})
	if err != nil {
		return PageStringsOut{}, err
	}
	return out, nil
}
