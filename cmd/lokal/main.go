// Command lokal runs the lokal translation service and its admin commands.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/workflows"
)

const usage = `usage:
  lokal serve [--listen ADDR] [--database DSN] [--base-url URL]
  lokal workspace create --name NAME [--json]
  lokal user create --workspace WS --email EMAIL [--json]
  lokal project create --workspace WS --title T --source LANG [--languages L1,L2] [--json]
  lokal key create --project P [--read-only] [--json]
  lokal token create --user U (--project P | --workspace WS) [--json]
  lokal checkup --project P [--json]

Every command takes --database DSN (default $LOKAL_DATABASE or sqlite:lokal.db).
`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "lokal: "+oneLine(err.Error()))
		os.Exit(1)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// command is one parsed invocation: its words (like "project create") and its flags.
type command struct {
	words []string
	fs    *flag.FlagSet
}

// parse lets flags and words come in any order: the flag package stops at the first word,
// so parsing resumes after each one.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var words []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return words, nil
		}
		words = append(words, args[0])
		args = args[1:]
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lokal", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		database = fs.String("database", env("LOKAL_DATABASE", storage.DefaultDSN), "database DSN: sqlite:PATH or postgres://...")
		listen   = fs.String("listen", env("LOKAL_LISTEN", "127.0.0.1:8080"), "address to serve on")
		baseURL  = fs.String("base-url", env("LOKAL_BASE_URL", ""), "public address of the service")
		asJSON   = fs.Bool("json", false, "print one JSON object")
		name     = fs.String("name", "", "workspace name")
		ws       = fs.String("workspace", "", "workspace id")
		email    = fs.String("email", "", "user email")
		title    = fs.String("title", "", "project title")
		source   = fs.String("source", "", "source language code")
		langs    = fs.String("languages", "", "comma-separated target language codes")
		project  = fs.String("project", "", "project id")
		readOnly = fs.Bool("read-only", false, "create a read-only key")
		user     = fs.String("user", "", "user id")
	)
	words, err := parse(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return err
		}
		return fmt.Errorf("%v (see lokal --help)", err)
	}
	cmd := strings.Join(words, " ")
	if cmd == "" || cmd == "help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	if cmd == "serve" {
		return serve(ctx, *listen, *database, *baseURL, stdout, stderr)
	}

	quiet := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	db, err := storage.Open(ctx, *database, &storage.Options{Logger: quiet})
	if err != nil {
		return err
	}
	defer db.Close()
	cat := tools.NewCatalog(db, &tools.Options{BaseURL: *baseURL, Logger: quiet})
	ctx = tools.WithPrincipal(ctx, tools.System)

	var out any
	var text string
	switch cmd {
	case "workspace create":
		w, err := cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: *name})
		if err != nil {
			return err
		}
		out, text = w, fmt.Sprintf("workspace %s (%s)\npublic token: %s", w.ID, w.Name, w.PublicToken)
	case "user create":
		u, err := cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: *ws, Email: *email})
		if err != nil {
			return err
		}
		out, text = u, fmt.Sprintf("user %s (%s)", u.ID, u.Email)
	case "project create":
		var list []string
		for _, l := range strings.Split(*langs, ",") {
			if l = strings.TrimSpace(l); l != "" {
				list = append(list, l)
			}
		}
		p, err := cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: *ws, Title: *title, SourceLanguage: *source, Languages: list})
		if err != nil {
			return err
		}
		out, text = p, fmt.Sprintf("project %s (%s)\nsource language: %s\nenabled languages: %s", p.ID, p.Title, p.SourceLanguage, strings.Join(p.EnabledLanguages, ", "))
	case "key create":
		k, err := cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: *project, ReadOnly: *readOnly})
		if err != nil {
			return err
		}
		kind := "read/write"
		if k.ReadOnly {
			kind = "read-only"
		}
		out, text = k, fmt.Sprintf("%s API key (shown once): %s", kind, k.Key)
	case "token create":
		t, err := cat.CreateToken(ctx, tools.CreateTokenIn{UserID: *user, ProjectID: *project, WorkspaceID: *ws})
		if err != nil {
			return err
		}
		out, text = t, fmt.Sprintf("personal access token (shown once): %s", t.Token)
	case "checkup":
		r, err := cat.RunCheckup(ctx, *project, "cli")
		if err != nil {
			return err
		}
		out = r
		text = fmt.Sprintf("checkup report %s: %d findings", r.ID, r.FindingsTotal)
		for _, k := range sortedKinds(r.Summary.ByKind) {
			text += fmt.Sprintf("\n  %-28s %d", k, r.Summary.ByKind[k])
		}
	default:
		return fmt.Errorf("unknown command %q (see lokal --help)", cmd)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	_, err = fmt.Fprintln(stdout, text)
	return err
}

func serve(ctx context.Context, listen, dsn, baseURL string, stdout, stderr io.Writer) error {
	logs := newLogBuffer(stderr, 200*time.Millisecond)
	defer logs.Close()
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	if os.Getenv("LOKAL_LOG_FORMAT") == "text" {
		logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	if os.Getenv("GOGC") == "" {
		// The heap is mostly cached files that live long; collecting less often buys
		// about a tenth of the read path's CPU for a little memory.
		debug.SetGCPercent(400)
	}
	slog.SetDefault(logger)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	db, err := storage.Open(ctx, dsn, &storage.Options{Logger: logger})
	if err != nil {
		return err
	}
	defer db.Close()
	if baseURL == "" {
		baseURL = "http://" + listen
	}
	cat := tools.NewCatalog(db, &tools.Options{BaseURL: strings.TrimRight(baseURL, "/"), Logger: logger})
	boot, err := cat.BootstrapIfEmpty(tools.WithPrincipal(ctx, tools.System))
	if err != nil {
		return fmt.Errorf("creating the first workspace: %w", err)
	}
	if boot != nil {
		fmt.Fprintf(stdout, "Created a first workspace on this empty database (shown once, keep the token):\n"+
			"  workspace:       %s (%s)\n  public token:    %s\n  user:            %s (%s)\n  workspace token: %s\n",
			boot.Workspace.ID, boot.Workspace.Name, boot.Workspace.PublicToken, boot.User.ID, boot.User.Email, boot.Token)
	}

	handler := rest.New(cat, &rest.Options{Logger: logger, Health: db.Ping})
	worker := workflows.New(cat, &workflows.Options{Logger: logger})
	workerCtx, stopWorker := context.WithCancel(context.Background())
	workerDone := make(chan struct{})
	go func() { defer close(workerDone); worker.Run(workerCtx) }()
	defer func() { stopWorker(); <-workerDone }()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 2 * time.Minute,
		WriteTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	logger.Info("serving", "addr", ln.Addr().String(), "database", db.Dialect(), "base_url", baseURL)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// SIGTERM: stop accepting, let in-flight requests finish, exit 0.
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	return nil
}

func sortedKinds(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
