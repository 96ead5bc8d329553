#!/usr/bin/env python3
"""Fault injection for PhotoPrompts: `make chaos` runs it and writes docs/RELIABILITY.md.

A bounded run on loopback. Concurrent clients create sessions, refresh them, retry with Idempotency-Keys and give
feedback, while the stub model hangs, fails, rate-limits with odd Retry-After values and writes garbage, the
service is killed with SIGKILL and restarted, and another process holds the database's lock. Afterwards the
guarantees are checked against what the clients were told. Every loop is bounded in count and time.
"""
import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".build" / "release"
REPORT = ROOT / "docs" / "RELIABILITY.md"
SECONDS = int(os.environ.get("CHAOS_SECONDS", "75"))
WORKERS = int(os.environ.get("CHAOS_WORKERS", "12"))
TIMEOUT = 2.0  # LLM_TIMEOUT for the service under test
BOUND = TIMEOUT + 1.0  # every request is answered within this, unless the process was killed under it
SEED = int(os.environ.get("CHAOS_SEED", "20261123"))
# Leave a kind of fault out, to narrow a violation down: CHAOS_SKIP=kill,lock,model
SKIP = set(filter(None, os.environ.get("CHAOS_SKIP", "").split(",")))

STUB_FAULTS = [
    ("normal", {}), ("normal", {}), ("hang", {}), ("error_500", {}), ("garbage", {}), ("truncated", {}),
    ("rate_limited", {"retry_after": "86400000"}), ("rate_limited", {"retry_after": "Fri, 31 Dec 2099 23:59:59 GMT"}),
    ("rate_limited", {"retry_after": "-5"}), ("rate_limited", {"retry_after": "soon"}), ("short", {}),
]


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{Path(sys.argv[0]).stem}: {url} did not answer")


def start_stub():
    """stub-llm on a free port, answering: the process and its port."""
    port = free_port()
    process = subprocess.Popen([str(BIN / "stub-llm"), "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(f"http://127.0.0.1:{port}/hello")
    return process, port


def control(stub_port, behaviour, extra):
    body = json.dumps({"behaviour": behaviour, **extra}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{stub_port}/control", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=2).read()


class Service:
    """photo-prompts serve on a fixed port, restartable after a kill."""

    def __init__(self, stub_port, database):
        self.port = free_port()
        self.environment = dict(os.environ, HTTP_PORT=str(self.port), LLM_PROVIDER="openai",
                                LLM_BASE_URL=f"http://127.0.0.1:{stub_port}/v1", LLM_MODEL="stub", LLM_TIMEOUT=str(TIMEOUT),
                                LOG_LEVEL="error", PROMPTS_DIRECTORY=str(ROOT / "prompts"), RATE_LIMIT_PER_USER="0",
                                RATE_LIMIT_PER_KEY="0", BREAKER_COOLDOWN="2", BACKEND_RETRY_AFTER_MAX="3",
                                **database)
        self.process = None
        self.start()

    def start(self):
        self.process = subprocess.Popen([str(BIN / "photo-prompts"), "serve"], env=self.environment,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        wait_for(f"http://127.0.0.1:{self.port}/healthz")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Log:
    """Everything the clients saw, and when the service was down."""

    def __init__(self):
        self.requests = []  # (kind, status, started, ended)
        self.kills = []  # (killed_at, back_at)
        self.sessions = {}  # session id -> (user, highest refreshes_used acknowledged)
        self.keyed = {}  # (user, idempotency key) -> set of 200 bodies
        self.faults = {}
        self.limit_refusals = []  # (session, refreshes_used in the body) of each 429 refresh_limit_reached
        self.waits = 0  # 409 refresh_in_progress answers: a refresh told to wait for a running one

    def refused(self, session, status, body):
        """Notes a refusal of a refresh: the limit's 429, or a 409 that says to wait."""
        try:
            answer = json.loads(body)
        except ValueError:
            return
        code = (answer.get("error") or {}).get("code")
        if status == 429 and code == "refresh_limit_reached":
            self.limit_refusals.append((session, answer.get("refreshes_used")))
        elif status == 409 and code == "refresh_in_progress":
            self.waits += 1

    def fault(self, name):
        self.faults[name] = self.faults.get(name, 0) + 1

    def excused(self, started, ended):
        return any(killed <= ended and started <= back for killed, back in self.kills)


async def call(port, method, path, user, body=None, headers=None, timeout=BOUND + 5):
    """One request on its own connection: (status, body bytes); status 0 when the connection failed."""
    payload = json.dumps(body).encode() if body is not None else b""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"X-User-ID: {user}", "Connection: close",
             f"Content-Length: {len(payload)}"]
    if body is not None:
        lines.append("Content-Type: application/json")
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout)
        writer.close()
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
        return 0, b""
    if not raw.startswith(b"HTTP/"):
        return 0, b""
    head, _, rest = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), rest


async def timed(log, kind, coroutine):
    started = time.monotonic()
    status, body = await coroutine
    log.requests.append((kind, status, started, time.monotonic()))
    return status, body


async def client(log, port, index, stop_at, rng):
    user = f"chaos-user-{index}"
    round_number = 0
    while time.monotonic() < stop_at:
        round_number += 1
        photo = {"photo": {"labels": [f"chaos-{index}-{round_number % 7}"], "people_count": rng.randint(0, 3)}}
        key = f"k-{index}-{round_number}" if rng.random() < 0.5 else None
        headers = {"Idempotency-Key": key} if key else {}
        status, body = await timed(log, "create", call(port, "POST", "/v1/prompts", user, photo, headers))
        if key and rng.random() < 0.5:
            # The retry a client makes when it is not sure the first one arrived.
            again, again_body = await timed(log, "create-retry", call(port, "POST", "/v1/prompts", user, photo, headers))
            if again == 200:
                log.keyed.setdefault((user, key), set()).add(again_body)
        if key and status == 200:
            log.keyed.setdefault((user, key), set()).add(body)
        if status != 200:
            continue
        answer = json.loads(body)
        session = answer["session_id"]
        log.sessions.setdefault(session, [user, 0])
        for refresh in range(rng.randint(0, 7)):
            if time.monotonic() >= stop_at:
                break
            rkey = f"r-{session}-{refresh}" if rng.random() < 0.4 else None
            rheaders = {"Idempotency-Key": rkey} if rkey else {}
            if rng.random() < 0.2:
                # A double tap: a second refresh while the first runs, which must be told to wait, not the limit.
                (status, body), (tap, tap_body) = await asyncio.gather(
                    timed(log, "refresh", call(port, "POST", f"/v1/sessions/{session}/refresh", user, None, rheaders)),
                    timed(log, "refresh-tap", call(port, "POST", f"/v1/sessions/{session}/refresh", user, None)))
                if tap == 200:
                    log.sessions[session][1] = max(log.sessions[session][1], json.loads(tap_body)["refreshes_used"])
                log.refused(session, tap, tap_body)
            else:
                status, body = await timed(log, "refresh", call(port, "POST", f"/v1/sessions/{session}/refresh", user, None, rheaders))
            log.refused(session, status, body)
            if rkey and rng.random() < 0.5:
                again, again_body = await timed(log, "refresh-retry",
                                                call(port, "POST", f"/v1/sessions/{session}/refresh", user, None, rheaders))
                if again == 200:
                    log.keyed.setdefault((user, rkey), set()).add(again_body)
                    log.sessions[session][1] = max(log.sessions[session][1], json.loads(again_body)["refreshes_used"])
            if status == 200:
                if rkey:
                    log.keyed.setdefault((user, rkey), set()).add(body)
                log.sessions[session][1] = max(log.sessions[session][1], json.loads(body)["refreshes_used"])
        prompts = answer.get("prompts") or []
        if prompts:
            choice = {"prompt_id": rng.choice(prompts)["id"], "action": rng.choice(["selected", "dismissed"])}
            await timed(log, "feedback", call(port, "POST", f"/v1/sessions/{session}/feedback", user, choice))


async def faults(log, service, stub_port, lock_holder, stop_at, rng):
    """Switches the model's behaviour every 1–3 s, kills and restarts the service every ~15 s, holds the lock."""
    next_kill = time.monotonic() + rng.uniform(10, 15)
    next_lock = time.monotonic() + rng.uniform(5, 8)
    while time.monotonic() < stop_at - 3:
        behaviour, extra = rng.choice(STUB_FAULTS)
        if "model" not in SKIP:
            control(stub_port, behaviour, extra)
            log.fault(f"model {behaviour}" + (f" (Retry-After: {extra['retry_after']})" if extra else ""))
        await asyncio.sleep(rng.uniform(1, 3))
        now = time.monotonic()
        if now >= next_kill and "kill" not in SKIP:
            killed = time.monotonic()
            service.kill()
            log.fault("kill -9")
            await asyncio.to_thread(service.start)
            log.kills.append((killed, time.monotonic()))
            next_kill = time.monotonic() + rng.uniform(12, 18)
        if now >= next_lock and "lock" not in SKIP:
            log.fault("database lock held 1.5 s by another process")
            await asyncio.to_thread(lock_holder, 1.5)
            next_lock = time.monotonic() + rng.uniform(8, 12)
    control(stub_port, "normal", {})


def sqlite_lock(path):
    def hold(seconds):
        connection = sqlite3.connect(path, isolation_level=None, timeout=5)
        connection.execute("BEGIN EXCLUSIVE")
        time.sleep(seconds)
        connection.execute("ROLLBACK")
        connection.close()
    return hold


def postgres_lock(url):
    def hold(seconds):
        subprocess.run(["psql", url, "-q", "-c", f"BEGIN; LOCK TABLE session IN EXCLUSIVE MODE; SELECT pg_sleep({seconds}); COMMIT;"],
                       check=True, capture_output=True)
    return hold


async def check(log, port):
    """The invariants, against a service that was restarted after the last kill."""
    violations = []
    stored_counts = {}
    for session, (user, acknowledged) in log.sessions.items():
        status, body = await call(port, "GET", f"/v1/sessions/{session}", user)
        if status != 200:
            violations.append(f"{session}: told to the client, but GET answers {status}")
            continue
        stored = json.loads(body)["refreshes_used"]
        stored_counts[session] = stored
        if stored > 5:
            violations.append(f"{session}: {stored} counted refreshes, more than 5")
        if acknowledged > stored:
            violations.append(f"{session}: {acknowledged} refreshes acknowledged, {stored} stored")
    # The limit's copy only once 5 refreshes were delivered: the 429 says 5, and the count never goes down, so a session
    # that stores fewer now had fewer then.
    for session, told in log.limit_refusals:
        stored = stored_counts.get(session)
        if told != 5 or (stored is not None and stored < 5):
            violations.append(f"{session}: 429 refresh_limit_reached with refreshes_used {told}, {stored} stored")
    for (user, key), bodies in log.keyed.items():
        if len(bodies) > 1:
            described = "; ".join(describe(body) for body in sorted(bodies))
            violations.append(f"Idempotency-Key {key}: {len(bodies)} different answers ({described})")
    late = [(kind, status, ended - started) for kind, status, started, ended in log.requests
            if (status == 0 or ended - started > BOUND) and not log.excused(started, ended)]
    violations += [f"{kind}: {'no answer' if status == 0 else status} after {seconds:.2f} s" for kind, status, seconds in late]
    return violations


def describe(body):
    """An answer in a few words, for a violation's message: never the prompts themselves."""
    try:
        answer = json.loads(body)
        return (f"session {answer.get('session_id')}, source {answer.get('source')}, "
                f"refreshes_used {answer.get('refreshes_used')}, {len(body)} bytes")
    except ValueError:
        return f"{len(body)} bytes that are not JSON: {body[:80]!r}"


def run(store, database, lock_holder, integrity):
    rng = random.Random(SEED)
    stub, stub_port = start_stub()
    service = Service(stub_port, database)
    log = Log()

    async def main():
        stop_at = time.monotonic() + SECONDS
        tasks = [client(log, service.port, index, stop_at, random.Random(SEED + index)) for index in range(WORKERS)]
        await asyncio.gather(faults(log, service, stub_port, lock_holder, stop_at, rng), *tasks)
        return await check(log, service.port)

    violations = asyncio.run(main())
    service.stop()
    stub.terminate()
    stub.wait()
    integrity_result = integrity()
    if integrity_result not in ("ok", None):
        violations.append(f"integrity check: {integrity_result}")
    statuses = {}
    for _, status, _, _ in log.requests:
        statuses[status] = statuses.get(status, 0) + 1
    slowest = max((ended - started for _, status, started, ended in log.requests if status), default=0)
    return {"store": store, "requests": len(log.requests), "statuses": statuses, "faults": log.faults,
            "kills": len(log.kills), "sessions": len(log.sessions), "keys": len(log.keyed), "slowest_answer_s": slowest,
            "limit_refusals": len(log.limit_refusals), "waits": log.waits,
            "integrity": integrity_result, "violations": violations}


DEPARTURES = 20  # clients that hang up during a model call, one after another
DEPARTURE_BOUND = 0.1  # the target: the call is cancelled within 100 ms of the client leaving
ADMIN_KEY = "chaos-admin-key-0123456789"


def cancelled_calls(port):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics", headers={"Authorization": f"Bearer {ADMIN_KEY}"})
    text = urllib.request.urlopen(request, timeout=2).read().decode()
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
               if line.startswith("photoprompts_backend_calls_total{") and 'outcome="cancelled"' in line)


def departures(folder):
    """Clients that close their socket while the model hangs: how long until the service has cancelled the call.

    Measured from the client's close to the moment /metrics counts the call as cancelled (polled every 2 ms), so
    it includes the poll's own round trip: an upper bound."""
    import socket
    stub, stub_port = start_stub()
    control(stub_port, "hang", {})
    service = Service(stub_port, {"DATABASE_PATH": f"{folder}/departures.sqlite", "ADMIN_API_KEY": ADMIN_KEY})
    delays, missed = [], 0
    try:
        for index in range(DEPARTURES):
            body = json.dumps({"user_id": f"u_leaving_{index}", "photo": {"labels": [f"harbor {index}"]}})
            raw = (f"POST /v1/prompts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n{body}").encode()
            before = cancelled_calls(service.port)
            connection = socket.create_connection(("127.0.0.1", service.port))
            connection.sendall(raw)
            time.sleep(0.3)  # the model call is in flight: the stub hangs, LLM_TIMEOUT is 2 s
            left = time.monotonic()
            connection.close()
            while cancelled_calls(service.port) == before:
                if time.monotonic() - left > 1.5:
                    missed += 1
                    break
                time.sleep(0.002)
            else:
                delays.append(time.monotonic() - left)
    finally:
        service.stop()
        stub.terminate()
        stub.wait()
    delays.sort()
    return {"clients": DEPARTURES, "cancelled": len(delays), "missed": missed,
            "p50_ms": 1000 * delays[len(delays) // 2] if delays else None,
            "max_ms": 1000 * delays[-1] if delays else None}


def write_report(results, departed):
    lines = [
        "# Reliability",
        "",
        f"Written by `make chaos` (scripts/chaos.py) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: release "
        f"builds on loopback, {WORKERS} concurrent clients for {SECONDS} s per store, `LLM_TIMEOUT={TIMEOUT:g}`, seed {SEED}. "
        "Numbers are from this one run.",
        "",
        "Clients create sessions, refresh them (up to 7 times, past the limit of 5), retry half of their "
        "Idempotency-Key requests, and give feedback. Meanwhile the stub model switches every 1–3 s between "
        "answering, hanging, HTTP 500, garbage, truncated JSON, too-short questions and 429s with odd `Retry-After` "
        "values; the service is killed with SIGKILL and restarted every 12–18 s; another process holds the "
        "database's lock for 1.5 s every 8–12 s.",
        "",
        "Invariants checked afterwards: every session a client was told about exists; none shows more than 5 counted "
        "refreshes; no session stores fewer refreshes than a client was told; no Idempotency-Key gave two different "
        f"answers; every request was answered within LLM_TIMEOUT + 1 s ({BOUND:g} s), unless the process was killed "
        "under it; no 429 `refresh_limit_reached` while fewer than 5 refreshes were delivered (its body says 5, and the "
        "session stores 5); the SQLite file passes `PRAGMA integrity_check`. One refresh in five is a double tap: a "
        "second refresh sent while the first runs, which is told to wait (409 `refresh_in_progress`).",
        "",
        "| store | requests | answers by status | kills survived | sessions checked | keys checked | 429 limits checked | 409 waits | slowest answer | integrity_check | violations |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for result in results:
        statuses = ", ".join(f"{status or 'no answer'}: {count}" for status, count in sorted(result["statuses"].items()))
        lines.append(f"| {result['store']} | {result['requests']} | {statuses} | {result['kills']} | {result['sessions']} | "
                     f"{result['keys']} | {result['limit_refusals']} | {result['waits']} | {result['slowest_answer_s']:.2f} s | "
                     f"{result['integrity'] or 'n/a'} | "
                     f"{len(result['violations'])} |")
    lines += [
        "",
        f"Clients that leave: {departed['clients']} clients, one after another, each sends a prompt request while the "
        "stub model hangs and closes its socket 300 ms later. The service should cancel the model call no one waits "
        f"for within {DEPARTURE_BOUND * 1000:.0f} ms. Measured from the close until `/metrics` counts the call "
        "`outcome=\"cancelled\"` (polled every 2 ms, so the poll's round trip is included):",
        "",
        "| clients | calls cancelled | not cancelled within 1.5 s | p50 | slowest |",
        "|---|---|---|---|---|",
        f"| {departed['clients']} | {departed['cancelled']} | {departed['missed']} | "
        + (f"{departed['p50_ms']:.1f} ms | {departed['max_ms']:.1f} ms |" if departed["cancelled"] else "n/a | n/a |"),
    ]
    lines += ["", "Faults injected:", ""]
    for result in results:
        faults = ", ".join(f"{name} × {count}" for name, count in sorted(result["faults"].items()))
        lines.append(f"- {result['store']}: {faults}.")
    for result in results:
        if result["violations"]:
            lines += ["", f"Violations on {result['store']}:", ""] + [f"- {violation}" for violation in result["violations"][:50]]
    lines.append("")
    REPORT.write_text("\n".join(lines))


def main():
    results = []
    folder = tempfile.mkdtemp(prefix="photo-prompts-chaos-")
    path = f"{folder}/chaos.sqlite"

    def sqlite_integrity():
        return sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0]

    if sys.argv[1:] == ["departures"]:
        # Only the departure measurement, printed, for a quick look; `make chaos` runs everything and writes the report.
        print(json.dumps(departures(folder)))
        return
    results.append(run("SQLite", {"DATABASE_PATH": path}, sqlite_lock(path), sqlite_integrity))
    server = os.environ.get("TEST_DATABASE_URL")
    if server:
        subprocess.run(["psql", server, "-q", "-c", "DROP DATABASE IF EXISTS chaos WITH (FORCE)", "-c", "CREATE DATABASE chaos"],
                       check=True, capture_output=True)
        url = server.replace("/postgres?", "/chaos?")
        results.append(run("PostgreSQL", {"DATABASE_URL": url, "DATABASE_PATH": f"{folder}/unused.sqlite"},
                           postgres_lock(url), lambda: None))
    departed = departures(folder)
    write_report(results, departed)
    print(REPORT.read_text())
    slow = departed["missed"] or departed["max_ms"] is None or departed["max_ms"] > DEPARTURE_BOUND * 1000
    if any(result["violations"] for result in results) or slow:
        sys.exit(1)


if __name__ == "__main__":
    main()
