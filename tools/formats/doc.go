// Package formats reads and writes the translation files teams already have: one Codec per
// format, each in the file named for it, decoding a file into a File (its entries in file
// order, with key, source text, a value per language, comment, do-not-translate mark and
// what else the file says in Meta) and encoding one back, so that encode(decode(file))
// gives the file back byte for byte when it is in the codec's own spelling, and the same
// meaning otherwise. A file that does not parse is a *FileError naming the line (or byte).
// Every codec has a Merge, which writes an export into the repository's file in place,
// leaving the bytes of what did not change (see Merge below).
//
// # The formats
//
//	name         file                                  plurals in the file
//	json         flat {key: value} (nested is read)     ICU in the value
//	i18next      nested i18next JSON v4                 key_one, key_few, ... siblings
//	po           GNU gettext PO and POT                 msgid_plural, msgstr[n] by Plural-Forms
//	xliff        XLIFF 1.2 (Angular, Xcode)             Xcode's plural variants; ICU in Angular's
//	xliff2       XLIFF 2.0                              ICU in the segment
//	android      res/values*/strings.xml                <plurals> items
//	strings      Apple .strings (UTF-8, UTF-16)         none
//	stringsdict  Apple .stringsdict                     NSStringPluralRuleType per %#@var@
//	xcstrings    Xcode String Catalog (every language)  variations.plural
//	arb          Flutter ARB                            ICU in the value
//	yaml (yml)   Rails YAML, root = language            one:/other: children
//	properties   Java .properties                       none
//	csv          key, then a column per language        ICU in the cell
//
// What each keeps of lokal's entries when written in Polish and read back (measured by
// TestWhatEachFormatKeeps, which holds this table to the codecs): every format keeps the
// values; plurals all but po (gettext's Polish has three forms, so CLDR's "other", for
// fractions, has no slot); comments po, xliff, xliff2, android, strings, stringsdict,
// xcstrings, arb, yaml, properties; the source text the bilingual ones (po, xliff, xliff2,
// xcstrings, csv); needs_review po (fuzzy), xliff (needs-review-translation), xliff2 and
// xcstrings, of which xliff2 and xcstrings also keep a stale translation apart (po and xliff
// write it as needs_review, their one "not final" mark, and lokal stores both as
// needs_review); do-not-translate xliff, xliff2 and xcstrings, as android keeps
// translatable="false". Each codec's file says, at its top, what else it keeps in Meta and
// what it loses.
//
// # Plurals
//
// Inside lokal a plural is one ICU value under one key ("{count, plural, one {# file} other
// {# files}}"). Each codec converts its native forms with the helpers of plural.go:
// FromNative reads them for the file's language (a category the language lacks that names
// one number, such as Xcode's zero for Russian, becomes that explicit form, =0), ToNative
// writes exactly the language's CLDR categories (a category the value lacks is left out and
// reported, never invented), and ReplacePound writes ICU's # as the format's own number
// (%d, {{count}}, %{count}).
//
// # Keys
//
// A nested format (i18next, yaml) flattens nesting to dot-separated keys and nests by dots
// on export by the rule under yml below. PO is keyed by msgctxt when every entry has a
// distinct one (lokal's own export), else by msgid (with msgctxt and U+0004 before it when
// the entry has one); a file whose every key is its msgid is written back keyed by msgid.
// XLIFF (1.2 and 2.0) with several <file> elements keys a unit by its id and records its
// file in Entry.Meta "file" (an id an earlier file used is prefixed "FILE/"); CSV's first
// column is the key whatever its header says.
//
// # Merge
//
// Pull merges lokal's export into the repository's file (MergeFile, Codec.Merge): an entry
// whose value did not change keeps its bytes, a changed one rewrites its own lines, and a
// file with nothing to change comes back byte for byte. MergeFile reads the file's
// encoding (BOM, UTF-16, CRLF or mixed line ends, a charset its PO header or XML
// declaration names, ISO-8859-1 .properties) so that each Merge sees UTF-8 with "\n", and
// writes the result back in it; Options.SourceOrder orders the export as the source file,
// so that a new key goes where the source has it. An entry of the file that the export
// lacks stays unless Options.Prune, and a translation file gains a key only with its
// translation. MergeTemplate makes a language's missing file from the source-language file
// (json, i18next, po with the export's Language and Plural-Forms, android, strings,
// stringsdict, properties, and yaml with the language as root key). Merges: json,
// i18next, arb and xcstrings patch the JSON where it was read (json_merge.go,
// xcstrings_merge.go); xliff, xliff2, android and stringsdict the XML on the spans
// xmltree.go records (xliff_merge.go, xliff2_merge.go, android_merge.go, stringsdict_merge.go);
// po, yaml, properties, strings and csv in their *_merge.go. Splice refuses overlapping
// edits with an error, never a garbled file. Codec.SourceFallback marks the formats whose
// platform reads a key a translation file lacks from the source file, so that a key not
// to translate is left out of their translation files.
//
// # Render
//
// Render is lokal's export of one language for get_translations, through the codecs:
// entries sorted by key (byte order), so the same translations always give the same
// bytes. What it writes in the four formats it has always had:
//
// json: one flat object of key to translation, keys sorted, indented by two spaces, ending
// in a newline. <, > and & are not escaped, because values carry markup.
//
// yml: ruby i18n (Rails) YAML. The only top-level key is the language code, and keys nest
// by their dot-separated segments ("a.b.c": "v" becomes a: {b: {c: v}}), indented by two
// spaces. Rails reads YAML with Psych, a YAML 1.1 parser, so every key or value that YAML
// 1.1 could read as something other than a string (yes, No, on, off, y, null, ~, numbers,
// dates, .inf, :symbols, anything starting with an indicator such as *, &, !, %, @, `, #)
// is double-quoted; multi-line text is a literal block (|) where that reads back exactly,
// and double-quoted with escapes otherwise. The exception is a value in lokal's spelling of
// a typed scalar ("!!bool false", "!!symbol :day", "!!null ~", see yaml.go), which is how
// an imported Rails file's nulls, booleans, numbers, dates and symbols are kept: it is
// written unquoted, so Psych reads the type the file had. Some keys cannot nest; the rule is:
//
//   - A key with an empty segment ("a..b", ".a", "a.") or with whitespace (page text,
//     where a dot is punctuation) does not nest. It is written whole, as a single key
//     directly under the language: "Sign in. Now": v.
//   - A key whose path runs through a shorter key, which is a leaf ("a" and "a.b"), nests
//     as far as that leaf's mapping and is written there, beside the leaf, with the rest
//     of its segments joined by dots: a: v1 and "a.b": v2 side by side; x: {y: v1, y.z: v2}
//     for "x.y" and "x.y.z". The shorter key always keeps its nested place.
//
// Reading a file back is the same for every key: a translation's key is the path of mapping
// keys from below the language down to it, joined by dots, each mapping key taken as
// written (dots included). That gives back every key exactly, and for ordinary keys it is
// what ruby i18n does.
//
// po: GNU gettext PO. A header entry carries Language, MIME-Version, Content-Type (UTF-8),
// Content-Transfer-Encoding and X-Generator: lokal; then one entry per key, with msgctxt
// the key, msgid the source text (or the key when the source is unknown) and msgstr the
// translation; an empty translation is an untranslated entry (msgstr ""), and a stale one
// (Row.Stale: made against an older source text) or a draft (Row.NeedsReview) is flagged
// "#, fuzzy", which msgfmt leaves out of the compiled catalog unless asked to use fuzzy
// entries. Strings use C escapes, and
// text with a line break before its end is wrapped gettext-style: "" and then one line per
// "\n"-terminated segment. NUL and EOT cannot exist in a gettext catalog and are written
// as U+FFFD.
//
// strings: Apple .strings, UTF-8: a "Language" header comment (a file with no entries
// must still not be empty), then per key an optional source-text comment and a
// "key" = "value"; line. Backslash, double quote, \n, \t and \r are escaped, other
// control characters use \U and four hex digits; "*/" in a comment is written "*\/".
package formats
