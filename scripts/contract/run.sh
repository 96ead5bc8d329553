#!/usr/bin/env bash
# The contract check: schemathesis against the real service (debug build) with stub-llm as its model, over every
# route in openapi.yaml, bounded in time. Any 5xx, crash, undocumented status or body that breaks the schema fails.
# Called by `make test` after the Swift tests; installs schemathesis from PyPI if it is missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$root/.build/debug"
workdir="$(mktemp -d)"
admin_key="contract-admin-key-$(date +%s)"

python3 -m pip --version >/dev/null 2>&1 || { echo "contract: python3 with pip is required" >&2; exit 1; }
python3 -c "import schemathesis" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check schemathesis

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
stub_port="$(free_port)"
service_port="$(free_port)"

cleanup() {
    [[ -n "${service_pid:-}" ]] && kill "$service_pid" 2>/dev/null || true
    [[ -n "${stub_pid:-}" ]] && kill "$stub_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$workdir"
}
trap cleanup EXIT

"$bin/stub-llm" --port "$stub_port" >"$workdir/stub.log" 2>&1 &
stub_pid=$!

# Rate limits off: schemathesis sends thousands of requests as a handful of users, which is not what they are for.
HTTP_PORT="$service_port" DATABASE_PATH="$workdir/contract.sqlite" PROMPTS_DIRECTORY="$root/prompts" \
    LLM_PROVIDER=openai LLM_BASE_URL="http://127.0.0.1:$stub_port/v1" LLM_MODEL=stub LLM_TIMEOUT=2 \
    ADMIN_API_KEY="$admin_key" RATE_LIMIT_PER_USER=0 RATE_LIMIT_PER_KEY=0 PROMPTS_WATCH_INTERVAL=0 LOG_LEVEL=error \
    "$bin/photo-prompts" serve >"$workdir/service.log" 2>&1 &
service_pid=$!

python3 - "$service_port" <<'PY'
import sys, time, urllib.request
for _ in range(200):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("contract: the service did not start")
PY

cd "$root/scripts/contract"
status=0
SCHEMATHESIS_HOOKS=hooks timeout 900 schemathesis run "$root/openapi.yaml" \
    --url "http://127.0.0.1:$service_port" \
    --header "Authorization: Bearer $admin_key" \
    --checks all \
    --max-examples "${CONTRACT_MAX_EXAMPLES:-40}" \
    --seed "${CONTRACT_SEED:-20261122}" \
    --no-color || status=$?

if ! kill -0 "$service_pid" 2>/dev/null; then
    echo "contract: the service died during the run" >&2
    cat "$workdir/service.log" >&2
    status=1
fi
exit "$status"
