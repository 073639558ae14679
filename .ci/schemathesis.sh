#!/usr/bin/env bash
# Schemathesis (pinned in .ci/requirements-schemathesis.txt) with every check
# on, against four live servers: the service (openapi/petstore.yaml, and
# openapi/v2/petstore.yaml from the same process) with a valid key, the
# kitchen sink (tests/fixtures/kitchen-sink.yaml), whose
# negative data proves the generated layer's validation, the 3.1 kitchen
# sink (tests/fixtures/kitchen-sink-31.yaml), whose data follows JSON
# Schema 2020-12, and the Swagger
# Petstore v3 exactly as published (a spec we did not write: JSON, form and
# XML bodies, OAuth2 and an API key). The spec and the
# server must agree on every response, auth must be enforced, invalid input
# rejected. No check is excluded.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv
if [ ! -x "$venv/bin/st" ] || ! "$venv/bin/pip" freeze 2>/dev/null | grep -qxF "$(cat .ci/requirements-schemathesis.txt)"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r .ci/requirements-schemathesis.txt
fi
# CI installs while Rust builds (.ci/run), and runs the checks later.
[ "${1:-}" = "--install-only" ] && exit 0

cargo build --quiet -p petstore-server -p kitchen-sink -p kitchen-sink-31 -p swagger-petstore
work=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# Waits for a server's "Serving <url>" line in $1; prints the URL.
serving() {
  for _ in $(seq 100); do
    grep -q '^Serving ' "$1" 2>/dev/null && break
    sleep 0.1
  done
  sed -n 's/^Serving //p' "$1" | head -n 1
}

echo "-- the service (openapi/petstore.yaml)"
target/debug/petstore-server serve --demo --bind 127.0.0.1:0 --database "$work/petstore.db" >"$work/petstore.out" 2>"$work/petstore.err" &
pids+=($!)
for _ in $(seq 100); do
  grep -q 'curl -X DELETE' "$work/petstore.out" 2>/dev/null && break
  sleep 0.1
done
base=$(serving "$work/petstore.out")
key=$(grep -o 'psk_[0-9]*_[0-9a-f]*' "$work/petstore.out" | head -n 1)
[ -n "$base" ] && [ -n "$key" ] || { echo "the server did not start:"; cat "$work/petstore.err"; exit 1; }

"$venv/bin/st" --config-file .ci/schemathesis-v1.toml run openapi/petstore.yaml \
  --url "$base" \
  --header "Authorization: Bearer $key" \
  --checks all \
  --max-examples 100 \
  --seed 1

echo "-- version 2 (openapi/v2/petstore.yaml), served by the same process"
v2base=$(sed -n 's/^Serving //p' "$work/petstore.out" | grep '/v2$' | head -n 1)
[ -n "$v2base" ] || { echo "the server does not say where it serves /v2"; exit 1; }
"$venv/bin/st" --config-file .ci/schemathesis-v2.toml run openapi/v2/petstore.yaml \
  --url "$v2base" \
  --header "Authorization: Bearer $key" \
  --checks all \
  --max-examples 100 \
  --seed 1

echo "-- the kitchen sink (tests/fixtures/kitchen-sink.yaml)"
sink_key="sink-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
KITCHEN_SINK_KEY="$sink_key" target/debug/kitchen-sink-server --bind 127.0.0.1:0 >"$work/sink.out" 2>"$work/sink.err" &
pids+=($!)
sink=$(serving "$work/sink.out")
[ -n "$sink" ] || { echo "the kitchen sink did not start:"; cat "$work/sink.err"; exit 1; }

# Its one operation secured by an API-key header takes the same key.
"$venv/bin/st" --config-file .ci/schemathesis-kitchen-sink.toml run tests/fixtures/kitchen-sink.yaml \
  --url "$sink" \
  --header "Authorization: Bearer $sink_key" \
  --header "X-API-Key: $sink_key" \
  --checks all \
  --max-examples 100 \
  --seed 1

echo "-- the 3.1 kitchen sink (tests/fixtures/kitchen-sink-31.yaml, OpenAPI 3.1)"
sink31_key="sink31-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
KITCHEN_SINK_31_KEY="$sink31_key" target/debug/kitchen-sink-31 --bind 127.0.0.1:0 >"$work/sink31.out" 2>"$work/sink31.err" &
pids+=($!)
sink31=$(serving "$work/sink31.out")
[ -n "$sink31" ] || { echo "the 3.1 kitchen sink did not start:"; cat "$work/sink31.err"; exit 1; }
"$venv/bin/st" --config-file .ci/schemathesis-kitchen-sink-31.toml run tests/fixtures/kitchen-sink-31.yaml \
  --url "$sink31" \
  --header "Authorization: Bearer $sink31_key" \
  --checks all \
  --max-examples 100 \
  --seed 1

echo "-- the Swagger Petstore v3 (tests/fixtures/corpus/swagger-petstore-v3__openapi.yaml)"
token="token-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
store_key="key-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
SWAGGER_PETSTORE_TOKEN="$token" SWAGGER_PETSTORE_KEY="$store_key" \
  target/debug/swagger-petstore-server --bind 127.0.0.1:0 >"$work/store.out" 2>"$work/store.err" &
pids+=($!)
store=$(serving "$work/store.out")
[ -n "$store" ] || { echo "the Swagger Petstore did not start:"; cat "$work/store.err"; exit 1; }

# OAuth2 (petstore_auth, every scope) and the api_key header, both sent.
"$venv/bin/st" --config-file .ci/schemathesis-swagger-petstore.toml run tests/fixtures/corpus/swagger-petstore-v3__openapi.yaml \
  --url "$store" \
  --header "Authorization: Bearer $token" \
  --header "api_key: $store_key" \
  --checks all \
  --max-examples 100 \
  --seed 1
