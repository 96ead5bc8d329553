#!/usr/bin/env python3
"""Runs a test command with a time limit, so a hang fails CI instead of stalling it.

    scripts/test/bounded.py SECONDS -- COMMAND...

The command's output passes through unchanged. Swift Testing's lines are followed ("Test x started.", then
"passed", "failed" or "skipped"), so when the limit is reached the tests still running are printed by name before
the command's process group is stopped (SIGTERM, then SIGKILL after 10 s). Exits with the command's status, or 124
when the limit was reached (as timeout(1) does).
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

STARTED = re.compile(r"Test (.+?) started\.$")
ENDED = re.compile(r"Test (.+?) (?:passed|failed|skipped|was cancelled)")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: bounded.py SECONDS -- COMMAND...")
    limit = float(sys.argv[1])
    command = sys.argv[3:]
    running = {}
    lock = threading.Lock()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

    def follow():
        for raw in process.stdout:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            line = raw.decode("utf-8", "replace").rstrip()
            with lock:
                if match := STARTED.search(line):
                    running[match.group(1)] = time.monotonic()
                elif match := ENDED.search(line):
                    running.pop(match.group(1), None)

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    try:
        status = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        now = time.monotonic()
        with lock:
            names = sorted(running.items(), key=lambda item: item[1])
        print(f"\nbounded: `{' '.join(command)}` ran past its limit of {limit:.0f} s and is stopped.", file=sys.stderr)
        if names:
            print("bounded: tests still running when it stopped (oldest first):", file=sys.stderr)
            for name, started in names:
                print(f"  {name}  (running for {now - started:.0f} s)", file=sys.stderr)
        else:
            print("bounded: no test was running (it stopped while building or between tests)", file=sys.stderr)
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(timeout=5)
        sys.exit(124)
    reader.join(timeout=5)
    sys.exit(status)


if __name__ == "__main__":
    main()
