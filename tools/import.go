package tools

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/message/plural"
	"github.com/lokal-dev/lokal/tools/model"
)

// ImportIn is a translation file to import into one namespace: the body of the import
// endpoint with its query, or the import_translations tool's arguments.
type ImportIn struct {
	ProjectArg
	NamespaceKey string `json:"namespace_key" jsonschema:"namespace to import into; created if new when language is the source language"`
	Language     string `json:"language" jsonschema:"language of the file's values; the source language creates keys, another language sets values of existing keys; all for every language of an xcstrings or csv file"`
	Format       string `json:"format" jsonschema:"json, i18next, po, xliff, xliff2, android, strings, stringsdict, xcstrings, arb, yaml, properties or csv"`
	Content      string `json:"content" jsonschema:"the file as text"`
	DryRun       bool   `json:"dry_run,omitempty" jsonschema:"store nothing and answer what would change"`
	Status       string `json:"status,omitempty" jsonschema:"status of imported translations: needs_review (default here) or approved"`
	// PreserveSourceValues false lets a source-language import change existing source
	// texts, as in a sync; by default only new keys take the file's texts.
	PreserveSourceValues *bool  `json:"preserve_source_values,omitempty" jsonschema:"false: a source-language import also updates the source texts of existing keys (default true)"`
	CSVCells             string `json:"csv_cells,omitempty" jsonschema:"csv only: guarded (default; a cell lokal's export guarded with a leading ' is read without it) or raw (cells read as they are)"`
	// Body, when set, is the file as bytes instead of Content: the import endpoint's body
	// as read, not copied into a string and back.
	Body []byte `json:"-"`
}

// ImportSummary counts what an import did (or, dry, would do).
type ImportSummary struct {
	TotalIncoming int `json:"total_incoming"`
	Created       int `json:"created"`
	Updated       int `json:"updated"`
	Unchanged     int `json:"unchanged"`
	NotFound      int `json:"not_found"`
	Plurals       int `json:"plurals"`
}

// ImportWarning is something of the file lokal took as it is but a person should look at;
// Key is "" for the file as a whole.
type ImportWarning struct {
	Key     string `json:"key"`
	Message string `json:"message"`
}

// ImportOut is the 200 body of the import endpoint and the import_translations result.
type ImportOut struct {
	Format   string          `json:"format"`
	Language string          `json:"language"`
	Summary  ImportSummary   `json:"summary"`
	Created  []string        `json:"created"`
	Updated  []string        `json:"updated"`
	NotFound []string        `json:"not_found"`
	Warnings []ImportWarning `json:"warnings"`
	// HeldBack are the file's values stored as drafts but held back from readers because
	// they would break an app (valueSyntax); Refused, in a dry run only, those that would
	// be refused (an import with any is refused whole, and stores nothing).
	HeldBack []ImportHeld `json:"held_back"`
	Refused  []ImportHeld `json:"refused"`
}

// ImportHeld is one value of an import held back from readers, or refused, and why.
type ImportHeld struct {
	Key      string `json:"key"`
	Language string `json:"language"`
	Reason   string `json:"reason"`
	// ReadersGet says what readers get meanwhile: "the previous value" or "the source text".
	ReadersGet string `json:"readers_get,omitempty"`
}

// Import reads a translation file into a namespace (the import endpoint): imported
// translations are approved unless status says otherwise.
func (c *Catalog) Import(ctx context.Context, in ImportIn) (ImportOut, error) {
	if in.Status == "" {
		in.Status = model.StatusApproved
	}
	return c.importFile(ctx, model.OpImport, in)
}

// ImportFile is Import from the editor's upload (import_file).
func (c *Catalog) ImportFile(ctx context.Context, in ImportIn) (ImportOut, error) {
	if in.Status == "" {
		in.Status = model.StatusApproved
	}
	return c.importFile(ctx, model.OpImportFile, in)
}

// ImportTranslations is the import_translations tool: as Import, except that translations
// land as needs_review unless approved is asked for, as every MCP write.
func (c *Catalog) ImportTranslations(ctx context.Context, in ImportIn) (ImportOut, error) {
	if in.Status == "" {
		in.Status = model.StatusNeedsReview
	}
	return c.importFile(ctx, model.OpImport, in)
}

// importPlan is a decoded file as the writes take it: the source-language texts (a sync's
// translations) and the values of each other language (an overwrite's).
type importPlan struct {
	source  map[string]string            // nil when the source language is not imported
	targets map[string]map[string]string // language → key → value
	review  map[string]map[string]bool   // language → keys the file marks not final
	order   []string                     // target languages in file order
	// unseen are the keys of the file with no value imported (seen): the others are the
	// keys of source and targets, not kept a third time (40 bytes a key).
	unseen   map[string]bool
	valued   []writeValues     // source and targets as the file filled them (seen)
	incoming int               // keys with a value imported
	plurals  map[string]bool   // keys with a plural in a value imported
	notes    map[string]string // source keys' comments, kept as the keys' descriptions
	dnt      []string          // source keys the file marks not to translate, in file order
	meta     fileMeta          // what the file says beyond values, to keep (filemeta.go)
	warn     []ImportWarning
}

// seen reports whether the file has key (listed) and whether a value of it is imported.
func (p *importPlan) seen(key string) (imported, listed bool) {
	if p.valued == nil { // still planning
		if _, ok := p.source[key]; ok {
			return true, true
		}
		for _, l := range p.order {
			if _, ok := p.targets[l][key]; ok {
				return true, true
			}
		}
		return false, p.unseen[key]
	}
	for _, m := range p.valued {
		if _, ok := m.value(key); ok {
			return true, true
		}
	}
	return false, p.unseen[key]
}

// importFile decodes the file, then writes it through the one write path: the source
// language as a partial sync (keys created, nothing hidden; source texts changed only with
// preserve_source_values false), every other language as an overwrite (existing keys only,
// locked rows kept). A dry run goes through the same apply in a read transaction with its
// writes dropped (write.dry), so that its answer is what the import would do, with no
// writer held, no hook run and nothing stored.
func (c *Catalog) importFile(ctx context.Context, op model.Operation, in ImportIn) (ImportOut, error) {
	out := ImportOut{Format: in.Format, Language: in.Language, Created: []string{}, Updated: []string{}, NotFound: []string{}, Warnings: []ImportWarning{},
		HeldBack: []ImportHeld{}, Refused: []ImportHeld{}}
	if err := c.admit(ctx, op, on{project: in.ProjectID, entry: true}); err != nil {
		return out, err
	}
	codec, ok := formats.Lookup(in.Format)
	if !ok {
		return out, model.Errorf(model.CodeInvalid, "format must be one of %s", strings.Join(formats.Names(), ", "))
	}
	if err := checkStatus(in.Status); err != nil {
		return out, err
	}
	raw, err := rawCells(codec, in.CSVCells)
	if err != nil {
		return out, err
	}
	all := in.Language == formats.AllLanguages
	if all && !codec.Multilingual {
		return out, model.Errorf(model.CodeInvalid, "language all is for formats that hold several languages (xcstrings, csv), not %s", codec.Name)
	}
	proj, err := c.projectCached(ctx, in.ProjectID)
	if err != nil {
		return out, err
	}
	if !all {
		if err := proj.RequireLanguage(in.Language); err != nil {
			return out, err
		}
	}
	data := in.Body
	if data == nil {
		data = []byte(in.Content)
	}
	plan, err := planImport(codec, data, formats.Options{Language: in.Language, SourceLanguage: proj.SourceLanguage, RawCells: raw}, proj, in.Language)
	// The plan holds what the write needs: the file can go (a file's size of the peak).
	data, in.Body, in.Content = nil, nil, ""
	if err != nil {
		return out, fileError(codec.Name, err)
	}
	out.Warnings = append(out.Warnings, plan.warn...)
	preserve := in.PreserveSourceValues == nil || *in.PreserveSourceValues
	// Suffix keys the codec left as keys (a form the file's language lacks, forms of a family
	// the namespace has) are gathered as every door gathers them, with a warning for a form
	// the language does not have.
	var sourceFam *familyRequest
	targetFam := map[string]*familyRequest{}
	var source writeValues // nil when the source language is not imported
	if plan.source != nil {
		if sourceFam = c.gatherRequest(ctx, in.ProjectID, in.NamespaceKey, proj.SourceLanguage, plan.source); sourceFam != nil {
			plan.source = sourceFam.values
		}
		// Sorted pairs are half the map's bytes a key and their own sorted names, so
		// the map goes (4.5 times a JSON file's size). Gathered families keep the file's
		// keys listed in the map they replaced.
		sorted := sortValues(plan.source)
		if sourceFam == nil {
			plan.valued[0] = sorted
		}
		source, plan.source = sorted, nil
	}
	for _, l := range plan.order {
		if fam := c.gatherRequest(ctx, in.ProjectID, in.NamespaceKey, l, plan.targets[l]); fam != nil {
			plan.targets[l], targetFam[l] = fam.values, fam
		}
	}
	for _, fam := range append([]*familyRequest{sourceFam}, mapValues(targetFam, plan.order)...) {
		if fam == nil {
			continue
		}
		for i, w := range fam.warnings(in.Language) {
			out.Warnings = append(out.Warnings, ImportWarning{Key: fam.dropped[i], Message: w})
		}
	}
	var bulk *bulkCreate
	if source != nil && !in.DryRun {
		bulk = &bulkCreate{namespace: in.NamespaceKey, create: true, source: true, values: source}
	}
	var synced SyncOut
	overwritten := map[string]*OverwriteOut{}
	lang, need := importNeeds(proj, in)
	err = c.write(ctx, write{op: op, project: in.ProjectID, bulk: bulk, lang: lang, need: need, dry: in.DryRun,
		validate: func() error {
			if source != nil {
				if err := checkEntries(source); err != nil {
					return err
				}
			}
			for _, l := range plan.order {
				if err := checkEntries(valueMap(plan.targets[l])); err != nil {
					return err
				}
			}
			return nil
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			// The namespace is made as a sync makes it; a file of translations alone
			// needs the keys to exist, as an overwrite does.
			ns, err := openNamespace(ctx, tx, proj, "", in.NamespaceKey, source != nil)
			if err != nil {
				return nil, err
			}
			var changes []model.Change
			var fresh map[string]int64   // the keys the sync below creates
			var stored map[string]string // their source texts, and those the sync changes
			if source != nil {
				synced = SyncOut{}
				sin := SyncIn{NamespaceRef: NamespaceRef{ProjectID: in.ProjectID, Language: proj.SourceLanguage, Namespace: in.NamespaceKey},
					values: source, Partial: true, families: sourceFam}
				if changes, err = syncNamespace(ctx, tx, proj, ns, sin, preserve, &synced); err != nil {
					return nil, err
				}
				if err := describeKeys(ctx, tx, changes, plan.notes); err != nil {
					return nil, err
				}
				marked, err := markNotToTranslate(ctx, tx, proj, ns, plan.dnt)
				if err != nil {
					return nil, err
				}
				changes = append(changes, marked...)
				if len(plan.order) > 0 {
					// Only the other languages' writes read them: a file of the source
					// language alone keeps no map of its new keys.
					fresh = make(map[string]int64, len(synced.Created))
					for ch := range model.Expand(changes) {
						if ch.Kind == model.ChangeKeyCreated {
							fresh[ch.Key] = ch.KeyID
						}
					}
					stored = make(map[string]string, len(fresh)+len(synced.SourceValueChanged))
					for _, list := range [][]string{synced.Created, synced.SourceValueChanged} {
						for _, k := range list {
							stored[k], _ = source.value(k)
						}
					}
				}
			}
			// Every value is judged before any is written, so that a refused import names
			// all its refused values and a dry run goes on past them.
			out.HeldBack, out.Refused = []ImportHeld{}, []ImportHeld{}
			targets := map[string]map[string]string{}
			for _, l := range plan.order {
				held, refused, err := c.judgeImport(ctx, tx, proj, ns, l, plan.targets[l], fresh, stored)
				if err != nil {
					return nil, err
				}
				out.HeldBack, out.Refused = append(out.HeldBack, held...), append(out.Refused, refused...)
				targets[l] = plan.targets[l]
				if len(refused) > 0 {
					targets[l] = maps.Clone(plan.targets[l])
					for _, r := range refused {
						delete(targets[l], r.Key)
					}
				}
			}
			if len(out.Refused) > 0 && !in.DryRun {
				return nil, importRefusal(out.Refused)
			}
			for _, l := range plan.order {
				ow := &OverwriteOut{}
				oin := OverwriteIn{NamespaceRef: NamespaceRef{ProjectID: in.ProjectID, Language: l, Namespace: in.NamespaceKey},
					Translations: targets[l], status: in.Status, review: plan.review[l], fresh: fresh, families: targetFam[l]}
				ch, err := overwriteNamespace(ctx, tx, proj, ns, oin, ow)
				if err != nil {
					return nil, err
				}
				if fam := targetFam[l]; fam != nil {
					ow.Updated, ow.Refreshed = fam.requestNames(ow.Updated), fam.requestNames(ow.Refreshed)
					ow.Unchanged, ow.NotFound = fam.requestNames(ow.Unchanged), fam.requestNames(ow.NotFound)
				}
				overwritten[l] = ow
				changes = append(changes, ch...)
			}
			kept, err := keepMeta(ctx, tx, ns, codec.Name, in.Language, plan.meta)
			if err != nil {
				return nil, err
			}
			return append(changes, kept...), nil
		}})
	if err != nil {
		return out, err
	}
	out.report(plan, synced, overwritten)
	return out, nil
}

// judgeImport applies valueSyntax to the values of language l an import writes into ns:
// the values refused and those held back, in key order. Keys that do not exist, or whose
// row is locked, are not written and so not judged. The import's own sync made the keys of
// fresh and stored the source texts of stored: they are judged against those, not read
// back (a dry run's sync wrote nothing).
func (c *Catalog) judgeImport(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, l string, values map[string]string, fresh map[string]int64, stored map[string]string) (held, refused []ImportHeld, err error) {
	var names []string
	for k, v := range values {
		if mayBreak(v) {
			names = append(names, k)
		}
	}
	if len(names) == 0 || l == proj.SourceLanguage {
		return nil, nil, nil
	}
	slices.Sort(names)
	states, err := tx.Keys(ctx, ns, proj.SourceLanguage, l, names...)
	if err != nil {
		return nil, nil, err
	}
	byKey := indexKeys(states)
	syn := c.ProjectSyntax(ctx, tx, proj)
	for _, k := range names {
		ks := byKey[k]
		if id, ok := fresh[k]; ok && ks == nil {
			ks = &model.KeyState{ID: id, Key: k}
		}
		// A source text the import changes clears the key's locks (Tx.SourceChanged).
		source, restated := stored[k]
		ok := restated
		if !ok && ks != nil && ks.Source != nil {
			source, ok = ks.Source.Value, true
		}
		if ks == nil || !ok || (ks.Value != nil && ks.Value.LanguageLocked && !restated) {
			continue
		}
		why, err := valueSyntax(k, source, values[k], syn)
		switch {
		case err != nil:
			refused = append(refused, ImportHeld{Key: k, Language: l, Reason: model.ErrorMessage(err)})
		case why != "":
			readers := "the source text"
			if ks.Value != nil && ks.Value.Value != "" {
				readers = readersGet(ks.Value)
			}
			held = append(held, ImportHeld{Key: k, Language: l, Reason: why, ReadersGet: readers})
		}
	}
	return held, refused, nil
}

// importRefusal is the error of an import with values that do not parse: it names them
// (the first ten) and stores nothing.
func importRefusal(refused []ImportHeld) error {
	var b strings.Builder
	for i, r := range refused {
		if i == 10 {
			fmt.Fprintf(&b, "; and %d more", len(refused)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if len(refused) > 1 {
			b.WriteString(r.Language + ": ")
		}
		b.WriteString(r.Reason)
	}
	return model.Errorf(model.CodeInvalidTranslation, "nothing was imported: %s", b.String())
}

// importNeeds is the right an import asks, in the language returned: a dry run reads; a
// file of the source language (or of every language) changes keys and source texts; a
// file of one target language edits it, and approves it when imported as approved, so a
// translator imports their own languages as needs_review and a reviewer as approved too.
func importNeeds(proj model.Project, in ImportIn) (string, model.Right) {
	switch {
	case in.DryRun:
		return "", model.RightRead
	case in.Language == formats.AllLanguages || in.Language == proj.SourceLanguage:
		return "", model.RightSource
	}
	return in.Language, model.RightTranslate | approving(in.Status)
}

// describeKeys keeps the file's comments of the keys the import created as their
// descriptions, which export writes back. Existing keys keep theirs: a description is no
// value, and changing it alone would leave cached files behind.
func describeKeys(ctx context.Context, tx model.Tx, changes []model.Change, notes map[string]string) error {
	d := map[int64]string{}
	for ch := range model.Expand(changes) {
		if n := notes[ch.Key]; ch.Kind == model.ChangeKeyCreated && n != "" {
			d[ch.KeyID] = n
		}
	}
	if len(d) == 0 {
		return nil
	}
	return tx.SetKeyDescriptions(ctx, d)
}

// markNotToTranslate flags the keys a source-language file marks not to translate
// (Android translatable="false", xcstrings shouldTranslate false) do_not_translate in the
// source language, which export writes back, and in every target language, where a row
// without a value gets the source text verbatim (as flag_translation does), approved: such
// a key is then neither missing nor left for the AI. A row already flagged is left alone.
func markNotToTranslate(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, keys []string) ([]model.Change, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	var writes []model.TranslationWrite
	for _, l := range append([]string{proj.SourceLanguage}, proj.TargetLanguages()...) {
		states, err := tx.Keys(ctx, ns, proj.SourceLanguage, l, keys...)
		if err != nil {
			return nil, err
		}
		for _, ks := range states {
			src, cur := ks.Source, ks.Value
			switch {
			case ks.Hidden || src == nil || cur != nil && cur.DoNotTranslate:
			case cur != nil:
				writes = append(writes, model.TranslationWrite{ID: cur.ID, KeyID: ks.ID, Key: ks.Key, Language: l, Value: cur.Value, Status: cur.Status,
					DoNotTranslate: true, LanguageLocked: cur.LanguageLocked, SourceVersion: cur.SourceVersion, Change: model.ChangeFlagChanged})
			default:
				writes = append(writes, model.TranslationWrite{KeyID: ks.ID, Key: ks.Key, Language: l, Value: src.Value, Status: model.StatusApproved,
					DoNotTranslate: true, SourceVersion: versionPtr(ks.SourceVersion), Change: model.ChangeValueCreated})
			}
		}
	}
	if err := tx.WriteTranslations(ctx, writes); err != nil {
		return nil, err
	}
	return rowChanges(ns.Key, writes), nil
}

// fileError is a decoding failure as the caller sees it: a file that does not parse is
// invalid_file naming where; a format whose reading is not built yet is unprocessable.
func fileError(format string, err error) error {
	var fe *formats.FileError
	if errors.As(err, &fe) {
		return model.Errorf(model.CodeInvalidFile, "%s", fe.Error())
	}
	return model.Errorf(model.CodeUnprocessable, "%s files cannot be read: %v", format, err)
}

// planImport reads data with codec and takes the values to import out of it, entry by
// entry as the codec hands them on (formats.Codec.Each), so that the file is never held as
// decoded entries beside the plan: in the source language the source text of a bilingual
// file (its target otherwise); in another language the values, of which an empty one is
// left out (an untranslated entry, never a translation to store). A file that does not
// parse is the codec's error.
func planImport(codec *formats.Codec, data []byte, o formats.Options, proj model.Project, language string) (*importPlan, error) {
	p := &importPlan{targets: map[string]map[string]string{}, review: map[string]map[string]bool{}, unseen: map[string]bool{}, plurals: map[string]bool{},
		notes: map[string]string{}}
	p.meta = fileMeta{entries: map[string]string{}, listed: func(k string) bool { _, listed := p.seen(k); return listed }}
	var langWarn, metaWarn, entryWarn []ImportWarning
	langs := []string{language}
	add := func(e formats.Entry) error {
		imported, dup := p.seen(e.Key)
		if dup {
			entryWarn = append(entryWarn, ImportWarning{Key: e.Key, Message: "the file has this key more than once; its last entry counts"})
		}
		metaWarn = append(metaWarn, p.meta.addEntry(codec, e)...)
		for _, l := range langs {
			v, ok := entryValue(codec, e, l, proj.SourceLanguage)
			if !ok || (v.Text == "" && l != proj.SourceLanguage) {
				if ok && !codec.Bilingual {
					entryWarn = append(entryWarn, ImportWarning{Key: e.Key, Message: "the file's value is empty; lokal keeps no empty translation, so it was not imported and this language's export leaves the key out"})
				}
				continue
			}
			if !imported {
				imported = true
				p.incoming++
			}
			if l == proj.SourceLanguage {
				if p.source == nil {
					p.source = map[string]string{}
				}
				p.source[e.Key] = v.Text
				if e.Comment != "" {
					p.notes[e.Key] = e.Comment
				}
				if e.DoNotTranslate && !(dup && slices.Contains(p.dnt, e.Key)) {
					p.dnt = append(p.dnt, e.Key)
				}
			} else {
				if p.targets[l] == nil {
					p.targets[l] = map[string]string{}
					p.order = append(p.order, l)
				}
				p.targets[l][e.Key] = v.Text
				if v.State == formats.StateNeedsReview || v.State == formats.StateStale {
					if p.review[l] == nil {
						p.review[l] = map[string]bool{}
					}
					p.review[l][e.Key] = true
				}
			}
			if missing, has := pluralGaps(v.Text, l); has {
				p.plurals[e.Key] = true
				if len(missing) > 0 {
					msg := fmt.Sprintf("the plural lacks the %s form%s %s needs", strings.Join(missing, ", "), plS(len(missing)), l)
					entryWarn = append(entryWarn, ImportWarning{Key: e.Key, Message: msg})
				}
			}
		}
		if imported {
			delete(p.unseen, e.Key)
		} else {
			p.unseen[e.Key] = true
		}
		return nil
	}
	var f *formats.File
	var err error
	if language == formats.AllLanguages {
		// Which languages a file of every language holds is known once it is read whole;
		// no such codec reads as a stream anyway.
		if f, err = codec.Decode(data, o); err != nil {
			return nil, err
		}
		langs = []string{proj.SourceLanguage}
		for _, l := range f.Languages {
			switch {
			case slices.Contains(langs, l):
			case !proj.HasLanguage(l):
				langWarn = append(langWarn, ImportWarning{Message: fmt.Sprintf("the file holds %s, which is not on for the project: its values were not imported", l)})
			default:
				langs = append(langs, l)
			}
		}
		entries := f.Entries
		f.Entries = nil
		for i := range entries {
			_ = add(entries[i])
			entries[i] = formats.Entry{}
		}
	} else if f, err = codec.Each(data, o, add); err != nil {
		return nil, err
	}
	// Gathering plural families (importFile) replaces the maps; the file's keys stay listed.
	p.valued = []writeValues{valueMap(p.source)}
	for _, l := range p.order {
		p.valued = append(p.valued, valueMap(p.targets[l]))
	}
	p.warn = langWarn
	for _, w := range f.Warnings {
		p.warn = append(p.warn, ImportWarning{Key: w.Key, Message: w.Message})
	}
	p.warn = append(append(append(p.warn, metaWarn...), p.meta.addFile(f)...), entryWarn...)
	if language == proj.SourceLanguage || language == formats.AllLanguages {
		// The source language is imported even when the file has none of its texts, so
		// that the namespace is made as a sync makes it.
		if p.source == nil {
			p.source = map[string]string{}
		}
	}
	return p, nil
}

// entryValue is e's value in language l: a bilingual file's source text in the source
// language, else its value in l; a monolingual file's one value whatever language its
// codec filed it under.
func entryValue(codec *formats.Codec, e formats.Entry, l, source string) (formats.Value, bool) {
	if v, ok := e.Values[l]; ok && !(codec.Bilingual && l == source && e.Source != "") {
		return v, true
	}
	if codec.Bilingual && l == source {
		if e.Source != "" {
			return formats.Value{Text: e.Source, State: formats.StateTranslated}, true
		}
		return formats.Value{}, false
	}
	if !codec.Multilingual && len(e.Values) == 1 {
		for _, v := range e.Values {
			return v, true
		}
	}
	return formats.Value{}, false
}

// pluralGaps reports whether value holds a plural, and the CLDR categories of language
// that one of its plurals lacks. A category the language does not need is no gap, and text
// is never made up for one that is missing. The value is read as the codecs wrote it
// (message.FileSyntax), so that a form's "{{count}} files" is not taken for a brace.
func pluralGaps(value, language string) (missing []string, has bool) {
	if !strings.Contains(value, "plural") {
		return nil, false
	}
	message.Walk(message.Parse(value, message.FileSyntax), func(n message.Node, _ message.Path) bool {
		s, ok := n.(*message.Select)
		if !ok {
			return true
		}
		kind := plural.KindCardinal
		switch s.Type {
		case "plural":
		case "selectordinal":
			kind = plural.KindOrdinal
		default:
			return true
		}
		has = true
		for _, cat := range plural.Categories(language, kind) {
			if s.Form(cat.String()) == nil && !slices.Contains(missing, cat.String()) {
				missing = append(missing, cat.String())
			}
		}
		return true
	})
	return missing, has
}

func plS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// report fills out from what the writes did. A key is listed once: created when the
// import made it, else updated when any of its values or its visibility changed, else
// not_found when it has none in the namespace; the others are unchanged.
func (o *ImportOut) report(p *importPlan, synced SyncOut, overwritten map[string]*OverwriteOut) {
	if len(overwritten) == 0 && len(synced.Unhidden) == 0 && len(synced.SourceValueChanged) == 0 {
		// A file of the source language that only adds keys: the sync's list, in key
		// order, is the answer, with no set of 300,000 names made to say so.
		o.Created = synced.Created
		if o.Created == nil {
			o.Created = []string{}
		}
		o.summarize(p)
		return
	}
	created := map[string]bool{}
	for _, k := range synced.Created {
		created[k] = true
	}
	updated := map[string]bool{}
	for _, list := range [][]string{synced.Unhidden, synced.SourceValueChanged} {
		for _, k := range list {
			updated[k] = true
		}
	}
	notFound := map[string]bool{}
	for _, ow := range overwritten {
		for _, list := range [][]string{ow.Updated, ow.Refreshed} {
			for _, k := range list {
				updated[k] = true
			}
		}
		for _, k := range ow.NotFound {
			notFound[k] = true
		}
	}
	for k := range created {
		delete(updated, k)
		delete(notFound, k)
	}
	for k := range updated {
		delete(notFound, k)
	}
	o.Created, o.Updated, o.NotFound = sortedKeys(created), sortedKeys(updated), sortedKeys(notFound)
	o.summarize(p)
}

// summarize counts o's lists.
func (o *ImportOut) summarize(p *importPlan) {
	o.Summary = ImportSummary{TotalIncoming: p.incoming, Created: len(o.Created), Updated: len(o.Updated),
		NotFound: len(o.NotFound), Plurals: len(p.plurals)}
	o.Summary.Unchanged = max(0, o.Summary.TotalIncoming-o.Summary.Created-o.Summary.Updated-o.Summary.NotFound)
}
