#!/usr/bin/env bash
# Serves a small model on loopback with llama-server, under nice: `make serve-model MODEL=smollm2|gemma`.
# Gemma 3 270M is the base model with no chat template of its own: it is served with llama.cpp's built-in gemma
# template and no Jinja, and stays the hostile model whose every word the gate judges.
set -euo pipefail
cd "$(dirname "$0")/../.."
MODEL="${1:-smollm2}"
PORT="${2:-8091}"
case "$MODEL" in
    smollm2) args=(-m .models/smollm2.gguf) ;;
    gemma) args=(-m .models/gemma.gguf --no-jinja --chat-template gemma) ;;
    *) echo "serve-model: MODEL must be smollm2 or gemma (got $MODEL)" >&2; exit 2 ;;
esac
echo "serving $MODEL on http://127.0.0.1:$PORT/v1 (Ctrl-C stops it)"
exec nice -n 10 .models/bin/llama-server "${args[@]}" --host 127.0.0.1 --port "$PORT" -c 4096 -t "$(nproc)"
