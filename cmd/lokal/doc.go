// Command lokal is the lokal translation service and everything an operator or a
// repository does with it, in one binary.
//
//   - lokal serve runs the HTTP API, MCP, the editor at /app/ and the Embed script
//     (serve.go; configuration from flags and LOKAL_* variables).
//   - The admin commands (project, key, user, invite, term, hooks, ai, embed, ...) work on
//     the database directly (commands_*.go); each command is a row of the table in
//     commands.go, whose flags flags.go reads the same way for all.
//   - lokal push and lokal pull sit beside a repository, described by its lokal.yaml
//     (lokalyaml.go): path patterns whose placeholders spell a language as the repository
//     does (layout.go: {language}, {locale}, {android}, {apple}, a languages: map, a
//     source: file without a language in its name). Push (push.go) sends each file it can
//     place, and names any it cannot. Pull (pull.go) fetches each export conditionally and
//     merges it into the repository's file through formats.MergeFile, so an untouched entry
//     keeps its bytes and a file with nothing to change is not written; a missing file is
//     built from the source-language file. Every path either command opens is resolved
//     under the repository's root without following links out of it (safepath.go).
package main
