#!/usr/bin/env python3
"""The code's promises by kind, listed from the code itself, and which of them the mutation list checks (issue 72).

Each kind is found by reading Sources, not from a hand-written list, so a promise added to the code shows up here
as unchecked until breaks.json gets its entry:

- defaults: every configuration key read with a default (`reader.integer("llm.timeout", default: 15, …)`);
- cache key: every input `CacheKey` is built from;
- orderings: every sort, `max` and `min` with a rule of its own (`sorted {`, `.max {`, `.min {`), the rule's
  closure read to two lines on;
- console: every figure the console's measures report (`QualityMeasures`);
- telemetry: every span attribute and metric label the service sets;
- per-language tables: every language file under prompts/ (chatter, copy, openers, angles, words, good, examples).

A member is *checked* when an entry of breaks.json breaks its line (its file, and a `from` that holds the member's
line or is held by it), or names it (its identifier, or a key's environment variable: `llm.timeout` is
`LLM_TIMEOUT`) in what it breaks or why; for a language file, when an entry names the file. Named is a weaker
claim than caught: the list of unchecked members is where the next entries come from. `--markdown` prints the table that
docs/TESTING.md quotes.

    python3 scripts/mutants/promises.py [--markdown]
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = ROOT / "Sources"


def lines_matching(pattern, files, following=0):
    """(file, line number, the line and the `following` lines after it, the pattern's first group) for each match."""
    for path in files:
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            match = re.search(pattern, line)
            if match:
                yield path, number, "\n".join(text.strip() for text in lines[number - 1:number + following]), match.group(1)


def kinds():
    swift = sorted(SOURCES.rglob("*.swift"))
    app = [SOURCES / "PhotoPrompts/App/AppConfiguration.swift", SOURCES / "PhotoPrompts/App/BackendConfiguration.swift"]
    yield "defaults", lines_matching(r'reader\.\w+\("([\w.]+)", default:', app)
    yield "cache key", lines_matching(r'^\s*(?:package |public )?(?:let|var) (\w+):', [SOURCES / "PromptGeneration/Generation/CacheKey.swift"])
    yield "orderings", ((path, number, line, f"{path.name}:{number}") for path, number, line, _ in
                        lines_matching(r'\.((?:sorted|sort|max|min)) \{', swift, following=2))
    yield "console", lines_matching(r'^\s*(?:@ExplicitNull )?var (\w+):', [SOURCES / "PhotoPrompts/Console/QualityMeasures.swift"])
    yield "telemetry", lines_matching(r'(?:attributes\["|label: "|metadataKey: ")([\w.]+)"', swift)


def language_files():
    for folder in ["chatter", "copy", "openers", "angles", "words", "good", "examples"]:
        for path in sorted((ROOT / "prompts" / folder).glob("*")):
            if path.suffix in (".txt", ".json"):
                yield folder, path


def names(member):
    """The names an entry may call a member by: itself, and a configuration key's environment variable."""
    name = member[3]
    variable = re.sub(r"([a-z])([A-Z])", r"\1_\2", name).replace(".", "_").upper()
    return {name, variable} if "." in name else {name}


def mentions(entry, member):
    text = " ".join([entry["id"], entry["why"], entry["from"], entry["to"]])
    return any(re.search(r"(?<![\w.])" + re.escape(name) + r"(?![\w])", text) for name in names(member))


def main():
    entries = json.loads((ROOT / "scripts/mutants/breaks.json").read_text())
    rows = []
    for kind, members in kinds():
        found = list(members)
        checked = [member for member in found if any(
            (ROOT / entry["file"] == member[0] and (entry["from"].strip() in member[2] or member[2] in entry["from"]))
            or mentions(entry, member) for entry in entries)]
        rows.append((kind, len(found), len(checked), sorted({member[3] for member in found} - {member[3] for member in checked})))
    by_file = {entry["file"] for entry in entries}
    files = list(language_files())
    checked = [path for _, path in files if str(path.relative_to(ROOT)) in by_file]
    rows.append(("per-language tables", len(files), len(checked), [str(path.relative_to(ROOT / "prompts")) for _, path in files
                                                                   if path not in checked]))
    if "--markdown" in sys.argv:
        print("| kind | members in the code | with an entry |")
        print("|---|---:|---:|")
        for kind, total, covered, _ in rows:
            print(f"| {kind} | {total} | {covered} |")
        return
    for kind, total, covered, unchecked in rows:
        print(f"{kind}: {covered} of {total} checked; unchecked: {', '.join(unchecked[:12])}{' …' if len(unchecked) > 12 else ''}")


if __name__ == "__main__":
    main()
