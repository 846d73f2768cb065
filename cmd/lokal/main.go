package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "lokal: "+oneLine(err.Error()))
		os.Exit(1)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// run runs one command line. Help is not an error: it prints and returns nil.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (result error) {
	words, flags, help, err := splitArgs(args, flagKinds(commands))
	if err != nil {
		return err
	}
	cmd, rest := lookup(words)
	if help || len(words) == 0 {
		return printHelp(stdout, words)
	}
	if cmd != nil {
		// An unknown flag does not take a value, so its value shows up as a word: name
		// the flag, not a command made of that word.
		for _, f := range flags {
			if !cmd.takes(f.name) {
				return fmt.Errorf("unknown flag --%s for lokal %s (see lokal help %s)", f.name, cmd.name, cmd.name)
			}
		}
	}
	if cmd == nil || (len(rest) > 0 && cmd.name != "help") {
		return unknownCommand(words)
	}
	in, err := bind(cmd, flags)
	if err != nil {
		return err
	}
	c := &call{in: in, words: rest, stdout: stdout, stderr: stderr}
	if cmd.database {
		quiet := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
		opts, err := catalogOptions(in, in.str("database"))
		if err != nil {
			return err
		}
		opts.Logger = quiet
		db, err := storage.Open(ctx, in.str("database"), &storage.Options{Logger: quiet, MustExist: true, Secrets: opts.Secrets})
		if errors.Is(err, storage.ErrNoDatabase) {
			return fmt.Errorf("%w (run `lokal serve` there first, or pass --database / LOKAL_DATABASE)", err)
		}
		if err != nil {
			return err
		}
		defer db.Close()
		if !in.has("database") {
			// From LOKAL_DATABASE or the default: say which (never on stdout), on a line of
			// its own after a success, in the one error line of what was not found.
			shown := shownDSN(in.str("database"))
			defer func() {
				if result == nil {
					fmt.Fprintln(stderr, "lokal: using "+shown)
				} else if model.IsNotFound(result) {
					result = fmt.Errorf("%w (in the database %s)", result, shown)
				}
			}()
		}
		c.db = db
		opts.Hooks = writeHooks(opts)
		c.cat = tools.NewCatalog(db, opts)
		ctx = model.WithPrincipal(ctx, tools.System)
		if err := resolveNames(ctx, c); err != nil {
			return err
		}
	}
	out, text, err := cmd.run(ctx, c)
	if err != nil || (out == nil && text == "") {
		return err
	}
	if cmd.json && in.boolean("json") {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	_, err = fmt.Fprintln(stdout, text)
	return err
}

// lookup finds the command named by the first words and returns the words after its name.
func lookup(words []string) (*command, []string) {
	for _, c := range commands {
		name := strings.Fields(c.name)
		if len(words) >= len(name) && strings.Join(words[:len(name)], " ") == c.name {
			return c, words[len(name):]
		}
	}
	return nil, nil
}

// group is the commands whose name starts with words ("project" gives project create, list...).
func group(words []string) []*command {
	var out []*command
	prefix := strings.Join(words, " ") + " "
	for _, c := range commands {
		if strings.HasPrefix(c.name+" ", prefix) {
			out = append(out, c)
		}
	}
	return out
}

func unknownCommand(words []string) error {
	name := strings.Join(words, " ")
	if g := group(words[:1]); len(g) > 0 && len(words) <= 2 {
		var names []string
		for _, c := range g {
			names = append(names, c.name)
		}
		return fmt.Errorf("unknown command %q: %s has %s (see lokal help %s)", name, words[0], strings.Join(names, ", "), words[0])
	}
	return fmt.Errorf("unknown command %q (see lokal help)", name)
}

func runHelp(_ context.Context, c *call) (any, string, error) {
	return nil, "", printHelp(c.stdout, c.words)
}

// printHelp prints the usage of the command named by words, of a group of commands, or of
// lokal itself.
func printHelp(w io.Writer, words []string) error {
	if len(words) == 0 {
		_, err := io.WriteString(w, globalUsage())
		return err
	}
	if cmd, rest := lookup(words); cmd != nil && len(rest) == 0 {
		_, err := io.WriteString(w, commandUsage(cmd))
		return err
	}
	g := group(words)
	if len(g) == 0 {
		return unknownCommand(words)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "lokal %s commands:\n", strings.Join(words, " "))
	listCommands(&b, g)
	fmt.Fprintf(&b, "\nRun lokal help COMMAND for its flags.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func globalUsage() string {
	var b strings.Builder
	b.WriteString("lokal runs the lokal translation service (lokal serve) and its admin commands.\n\nusage: lokal COMMAND [flags]\n\ncommands:\n")
	listCommands(&b, commands)
	b.WriteString("\nFlags and words come in any order. Every command that uses the database takes\n" +
		"--database DSN (env LOKAL_DATABASE, default " + storage.DefaultDSN + "); only serve creates a database.\n" +
		"With --json a command prints exactly one JSON object. Run lokal help COMMAND or\n" +
		"lokal COMMAND -h for a command's flags.\n")
	return b.String()
}

func listCommands(b *strings.Builder, cmds []*command) {
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.name))
	}
	for _, c := range cmds {
		fmt.Fprintf(b, "  %-*s  %s\n", width, c.name, c.synopsis)
	}
}

func commandUsage(c *command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: lokal %s", c.name)
	if c.args != "" {
		fmt.Fprintf(&b, " %s", c.args)
	}
	if c.json {
		b.WriteString(" [--json]")
	}
	fmt.Fprintf(&b, "\n\n%s.\n", upperFirst(c.synopsis))
	if c.about != "" {
		fmt.Fprintf(&b, "%s\n", c.about)
	}
	if defs := c.allFlags(); len(defs) > 0 {
		b.WriteString("\nflags:\n")
		b.WriteString(flagUsage(defs))
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
