#!/usr/bin/env python3
"""Checks that Generation meets Templates through the request's plan alone: `make lint` and `make test` run it,
after a debug build.

It reads what the compiler made, not what the source spells: every symbol of `PromptTemplates` that an object
file of `PromptGeneration` refers to (`llvm-nm -u`, demangled). Generation may draw a plan from the live set
(`TemplateLibrary`, `TemplateSet`), use the plan (`RequestPlan`) and the values it hands over (the product's copy
and its fallbacks); it never builds a value of Templates' own. Any other type it touches, or any initializer it
calls, fails here with the object file and the symbol, whatever name or type inference the source used to get it.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What Generation may touch of PromptTemplates: the library and its live set, to draw the plan; the plan; what the
# plan hands over.
ALLOWED = {"TemplateLibrary", "TemplateSet", "RequestPlan", "ProductCopy", "CopyCatalog", "FallbackPrompts"}
TOOLS = Path(shutil.which("swift") or "/opt/swift/usr/bin/swift").resolve().parent


def tool(name):
    path = TOOLS / name
    return str(path) if path.exists() else name


objects = sorted(glob.glob(str(ROOT / ".build" / "debug" / "PromptGeneration.build" / "*.o")))
if not objects:
    print("one-plan: no object files of PromptGeneration under .build/debug; build first (swift build --build-tests)")
    sys.exit(1)

failures = []
for path in objects:
    listed = subprocess.run([tool("llvm-nm"), "-u", path], capture_output=True, text=True, check=True).stdout.split()
    # A Swift symbol names its module by length and name: `15PromptTemplates`.
    symbols = [symbol for symbol in listed if "15PromptTemplates" in symbol]
    if not symbols:
        continue
    demangled = subprocess.run(
        [tool("swift-demangle"), "--compact"], input="\n".join(symbols), capture_output=True, text=True, check=True
    ).stdout.splitlines()
    for line in demangled:
        touched = set(re.findall(r"PromptTemplates\.([A-Za-z0-9_]+)", line))
        built = re.search(r"PromptTemplates\.([A-Za-z0-9_]+)\.init\(", line)
        if touched - ALLOWED or built:
            failures.append(f"{os.path.basename(path)}: {line}")

for failure in sorted(set(failures)):
    print(f"PromptGeneration reaches past the plan: {failure}")
if failures:
    print("Take it from the request's RequestPlan (scripts/lint/one-plan.py says what Generation may touch).")
sys.exit(1 if failures else 0)
