// Package ai translates strings with any OpenAI-compatible model without
// ever returning a broken placeholder.
//
// # The placeholder contract
//
// [Mask] reads a source text with package message in the project's syntax
// ([Request].Syntax; Translate detects it from the request's sources when unset),
// first giving its plural and selectordinal blocks the target language's
// CLDR categories ([ExpandPlurals]), and replaces every span of syntax
// (message.Spans) and every do-not-translate term by an opaque token ⟦N⟧,
// keeping the pieces in a [Table]. [Verify] refuses unknown or altered
// tokens and plural/select skeleton tokens out of the source's order, then
// judges the unmasked value: message.Check against the source for the
// target language, glossary and do-not-translate terms (message.TermsFor),
// no syntax the source's set lacks, and the value check; then it applies
// the substitution rules. A model that writes a placeholder, tag or term
// itself instead of its token is right when the value is right. Everything
// else is refused with [Problem]s that name the form they are in.
//
// An answer is never edited into shape: a label or preface kept in front
// of it ("Oversættelse:", "翻訳：", "Here is the translation:"), an answer
// in a close language (German for Dutch, Japanese for Chinese, Russian for
// Ukrainian) or a glossary term missing from one plural form is refused,
// and the retry names the problem. What is stored is the retry's own
// answer when it passes every check, so a label is dropped only when the
// model's second answer confirms it by leaving it out.
//
// # Providers and translation
//
// A [Provider] speaks the chat completions API through go-openai with a
// configurable base URL, so OpenAI, Azure OpenAI, OpenRouter, Ollama, vLLM
// and llama.cpp all work. It bounds concurrency, honours Retry-After on
// 429, backs off on 5xx and network errors, and classifies failures
// ([Error]: a kind, the status and outbound.Fail's reason, never the provider's
// error text, which an echoing provider fills with the API key). It reads at most outbound.MaxModelAnswer of an answer and
// outbound.MaxErrorBody of an error; past that the call fails once as
// [ErrTooLarge], without a retry. [Provider.Translate] sends batches of at most ten strings of
// one target language in the wire format below, verifies every answer,
// gives failing strings one targeted retry that names their problems, and
// reports what still fails instead of returning it.
//
// # Wire format
//
// One POST {base}/chat/completions per batch. The system message carries
// the instructions, glossary pairs, do-not-translate terms and
// substitution rules that apply; the last user message is a JSON object
// {"source_language", "target_language", "strings": {id: masked text}};
// response_format is json_object; the answer's content is a JSON object
// whose "strings" maps the same ids to translations. An answer that gives a
// key of its outer object twice is unreadable; a value with a lone surrogate
// escape or invalid UTF-8 (package jsoncheck) is a bad answer for its id.
package ai
