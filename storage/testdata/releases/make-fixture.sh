#!/usr/bin/env bash
# make-fixture.sh NAME COMMIT: writes storage/testdata/releases/NAME/{sqlite,postgres}.txt,
# the database a release of lokal created and filled, for the migration tests.
#
# It builds the release in a worktree under $TMPDIR (never inside this repository), lets
# its `lokal serve` create a fresh SQLite file and a fresh PostgreSQL database, seeds rows
# through the release's CLI and MCP endpoint (the commands it lacks are skipped), and dumps
# the result with storage/internal/dbdump/dumpdb of this tree.
#
# Run from the repository root with LOKAL_TEST_POSTGRES set, e.g.
#   LOKAL_TEST_POSTGRES=postgres://postgres@127.0.0.1:5432/lokal_test?sslmode=disable \
#     storage/testdata/releases/make-fixture.sh stop13 2d72742
set -euo pipefail

name=$1 commit=$2
: "${LOKAL_TEST_POSTGRES:?set LOKAL_TEST_POSTGRES to a PostgreSQL DSN}"
root=$(pwd)
out=$root/storage/testdata/releases/$name
work=$(mktemp -d "${TMPDIR:-/tmp}/lokal-release-$name.XXXXXX")
tree=$work/src
serve_pid=
pgname=lokal_release_$name

cleanup() {
	if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
	psql "$LOKAL_TEST_POSTGRES" -qc "DROP DATABASE IF EXISTS $pgname WITH (FORCE)" >/dev/null 2>&1 || true
	git -C "$root" worktree remove --force "$tree" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

git -C "$root" worktree add --detach "$tree" "$commit" >/dev/null
(cd "$tree" && go build -o "$work/lokal" ./cmd/lokal)
go build -o "$work/dumpdb" ./storage/internal/dbdump/dumpdb
mkdir -p "$out"

# A fixed key: the fixtures' sealed values open with the key the tests use (32 zero bytes).
export LOKAL_SECRET_KEY=0000000000000000000000000000000000000000000000000000000000000000
export LOKAL_ALLOW_PRIVATE_NETS=127.0.0.0/8
has() { "$work/lokal" --help 2>&1 | grep -q "^  $1 "; }
cli() { "$work/lokal" "$@" --database "$dsn"; }
json() { cli "$@" --json; }

seed() {
	local port=$1 ws user p p2 rw pat hook
	ws=$(json workspace create --name Acme | jq -r .id)
	user=$(json user create --workspace "$ws" --email dev@acme.test | jq -r .id)
	p=$(json project create --workspace "$ws" --title "Web app" --source en --languages nb,sv | jq -r .id)
	p2=$(json project create --workspace "$ws" --title Docs --source en --languages de | jq -r .id)
	rw=$(json key create --project "$p" | jq -r .key)
	json key create --project "$p" --read-only >/dev/null
	pat=$(json token create --user "$user" --project "$p" | jq -r .token)
	json token create --user "$user" --workspace "$ws" >/dev/null
	if has "term add"; then
		json term add --project "$p" --source Cart --target Handlekurv --locale nb >/dev/null
		json term add --project "$p" --dnt Acme >/dev/null
	fi
	if has "substitution add"; then json substitution add --project "$p" --from "e-post" --to "epost" --locale nb >/dev/null; fi
	if has "ai set"; then
		echo sk-test-key | json ai set --workspace "$ws" --base-url http://127.0.0.1:9/v1 --model test-model --api-key-stdin >/dev/null
		json ai set --project "$p" --instructions "Short and friendly." >/dev/null
	fi
	if has "workspace set"; then json workspace set --workspace "$ws" --authorized-hosts "shop.example,*.acme.test" --host-limit 5 >/dev/null; fi
	if has "project set"; then json project set --project "$p" --hosts shop.example >/dev/null 2>&1 || true; fi
	if has "webhook add"; then json webhook add --project "$p" --url http://127.0.0.1:9/hook >/dev/null; fi
	if has "redeploy set"; then json redeploy set --project "$p2" --provider hook --url http://127.0.0.1:9/deploy/plain-secret >/dev/null; fi
	if has "user passwd"; then echo "correct horse battery" | json user passwd --user "$user" --password-stdin >/dev/null; fi

	mcp() {
		local answer
		answer=$(curl -sf -H "Authorization: Bearer $pat" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
			-d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"$1\",\"arguments\":$2}}" \
			"http://127.0.0.1:$port/api/$p/mcp")
		if ! jq -e '.result.isError != true' >/dev/null <<<"$answer"; then echo "$1: $answer" >&2; return 1; fi
	}
	mcp register_source_strings '{"namespace_key":"common","strings":{"cart.title":"Your cart","cart.empty":"Your cart is empty","greeting":"Hello, {name}!"}}'
	mcp update_translation '{"namespace_key":"common","translation_key":"cart.title","language":"nb","value":"Handlekurven din"}'
	mcp update_translation '{"namespace_key":"common","translation_key":"greeting","language":"nb","value":"Hei, {name}!","status":"approved"}'
	mcp set_translation_status '{"namespace_key":"common","translation_key":"cart.title","language":"nb","status":"approved"}'
	mcp flag_translation '{"namespace_key":"common","translation_key":"greeting","language":"nb","flag":"language_locked","value":true}'
	mcp add_comment '{"namespace_key":"common","translation_key":"cart.title","language":"nb","body":"Bokmål, not nynorsk"}'
	mcp add_key '{"namespace_key":"common","translation_key":"checkout.pay","source_value":"Pay now"}'
	mcp add_glossary_term '{"source_term":"Checkout","target_term":"Kasse","locale":"nb"}'
	curl -sf -H "Authorization: Bearer $rw" -H 'Content-Type: application/json' -d '{"footer.about":"About us"}' \
		"http://127.0.0.1:$port/api/missing/$p/latest/en/common" >/dev/null
	# What only some releases have, and may refuse for want of a real provider or hook:
	# each leaves rows (usage, a failed attempt) when the release has them.
	mcp ai_translate_keys '{"namespace_key":"common","translation_keys":["cart.empty"],"target_lang":"sv"}' 2>/dev/null || true
	p2key=$(json key create --project "$p2" | jq -r .key)
	curl -s -o /dev/null -X POST -H "Authorization: Bearer $p2key" "http://127.0.0.1:$port/api/$p2/redeploy" || true
	json checkup --project "$p" >/dev/null
	# A change after the checkup: queued for the next one.
	mcp update_translation '{"namespace_key":"common","translation_key":"cart.empty","language":"nb","value":"Handlekurven er tom"}'
}

for dialect in sqlite postgres; do
	if [ "$dialect" = sqlite ]; then
		dsn=sqlite:$work/lokal.db
	else
		psql "$LOKAL_TEST_POSTGRES" -qc "DROP DATABASE IF EXISTS $pgname WITH (FORCE)" -c "CREATE DATABASE $pgname" >/dev/null
		dsn=$(echo "$LOKAL_TEST_POSTGRES" | sed -E "s#/[^/?]+(\?|$)#/$pgname\1#")
	fi
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	"$work/lokal" serve --listen "127.0.0.1:$port" --database "$dsn" >"$work/serve.log" 2>&1 &
	serve_pid=$!
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
	seed "$port"
	kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=
	"$work/dumpdb" -database "$dsn" >"$out/$dialect.txt"
done
echo "$commit" >"$out/commit"
echo "wrote $out"
