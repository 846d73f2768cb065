package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// BenchmarkPull: `lokal pull` (the binary, as CI runs it) of 20 namespaces x 5 languages
// when nothing changed since the last pull: one conditional GET per file, each a 304, and
// no file written, in json and in properties (whose files pull merges into, the first pull
// making the languages' files from the source's). Reports the requests and the CPU time of
// the pull process per run.
//
//	go test ./cmd/lokal -run '^$' -bench BenchmarkPull
func BenchmarkPull(b *testing.B) {
	for _, format := range []string{"json", "properties"} {
		b.Run(format, func(b *testing.B) { benchmarkPull(b, format) })
	}
}

func benchmarkPull(b *testing.B, format string) {
	storagetest.ForEachDialectInOrder(b, func(b *testing.B, dialect string) {
		const namespaces, keys = 20, 50
		langs := []string{"de", "fr", "nb", "sv"}
		dsn := storagetest.DSN(b, dialect)
		addr := startServe(b, dsn).addr
		project, key := benchProject(b, dsn, langs)
		for n := range namespaces {
			ns := fmt.Sprintf("ns%02d", n)
			src := map[string]string{}
			for k := range keys {
				src[fmt.Sprintf("section.key_%d", k)] = fmt.Sprintf("Source text %d of %s", k, ns)
			}
			benchPut(b, addr, key, "/api/sync/"+project+"/latest/en/"+ns, src)
			for _, l := range langs {
				tr := map[string]string{}
				for k, v := range src {
					tr[k] = l + ": " + v
				}
				benchPut(b, addr, key, "/api/overwrite/"+project+"/latest/"+l+"/"+ns, tr)
			}
		}
		dir := b.TempDir()
		yaml := "server: http://" + addr + "\nproject: " + project + "\nfiles:\n  - path: locales/{language}/{namespace}." + format + "\n    format: " + format + "\n"
		if err := os.WriteFile(filepath.Join(dir, "lokal.yaml"), []byte(yaml), 0o644); err != nil {
			b.Fatal(err)
		}
		env := []string{"LOKAL_API_KEY=" + key}
		if p, _ := benchPull(b, dir, env); p.Summary.Files != namespaces*5 || p.Summary.Created != namespaces*5 {
			b.Fatalf("first pull: %+v, want %d files created", p.Summary, namespaces*5)
		}
		var cpu time.Duration
		runs := 0
		for b.Loop() {
			p, used := benchPull(b, dir, env)
			if p.Summary.NotModified != namespaces*5 || p.Summary.Written != 0 {
				b.Fatalf("pull with nothing changed: %+v, want %d not modified", p.Summary, namespaces*5)
			}
			cpu += used
			runs++
		}
		b.ReportMetric(float64(namespaces*5), "304s/op")
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(runs), "cpu-ms/op")
	})
}

// benchPull runs lokal pull --json in dir and returns its answer and the process's CPU time.
func benchPull(b *testing.B, dir string, env []string) (pullJSON, time.Duration) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lokalBin, "pull", "--json")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("lokal pull: %v: %s", err, stderr.String())
	}
	var p pullJSON
	if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
		b.Fatalf("lokal pull --json: %v", err)
	}
	return p, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// benchProject makes a workspace, a project (source en, langs enabled) and a read/write key
// with the CLI on the server's database.
func benchProject(tb testing.TB, dsn string, langs []string) (project, key string) {
	tb.Helper()
	cli := func(fields string, args ...string) string {
		res := lokalAt(tb, tb.TempDir(), nil, "", append(args, "--json", "--database", dsn)...)
		var obj map[string]any
		if res.code != 0 || json.Unmarshal([]byte(res.stdout), &obj) != nil {
			tb.Fatalf("lokal %s: %d %s", strings.Join(args, " "), res.code, res.stderr)
		}
		s, _ := obj[fields].(string)
		return s
	}
	ws := cli("id", "workspace", "create", "--name", "Bench")
	project = cli("id", "project", "create", "--workspace", ws, "--title", "Pull", "--source", "en", "--languages", strings.Join(langs, ","))
	return project, cli("key", "key", "create", "--project", project)
}

func benchPut(tb testing.TB, addr, key, path string, m map[string]string) {
	tb.Helper()
	body, _ := json.Marshal(m)
	req, _ := http.NewRequest(http.MethodPut, "http://"+addr+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("PUT %s: %v", path, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		tb.Fatalf("PUT %s: %d", path, res.StatusCode)
	}
}
