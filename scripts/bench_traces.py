"""What traces cost: `make bench` (scripts/bench.py) runs this after the model path.

The cache-hit run (64 connections, a new user a request) and the model path (one connection, `Cache-Control:
no-cache`) against the release build, twice each with export off and on, alternating, so the spread of each shows
the noise: off is the default (no endpoint; the caller's `traceparent` is relayed and nothing kept), on exports every
request's spans over OTLP/HTTP to scripts/otlp/receiver.py on loopback (`make otlp`), with the batch processor's
defaults but a 1 s schedule. `python3 scripts/bench.py traces` runs only this and prints the figures.
"""
import os
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".models" / "otlp" / "bin" / "python"
ROUNDS = 2


def traces(results, Service, stub, free_port, wrk, lua_post_users, body):
    """Fills results["traces"]: per arm, a list of runs of {cache, model}; and how many spans the receiver got."""
    if not PYTHON.exists():
        print("traces: skipped, the OTLP receiver's Python is missing (`make otlp`)")
        return
    out = Path(tempfile.mkdtemp(prefix="photo-prompts-bench-otlp-")) / "spans.jsonl"
    http_port, grpc_port = free_port(), free_port()
    receiver = subprocess.Popen([str(PYTHON), str(ROOT / "scripts" / "otlp" / "receiver.py"), "--http-port", str(http_port),
                                 "--grpc-port", str(grpc_port), "--out", str(out)], stdout=subprocess.PIPE, text=True)
    receiver.stdout.readline()
    export = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{http_port}", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
              "OTEL_BSP_SCHEDULE_DELAY": "1000"}
    runs = {"off": [], "on": []}
    try:
        for _ in range(ROUNDS):
            for arm, extra in (("off", {}), ("on", export)):
                service = Service(stub, extra=extra)
                json_headers = {"Content-Type": "application/json"}
                cache = wrk(service.url("/v1/prompts"), 64, lua=lua_post_users(body, json_headers))
                model = wrk(service.url("/v1/prompts"), 1, lua=lua_post_users(body, {**json_headers, "Cache-Control": "no-cache"}))
                service.stop()
                runs[arm].append({"cache": cache, "model": model})
    finally:
        receiver.kill()
    spans = sum(1 for _ in out.open()) if out.exists() else 0
    results["traces"] = {"runs": runs, "spans_received": spans}


def traces_lines(r):
    data = r.get("traces")
    if not data:
        return []
    runs, durable, stub = data["runs"], r["durable"]["rps"], r.get("stub_direct", {}).get("p50_ms")

    def spread(arm, kind, key):
        values = [run[kind][key] for run in runs[arm]]
        return f"{min(values):.2f}–{max(values):.2f}" if len(values) > 1 else f"{values[0]:.2f}"

    def ratio(arm):
        values = [run["cache"]["rps"] / durable for run in runs[arm]]
        return f"{min(values):.2f}–{max(values):.2f}"

    return [
        "## Traces",
        "",
        f"The cache-hit run and the model path, {ROUNDS} times each with export off (the default: the caller's "
        "`traceparent` relayed, nothing kept) and on (every request's spans over OTLP/HTTP to a receiver on loopback, "
        f"`scripts/otlp/receiver.py`), alternating; ranges are over the runs. The receiver got {data['spans_received']} spans.",
        "",
        "| export | cache hits (req/s) | cache / durable | cache p50 (ms) | model path p50 (ms) |",
        "|---|---|---|---|---|",
        *(f"| {arm} | {spread(arm, 'cache', 'rps')} | {ratio(arm)} | {spread(arm, 'cache', 'p50_ms')} | "
          f"{spread(arm, 'model', 'p50_ms')} |" for arm in ("off", "on")),
        "",
        *([f"The stub alone answers in {stub:.2f} ms (p50), so the model path's added latency is the p50 above less that.", ""]
          if stub else []),
    ]
