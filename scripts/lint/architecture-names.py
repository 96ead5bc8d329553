#!/usr/bin/env python3
"""Checks that docs/ARCHITECTURE.md names only what exists: `make lint` runs it.

In the map of the source tree (the code block that starts with `Sources/`), every folder must exist where the map's
indentation puts it, and every CamelCase name must be a Swift file, a type, a function or a property declared in the
package's sources or tests. Prose outside the map is checked for the CamelCase names in backticks. External names
(Hummingbird's, Foundation's, the databases') are listed below, each once.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
EXTERNAL = {
    "PostgreSQL", "SQLite", "GRDB", "JSONEncoder", "JSONDecoder", "DecodingError", "ByteBuffer", "PostgresNIO",
    "DispatchQueue", "HTTPTypes", "ServiceLifecycle", "ServiceGroup", "RouterMiddleware", "RequestContext",
    "BasicRequestContext", "TaskGroup", "CheckedContinuation", "AsyncStream", "ContinuousClock", "UnixSignals",
    "CoreRequestContextStorage", "HummingbirdTesting", "SwiftPM", "LanguageModel", "OpenAI", "ChatGPT", "JavaScript", "GitHub", "WebSocket",
    "EventSource", "TestClientProtocol", "ApplicationProtocol", "PostgresClient", "DatabasePool", "DatabaseQueue",
    "SmolLM2", "NIOCore", "NIOAsyncChannel", "TaskLocal", "MainActor", "MetricsSystem", "UBreakIterator",
    "UErrorCode", "PyPI", "DTOs", "MeCab", "IPAdic", "InMemoryTracer", "InstrumentationSystem", "TracingMiddleware",
    "W3C", "SwiftProtobuf",
}
CAMEL = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b|\b[A-Z]{2,}[a-z][A-Za-z0-9]*\b")


def declared_names():
    names = set()
    declaration = re.compile(
        r"\b(?:struct|class|enum|protocol|actor|typealias|extension|func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)")
    for folder in ("Sources", "Tests"):
        for path in (ROOT / folder).rglob("*.swift"):
            names.add(path.stem)
            names.update(part for part in path.stem.split("+"))
            names.update(declaration.findall(path.read_text(encoding="utf-8")))
    # The package's own targets.
    names.update(re.findall(r'name: "([A-Za-z-]+)"', (ROOT / "Package.swift").read_text(encoding="utf-8")))
    return names


def source_map(lines):
    start = next(index for index, line in enumerate(lines) if line.strip() == "Sources/")
    end = next(index for index in range(start + 1, len(lines)) if lines[index].startswith("```"))
    return start, lines[start:end]


def missing_folders(block):
    problems, stack = [], []  # (indent, path)
    for line in block:
        match = re.match(r"^( *)([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)/(?:\s|$)", line)
        if not match:
            continue
        indent, name = len(match.group(1)), match.group(2)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = (stack[-1][1] / name) if stack else ROOT / name
        if name.startswith(("Tests", "prompts", "config", "scripts", "docs")) and indent == 0:
            path = ROOT / name
        if not path.is_dir():
            problems.append(f"folder {path.relative_to(ROOT)}/ does not exist")
        stack.append((indent, path))
    return problems


def main():
    text = DOC.read_text(encoding="utf-8")
    lines = text.splitlines()
    _, block = source_map(lines)
    known = declared_names() | EXTERNAL
    problems = missing_folders(block)
    names = set(CAMEL.findall("\n".join(block)))
    for code in re.findall(r"`([^`\n]+)`", text):
        names.update(CAMEL.findall(code))
    problems += [f"{name} is named but declared nowhere in Sources or Tests" for name in sorted(names - known)]
    for problem in problems:
        print(f"docs/ARCHITECTURE.md: {problem}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
