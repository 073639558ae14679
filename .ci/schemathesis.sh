#!/usr/bin/env bash
# Schemathesis (pinned in .ci/requirements-schemathesis.txt) against the live
# server with a valid key and every check on: the spec and the server must
# agree on every response, auth must be enforced, invalid input rejected.
# No check is excluded.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv
if [ ! -x "$venv/bin/st" ] || ! "$venv/bin/pip" freeze 2>/dev/null | grep -qxF "$(cat .ci/requirements-schemathesis.txt)"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r .ci/requirements-schemathesis.txt
fi

cargo build --quiet -p petstore-server
work=$(mktemp -d)
out="$work/stdout"
target/debug/petstore-server serve --demo --bind 127.0.0.1:0 --database "$work/petstore.db" >"$out" 2>"$work/stderr" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

for _ in $(seq 100); do
  grep -q 'curl -X DELETE' "$out" 2>/dev/null && break
  sleep 0.1
done
base=$(sed -n 's/^Serving //p' "$out" | head -n 1)
key=$(grep -o 'psk_[0-9]*_[0-9a-f]*' "$out" | head -n 1)
[ -n "$base" ] && [ -n "$key" ] || { echo "the server did not start:"; cat "$work/stderr"; exit 1; }

"$venv/bin/st" run openapi/petstore.yaml \
  --url "$base" \
  --header "Authorization: Bearer $key" \
  --checks all \
  --max-examples 100 \
  --seed 1
