#!/usr/bin/env bash
# Runs a llama-server binary on a few tokens: start it on a free loopback port, wait for /health (60 s at most),
# ask /completion for 8 tokens, and fail if the process died (a SIGILL shows as exit 132) or did not answer.
set -euo pipefail
BINARY="$1"
MODEL="$2"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LOG=$(mktemp)
"$BINARY" -m "$MODEL" --host 127.0.0.1 --port "$PORT" -c 512 -t "$(nproc)" >"$LOG" 2>&1 &
PID=$!
cleanup() { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -f "$LOG"; }
trap cleanup EXIT
died() {
    wait "$PID" 2>/dev/null && status=0 || status=$?
    echo "smoke: llama-server exited with status $status$([ "$status" -eq 132 ] && echo ' (SIGILL: an instruction this CPU does not allow)')" >&2
    tail -5 "$LOG" >&2
    exit 1
}
for _ in $(seq 1 120); do
    kill -0 "$PID" 2>/dev/null || died
    curl -fs "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break
    sleep 0.5
done
curl -fs "http://127.0.0.1:$PORT/health" >/dev/null || { echo "smoke: no /health answer in 60 s" >&2; tail -5 "$LOG" >&2; exit 1; }
reply=$(curl -fs --max-time 60 "http://127.0.0.1:$PORT/completion" \
    -d '{"prompt": "The beach at sunset is", "n_predict": 8, "seed": 1, "temperature": 0}') || { kill -0 "$PID" 2>/dev/null || died; echo "smoke: /completion failed" >&2; exit 1; }
kill -0 "$PID" 2>/dev/null || died
python3 -c 'import json,sys; r=json.loads(sys.argv[1]); assert r.get("tokens_predicted", 0) > 0, r; print("smoke: llama-server wrote", r["tokens_predicted"], "tokens:", repr(r["content"]))' "$reply" \
    || { echo "smoke: /completion wrote no tokens" >&2; exit 1; }
