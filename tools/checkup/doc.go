// Package checkup is the analysis behind a project's checkup report: a QA
// pass over every visible key in every enabled target language. It is pure
// (no database, no I/O): the caller loads an [Input], calls [Analyze] and
// stores the returned findings and [Summary].
//
// Analyze is deterministic (findings are sorted by namespace, key, language
// and kind), never panics, and does work roughly linear in the size of the
// input, whatever the values contain: invalid UTF-8, unbalanced braces or
// megabyte-long strings.
//
// # Findings
//
// Each [Finding] names a key in one target language. Rows of the source
// language are never checked against themselves, and only enabled
// languages are checked. A key without source text (empty or whitespace)
// has nothing to compare against, so only staleness is reported for it.
//
//   - missing_translation: the key has source text but no value (or only
//     whitespace) in the language. No other check runs for that row.
//   - placeholder_mismatch, markup_mismatch, icu_syntax and
//     plural_categories: the problems [message.Check] finds in the
//     translation's structure, compared with its source form by form, one
//     finding per problem: an argument missing from a form, added to it or
//     moved between forms, '#' dropped, non-positional printf reordered or
//     an ICU quoted literal unquoted (placeholder_mismatch); tags, their
//     nesting or non-translatable attributes, or markdown link targets
//     changed (markup_mismatch; an entity equals its character); a syntax
//     error the source has not, such as an unclosed '{' (icu_syntax); plural
//     forms other than the target language's CLDR categories
//     (plural_categories). Message is Check's detail; Detail has "check"
//     (its code) and "form" (the form's path, "n:few") where the problem is
//     in a form. Values are read in Input.Syntax, the project's syntax;
//     when it is 0, the syntax DetectSyntax finds in the keys' sources.
//   - stale_translation: the translation was made against an older source
//     value.
//   - glossary_violation: the source contains a glossary source term
//     (case-insensitive, whole word) and the translation contains none of
//     its target terms (case-insensitive, anywhere, so inflected forms and
//     compounds pass). Which pairs apply is [message.TermsFor]'s rule (the
//     language's own over its base language's over "all"); several targets
//     in that locale are alternatives. Rows flagged
//     do-not-translate are exempt. Detail has "source_term" and
//     "target_term".
//   - do_not_translate_violation: a do-not-translate term occurs in the
//     source (case-sensitive, whole word) but not in the translation
//     (case-sensitive, anywhere); Detail has "term". Also a row flagged
//     do_not_translate whose value differs from the source; Detail has
//     "flag".
//   - identical_to_source: the translation equals the source (after
//     trimming) although the source has real prose: more than three
//     letters once placeholders, markup, URLs, e-mail addresses,
//     do-not-translate terms and glossary terms fixed to themselves are
//     removed. Rows flagged do_not_translate and regional variants of the
//     source language (en to en-GB) are exempt, since for them identical is
//     expected.
package checkup
