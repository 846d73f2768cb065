// Package evals measures the AI pipeline of package ai on recorded model
// answers.
//
// Each case is a txtar file in testdata: a one-line description, then
//
//	-- rules.json --   source_language, target_language, glossary,
//	                   do_not_translate, substitutions, instructions;
//	                   "family": the kind of text or misbehaviour tested
//	                   (printf_order, plural_hash, unclosed_tags, chatter ...);
//	                   "scripted": true for hand-made answers (misbehaviour
//	                   a live model will not reproduce on demand), left
//	                   alone by -update; "broken": true when the first answer
//	                   is broken
//	-- source.json --  {id: source text}
//	-- answer.1 --     the raw message content of the first model call
//	-- answer.2 --     of the second (the targeted retry), and so on
//	-- want.json --    {id: {"value": stored value} or {"failed": true}}
//
// An answer names its strings s1, s2 ... in the order of their sorted ids
// and writes placeholders either as the tokens ⟦N⟧ of the masked source or
// raw ({name}, <b>), as models do. Every family has both sides: legit,
// idiomatic answers that must be stored as want.json says, and broken ones
// that must be refused (failed, or replaced by a repaired retry).
//
// The replay test serves the answers in order from an OpenAI-compatible
// test server (a call beyond them gets the last answer again) and runs
// each case through the real ai.Provider.Translate. With
// LOKAL_EVAL_BASE_URL, LOKAL_EVAL_MODEL and LOKAL_EVAL_API_KEY set,
// go test ./evals -update records fresh answers from that model for the
// cases that are not scripted and rewrites their want.json from the
// outcome; a scripted case's want.json is the judgement of its answers and
// is never rewritten.
//
// The run prints a table per family (strings stored intact, refused
// correctly, wrongly stored, wrongly refused, and totals), the share of
// stored values equal to want.json, glossary and do-not-translate terms
// kept verbatim, refusals and retries that repaired, then every wrong
// outcome by family. It fails on any wrong outcome, and when a family
// lacks one of its sides.
package evals
