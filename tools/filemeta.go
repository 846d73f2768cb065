package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// What a translation file says beyond lokal's own fields (formats.Entry.Meta: PO flags
// and references, ARB placeholders, Android attributes; formats.File.Meta: a PO header
// and its obsolete entries, ARB "@@" members) is kept per format, as a JSON object of
// strings, so that an export writes it back. tools reads no codec's keys: it stores what
// the codec decoded and hands it back to the codec's Encode.
//
// An entry's Meta is kept per language of the file that carried it (a PO file's
// translator comments and "#|" lines are its language's own) and an export takes the
// language's own, else that of a file of every language ("all", xcstrings and CSV), else
// the source language's: a language whose file was never imported still gets the source
// file's flags and references. A file's Meta is its language's alone (a PO header names
// its language), or a file of every language's.

const (
	// maxEntryMeta and maxFileMeta cap what is kept of one entry and of one file (as
	// JSON): more is not stored, and the import says so in its warnings.
	maxEntryMeta = 64 << 10
	maxFileMeta  = 4 << 20
)

// metaJSON is m as stored, "" when empty. encoding/json sorts the keys, so equal maps
// are equal texts.
func metaJSON(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	// Markup as it is (no \u003c), so that the cap measures about what the file held.
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(m) != nil {
		return "" // a map of strings always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// metaMap reads a stored meta; nil when none.
func metaMap(s string) map[string]string {
	if s == "" {
		return nil
	}
	var m map[string]string
	if json.Unmarshal([]byte(s), &m) != nil || len(m) == 0 {
		return nil
	}
	return m
}

// fileMeta is what an import keeps of a decoded file beyond its values: the entries'
// meta, and the file's unless it is over the cap. Only the entries with meta are listed: a
// key of the file (listed) without one removes a kept one, so that a file of many keys
// and no meta costs no map of them here.
type fileMeta struct {
	entries map[string]string     // key → meta, never ""
	over    map[string]bool       // keys whose meta is over the cap: what was kept stays
	listed  func(key string) bool // every key of the file
	file    string
	keep    bool // file is to be stored; false when over the cap
}

// addEntry takes the Meta of e, leaving out (with a warning) what is over the cap: an
// entry over it keeps what was stored before, and the import names what only that Meta
// carried (Codec.Unkept). A key given twice takes its last entry's.
func (m *fileMeta) addEntry(codec *formats.Codec, e formats.Entry) []ImportWarning {
	j := metaJSON(e.Meta)
	if len(j) <= maxEntryMeta {
		delete(m.over, e.Key)
		if j == "" {
			delete(m.entries, e.Key)
		} else {
			m.entries[e.Key] = j
		}
		return nil
	}
	delete(m.entries, e.Key)
	if m.over == nil {
		m.over = map[string]bool{}
	}
	m.over[e.Key] = true
	warn := []ImportWarning{{Key: e.Key, Message: fmt.Sprintf("what the file says of this entry beyond its value (%d KiB) is over lokal's %d KiB cap: it was not stored, so an export writes the entry without it", len(j)>>10, maxEntryMeta>>10)}}
	if codec.Unkept != nil {
		for _, u := range codec.Unkept(e) {
			warn = append(warn, ImportWarning{Key: e.Key, Message: u})
		}
	}
	return warn
}

// addFile takes the Meta of f itself, unless it is over the cap.
func (m *fileMeta) addFile(f *formats.File) []ImportWarning {
	m.file = metaJSON(f.Meta)
	m.keep = len(m.file) <= maxFileMeta
	if !m.keep {
		return []ImportWarning{{Message: fmt.Sprintf("what the file says of itself (its header and the like, %d KiB) is over lokal's %d KiB cap: it was not stored, so an export writes the file without it", len(m.file)>>10, maxFileMeta>>10)}}
	}
	return nil
}

// keepMeta stores what m holds for the file of format in language (AllLanguages for a
// file of every language) imported into ns, writing only what differs from what is kept:
// a change of it is a ChangeFileMeta, so that the cached exports are rebuilt (the flat
// files of endpoint 1 do not show it and stay).
func keepMeta(ctx context.Context, tx model.Tx, ns model.Namespace, format, language string, m fileMeta) ([]model.Change, error) {
	changed := false
	kept, err := tx.EntryMeta(ctx, ns, format, []string{language})
	if err != nil {
		return nil, err
	}
	diff := map[string]string{}
	for k, j := range m.entries {
		if kept[language][k] != j {
			diff[k] = j
		}
	}
	for k, j := range kept[language] {
		if _, has := m.entries[k]; j != "" && !has && m.listed(k) && !m.over[k] {
			diff[k] = ""
		}
	}
	if len(diff) > 0 {
		found, err := tx.SetEntryMeta(ctx, ns, format, language, diff)
		if err != nil {
			return nil, err
		}
		changed = found > 0
	}
	if m.keep {
		files, err := tx.FileMeta(ctx, ns, format, []string{language})
		if err != nil {
			return nil, err
		}
		if files[language] != m.file {
			if err := tx.SetFileMeta(ctx, ns, format, language, m.file); err != nil {
				return nil, err
			}
			changed = true
		}
	}
	if !changed {
		return nil, nil
	}
	return []model.Change{{Kind: model.ChangeFileMeta, Namespace: ns.Key}}, nil
}

// metaLanguages are the languages whose kept entry meta an export in language takes, in
// order of preference.
func metaLanguages(language, source string) []string {
	out := []string{language}
	for _, l := range []string{formats.AllLanguages, source} {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// fileMetaLanguages are the languages whose kept file meta an export in language takes.
func fileMetaLanguages(language string) []string {
	if language == formats.AllLanguages {
		return []string{language}
	}
	return []string{language, formats.AllLanguages}
}

// keptMeta is the meta kept for the files of one format and language of a namespace.
type keptMeta struct {
	langs   []string                     // metaLanguages, in order of preference
	entries map[string]map[string]string // language → key → meta
	files   map[string]string            // language → the file's meta
}

// readMeta reads the meta kept for ns's files of format in language; the file's own only
// when withFile (a file that is part of a namespace, such as a page of an export of
// several, has none).
func readMeta(ctx context.Context, tx model.Tx, ns model.Namespace, format, language, source string, withFile bool) (keptMeta, error) {
	k := keptMeta{langs: metaLanguages(language, source)}
	var err error
	if k.entries, err = tx.EntryMeta(ctx, ns, format, k.langs); err != nil {
		return k, err
	}
	if withFile {
		if k.files, err = tx.FileMeta(ctx, ns, format, fileMetaLanguages(language)); err != nil {
			return k, err
		}
		for _, l := range fileMetaLanguages(language) {
			if j := k.files[l]; j != "" {
				k.files = map[string]string{"": j}
				break
			}
		}
	}
	return k, nil
}

// entry is the meta of key: its language's own, else the first of metaLanguages'.
func (k keptMeta) entry(key string) map[string]string {
	for _, l := range k.langs {
		if j := k.entries[l][key]; j != "" {
			return metaMap(j)
		}
	}
	return nil
}

// fileMeta is the file's meta: its language's own, else a file of every language's.
func (k keptMeta) fileMeta() map[string]string { return metaMap(k.files[""]) }

// attachMeta gives f's entries and f the meta kept for ns's file of format in language.
func attachMeta(ctx context.Context, tx model.Tx, ns model.Namespace, format, language, source string, f *formats.File) error {
	k, err := readMeta(ctx, tx, ns, format, language, source, true)
	if err != nil {
		return err
	}
	for i := range f.Entries {
		f.Entries[i].Meta = k.entry(f.Entries[i].Key)
	}
	f.Meta = k.fileMeta()
	return nil
}
