// Package ai translates strings with any OpenAI-compatible model without
// ever returning a broken placeholder.
//
// # The placeholder contract
//
// [Mask] replaces every placeholder and markup piece of a source text by an
// opaque token ⟦N⟧ and keeps the pieces in a [Table]; the model sees only
// tokens. [Verify] accepts a model's answer only when it carries exactly
// the source's tokens (order may change), invents no placeholder or markup
// of its own, nests tags and ICU branches as the source does, honours the
// glossary and do-not-translate terms, and the unmasked value passes the
// value check; then it applies the substitution rules. Everything else is
// refused with [Problem]s that say what was wrong.
//
// # Providers and translation
//
// A [Provider] speaks the chat completions API through go-openai with a
// configurable base URL, so OpenAI, Azure OpenAI, OpenRouter, Ollama, vLLM
// and llama.cpp all work. It bounds concurrency, honours Retry-After on
// 429, backs off on 5xx and network errors, and classifies failures
// ([Error]). It reads at most outbound.MaxModelAnswer of an answer and
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
