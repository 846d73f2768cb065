// Package evals measures the AI pipeline of package ai on recorded model
// answers.
//
// Each case is a txtar file in testdata: a one-line description, then
//
//	-- rules.json --   source_language, target_language, glossary,
//	                   do_not_translate, substitutions, instructions;
//	                   "scripted": true for hand-made answers (misbehaviour
//	                   a live model will not reproduce on demand), kept by
//	                   -update; "broken": true when the first answer is broken
//	-- source.json --  {id: source text}
//	-- answer.1 --     the raw message content of the first model call
//	-- answer.2 --     of the second (the targeted retry), and so on
//	-- want.json --    {id: {"value": stored value} or {"failed": true}}
//
// The replay test serves the answers in order from an OpenAI-compatible
// test server and runs each case through the real ai.Provider.Translate.
// With LOKAL_EVAL_BASE_URL, LOKAL_EVAL_MODEL and LOKAL_EVAL_API_KEY set,
// go test ./evals -update records fresh answers from that model for the
// cases that are not scripted and rewrites want.json from the outcome.
//
// The run prints a table (cases, placeholder integrity of stored values,
// glossary and do-not-translate adherence, refusals, retries that
// repaired) and fails unless every stored value is intact and every case
// ends as want.json says.
package evals
