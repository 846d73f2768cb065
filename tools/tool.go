package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/lokal-dev/lokal/tools/model"
)

// Tool is one catalogue operation as MCP offers it: its name, description, whether it only
// reads, its typed input and output, and the function behind it. The REST handlers call the
// same functions directly.
type Tool struct {
	Name        string
	Title       string
	Description string
	ReadOnly    bool
	// TakesProject is true for tools that act on one project: their input has project_id,
	// required on the workspace endpoint and absent on the project endpoint.
	TakesProject bool
	In, Out      reflect.Type
	// Caps name input properties whose entries the operation bounds (an object's
	// properties, an array's items), so that the schema can say so; the operation enforces
	// them itself.
	Caps map[string]int
	// Call decodes args strictly into the input type and runs the operation.
	Call func(ctx context.Context, args json.RawMessage) (any, error)
}

// Texter is implemented by outputs with a better readable form than their JSON.
type Texter interface{ Text() string }

// ProjectArg is embedded in the input of every tool that acts on one project.
type ProjectArg struct {
	ProjectID string `json:"project_id,omitempty" jsonschema:"id of the project to act on, as list_projects returns it"`
}

func (a *ProjectArg) projectArg() *ProjectArg { return a }

type projectArger interface{ projectArg() *ProjectArg }

type scopeKey struct{}

// WithProjectScope fixes the project of every tool call in ctx: the project MCP endpoint
// names it in its URL, so tools take no project_id there.
func WithProjectScope(ctx context.Context, projectID string) context.Context {
	return context.WithValue(ctx, scopeKey{}, projectID)
}

// ProjectScope returns the project fixed by WithProjectScope, or "".
func ProjectScope(ctx context.Context) string {
	s, _ := ctx.Value(scopeKey{}).(string)
	return s
}

// define builds a Tool from a typed operation.
func define[In, Out any](name, title, description string, readOnly bool, fn func(context.Context, In) (Out, error)) Tool {
	var zero In
	_, takesProject := any(&zero).(projectArger)
	return Tool{
		Name: name, Title: title, Description: description, ReadOnly: readOnly, TakesProject: takesProject,
		In: reflect.TypeFor[In](), Out: reflect.TypeFor[Out](),
		Call: func(ctx context.Context, args json.RawMessage) (any, error) {
			var in In
			if len(bytes.TrimSpace(args)) > 0 && !bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
				dec := json.NewDecoder(bytes.NewReader(args))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&in); err != nil {
					return nil, model.Errorf(model.CodeInvalid, "arguments: %v", err)
				}
				if _, err := dec.Token(); !errors.Is(err, io.EOF) {
					return nil, model.Errorf(model.CodeInvalid, "arguments: data after the JSON object")
				}
			}
			if pa, ok := any(&in).(projectArger); ok {
				arg := pa.projectArg()
				if scope := ProjectScope(ctx); scope != "" {
					if arg.ProjectID != "" && arg.ProjectID != scope {
						return nil, model.Errorf(model.CodeInvalid, "this endpoint is fixed to project %s; omit project_id", scope)
					}
					arg.ProjectID = scope
				} else if arg.ProjectID == "" {
					return nil, model.Errorf(model.CodeInvalid, "project_id is required; list_projects gives the ids")
				}
			}
			return fn(ctx, in)
		},
	}
}

// capped records that the operation of t takes at most n entries in property.
func capped(t Tool, property string, n int) Tool {
	if t.Caps == nil {
		t.Caps = map[string]int{}
	}
	t.Caps[property] = n
	return t
}

// Tools returns every tool of the catalogue, read tools first; read tools spend the
// token's ReadBudget.
func (c *Catalog) Tools() []Tool {
	ts := c.tools()
	for i := range ts {
		if ts[i].ReadOnly {
			ts[i] = c.metered(ts[i])
		}
	}
	return ts
}

func (c *Catalog) tools() []Tool {
	return []Tool{
		define("list_projects", "List projects",
			"Lists the projects this token can reach, with the ids that project_id expects.", true, c.ListProjects),
		define("get_project_status", "Project status",
			"Source language, enabled languages, namespaces, and per-language counts of translated, missing and source-drifted strings, with queued (waiting for automatic AI translation) and ai_failed (the AI gave up; still missing); auto_translation and ai_usage (model calls, tokens, strings); syntax: the placeholder and markup syntaxes the project's values are read in (names, and source: set by the operator or detected from the source values). Translation is asynchronous: fetched files are complete only when missing is 0 for the language.", true, c.GetProjectStatus),
		define("get_embed_snippet", "Embed snippet",
			"Returns the one script tag to paste into the HTML head of a site to translate it with lokal.", true, c.GetEmbedSnippet),
		define("get_translations", "Get translations",
			"Returns one language of one namespace, or of the whole project, as json, yml (Rails i18n), po (gettext) or strings (Apple). Includes approved translations and AI drafts; po lists every key, untranslated ones with an empty msgstr and stale ones flagged fuzzy. A large project comes in pages of at most 10,000 keys (or about 4 MB of text), each a complete file holding some of the keys: while next_offset is not null, call again with offset set to it (same language, format and namespace_key) and merge the files.", true, c.GetTranslations),
		define("get_translation", "Get one key",
			"Returns one key's values, statuses, flags and comments across all languages.", true, c.GetTranslation),
		define("search_translations", "Search translations",
			"Finds translation rows by key or value substring (case-insensitive), language and status, in key order; at most 50 rows per call. next_offset is an opaque cursor, null on the last page: pass it back as offset to continue; it stays valid when rows are written in between, and no row is skipped or repeated.", true, c.SearchTranslations),
		define("list_terminology", "List terminology",
			"Lists glossary pairs, do-not-translate terms and substitution rules; rules for all locales are always included.", true, c.ListTerminology),
		define("get_checkup_report", "Get checkup report",
			"Returns a QA report of the project (missing translations, placeholder and markup mismatches, stale rows, glossary and do-not-translate violations, values identical to the source): the newest completed one, or report_id.", true, c.GetCheckupReport),

		define("enable_language", "Enable language",
			"Turns a supported language on for the project. Strings registered afterwards are translated into it automatically; existing ones need ai_translate_keys.", false, c.EnableLanguage),
		capped(define("register_source_strings", "Register source strings",
			"Creates the keys of strings (key to source text) that the namespace lacks; existing keys are untouched. Creates the namespace if new. New keys are then translated by AI into every enabled language in the background (see get_project_status). At most 5,000 strings per call; register more in further calls.", false, c.RegisterSourceStrings),
			"strings", MaxRegisterStrings),
		define("update_translation", "Update translation",
			"Sets one language's value of a key. It lands as needs_review unless status approved is asked for; language-locked rows are refused.", false, c.UpdateTranslation),
		define("set_translation_status", "Set translation status",
			"Moves a translation between needs_review and approved without changing its text.", false, c.SetTranslationStatus),
		define("add_key", "Add key",
			"Creates one key with its source value; fails if the key exists. The key is then translated by AI into every enabled language in the background.", false, c.AddKey),
		define("add_comment", "Add comment",
			"Attaches a comment to one language's row of a key.", false, c.AddComment),
		define("flag_translation", "Flag translation",
			"Sets or clears do_not_translate (the term stays verbatim) or language_locked (the value must not be overwritten) on one language's row.", false, c.FlagTranslation),
		define("add_glossary_term", "Add glossary term",
			"Adds a fixed translation of a term for one locale or all.", false, c.AddGlossaryTerm),
		capped(define("ai_translate_keys", "AI translate keys",
			"Translates up to 10 keys into target_lang with the project's AI; approved translations are never overwritten.", false, c.AITranslateKeys),
			"translation_keys", MaxAIKeys),
	}
}

// ToolText is the readable text form of a tool's output: its Text, or indented JSON.
func ToolText(out any) string {
	if t, ok := out.(Texter); ok {
		return t.Text()
	}
	b, err := encodeJSON(out, true)
	if err != nil {
		return fmt.Sprint(out)
	}
	return string(b)
}

// encodeJSON renders v without HTML escaping: values carry markup that readers take
// verbatim.
func encodeJSON(v any, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
