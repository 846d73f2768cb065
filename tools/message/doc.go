// Package message is lokal's one model of a message value: it parses a
// value into a typed tree of text, placeholders of every supported syntax,
// ICU plural/select blocks, markup and markdown links, and prints the tree
// back byte for byte (Parse(v, s).String() == v for every v and s).
//
// # Syntax
//
// Which syntaxes a value is read in is a [Syntax] set (ICU, I18next, React,
// Rails, Printf, Braces, Template, Qt, HTML, Markdown), set per project
// ([ParseSyntax] reads "icu,html") or found by [DetectSyntax] from the
// project's source values. What a syntax outside the set would recognise
// is text: "Use { and } to group" in an i18next project has no argument.
//
// # Tree
//
// A [Message] is a list of [Node]s:
//
//   - [Text]: literal text;
//   - [Entity]: &amp; &#8212; with the character it stands for;
//   - [Quoted]: ICU '{name}' and doubled apostrophes, .NET/Python {{ }};
//   - [Arg]: a placeholder of any syntax, with its [ArgKind], name, index,
//     positional flag, type and style;
//   - [Select]: an ICU plural/select/selectordinal block with its [Form]s,
//     each a Message;
//   - [Pound]: '#' in a plural or selectordinal form;
//   - [Tag]: an HTML/XML element or react-i18next component with its
//     [Attr]s (alt, title, placeholder and aria-label values are Messages,
//     the others opaque) and children, or an atom: void, self-closing,
//     unclosed (<Enter>, a lone <p>), unmatched (</b>) or a comment;
//   - [Link]: a markdown link or image with its text and opaque target.
//
// Parse never fails: what does not parse stays text, an unclosed or
// unmatched tag is an atom that never hides the structure of the rest, and
// syntax errors (an unclosed '{', a plural block without "other") are
// listed in Message.Problems for the checks.
//
// # Comparing messages
//
// The checks compare trees, not strings: [Forms] gives the arguments,
// tags, '#' count and markup shape of each plural/select form by [Path];
// [PrintfOrder] the order of non-positional printf arguments; [Signature]
// a canonical spelling under which { name } equals {name}, &amp; equals &
// and <br> equals <br/>; [Spans] the byte ranges of syntax, for the
// editor's highlighting and for masking; [Message.PlainText] the prose.
// [SplitPluralKey] reads i18next's plural key suffixes (files_one).
//
// An editor edits a message as fields: [Split] cuts it into the text
// around its plural/select blocks and, in each form, around the blocks
// nested in it ([Piece], [Frame]); [JoinPieces] writes the pieces back
// byte for byte. [FieldText] is the one rule for text typed into a field:
// it is written as text (stray braces, an apostrophe that would open a
// quote, a typed block are quoted) while the field's arguments, tags and
// '#' stay syntax; [IsolateSyntax] puts a right-to-left field's syntax in
// left-to-right isolates, which FieldText takes out. Inside a block
// [FormFieldText] applies it in the block's syntax; a plural family's forms
// (a block read in i18next without ICU) hold i18next text, so there every
// typed character but i18next's own syntax is text, '#' included, and
// [FormFieldShow] gives a field the form as i18next reads it.
//
// # Plural families
//
// i18next keeps a plural's forms in sibling keys (files_one, files_few,
// files_other); lokal keeps them as one message under the base key, whose
// value is an ICU plural on count with i18next text inside. The file codec
// and every door of the catalogue use the same functions: [GatherFamilies]
// (flat keys of one language into families, forms the language lacks named
// in [Family].Dropped), [ExpandFamily] (a family value into the language's
// suffix keys), [Categories] (what a language needs), [MissingCategories]
// and [FamilyIncomplete] (what a translation lacks, which the counters count
// as missing), [MergeFamily] (forms sent replace those of a stored value).
// [FromNative] and [ToNative] convert any format's native plural forms. In a
// value read in i18next without ICU, a whole plural/select block is still one
// [Select] (its forms read with ICU's rules), so that a family value parses
// in an i18next project, while "{name}" and loose braces stay text; such a
// block alone does not make [DetectSyntax] add ICU to a project that shows
// i18next.
//
// # Checking a translation
//
// [Check] is the one check of a translated value against its source, for
// every door (AI verification, editor QA, checkup, imports): it compares
// the trees form by form (arguments, plural categories of the target
// language from package plural, '#', printf order, tags, links, quoted
// literals), the project's glossary and do-not-translate terms (those
// [TermsFor] picks for the language; glossary words matched by Snowball
// stem), and the prose (language, copied sentences, chatter, length). It
// returns [Problem]s with a code (the Code constants), the form's path and
// a detail fit for a person and for a model's retry. Syntax errors of the
// parse itself are [SyntaxError]s.
//
// The rules that judge prose and terms, each in one function:
//
//   - Language (check_language.go, language): letters tell on any length:
//     a text in another script than the target's (sr-Latn in Cyrillic, a
//     Latin target in Cyrillic or kana), two kana in a non-Japanese target
//     (kana is only Japanese), two Chinese-only characters in a kana-less
//     Japanese answer (Han-only text with none is ambiguous and accepted),
//     and for Cyrillic languages a letter the target lacks (ы э ъ ё for
//     Ukrainian, і ї є ґ for Russian) without one that marks it, or two.
//     Prose of at least five words and 28 letters is also put to function
//     words and to the identifier, asked about the source language,
//     English and the target's close relatives (nl/de, sv/da, es/pt,
//     uk/ru ...), each against the target alone. Shorter text without
//     telling letters is accepted.
//   - Labels (label): a short first segment (at most six words, no
//     sentence punctuation) ending in a colon, full-width colon or line
//     break, followed by more text, is a label or preface when the source
//     has no lead of its own (no colon, line break, | or dash) and none of
//     its words are the source's. Check refuses it; it never strips text.
//   - Glossary (check_terms.go, terms): a term is checked in every reading
//     of the plural and select forms (a form with the text around it),
//     against the translation's forms that answer a source reading with
//     the term; a Polish few answers the source's other. Words match by
//     Snowball stem; without a stemmer, by a shared beginning: all of a
//     four-letter word, all but the last two letters of a longer one, and
//     at most three letters after it, Greek accents folded (χώρος, χώρου;
//     πίνακας, πινάκων; not πινακίδας).
//   - Quoting (check.go, quoted): a quoted literal of the source must still
//     be printed as text; '{'name'}' and '{name}' print the same.
//
// The package imports nothing of lokal, so every part of it (ai, the
// checkup, the editor, the file formats) can use it. Parsing is linear in
// the length of the value: every speculative read is bounded.
package message
