package main

// These tests call run and the parsers directly: the help of every command in the table,
// flag parsing and the serve configuration. Database-backed behaviour is tested through the
// binary in main_test.go and ops_test.go.

import (
	"bytes"
	"net/netip"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestHelpListsEveryFlag checks that `lokal help COMMAND` and `lokal COMMAND -h` print the
// same usage, naming every flag the command takes with its variable and default.
func TestHelpListsEveryFlag(t *testing.T) {
	t.Parallel()
	for _, cmd := range commands {
		t.Run(cmd.name, func(t *testing.T) {
			t.Parallel()
			var viaHelp, viaFlag, viaLong bytes.Buffer
			words := strings.Fields(cmd.name)
			if err := run(t.Context(), append([]string{"help"}, words...), &viaHelp, &bytes.Buffer{}); err != nil {
				t.Fatalf("lokal help %s: %v", cmd.name, err)
			}
			if err := run(t.Context(), append(append([]string{}, words...), "-h"), &viaFlag, &bytes.Buffer{}); err != nil {
				t.Fatalf("lokal %s -h: %v", cmd.name, err)
			}
			if err := run(t.Context(), append([]string{"--help"}, words...), &viaLong, &bytes.Buffer{}); err != nil {
				t.Fatalf("lokal --help %s: %v", cmd.name, err)
			}
			if viaHelp.String() != viaFlag.String() || viaHelp.String() != viaLong.String() {
				t.Errorf("help differs:\nhelp COMMAND:\n%s\nCOMMAND -h:\n%s\n--help COMMAND:\n%s", &viaHelp, &viaFlag, &viaLong)
			}
			out := viaHelp.String()
			if !strings.HasPrefix(out, "usage: lokal "+cmd.name) {
				t.Errorf("help does not start with the usage line:\n%s", out)
			}
			for _, d := range cmd.allFlags() {
				line := flagLine(out, "--"+d.name)
				if line == "" {
					t.Errorf("help does not list --%s:\n%s", d.name, out)
					continue
				}
				if d.env != "" && !strings.Contains(line, "env "+d.env) {
					t.Errorf("help line of --%s does not name %s: %q", d.name, d.env, line)
				}
				if d.def != "" && !strings.Contains(line, "default "+d.def) {
					t.Errorf("help line of --%s does not give the default %s: %q", d.name, d.def, line)
				}
			}
		})
	}
}

// flagLine is the line of help that documents flag.
func flagLine(help, flag string) string {
	for _, l := range strings.Split(help, "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && (f[0] == flag || strings.HasPrefix(f[0], flag+"[")) {
			return l
		}
	}
	return ""
}

// TestGlobalHelp checks that lokal, lokal help and lokal -h list every command.
func TestGlobalHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"help"}, {"-h"}, {"--help"}} {
		var out bytes.Buffer
		if err := run(t.Context(), args, &out, &bytes.Buffer{}); err != nil {
			t.Fatalf("lokal %v: %v", args, err)
		}
		for _, c := range commands {
			if !strings.Contains(out.String(), "  "+c.name+" ") {
				t.Errorf("lokal %v does not list %s:\n%s", args, c.name, &out)
			}
		}
	}
}

// TestFlagKindsAgree checks that a flag name has one kind in every command: words are told
// from flag values before the command is known.
func TestFlagKindsAgree(t *testing.T) {
	t.Parallel()
	seen := map[string]flagKind{}
	for _, c := range commands {
		for _, d := range c.allFlags() {
			if k, ok := seen[d.name]; ok && k != d.kind {
				t.Errorf("--%s has two kinds (%s)", d.name, c.name)
			}
			seen[d.name] = d.kind
		}
	}
}

func TestSplitArgs(t *testing.T) {
	t.Parallel()
	kinds := flagKinds(commands)
	tests := []struct {
		args    []string
		words   []string
		flags   []rawFlag
		help    bool
		wantErr string
	}{
		{args: []string{"--json", "project", "--title", "T", "create"}, words: []string{"project", "create"},
			flags: []rawFlag{{"json", "", false}, {"title", "T", true}}},
		{args: []string{"project", "create", "--title="}, words: []string{"project", "create"},
			flags: []rawFlag{{"title", "", true}}},
		{args: []string{"-title", "-"}, flags: []rawFlag{{"title", "-", true}}},
		{args: []string{"project", "set", "--show-switcher=false", "--hosts=", "--mode", "off"}, words: []string{"project", "set"},
			flags: []rawFlag{{"show-switcher", "false", true}, {"hosts", "", true}, {"mode", "off", true}}},
		{args: []string{"key", "list", "-h"}, words: []string{"key", "list"}, help: true},
		{args: []string{"--colour", "red"}, words: []string{"red"}, flags: []rawFlag{{"colour", "", false}}},
		{args: []string{"--", "--title"}, words: []string{"--title"}},
		{args: []string{"project", "create", "--workspace", "--title", "X"}, wantErr: "--workspace needs a value"},
		{args: []string{"workspace", "create", "--name"}, wantErr: "--name needs a value"},
	}
	for _, tt := range tests {
		words, flags, help, err := splitArgs(tt.args, kinds)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("splitArgs(%q) error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(words, tt.words) || !reflect.DeepEqual(flags, tt.flags) || help != tt.help {
			t.Errorf("splitArgs(%q) = %q, %v, %v, %v; want %q, %v, %v", tt.args, words, flags, help, err, tt.words, tt.flags, tt.help)
		}
	}
}

// TestBind checks flag values against the command: unknown flags, booleans, required flags
// and the environment.
func TestBind(t *testing.T) {
	projectCreate, _ := lookup([]string{"project", "create"})
	keyCreate, _ := lookup([]string{"key", "create"})
	tests := []struct {
		cmd     *command
		flags   []rawFlag
		wantErr string
	}{
		{projectCreate, []rawFlag{{"workspace", "w", true}, {"source", "en", true}}, "--title is required (see lokal help project create)"},
		{projectCreate, []rawFlag{{"workspace", "w", true}, {"source", "en", true}, {"title", " ", true}}, "--title needs a value"},
		{projectCreate, []rawFlag{{"read-only", "", false}}, "unknown flag --read-only for lokal project create (see lokal help project create)"},
		{keyCreate, []rawFlag{{"project", "p", true}, {"read-only", "yes", true}}, `--read-only takes true or false, not "yes"`},
		{keyCreate, []rawFlag{{"project", "p", true}, {"read-only", "false", true}}, ""},
	}
	for _, tt := range tests {
		_, err := bind(tt.cmd, tt.flags)
		if got := errString(err); got != tt.wantErr {
			t.Errorf("bind(%s, %v): %q, want %q", tt.cmd.name, tt.flags, got, tt.wantErr)
		}
	}

	t.Setenv("LOKAL_DATABASE", "sqlite:/from/env.db")
	in, err := bind(keyCreate, []rawFlag{{"project", "p", true}})
	if err != nil || in.str("database") != "sqlite:/from/env.db" || in.boolean("read-only") || in.has("database") {
		t.Errorf("LOKAL_DATABASE: database %q, read-only %v, given %v, err %v", in.str("database"), in.boolean("read-only"), in.has("database"), err)
	}
	in, _ = bind(keyCreate, []rawFlag{{"project", "p", true}, {"database", "sqlite:flag.db", true}})
	if in.str("database") != "sqlite:flag.db" {
		t.Errorf("the flag does not win over LOKAL_DATABASE: %q", in.str("database"))
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestParseServeConfig(t *testing.T) {
	serveCmd, _ := lookup([]string{"serve"})
	parse := func(flags ...rawFlag) (serveConfig, error) {
		in, err := bind(serveCmd, flags)
		if err != nil {
			return serveConfig{}, err
		}
		return parseServeConfig(in)
	}
	cfg, err := parse()
	if err != nil || cfg.listen != "127.0.0.1:8080" || cfg.maxConnsPerIP != 64 || cfg.metricsListen != "" ||
		len(cfg.trustedProxies) != 0 || cfg.baseURL != "http://127.0.0.1:8080" {
		t.Errorf("defaults: %+v, %v", cfg, err)
	}
	cfg, err = parse(rawFlag{"trusted-proxies", "10.0.0.0/8, 192.0.2.7,2001:db8::/32", true},
		rawFlag{"allow-private-nets", "::ffff:10.1.2.3", true}, rawFlag{"max-conns-per-ip", "0", true},
		rawFlag{"metrics-listen", "127.0.0.1:9090", true}, rawFlag{"base-url", "https://t.example/", true})
	wantProxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.7/32"), netip.MustParsePrefix("2001:db8::/32")}
	if err != nil || !reflect.DeepEqual(cfg.trustedProxies, wantProxies) || cfg.maxConnsPerIP != 0 ||
		!reflect.DeepEqual(cfg.allowPrivateNets, []netip.Prefix{netip.MustParsePrefix("10.1.2.3/32")}) ||
		cfg.metricsListen != "127.0.0.1:9090" || cfg.baseURL != "https://t.example" {
		t.Errorf("parsed: %+v, %v", cfg, err)
	}
	t.Setenv("LOKAL_TRUSTED_PROXIES", "172.16.0.0/12")
	if cfg, err := parse(); err != nil || !reflect.DeepEqual(cfg.trustedProxies, []netip.Prefix{netip.MustParsePrefix("172.16.0.0/12")}) {
		t.Errorf("LOKAL_TRUSTED_PROXIES: %v, %v", cfg.trustedProxies, err)
	}
	for _, tt := range []struct {
		flag rawFlag
		want string
	}{
		{rawFlag{"trusted-proxies", "10.0.0.1/8", true}, "--trusted-proxies: 10.0.0.1/8 has bits set past its /8; did you mean 10.0.0.0/8?"},
		{rawFlag{"allow-private-nets", "lan", true}, `--allow-private-nets: "lan" is neither a network in CIDR form (such as 10.0.0.0/8) nor an IP address`},
		{rawFlag{"max-conns-per-ip", "-1", true}, "--max-conns-per-ip must be 0 (no cap) or more"},
		{rawFlag{"max-conns-per-ip", "many", true}, `--max-conns-per-ip takes a whole number, not "many"`},
		{rawFlag{"metrics-listen", "9090", true}, `--metrics-listen "9090" is not HOST:PORT`},
		{rawFlag{"metrics-listen", "127.0.0.1:8080", true}, "--metrics-listen must differ from --listen: metrics are served apart from the API"},
	} {
		if _, err := parse(tt.flag); errString(err) != tt.want {
			t.Errorf("--%s=%s: %q, want %q", tt.flag.name, tt.flag.value, errString(err), tt.want)
		}
	}
}

// TestBaseURLWarning: the base URLs that lead nobody to the service are named, the usual
// ones are not.
func TestBaseURLWarning(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		listen, baseURL string
		warn            bool
	}{
		{"0.0.0.0:8095", "http://0.0.0.0:8095", true},
		{"[::]:8095", "http://[::]:8095", true},
		{":8095", "http://:8095", true},
		{"127.0.0.1:8080", "http://[::ffff:0.0.0.0]:8080", true},
		{"127.0.0.1:8080", "https://0.0.0.0", true},
		{"0.0.0.0:8080", "http://127.0.0.1:8080", true},
		{"[::]:8080", "http://localhost:8080", true},
		{"0.0.0.0:8080", "http://[::1]:8080", true},
		{"127.0.0.1:8080", "http://127.0.0.1:8080", false},
		{"localhost:8080", "http://localhost:8080", false},
		{"0.0.0.0:8080", "https://lokal.example.com", false},
		{"0.0.0.0:8080", "http://192.168.1.20:8080", false},
		{"127.0.0.1:8080", "https://lokal.example.com", false},
	} {
		got := baseURLWarning(tt.listen, tt.baseURL)
		if (got != "") != tt.warn {
			t.Errorf("listen %s, base URL %s: warning %q, want one: %t", tt.listen, tt.baseURL, got, tt.warn)
		}
		if got != "" && (!strings.Contains(got, tt.baseURL) || !strings.Contains(got, "--base-url")) {
			t.Errorf("listen %s, base URL %s: %q names neither the URL nor the flag", tt.listen, tt.baseURL, got)
		}
	}
}

// TestBuildVersion checks the version of a build without -ldflags -X: the module version
// or "devel", and the VCS stamp go build records or "unknown" (a test binary has none);
// TestVersion checks -X through the binary.
func TestBuildVersion(t *testing.T) {
	if version != "" || commit != "" {
		t.Fatalf("the test binary has -X version %q commit %q", version, commit)
	}
	v := buildVersion()
	if v.Go != runtime.Version() || v.Version == "" || v.Commit == "" {
		t.Errorf("buildVersion() = %+v", v)
	}
	var out bytes.Buffer
	if err := run(t.Context(), []string{"version"}, &out, &bytes.Buffer{}); err != nil || !strings.HasPrefix(out.String(), "lokal "+v.Version+" (commit "+v.Commit+", ") {
		t.Errorf("lokal version: %q (%v)", out.String(), err)
	}
}
