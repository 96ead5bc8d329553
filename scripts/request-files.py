#!/usr/bin/env python3
"""How many of our source files one request runs code from: `make request-files`.

Builds `photo-prompts` and `stub-llm` with coverage into their own build folder, then runs the service twice on a
fresh SQLite file with an OpenAI-style backend (stub-llm on loopback): once started and stopped with no request, once
started, sent one `POST /v1/prompts` that misses the cache and stopped. A file counts when the request run executed
some line of it more often than the idle run did, so start-up and shutdown, which both runs share, are left out.
Prints the count, the folders, and the files by module.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.request
from collections import Counter
from pathlib import Path

# The loopback helpers the fault run already has: a free port, and waiting for a URL to answer.
from chaos import free_port, wait_for

ROOT = Path(__file__).resolve().parent.parent
# The toolchain's own LLVM tools: the system's older ones cannot read the profiles its compiler writes.
TOOLCHAIN = Path(shutil.which("swift")).resolve().parent
BUILD = ROOT / ".build" / "coverage"
SOURCES = ROOT / "Sources"
REQUEST = json.dumps({
    "user_id": "u_files", "locale": "en-US",
    "photo": {"taken_at": "2026-06-01T18:30:00Z", "labels": ["beach", "dog"], "people_count": 1,
              "location": {"name": "Praia da Rocha"}, "caption": "Evening walk"},
}).encode()


def build():
    flags = ["-Xswiftc", "-profile-generate", "-Xswiftc", "-profile-coverage-mapping"]
    for product in ["photo-prompts", "stub-llm"]:
        subprocess.run(["swift", "build", "--build-path", str(BUILD), "--product", product, *flags], cwd=ROOT, check=True)
    return BUILD / "debug"


def run_service(binary, stub_port, work, profile, send_request):
    port = free_port()
    environment = dict(os.environ, HTTP_PORT=str(port), LLM_PROVIDER="openai", LLM_BASE_URL=f"http://127.0.0.1:{stub_port}/v1",
                       LLM_MODEL="stub", LLM_TIMEOUT="15", LOG_LEVEL="error", PROMPTS_DIRECTORY=str(ROOT / "prompts"),
                       DATABASE_PATH=str(work / "service.sqlite"), LLVM_PROFILE_FILE=str(profile),
                       PROMPTS_WATCH_INTERVAL="0")
    service = subprocess.Popen([str(binary / "photo-prompts"), "serve"], env=environment, cwd=ROOT)
    wait_for(f"http://127.0.0.1:{port}/healthz", seconds=30)
    if send_request:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/prompts", data=REQUEST, method="POST",
                                         headers={"Content-Type": "application/json"})
        answer = json.loads(urllib.request.urlopen(request, timeout=30).read())
        if answer.get("source") != "model":
            raise SystemExit(f"request-files: the request was not answered by the model: {answer.get('source')}")
    service.send_signal(signal.SIGTERM)
    service.wait(timeout=30)


def line_counts(binary, profile):
    """For each of our source files, the execution count of each line."""
    merged = profile.with_suffix(".profdata")
    subprocess.run([str(TOOLCHAIN / "llvm-profdata"), "merge", "-sparse", str(profile), "-o", str(merged)], check=True)
    exported = subprocess.run([str(TOOLCHAIN / "llvm-cov"), "export", str(binary / "photo-prompts"), f"-instr-profile={merged}"],
                              check=True, capture_output=True, text=True).stdout
    counts = {}
    for file in json.loads(exported)["data"][0]["files"]:
        name = file["filename"]
        if not name.startswith(str(SOURCES)):
            continue
        lines = {}
        for line, column, count, has_count, is_region_entry, *_ in file["segments"]:
            if has_count and is_region_entry:
                lines[line] = max(lines.get(line, 0), count)
        counts[os.path.relpath(name, ROOT)] = lines
    return counts


def main():
    binary = build()
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as folder:
        work = Path(folder)
        stub_port = free_port()
        stub = subprocess.Popen([str(binary / "stub-llm"), "--port", str(stub_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, LLVM_PROFILE_FILE=str(work / "stub.profraw")))
        try:
            wait_for(f"http://127.0.0.1:{stub_port}/hello", seconds=30)
            runs = {}
            for name, send in [("idle", False), ("request", True)]:
                (work / "service.sqlite").unlink(missing_ok=True)
                profile = work / f"{name}.profraw"
                run_service(binary, stub_port, work, profile, send)
                runs[name] = line_counts(binary, profile)
        finally:
            stub.terminate()
    touched = sorted(
        path for path, lines in runs["request"].items()
        if any(count > runs["idle"].get(path, {}).get(line, 0) for line, count in lines.items())
    )
    folders = sorted({str(Path(path).parent) for path in touched})
    print(f"one POST /v1/prompts (cache miss, OpenAI-style backend, SQLite) ran code from {len(touched)} files in {len(folders)} folders")
    for module, count in sorted(Counter(Path(path).parts[1] for path in touched).items()):
        print(f"  {module}: {count}")
    if "--list" in sys.argv:
        print("\n".join(touched))


if __name__ == "__main__":
    main()
