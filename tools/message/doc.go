// Package message is lokal's one model of a message value: it parses a
// value into a typed tree of text, placeholders of every supported syntax,
// ICU plural/select blocks, markup and markdown links, and prints the tree
// back byte for byte (Parse(v, s).String() == v for every v and s).
//
// Which syntaxes a value is read in is a Syntax set, set per project or
// found by DetectSyntax from the project's source values; what a syntax
// outside the set would recognise is text. Parse never fails: what does not
// parse stays text, an unclosed or unmatched tag is an atom that never
// hides the rest, and syntax errors (an unclosed '{', a plural block
// without "other") are listed in Message.Problems for the checks.
//
// The checks compare trees, not strings: Forms gives the arguments, tags,
// '#' and markup shape of each plural/select form by Path, PrintfOrder the
// order of non-positional printf arguments, and Signature a canonical
// spelling under which { name } equals {name} and &amp; equals &.
//
// The package imports nothing of lokal, so every part of it (ai, the
// checkup, the editor, the file formats) can use it. Parsing is linear in
// the length of the value: every speculative read is bounded.
package message
