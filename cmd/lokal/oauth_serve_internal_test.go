package main

import (
	"reflect"
	"testing"
)

// TestParseServeOAuth: the redirect hosts default to the connectors people use, take a
// list or nothing (loopback only), refuse URLs for hosts; dynamic registration is off
// unless turned on, by flag or environment.
func TestParseServeOAuth(t *testing.T) {
	serveCmd, _ := lookup([]string{"serve"})
	parse := func(flags ...rawFlag) (serveConfig, error) {
		in, err := bind(serveCmd, flags)
		if err != nil {
			return serveConfig{}, err
		}
		return parseServeConfig(in)
	}
	cfg, err := parse()
	if err != nil || cfg.oauthRegister || !reflect.DeepEqual(cfg.oauthRedirects, []string{"claude.ai", "claude.com", "chatgpt.com", "vscode.dev", "insiders.vscode.dev"}) {
		t.Errorf("defaults: %v %v, %v", cfg.oauthRedirects, cfg.oauthRegister, err)
	}
	cfg, err = parse(rawFlag{"oauth-redirect-hosts", "Claude.AI, example.com", true}, rawFlag{"oauth-dynamic-registration", "true", true})
	if err != nil || !cfg.oauthRegister || !reflect.DeepEqual(cfg.oauthRedirects, []string{"claude.ai", "example.com"}) {
		t.Errorf("given: %v %v, %v", cfg.oauthRedirects, cfg.oauthRegister, err)
	}
	if cfg, err := parse(rawFlag{"oauth-redirect-hosts", "", true}); err != nil || cfg.oauthRedirects == nil || len(cfg.oauthRedirects) != 0 {
		t.Errorf("empty list: %#v, %v; want loopback only (an empty, non-nil list)", cfg.oauthRedirects, err)
	}
	for _, bad := range []string{"https://claude.ai/", "claude.ai:443", "*.example.com", "a/b"} {
		if _, err := parse(rawFlag{"oauth-redirect-hosts", bad, true}); err == nil {
			t.Errorf("--oauth-redirect-hosts=%s accepted", bad)
		}
	}
	t.Setenv("LOKAL_OAUTH_DYNAMIC_REGISTRATION", "true")
	if cfg, err := parse(); err != nil || !cfg.oauthRegister {
		t.Errorf("LOKAL_OAUTH_DYNAMIC_REGISTRATION=true: %v, %v", cfg.oauthRegister, err)
	}
}
