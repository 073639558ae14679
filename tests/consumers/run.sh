#!/usr/bin/env bash
# Consumers of version 2 outside Rust, and the spec linters, as CI runs them
# (.ci/run). Every tool is pinned: npm's in package-lock.json, Python's in
# python/requirements.lock; both are installed from those files on first
# use (into node_modules and .venv here, both ignored by git).
#
# 1. Spectral (spectral:oas) and Redocly (recommended, redocly.yaml) lint
#    both specs: 0 warnings, 0 errors.
# 2. From each version's spec: a Python client (openapi-python-client),
#    TypeScript types (openapi-typescript, used through openapi-fetch) and
#    an SDK (@hey-api/openapi-ts) are generated, with no warning.
# 3. Each is type-checked strictly (mypy --strict, tsc --strict) together
#    with a consumer program, which then runs against a live server of its
#    own (a fresh SQLite file). Version 2's walk every page with filters
#    (and the Link header), cancel through v2 and see it in v1, and get the
#    typed Problem for 400, 401, 404 and 409 (python/consumer.py,
#    typescript/check.ts); version 1's list, cancel and see it in v2, read
#    a pet, and get the typed Error for 401, 404 and 409
#    (python/consumer_v1.py, typescript/check-v1.ts).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
v1_spec="$root/openapi/petstore.yaml"
v2_spec="$root/openapi/v2/petstore.yaml"
specs=("$v1_spec" "$v2_spec")

echo "-- installing the pinned tools"
if ! npm ls --silent >/dev/null 2>&1; then
  npm ci --no-audit --no-fund --loglevel=error
fi
venv="$here/.venv"
if [ ! -x "$venv/bin/openapi-python-client" ] || ! "$venv/bin/pip" freeze 2>/dev/null | diff -q - <(grep -v '^#' python/requirements.lock) >/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r python/requirements.lock
fi
# CI installs while Rust builds (.ci/run), and runs the checks later.
[ "${1:-}" = "--install-only" ] && exit 0
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

# Runs a generator or linter; fails when it says "warning" anywhere.
no_warnings() {
  local what="$1"
  shift
  local out
  out="$("$@" 2>&1)" || { echo "$out"; echo "FAILED: $what"; return 1; }
  echo "$out"
  if grep -qiE 'warning|warn\b' <<<"$out"; then
    echo "FAILED: $what printed a warning"
    return 1
  fi
}

echo "-- Spectral (spectral:oas) and Redocly (recommended) on both specs"
for spec in "${specs[@]}"; do
  # --fail-severity=hint: a warning, an info or a hint fails too.
  npx spectral lint --ruleset .spectral.yaml --fail-severity=hint "$spec"
  # Its totals, read from its JSON report (its banners are not problems).
  report="$(npx redocly lint --config redocly.yaml --format=json "$spec" 2>/dev/null)" || true
  node -e '
    const { totals, problems } = JSON.parse(process.argv[1]);
    for (const p of problems) console.log(`${p.severity} ${p.ruleId}: ${p.message}`);
    console.log(`redocly ${process.argv[2]}: ${totals.errors} errors, ${totals.warnings} warnings`);
    process.exit(totals.errors + totals.warnings === 0 ? 0 : 1);
  ' "$report" "$spec"
done

echo "-- generating the clients (no warning allowed)"
rm -rf python/generated typescript/generated typescript/dist
# ruff (pinned) formats the Python client, openapi-python-client's default
# post-hook; its `check --fix` hook is left out (python/openapi-python-client.yaml).
PATH="$venv/bin:$PATH" no_warnings openapi-python-client "$venv/bin/openapi-python-client" generate \
  --path "$v2_spec" --output-path python/generated/petstore_v2 --meta none \
  --config python/openapi-python-client.yaml
PATH="$venv/bin:$PATH" no_warnings "openapi-python-client (v1)" "$venv/bin/openapi-python-client" generate \
  --path "$v1_spec" --output-path python/generated/petstore_v1 --meta none \
  --config python/openapi-python-client-v1.yaml
no_warnings openapi-typescript npx openapi-typescript "$v2_spec" -o typescript/generated/openapi-typescript/v2.d.ts
no_warnings "openapi-typescript (v1)" npx openapi-typescript "$v1_spec" -o typescript/generated/openapi-typescript/v1.d.ts
# Both versions' SDKs (hey-api.config.mjs).
no_warnings "@hey-api/openapi-ts" npx openapi-ts -f hey-api.config.mjs

echo "-- type checks: mypy --strict, tsc --strict"
(cd python && MYPYPATH=generated "$venv/bin/mypy" --strict --no-incremental \
  consumer.py consumer_v1.py generated/petstore_v2 generated/petstore_v1)
npx tsc -p typescript

echo "-- the consumers against live servers"
cargo build --quiet -p petstore-server --manifest-path "$root/Cargo.toml"
server="$root/target/debug/petstore-server"
work=$(mktemp -d)
pids=()
trap 'for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$work"' EXIT
# 4 pets; 120 orders, pet (id-1)%4+1, every fifth shipped.
python3 - >"$work/data.json" <<'PY'
import json
orders = [
    {"id": i, "petId": (i - 1) % 4 + 1, "quantity": 1 + i % 3,
     "status": "shipped" if i % 5 == 0 else "pending", "complete": i % 5 == 0,
     "shipDate": f"2026-12-{i % 28 + 1:02d}T09:00:00Z"}
    for i in range(1, 121)
]
pets = [{"id": p, "name": f"pet {p}"} for p in range(1, 5)]
print(json.dumps({"pets": pets, "orders": orders}))
PY

# Starts a server on a fresh database with the data; sets v1, v2 and key.
start_server() {
  local name="$1"
  "$server" import "$work/data.json" --database "$work/$name.db" >/dev/null
  "$server" serve --demo --bind 127.0.0.1:0 --database "$work/$name.db" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do
    grep -q 'curl -X DELETE' "$work/$name.out" 2>/dev/null && break
    sleep 0.1
  done
  v1=$(sed -n 's/^Serving //p' "$work/$name.out" | grep '/v1$' | head -n 1)
  v2=$(sed -n 's/^Serving //p' "$work/$name.out" | grep '/v2$' | head -n 1)
  key=$(grep -o 'psk_[0-9]*_[0-9a-f]*' "$work/$name.out" | head -n 1)
  [ -n "$v1" ] && [ -n "$v2" ] && [ -n "$key" ] || { echo "the server did not start:"; cat "$work/$name.err"; exit 1; }
}

start_server python
(cd python && PYTHONPATH=generated "$venv/bin/python" consumer.py "$v1" "$v2" "$key" "$work/data.json")
start_server openapi-fetch
node typescript/dist/openapi-fetch.js "$v1" "$v2" "$key" "$work/data.json"
start_server hey-api
node typescript/dist/hey-api.js "$v1" "$v2" "$key" "$work/data.json"
start_server python-v1
(cd python && PYTHONPATH=generated "$venv/bin/python" consumer_v1.py "$v1" "$v2" "$key" "$work/data.json")
start_server openapi-fetch-v1
node typescript/dist/openapi-fetch-v1.js "$v1" "$v2" "$key" "$work/data.json"
start_server hey-api-v1
node typescript/dist/hey-api-v1.js "$v1" "$v2" "$key" "$work/data.json"
echo "every consumer passed"
