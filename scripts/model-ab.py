#!/usr/bin/env python3
"""CPU and wall time per model request of two or more release builds, run side by side in lockstep.

    python3 scripts/model-ab.py [--requests N] [--cache] BUILD_DIR BUILD_DIR...

Each BUILD_DIR holds a `photo-prompts` and a `stub-llm` (copy them out of .build/release), and may hold the
`prompts` folder of its own commit (an older build refuses settings it does not know); else the repository's is used.
With `--cache`, every request is the same photo without `Cache-Control: no-cache`: a cache hit after the first. Every build gets its own
stub and a fresh SQLite file, all running at once; requests alternate between them, one build after the other and
the order reversed every round, each a model call (a new photo, `Cache-Control: no-cache`) on one keep-alive
connection. So a machine that slows down mid-run slows every build alike, which separate runs one after another
cannot promise: on this VM they spread by ±20 % between minutes. CPU is the service process's own, from
/proc/<pid>/stat; wall time is the client's, and includes the stub.

With `--wrk ROUNDS`, make bench's own two measures instead, each build in turn for ROUNDS rounds (the order reversed
every round): cache hits with `wrk -t2 -c64` (req/s), and the model path's p50 with `wrk -t1 -c1` and
`Cache-Control: no-cache`, bench.py's request body, BENCH_SECONDS (10) a run.

Every request names a new user, in both modes. Since each user's prompt history (PROMPT_HISTORY_DAYS), one user
asking again and again meets their own growing history: every cached prompt met (so no cache hit is left), every
stub prompt met (so the answer falls back), and 300 remembered answers read and parsed per request. No build before
the history had any of that, and no real user asks thousands of times, so a repeating user would compare two
different paths. A new user each keeps every build on the same one.
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Build:
    def __init__(self, directory, cache=False):
        self.directory = directory
        self.cache = cache
        prompts = Path(directory) / "prompts"
        self.folder = tempfile.mkdtemp(prefix="photo-prompts-ab-")
        stub_port, self.port = free_port(), free_port()
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.stub = subprocess.Popen([f"{directory}/stub-llm", "--port", str(stub_port)], **quiet)
        environment = dict(
            os.environ, HTTP_PORT=str(self.port), DATABASE_PATH=f"{self.folder}/ab.sqlite", DATABASE_URL="",
            LLM_PROVIDER="openai", LLM_BASE_URL=f"http://127.0.0.1:{stub_port}/v1", LLM_MODEL="stub",
            LOG_LEVEL="error", PROMPTS_DIRECTORY=str(prompts if prompts.is_dir() else ROOT / "prompts"), RATE_LIMIT_PER_USER="0", RATE_LIMIT_PER_KEY="0",
        )
        self.service = subprocess.Popen([f"{directory}/photo-prompts", "serve"], env=environment, **quiet)
        deadline = time.monotonic() + 20
        while True:
            try:
                probe = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                probe.request("GET", "/healthz")
                probe.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{directory}: the service did not start")
                time.sleep(0.05)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port)
        self.wall = 0.0

    def ask(self, number):
        label = "the same photo" if self.cache else f"photo {number}"
        body = json.dumps({"user_id": f"ab-{number}", "locale": "en-US", "photo": {"labels": ["beach", label]}})
        headers = {"Content-Type": "application/json"} if self.cache else {"Content-Type": "application/json", "Cache-Control": "no-cache"}
        start = time.monotonic()
        self.connection.request("POST", "/v1/prompts", body, headers)
        reply = self.connection.getresponse()
        reply.read()
        self.wall += time.monotonic() - start
        if reply.status != 200:
            raise SystemExit(f"{self.directory}: status {reply.status}")

    def stop(self):
        for process in (self.service, self.stub):
            process.terminate()
            process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def wrk_rounds(builds, rounds):
    """bench.py's cache-hit and model-path runs against each build, alternating."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench", ROOT / "scripts" / "bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for number in range(rounds):
        for build in builds if number % 2 == 0 else reversed(builds):
            url = f"http://127.0.0.1:{build.port}/v1/prompts"
            # A script per run: each names users of its own, so no round meets the history of an earlier one.
            hits = bench.wrk(url, 64, lua=bench.lua_post_users(bench.BODY, {"Content-Type": "application/json"}))
            calls = bench.wrk(url, 1, lua=bench.lua_post_users(bench.BODY, {"Content-Type": "application/json", "Cache-Control": "no-cache"}))
            print(f"round {number + 1} {build.directory}: cache hits {hits['rps']:,.0f} req/s (p99 {hits['p99_ms']:.1f} ms), "
                  f"model path p50 {calls['p50_ms']:.2f} ms, non-2xx {hits['non_2xx'] + calls['non_2xx']}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--cache", action="store_true", help="cache hits instead of model calls")
    parser.add_argument("--wrk", type=int, metavar="ROUNDS", help="make bench's wrk runs instead, ROUNDS rounds")
    parser.add_argument("builds", nargs="+")
    arguments = parser.parse_args()
    builds = [Build(directory, cache=arguments.cache) for directory in arguments.builds]
    try:
        if arguments.wrk:
            wrk_rounds(builds, arguments.wrk)
            return
        for number in range(300):  # warm-up: connections, caches, the allocator
            for build in builds:
                build.ask(number)
        for build in builds:
            build.wall = 0.0
        before = [cpu_seconds(build.service.pid) for build in builds]
        for number in range(arguments.requests):
            for build in builds if number % 2 == 0 else reversed(builds):
                build.ask(1000 + number)
        after = [cpu_seconds(build.service.pid) for build in builds]
        for build, start, end in zip(builds, before, after):
            cpu = (end - start) / arguments.requests * 1e6
            print(f"{build.directory}: {cpu:.0f} µs CPU/request, {build.wall / arguments.requests * 1e3:.3f} ms wall/request")
    finally:
        for build in builds:
            build.stop()


if __name__ == "__main__":
    main()
