#!/usr/bin/env python3
"""Checks that Generation asks Templates once per request: `make lint` and `make test` run it.

`PromptGeneration` takes what a request needs from the templates through `RequestPlan` (`TemplateSet.plan`), and
never reaches into a template itself: no file of it names the template's own types. A line that does fails here,
with its file and line.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What only `RequestPlan` may touch: a template, its rendering context, its own fallbacks, its settings.
TEMPLATE_INTERNALS = re.compile(r"\b(PromptTemplate|TemplateContext|TemplateFallbacks|TemplateSettings)\b|\.settings\.|\.assignVariant\(")

failures = []
for path in sorted((ROOT / "Sources" / "PromptGeneration").rglob("*.swift")):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("//", 1)[0]
        if TEMPLATE_INTERNALS.search(code):
            failures.append(f"{path.relative_to(ROOT)}:{number}: reaches into a template; take it from the request's RequestPlan")
for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
