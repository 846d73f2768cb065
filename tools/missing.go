package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

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
// nothing that exists (spec endpoint 2). The namespace must exist. Thousands of new keys
// are committed in chunks first on SQLite (see Sync): until the call ends, a reader whose
// cache is cold may see some of them.
func (c *Catalog) ReportMissing(ctx context.Context, in ReportMissingIn) (ReportMissingOut, error) {
	out := ReportMissingOut{Created: []string{}}
	fam := c.gatherRequest(ctx, in.ProjectID, in.Namespace, "", in.Translations)
	if fam != nil {
		in.Translations = fam.values
	}
	err := c.write(ctx, write{op: model.OpMissing, project: in.ProjectID,
		bulk:     &bulkCreate{namespace: in.Namespace, source: true, requires: in.Language, values: valueMap(in.Translations)},
		validate: func() error { return checkEntries(valueMap(in.Translations)) },
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, err := openNamespace(ctx, tx, proj, in.Language, in.Namespace, false)
			if err != nil {
				return nil, err
			}
			var changes []model.Change
			out.Created, _, changes, err = addMissingKeys(ctx, tx, proj, ns, in.Translations)
			return changes, err
		}})
	out.Created = fam.requestNames(out.Created)
	return out, err
}

// RegisterIn is register_source_strings' input.
type RegisterIn struct {
	ProjectArg
	NamespaceKey string            `json:"namespace_key" jsonschema:"namespace to register into; created if new"`
	Strings      map[string]string `json:"strings" jsonschema:"map of key to source text"`
}

// RegisterOut lists the keys created and the ones that existed already.
type RegisterOut struct {
	Created []string `json:"created"`
	Skipped []string `json:"skipped"`
}

// RegisterSourceStrings creates the keys the namespace lacks with their source text. Thousands
// of new keys are committed in chunks first on SQLite (see Sync).
func (c *Catalog) RegisterSourceStrings(ctx context.Context, in RegisterIn) (RegisterOut, error) {
	out := RegisterOut{Created: []string{}, Skipped: []string{}}
	return out, c.write(ctx, write{op: model.OpRegisterSourceStrings, project: in.ProjectID,
		bulk: &bulkCreate{namespace: in.NamespaceKey, create: true, source: true, values: valueMap(in.Strings)},
		validate: func() error {
			switch {
			case len(in.Strings) == 0:
				return model.Errorf(model.CodeInvalid, "strings must name at least one key")
			case len(in.Strings) > MaxRegisterStrings:
				return model.Errorf(model.CodeUnprocessable, "at most %d strings per call, got %d; register the rest in further calls", MaxRegisterStrings, len(in.Strings))
			}
			return checkEntries(valueMap(in.Strings))
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, err := openNamespace(ctx, tx, proj, "", in.NamespaceKey, true)
			if err != nil {
				return nil, err
			}
			var changes []model.Change
			out.Created, out.Skipped, changes, err = addMissingKeys(ctx, tx, proj, ns, in.Strings)
			return changes, err
		}})
}

// addMissingKeys creates, with their source values, the keys of values that ns lacks.
// Existing keys are not touched. Endpoints 2 and 7 and register_source_strings share it.
func addMissingKeys(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, values map[string]string) (created, existing []string, changes []model.Change, err error) {
	names := sortedKeys(values)
	keys, err := namespaceKeys(ctx, tx, ns, proj.SourceLanguage, proj.SourceLanguage, names)
	if err != nil {
		return nil, nil, nil, err
	}
	have := make(map[string]bool, len(keys))
	for _, k := range keys {
		have[k.Key] = true
	}
	created, existing = []string{}, []string{}
	for _, k := range names {
		if have[k] {
			existing = append(existing, k)
		} else {
			created = append(created, k)
		}
	}
	changes, err = createKeys(ctx, tx, proj, ns, proj.SourceLanguage, created, valueMap(values))
	if err != nil {
		return nil, nil, nil, err
	}
	return created, existing, changes, nil
}
