# lokal: `make run` serves on the embedded SQLite database, `make test` runs every test.
GO ?= go
LISTEN ?= 127.0.0.1:8080
DATABASE ?= sqlite:lokal.db

.PHONY: run build test race vet bench evals fmt

run:
	$(GO) run ./cmd/lokal serve --listen $(LISTEN) --database $(DATABASE)

build:
	$(GO) build -o bin/lokal ./cmd/lokal

# Tests run against SQLite always and PostgreSQL when LOKAL_TEST_POSTGRES is set
# (.ci/run sets it). -parallel 4: the tests wait on the databases and loopback HTTP more
# than on the CPUs (rest: 89 s at the default 2 on this 2-core machine, 41 s at 4).
# The race detector covers the packages with concurrency; -short skips there the tests
# that send one request at a time to a server of their own (the scenario tables, the
# 10,000-key sync, the 300-write default budget): the detector only sees what runs at
# once, and the tests it keeps start the same servers and run the same handlers, some
# concurrently. The first run covers those tests without -race.
TESTFLAGS ?= -count=1 -parallel 4

RACEPKGS = ./ai/... ./rest/... ./storage/... ./tools/... ./workflows/...

# The plain and the race runs go side by side: each waits on databases and loopback HTTP
# much of the time, so together they fill the two cores (3m15s in turn, about 2m30s so).
# The race run's output is held back and printed whole after the plain run's.
test: vet
	@race=$$(mktemp); \
	( $(GO) test $(TESTFLAGS) -race -short $(RACEPKGS) >$$race 2>&1; echo $$? >$$race.rc ) & \
	echo "go test $(TESTFLAGS) ./..."; $(GO) test $(TESTFLAGS) ./...; plain=$$?; wait; \
	echo "go test $(TESTFLAGS) -race -short $(RACEPKGS)"; cat $$race; race_rc=$$(cat $$race.rc); rm -f $$race $$race.rc; \
	test $$plain -eq 0 && test $$race_rc -eq 0

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (gofmt -l . && echo 'gofmt: files above need formatting' && exit 1)

# Benchmarks on this machine, loopback only; knobs in .ci/bench (BENCH_ONLY=read,sync,load,hooks,checkups
# picks parts: load is peak memory of concurrent big syncs and small writes during a big one).
bench:
	bash .ci/bench

# AI evals: recorded model answers replayed through the real ai pipeline; the table of
# placeholder integrity, terminology adherence, refusals and repairs prints at the end.
# With LOKAL_EVAL_BASE_URL, LOKAL_EVAL_MODEL and LOKAL_EVAL_API_KEY, `go test ./evals -update`
# records fresh answers from a live model.
evals:
	cd evals && $(GO) test -count=1 -run TestEvals

fmt:
	gofmt -w $$(git ls-files '*.go')
