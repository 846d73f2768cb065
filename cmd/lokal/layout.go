package main

// Layouts: how a lokal.yaml path pattern spells a language in file and folder names
// ({language}, {locale}, {android}, {apple}), and the way back from a name in the
// repository to the language it holds. Push and pull place files through the same scan,
// so what pull writes push reads back as the same language, and a name that holds no
// language is an error naming the file, never a silent skip.

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// spelling is a language placeholder of a path pattern: how its names write a language.
type spelling string

const (
	spellBCP47   spelling = "language" // pt-BR, zh-Hans: BCP 47, as lokal names languages
	spellLocale  spelling = "locale"   // pt_BR, zh_Hans; read also sr_RS@latin: gettext and Java
	spellAndroid spelling = "android"  // values, values-pt-rBR, values-b+sr+Latn: resource folders
	spellApple   spelling = "apple"    // pt-BR, zh-Hans; read also Base: .lproj bundles
)

var spellings = []spelling{spellBCP47, spellLocale, spellAndroid, spellApple}

// write spells a language tag as the placeholder's names do. Android's folder of the
// source language is values, with no qualifier: the resources Android falls back to.
func (s spelling) write(tag string, source bool) string {
	switch s {
	case spellLocale:
		return strings.ReplaceAll(tag, "-", "_")
	case spellAndroid:
		if source {
			return "values"
		}
		return "values-" + androidQualifier(tag)
	}
	return tag
}

// androidQualifier is a tag as a resource qualifier: ll or ll-rRR where that says it all,
// BCP 47's b+ form otherwise (b+sr+Latn, b+es+419).
func androidQualifier(tag string) string {
	sub := strings.Split(tag, "-")
	lang := len(sub[0]) >= 2 && len(sub[0]) <= 3 && isLetters(sub[0])
	switch {
	case len(sub) == 1 && lang:
		return sub[0]
	case len(sub) == 2 && lang && len(sub[1]) == 2 && isLetters(sub[1]):
		return sub[0] + "-r" + strings.ToUpper(sub[1])
	}
	return "b+" + strings.Join(sub, "+")
}

func isLetters(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') }) < 0
}

// localeScripts are the script modifiers of glibc locale names (sr_RS@latin).
var localeScripts = map[string]string{"latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "arabic": "Arab"}

// appleLegacy are the English names old Xcode projects give their .lproj folders.
var appleLegacy = map[string]string{
	"English": "en", "French": "fr", "German": "de", "Italian": "it", "Japanese": "ja", "Spanish": "es", "Dutch": "nl",
}

// tagOf reads a placeholder's text as a BCP 47 tag for tools.ParseLanguage (which forgives
// case and '_'); "" is the source language (Android's values, Apple's Base).
func (s spelling) tagOf(text string) (string, error) {
	switch s {
	case spellAndroid:
		if text == "values" {
			return "", nil
		}
		q, ok := strings.CutPrefix(text, "values-")
		if !ok {
			return "", errors.New("an Android resource folder is values or values-QUALIFIER")
		}
		if b, ok := strings.CutPrefix(q, "b+"); ok {
			return strings.ReplaceAll(b, "+", "-"), nil
		}
		lang, region, ok := strings.Cut(q, "-")
		if !ok {
			return lang, nil
		}
		if r, ok := strings.CutPrefix(region, "r"); ok && len(r) == 2 && isLetters(r) {
			return lang + "-" + r, nil
		}
		return "", fmt.Errorf("%s is not a language qualifier (values-ll, values-ll-rRR or values-b+TAG)", q)
	case spellApple:
		if text == "Base" {
			return "", nil
		}
		if t, ok := appleLegacy[text]; ok {
			return t, nil
		}
	case spellLocale:
		base, mod, ok := strings.Cut(text, "@")
		tag := strings.ReplaceAll(base, "_", "-")
		if !ok {
			return tag, nil
		}
		sc, isScript := localeScripts[strings.ToLower(mod)]
		if !isScript {
			return tag + "-" + mod, nil // a variant: ca_ES@valencia is ca-ES-valencia
		}
		lang, rest, _ := strings.Cut(tag, "-")
		if rest == "" {
			return lang + "-" + sc, nil
		}
		return lang + "-" + sc + "-" + rest, nil
	}
	return text, nil
}

// part is a piece of a path pattern: literal text, or a placeholder by name ("namespace",
// or a spelling).
type part struct {
	text string
	ph   bool
}

func splitPattern(p string) []part {
	var out []part
	for p != "" {
		loc := pathVar.FindStringIndex(p)
		if loc == nil {
			out = append(out, part{text: p})
			break
		}
		if loc[0] > 0 {
			out = append(out, part{text: p[:loc[0]]})
		}
		out = append(out, part{text: p[loc[0]+1 : loc[1]-1], ph: true})
		p = p[loc[1]:]
	}
	return out
}

// expandParts fills a pattern's placeholders: lang is the language as the names spell it.
func expandParts(parts []part, lang, ns string) string {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case !p.ph:
			b.WriteString(p.text)
		case p.text == "namespace":
			b.WriteString(ns)
		default:
			b.WriteString(lang)
		}
	}
	return b.String()
}

// globOf is the pattern as a filepath.Glob pattern: each placeholder one name's part.
func globOf(parts []part) string {
	var b strings.Builder
	for _, p := range parts {
		if p.ph {
			b.WriteString("*")
		} else {
			b.WriteString(globEscape(p.text))
		}
	}
	return b.String()
}

// reading is one way to read a path with a pattern: the placeholders' texts.
type reading struct{ lang, ns string }

// readings are every way rel reads with parts: a placeholder is one or more characters of
// one name, never starting with a dot (hidden files are not translations), and a
// placeholder given twice is the same text twice. `{namespace}_{locale}` reads
// Messages_pt_BR two ways; the scan decides between them.
func readings(parts []part, rel string) []reading {
	var out []reading
	var walk func(i int, rest string, r reading, haveL, haveN bool)
	walk = func(i int, rest string, r reading, haveL, haveN bool) {
		if i == len(parts) {
			if rest == "" {
				out = append(out, r)
			}
			return
		}
		p := parts[i]
		if !p.ph {
			if s, ok := strings.CutPrefix(rest, p.text); ok {
				walk(i+1, s, r, haveL, haveN)
			}
			return
		}
		isNS := p.text == "namespace"
		if isNS && haveN || !isNS && haveL {
			v := r.lang
			if isNS {
				v = r.ns
			}
			if s, ok := strings.CutPrefix(rest, v); ok {
				walk(i+1, s, r, haveL, haveN)
			}
			return
		}
		for e := 1; e <= len(rest) && rest[e-1] != '/'; e++ {
			v := rest[:e]
			if v[0] == '.' {
				return
			}
			next := r
			if isNS {
				next.ns = v
			} else {
				next.lang = v
			}
			walk(i+1, rest[e:], next, haveL || !isNS, haveN || isNS)
		}
	}
	walk(0, rel, reading{}, false, false)
	return out
}

// spell is the language l as f's names write it: the languages: map's name, or the
// placeholder's spelling of l.
func (f fileSpec) spell(l, source string) string {
	if t, ok := f.Languages[l]; ok {
		return f.Spelling.write(t, false)
	}
	return f.Spelling.write(l, l == source)
}

// read is the language a placeholder's text names: the languages: map first, then the
// spelling read through tools.ParseLanguage (any BCP 47 tag).
func (f fileSpec) read(text, source string) (string, error) {
	for l, t := range f.Languages {
		if f.Spelling.write(t, false) == text {
			return l, nil
		}
	}
	tag, err := f.Spelling.tagOf(text)
	if err != nil {
		return "", err
	}
	if tag == "" {
		return source, nil
	}
	return parseLanguage(tag)
}

// parseLanguage is tools.ParseLanguage's code, or its refusal in words without the
// API's error code.
func parseLanguage(tag string) (string, error) {
	l, err := tools.ParseLanguage(tag)
	var me *model.Error
	if errors.As(err, &me) {
		return "", errors.New(me.Message)
	}
	return l.Code, err
}

// placed is a file of the repository that an entry names, and what it holds.
type placed struct {
	Rel       string // slash-separated, relative to the root
	Language  string // lokal's code
	Namespace string
	Text      string // the language as the name spells it; "" for a source: file
}

// scanned is what an entry names in the repository.
type scanned struct {
	files []placed // sorted by path; each language and namespace once
	// shadowed are files of the pattern in the source language while source: names the
	// source file: neither pushed nor pulled, and push says so.
	shadowed []placed
}

// scan places every file f names under root: the source: files in the source language,
// and each file the path pattern matches in the language its name spells. A file the
// pattern matches whose name holds no language (or an ambiguous one), and two files of one
// language and namespace, are errors naming them; ignore: leaves files out. A symbolic
// link out of the root is an error naming the file.
func (f fileSpec) scan(root *repoRoot, source string) (scanned, error) {
	var sc scanned
	srcCands, err := f.globFiles(root, f.sourceParts)
	if err != nil {
		return sc, err
	}
	all, err := f.globFiles(root, f.parts)
	if err != nil {
		return sc, err
	}
	if !f.hasLanguage() {
		// Every file the path names holds the source language (or, multilingual, all).
		for _, rel := range all {
			sc.files = append(sc.files, placed{Rel: rel, Language: source, Namespace: f.nsOf(readings(f.parts, rel)[0])})
		}
		return sc, nil
	}

	// The languages and namespaces each file the pattern matches can be read as.
	type option struct {
		lang, ns, text string
	}
	opts := map[string][]option{}
	why := map[string]error{}
	for _, rel := range all {
		var cands []option
		for _, r := range readings(f.parts, rel) {
			l, err := f.read(r.lang, source)
			if err != nil {
				if why[rel] == nil {
					why[rel] = fmt.Errorf("%q: %w", r.lang, err)
				}
				continue
			}
			cands = append(cands, option{lang: l, ns: f.nsOf(r), text: r.lang})
		}
		opts[rel] = cands
	}

	// Source files: a source: file that the pattern also reads as a translation of another
	// source file ({namespace}.properties matches Messages_de.properties) is that
	// translation.
	srcNS := map[string]bool{}
	var sources []placed
	if f.Source != "" {
		names := map[string]bool{}
		for _, rel := range srcCands {
			names[f.nsOf(readings(f.sourceParts, rel)[0])] = true
		}
		for _, rel := range srcCands {
			ns := f.nsOf(readings(f.sourceParts, rel)[0])
			if slices.ContainsFunc(opts[rel], func(o option) bool { return o.ns != ns && names[o.ns] }) {
				continue
			}
			delete(opts, rel)
			srcNS[ns] = true
			sources = append(sources, placed{Rel: rel, Language: source, Namespace: ns})
		}
	} else {
		for _, cands := range opts {
			for _, o := range cands {
				if o.lang == source {
					srcNS[o.ns] = true
				}
			}
		}
	}

	rels := make([]string, 0, len(opts))
	for rel := range opts {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	byKey := map[[2]string]string{}
	for _, s := range sources {
		byKey[[2]string{s.Language, s.Namespace}] = s.Rel
	}
	for _, rel := range rels {
		cands := opts[rel]
		if len(cands) > 1 && f.hasNamespace() {
			// Two readings: the one whose namespace has a source file.
			if known := slices.DeleteFunc(slices.Clone(cands), func(o option) bool { return !srcNS[o.ns] }); len(known) > 0 {
				cands = known
			}
		}
		cands = slices.CompactFunc(cands, func(a, b option) bool { return a.lang == b.lang && a.ns == b.ns })
		switch {
		case len(cands) == 0:
			return sc, fmt.Errorf("%s: %s names no language: %v; name its language in %s (such as {pt-BR: pt_br}), make it the source with %s, or leave it out with %s",
				rel, f.field("path"), why[rel], f.field("languages"), f.field("source"), f.field("ignore"))
		case len(cands) > 1:
			var alts []string
			for _, o := range cands {
				alts = append(alts, fmt.Sprintf("%s in namespace %s", o.lang, o.ns))
			}
			return sc, fmt.Errorf("%s: %s reads it as %s; name the file's language in %s, or give a fixed namespace", rel, f.field("path"), strings.Join(alts, " or "), f.field("languages"))
		}
		o := cands[0]
		p := placed{Rel: rel, Language: o.lang, Namespace: o.ns, Text: o.text}
		if f.Source != "" && o.lang == source {
			sc.shadowed = append(sc.shadowed, p)
			continue
		}
		k := [2]string{o.lang, o.ns}
		if other, ok := byKey[k]; ok {
			return sc, fmt.Errorf("%s and %s both hold %s (namespace %s) for %s: keep one, name one as %s, or leave one out with %s",
				other, rel, o.lang, o.ns, f.field("path"), f.field("source"), f.field("ignore"))
		}
		byKey[k] = rel
		sc.files = append(sc.files, p)
	}
	sc.files = append(sc.files, sources...)
	slices.SortFunc(sc.files, func(a, b placed) int { return strings.Compare(a.Rel, b.Rel) })
	return sc, nil
}

// nsOf is a reading's namespace, or the entry's fixed one.
func (f fileSpec) nsOf(r reading) string {
	if f.hasNamespace() {
		return r.ns
	}
	return f.Namespace
}

// globFiles lists the regular files under root that parts could name, by path, leaving
// out those ignore: names.
func (f fileSpec) globFiles(root *repoRoot, parts []part) ([]string, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	matches, err := filepath.Glob(filepath.Join(root.dir, filepath.FromSlash(globOf(parts))))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		rel, err := filepath.Rel(root.dir, m)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		if f.ignored(rel) || len(readings(parts, rel)) == 0 {
			continue
		}
		fi, err := root.stat(rel)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue // a dangling link, or a file removed since the glob
		case err != nil:
			return nil, fmt.Errorf("%s: %w", rel, err)
		case fi.IsDir():
			continue
		}
		out = append(out, rel)
	}
	slices.Sort(out)
	return out, nil
}

func (f fileSpec) ignored(rel string) bool {
	for _, p := range f.Ignore {
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// where is what pull writes for an entry: the files the repository has, by language and
// namespace, and the spelling each language's names already use.
type where struct {
	files map[[2]string]string
	texts map[string]string
}

func (sc scanned) where() where {
	w := where{files: map[[2]string]string{}, texts: map[string]string{}}
	for _, p := range sc.files {
		w.files[[2]string{p.Language, p.Namespace}] = p.Rel
		if _, ok := w.texts[p.Language]; !ok && p.Text != "" {
			w.texts[p.Language] = p.Text
		}
	}
	return w
}

// target is the file pull writes for language l and namespace ns: the source: file for the
// source language; the file the repository has; else the pattern with the language as
// this entry's files of it spell it (pt_BR/ when the repository has pt_BR/common.json),
// or as the placeholder spells it. A spelling that would read back as another language
// (two languages given one name) is an error: pull creates no file push could not place.
func (f fileSpec) target(w where, l, ns, source string) (string, error) {
	if f.Source != "" && l == source {
		return expandParts(f.sourceParts, "", ns), nil
	}
	if rel, ok := w.files[[2]string{l, ns}]; ok {
		return rel, nil
	}
	text, ok := w.texts[l]
	if !ok {
		text = f.spell(l, source)
		if err := checkPathName("language", text); err != nil {
			return "", err
		}
		if back, err := f.read(text, source); err != nil || back != l {
			if err == nil {
				err = fmt.Errorf("it reads back as %s", back)
			}
			return "", fmt.Errorf("%s cannot name the language %s: spelled %q, %v; give its name in %s", f.field("path"), l, text, err, f.field("languages"))
		}
	}
	return expandParts(f.parts, text, ns), nil
}
