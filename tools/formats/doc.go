// Package formats renders a project's translations in one language as the files that i18n
// libraries read: JSON, Rails YAML, GNU gettext PO and Apple .strings. Entries are sorted
// by key (byte order), so the same translations always give the same bytes.
//
// # Formats
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
// and double-quoted with escapes otherwise. Some keys cannot nest; the rule is:
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
// (Entry.Stale: made against an older source text) is flagged "#, fuzzy", which msgfmt
// leaves out of the compiled catalog unless asked to use fuzzy entries. Strings use C escapes, and
// text with a line break before its end is wrapped gettext-style: "" and then one line per
// "\n"-terminated segment. NUL and EOT cannot exist in a gettext catalog and are written
// as U+FFFD.
//
// strings: Apple .strings, UTF-8: a "Language" header comment (a file with no entries
// must still not be empty), then per key an optional source-text comment and a
// "key" = "value"; line. Backslash, double quote, \n, \t and \r are escaped, other
// control characters use \U and four hex digits; "*/" in a comment is written "*\/".
package formats
