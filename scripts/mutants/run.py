#!/usr/bin/env python3
"""The project's own mutation check: each listed one-line break, applied to Sources, must fail a test.

    scripts/mutants/run.py                 every entry of scripts/mutants/breaks.json
    scripts/mutants/run.py --only ID,ID    the named entries
    scripts/mutants/run.py --slice 3       3 entries, a different 3 for each commit (CI)
    scripts/mutants/run.py --write-docs    also writes the result into docs/TESTING.md

First the tests the selected entries name run on the tree as it is: a test that already fails would catch every
break, so the run stops there. Then, for each entry: the line is found (exactly once, or the entry is stale and fails), replaced, the tests are rebuilt
incrementally (`swift build --build-tests`), and the tests the entry names run (`swift test --skip-build --filter`),
inside a throwaway PostgreSQL when the entry says so. The entry is *caught* only when a test it names reports a
failure, and that test is printed; a build failure, a crash or a timeout is its own verdict and is not a catch. The file is restored before the next entry, whatever happens (Ctrl-C and errors included), and `git diff`
is checked unchanged at the end. Exits 1 when an entry is missed, stale or does not build.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BREAKS = ROOT / "scripts/mutants/breaks.json"
DOCS = ROOT / "docs/TESTING.md"
BEGIN, END = "<!-- mutants:begin -->", "<!-- mutants:end -->"
BUILD_LIMIT = 1800
TEST_LIMIT = 900
# As `make test` builds, so that a slice after it rebuilds only what the break touches.
BUILD = ["swift", "build", "--build-tests", "--explicit-target-dependency-import-check", "error"]
FAILED = re.compile(r'✘ Test (?:"(.+?)"|(\S+)) (?:recorded an issue|failed)')


def run(command, limit, env=None):
    """The command's exit status and output; 124 when it ran past `limit` seconds (its process group is stopped)."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=limit)
        return process.returncode, output.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return 124, output.decode("utf-8", "replace")


def apply(entry):
    """Writes the break into its file; returns the original text. Raises ValueError for a stale entry."""
    path = ROOT / entry["file"]
    original = path.read_text()
    count = original.count(entry["from"])
    if count != 1:
        raise ValueError(f"its line is found {count} times in {entry['file']}, not once: the entry is stale")
    path.write_text(original.replace(entry["from"], entry["to"]))
    return original


def test_command(entry):
    swift = ["swift", "test", "--skip-build"]
    for name in entry["tests"]:
        swift += ["--filter", name]
    if entry.get("postgres"):
        return ["bash", "scripts/postgres/with-postgres.sh", "--url-file", ".build/test-database-url", *swift]
    return swift


def check(entry):
    """(verdict, detail): caught with the failing tests, missed, stale, or does not build."""
    try:
        original = apply(entry)
    except ValueError as error:
        return "stale", str(error)
    path = ROOT / entry["file"]
    try:
        status, output = run(BUILD, BUILD_LIMIT)
        if status != 0:
            errors = [line for line in output.splitlines() if "error:" in line][:3]
            return "does not build", "; ".join(errors) or f"exit {status}"
        started = time.monotonic()
        status, output = run(test_command(entry), TEST_LIMIT)
        seconds = time.monotonic() - started
        failed = sorted({a or b for a, b in FAILED.findall(output)})
        # Only a named test's own failure is a catch: a hang, a crash or a run that reports no failing test says
        # nothing about which test guards the promise, so each is a verdict of its own and counts as not caught.
        if status == 124:
            return "timed out", f"the tests ran past {TEST_LIMIT} s after {seconds:.0f} s"
        if failed:
            return "caught", "; ".join(failed[:3])
        if status != 0:
            return "crashed", f"the test command exited {status} with no test reporting a failure"
        if "Test run with 0 tests" in output or "passed after" not in output:
            return "missed", "no test matched the filter"
        return "missed", f"every test passed ({seconds:.0f} s)"
    finally:
        path.write_text(original)


def baseline(entries):
    """Runs every named test on the unbroken tree; exits when one fails, since it would then catch every break."""
    status, output = run(BUILD, BUILD_LIMIT)
    if status != 0:
        sys.exit(f"mutants: the tree does not build:\n{output[-3000:]}")
    for postgres in (False, True):
        names = sorted({name for entry in entries if bool(entry.get("postgres")) == postgres for name in entry["tests"]})
        if not names:
            continue
        status, output = run(test_command({"tests": names, "postgres": postgres}), TEST_LIMIT)
        if status != 0:
            failed = sorted({a or b for a, b in FAILED.findall(output)})
            sys.exit(f"mutants: the named tests fail on the unbroken tree ({'; '.join(failed) or output[-2000:]})")
    print(f"baseline: the tests of {len(entries)} entries pass on the unbroken tree", flush=True)


def sources_diff():
    return subprocess.run(["git", "diff", "--", "Sources"], cwd=ROOT, capture_output=True, text=True).stdout


def rotating_slice(entries, size):
    """`size` consecutive entries, starting where the commit count puts them: each commit checks the next ones."""
    count = int(subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip() or 0)
    start = (count * size) % len(entries)
    return [entries[(start + offset) % len(entries)] for offset in range(size)]


def write_docs(results):
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    caught = sum(1 for _, verdict, _ in results if verdict == "caught")
    lines = [
        BEGIN,
        f"Last full run: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {commit} (debug build): "
        f"**{caught} of {len(results)} caught**.",
        "",
        "| id | the break | file | caught by |",
        "|---|---|---|---|",
    ]
    for entry, verdict, detail in results:
        shown = detail if verdict == "caught" else f"**{verdict}**: {detail}"
        lines.append(f"| `{entry['id']}` | {entry['why']} | `{entry['file'].removeprefix('Sources/')}` | {shown.replace('|', '/')} |")
    lines.append(END)
    text = DOCS.read_text()
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOCS.write_text(head + "\n".join(lines) + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated entry ids")
    parser.add_argument("--slice", type=int, help="run this many entries, rotating with the commit")
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--check-lines", action="store_true",
                        help="only check that every entry's line is in its file exactly once (make lint)")
    arguments = parser.parse_args()
    entries = json.loads(BREAKS.read_text())
    if arguments.check_lines:
        stale = [f"{entry['id']} ({entry['file']}): found {count} times"
                 for entry in entries
                 for count in [(ROOT / entry["file"]).read_text().count(entry["from"]) if (ROOT / entry["file"]).exists() else 0]
                 if count != 1]
        print("\n".join(f"mutants: stale entry {line}" for line in stale) or f"mutants: all {len(entries)} entries' lines found once")
        return 1 if stale else 0
    if arguments.only:
        wanted = arguments.only.split(",")
        entries = [entry for entry in entries if entry["id"] in wanted]
    if arguments.slice:
        entries = rotating_slice(entries, arguments.slice)
    # Ctrl-C or a CI stop still restores the file being broken (check's finally), then stops.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    before = sources_diff()
    baseline(entries)
    results = []
    for index, entry in enumerate(entries, 1):
        print(f"[{index}/{len(entries)}] {entry['id']}: {entry['why']}", flush=True)
        verdict, detail = check(entry)
        print(f"    {verdict}: {detail}", flush=True)
        results.append((entry, verdict, detail))
    dirty = sources_diff() != before
    caught = sum(1 for _, verdict, _ in results if verdict == "caught")
    print(f"\nmutants: {caught} of {len(results)} caught")
    for entry, verdict, detail in results:
        if verdict != "caught":
            print(f"  {verdict}: {entry['id']} ({entry['file']}): {detail}")
    if arguments.write_docs and not arguments.only and not arguments.slice:
        write_docs(results)
    if dirty:
        print("mutants: Sources differ after the run from before it; compare with git diff", file=sys.stderr)
    sys.exit(0 if caught == len(results) and not dirty else 1)


if __name__ == "__main__":
    sys.exit(main())
