# lokal: `make run` serves on the embedded SQLite database, `make test` runs every test.
GO ?= go
LISTEN ?= 127.0.0.1:8080
DATABASE ?= sqlite:lokal.db

.PHONY: run build test race vet bench fmt

run:
	$(GO) run ./cmd/lokal serve --listen $(LISTEN) --database $(DATABASE)

build:
	$(GO) build -o bin/lokal ./cmd/lokal

# Tests run against SQLite always and PostgreSQL when LOKAL_TEST_POSTGRES is set
# (.ci/run sets it); the race detector covers the packages with concurrency.
test: vet
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race -short ./rest/... ./storage/... ./tools/... ./workflows/...

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (gofmt -l . && echo 'gofmt: files above need formatting' && exit 1)

# Benchmarks on this machine, loopback only; knobs in .ci/bench (BENCH_ONLY=read,sync,load
# picks parts: load is peak memory of concurrent big syncs and small writes during a big one).
bench:
	bash .ci/bench

fmt:
	gofmt -w $$(git ls-files '*.go')
