# lokal: `make run` serves on the embedded SQLite database, `make test` runs every test,
# `make install` puts lokal on the PATH.
GO ?= go
SHELL := /bin/bash

# `make run LISTEN=... DATABASE=... BASE_URL=...` pass those flags to lokal serve; unset,
# no flag is passed, so LOKAL_LISTEN, LOKAL_DATABASE and LOKAL_BASE_URL (or serve's
# defaults, 127.0.0.1:8080 and sqlite:lokal.db) apply: a flag would win over them.
LISTEN ?=
DATABASE ?=
BASE_URL ?=
SERVEFLAGS = $(if $(LISTEN),--listen $(LISTEN)) $(if $(DATABASE),--database $(DATABASE)) $(if $(BASE_URL),--base-url $(BASE_URL))

# lokal version reports the commit stamped here: go build finds none in a worktree (its
# .git is a file) or an export. -dirty marks changes not committed.
COMMIT ?= $(shell c=$$(git rev-parse HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null || c=$$c-dirty; echo $$c; })
LDFLAGS = $(if $(COMMIT),-X main.commit=$(COMMIT))

.PHONY: run build install docker test test-long vet bench evals fmt

# Built first, then run: go run would compile for minutes on a cold cache without a word.
run: build
	./bin/lokal serve $(SERVEFLAGS)

# -v lists the packages as they compile (nothing when they are cached).
build:
	@echo "==> $(GO) build -o bin/lokal ./cmd/lokal (minutes on a cold cache)"
	@set -o pipefail; $(GO) build -v -ldflags "$(LDFLAGS)" -o bin/lokal ./cmd/lokal 2>&1 | sed -u "s/^/build | /"

# go install puts the binary in $(go env GOBIN), or $(go env GOPATH)/bin when GOBIN is
# empty (~/go/bin by default); that directory must be on the PATH.
install:
	@dir=$$($(GO) env GOBIN); dir=$${dir:-$$($(GO) env GOPATH)/bin}; \
	echo "==> $(GO) install ./cmd/lokal: $$dir/lokal"; \
	$(GO) install -ldflags "$(LDFLAGS)" ./cmd/lokal || exit 1; \
	case ":$$PATH:" in *":$$dir:"*) echo "lokal is on the PATH: $$(command -v lokal)";; \
	*) echo "$$dir is not on the PATH: add it, e.g. export PATH=\"\$$PATH:$$dir\"";; esac

# The image stamps the version and the commit: its build context has no .git to read them from.
docker:
	docker build --build-arg VERSION=$$(git describe --tags --always --dirty) --build-arg COMMIT=$(COMMIT) -t lokal .

# Tests run against SQLite always and PostgreSQL when LOKAL_TEST_POSTGRES is set
# (.ci/run sets it). -parallel 4: the tests wait on the databases and loopback HTTP more
# than on the CPUs (rest: 89 s at the default 2 on this 2-core machine, 41 s at 4).
# -timeout 30m: a package's default 10 minutes is short for rest under -race on a busy machine.
TESTFLAGS ?= -count=1 -parallel 4 -timeout 30m

# The race run takes the tests whose subject is concurrency: the detector only reports a
# race between goroutines that actually ran at once, and every other test sends one
# request or makes one write at a time, which the plain run covers: raced too, they cost
# 110 CPU-s (a quarter of the tests' own, before their databases' work) for code with
# nothing beside it but the poller. RACERUN names, in RACEPKGS:
#   - storage: Close with background work and writes in flight (TestBackgroundStopsAtClose,
#     TestSQLiteWritesReadsAndClose: SQLite's writer queue and WAL checkpoints), writers
#     and readers of one cached file (TestCachedPatchReadsAfterWrites), checkpoints under
#     steady writes, a yield to a waiting writer, statistics waiting for a chunked write,
#     the shared and in-memory limiters, the cache following another process, job leases,
#     the trigram indexes merged in the background after writes;
#   - rest: many clients writing at once (TestAPIConcurrentWrites), two instances on one
#     database (TestAPIInstances, TestAPIInstancesShareTheWriteBudget), REST and MCP on
#     one write budget, bodies in flight and trickled bodies cut off (the body guard's
#     goroutines), a deploy hook dialled from its own goroutine, a hung model;
#   - tools: chunked writes beside other projects' writes and other processes, checkups
#     waiting for them and cancelled, readers running beside writes on one server and
#     across two, project locks taking turns, a recount racing a write, the exports'
#     queue of cold fills (coalesced, bounded, full);
#   - workflows: the worker's loops and lease renewal, checkup jobs claimed at once, dead
#     workers' jobs and deliveries leased again, a slow receiver beside others;
#   - and any test named for concurrency (Concurren, Coalesc, AtOnce, Race): name a new
#     concurrent test so, or add it here.
# RACEWHOLE, small packages with goroutines of their own (the AI client's concurrency
# bound, storagetest's shared pool, the outbound guard, the body budget, the middleware),
# is raced whole. Pure packages (tools/message, formats, checkup, ...) and the editor's
# pages, which submit forms one at a time to the catalogue's handlers, are left out.
# -short still skips the long sequential tests that match a name here.
RACEPKGS = ./storage ./rest ./tools ./workflows
RACERUN = ^(TestBackgroundStopsAtClose|TestSQLiteWritesReadsAndClose|TestCachedPatchReadsAfterWrites|TestSQLiteWALStartsOverUnderSteadyWrites|TestYieldToWritersLetsAWaitingWriteIn|TestStatisticsWaitForChunkedWrite|TestSharedLimiter|TestMemoryLimiterOnSQLite|TestCacheFollowsOtherProcesses|TestJobsLeaseAndRetry|TestAPIInstances|TestAPIInstancesShareTheWriteBudget|TestWriteLimitSharedByRESTAndMCP|TestBodyBytesInFlight|TestSlowBodyIsCutOff|TestSlowBodyEndsConnection|TestRedeployGuardAtDialTime|TestRetranslateWithAHungModel|TestChunkedWriteLetsOtherProjectsWrite|TestChunkedWriteSeesWritesOfAnotherProcess|TestChunkedWriteIsInFlight|TestCheckupWaitsForChunkedWrite|TestCheckupCancelled|TestReadNamespaceReadsOwnWrites|TestReadNamespaceOtherServerAfterPoll|TestProjectLocksTakeTurnsPerProject|TestCheckupJobsOneRunsOneWaits|TestAutoTranslateJobOfADeadWorker|TestAutoTranslateBatchOfADeadWorkerAfterASplit|TestRenewedLeaseKeepsAJob|TestSlowReceiverDoesNotStarveOthers|TestLeasedDeliveryResumes|TestExportColdFillsBounded|TestExportQueueFull|TestTrigramSegmentsMergedAfterWrites|TestTrigramPendingListsMergedAfterWrite|Test.*(Concurren|Coalesc|AtOnce|Race).*)$$
RACEWHOLE = ./ai ./storage/storagetest ./tools/outbound ./rest/reqbody ./rest/httpx
#
# The race run takes each test once, on PostgreSQL (RACEDIALECTS), not on both databases:
# the detector watches our goroutines (handlers, hooks, caches, workers), and they are the
# same on either database, while SQLite's engine is Go code (modernc.org/sqlite) that -race
# instruments whole. What is SQLite's own (the writer queue, background WAL checkpoints,
# Close with writes in flight) is raced by the tests above that name SQLite. The plain run
# still runs every test on both databases. Without LOKAL_TEST_POSTGRES the race run takes
# SQLite, rather than skip.
RACEDIALECTS ?= $(if $(LOKAL_TEST_POSTGRES),postgres,sqlite)

# The plain run lists the long packages first, and runs three at a time (-p 3, go test's
# default being the two CPUs): like their tests, the packages wait on the databases, loopback
# HTTP and Chromium more than they compute, and listed first the long ones (rest, tools,
# cmd/lokal, the editor's browser tests) start at once instead of after the short ones.
# Not four: four packages beside the race run's two took more than the 100 connections
# of a default PostgreSQL server.
PLAINPKGS = ./rest ./tools ./cmd/lokal ./rest/app ./storage ./public ./workflows ./...
PLAINP ?= 3

# .ci/test runs the plain and the race runs side by side (each waits on databases and
# loopback HTTP much of the time, so together they fill the two cores), streaming each
# package's lines as it ends (go test -json through .ci/testlines.go) with a "test |" or
# "race |" prefix, go vet beside the race run once the plain run has compiled what it
# needs, and a progress line every 30 s. It ends with the slowest tests, then go test's
# closing lines of both runs, and fails when anything failed.
test:
	@GO="$(GO)" TESTFLAGS="$(TESTFLAGS)" RACEPKGS="$(RACEPKGS)" RACERUN='$(RACERUN)' RACEWHOLE="$(RACEWHOLE)" \
		RACEDIALECTS="$(RACEDIALECTS)" PLAINPKGS="$(PLAINPKGS)" PLAINP="$(PLAINP)" bash .ci/test

# The tests marked storagetest.Long (seconds each by design: hundreds of requests one at a
# time, a server killed and restarted, budgets waited out), with LOKAL_TEST_LONG=1. CI
# runs it after make test.
test-long:
	@GO="$(GO)" TESTFLAGS="$(TESTFLAGS)" bash .ci/test --long

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (gofmt -l . && echo 'gofmt: files above need formatting' && exit 1)

# Benchmarks on this machine, loopback only; knobs in .ci/bench (BENCH_ONLY=read,sync,load,hooks,checkups,scale,formats,incontext
# picks parts: load is peak memory of concurrent big syncs and small writes during a big one;
# scale is issue 19's table at BENCH_SCALE_KEYS keys, 100,000 by default, 1,000,000 with BENCH_FULL=1;
# formats is the codecs, 10,000-key PO and xcstrings files through import/export, and pull).
bench:
	bash .ci/bench

# AI evals: recorded model answers replayed through the real ai pipeline; the table per
# family (stored intact, refused correctly, wrongly stored, wrongly refused) prints at the end.
# With LOKAL_EVAL_BASE_URL, LOKAL_EVAL_MODEL and LOKAL_EVAL_API_KEY, `go test ./evals -update`
# records fresh answers from a live model.
evals:
	cd evals && $(GO) test -count=1 -run TestEvals

fmt:
	gofmt -w $$(git ls-files '*.go')
