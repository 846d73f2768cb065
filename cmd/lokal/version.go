package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version and commit are set at link time by release builds:
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=$(git rev-parse HEAD)" ./cmd/lokal
//
// Left empty, they come from the module version and the VCS stamp that go build records.
var version, commit string

// Version is what `lokal version` prints.
type Version struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Go      string `json:"go"`
}

func buildVersion() Version {
	v := Version{Version: version, Commit: commit, Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if v.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v.Version = info.Main.Version
		}
		if v.Commit == "" {
			var rev string
			var dirty bool
			for _, s := range info.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					dirty = s.Value == "true"
				}
			}
			if rev != "" && dirty {
				rev += "-dirty"
			}
			v.Commit = rev
		}
	}
	if v.Version == "" {
		v.Version = "devel"
	}
	if v.Commit == "" {
		v.Commit = "unknown"
	}
	return v
}

func runVersion(context.Context, *call) (any, string, error) {
	v := buildVersion()
	return v, fmt.Sprintf("lokal %s (commit %s, %s)", v.Version, v.Commit, v.Go), nil
}
