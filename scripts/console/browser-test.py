#!/usr/bin/env python3
"""The operators' console in a real browser: headless Chromium driven by Selenium (both from the Makefile).

It starts stub-llm as a scripted fake (its behaviour switched between rounds of traffic: good lists, mixed lengths,
HTTP 500s) behind the service's first backend, with the embedded stub as the second, and serves real traffic in
several languages through two A/B variants, a template edit reloaded mid-way, refreshes and feedback, then two
stored eval runs. Then it opens /admin/console and checks, view by view, that the page shows the numbers the API
gives for the same range, that a wrong key gets a clear message and no data, and saves a screenshot of each view
under docs/console/ for the README.

    .models/browser/bin/python scripts/console/browser-test.py   (make console-test, part of make test)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from chaos import free_port, wait_for  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ADMIN_KEY = "console-test-admin-key-0123456789"
BIN = ROOT / ".build" / "debug"
SCREENSHOTS = ROOT / "docs" / "console"
LANGUAGES = ["en-US", "es-ES", "fr-FR", "de-DE", "ja-JP"]
SHARES = {"selection_rate", "model_card_share", "detail_share", "fallback_rate", "reask_rate", "pass_rate"}
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}", flush=True)


def request(url, body=None, headers=None, method=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **(headers or {})}
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=20) as response:
        return json.loads(response.read() or b"null")


def admin(base, path):
    return request(f"{base}/admin/{path}", headers={"Authorization": f"Bearer {ADMIN_KEY}"})


def prepare_prompts(work):
    """A copy of prompts/ whose template runs an A/B test of its two variants, half each."""
    prompts = work / "prompts"
    shutil.copytree(ROOT / "prompts", prompts)
    settings_path = prompts / "photo-journal" / "settings.json"
    settings = json.loads(settings_path.read_text())
    settings["variants"] = {"photo-journal": 50, "photo-journal-b": 50}
    settings_path.write_text(json.dumps(settings, indent=4) + "\n")
    return prompts


def traffic(base, stub, rounds):
    """Sessions in several languages, each with a refresh and a selection; the fake's behaviour changes per round."""
    for behaviour, sessions in rounds:
        request(f"{stub}/control", {"behaviour": behaviour})
        for index in range(sessions):
            locale = LANGUAGES[index % len(LANGUAGES)]
            user = f"u-{behaviour}-{index}"
            # A photo of this round's own, so each round's requests reach the fake: a photo an earlier round asked
            # about is a cache hit, and the HTTP 500 round would then make no call to count.
            label = f"{behaviour.split('_')[0]}{index}"
            photo = {"taken_at": "2026-08-14T18:40:00Z", "labels": ["beach", "dog", label], "people_count": index % 3}
            answer = request(f"{base}/v1/prompts", {"locale": locale, "user_id": user, "photo": photo})
            if index % 2 == 0:
                request(f"{base}/v1/sessions/{answer['session_id']}/refresh", {}, {"X-User-ID": user})
            if index % 3 == 0:
                prompt = answer["prompts"][0]["id"]
                request(f"{base}/v1/sessions/{answer['session_id']}/feedback", {"prompt_id": prompt, "action": "selected"}, {"X-User-ID": user})


def seed_history(database, versions, days=6):
    """Six earlier days of hourly counts for the versions first served, as the service itself would have written
    them (the same table and counter names), so the charts have a week to draw. The traffic above is today's."""
    import random
    import sqlite3
    rng = random.Random(7)
    now = int(time.time()) // 3600 * 3600
    rows = []
    for day in range(days, 0, -1):
        for hour in range(8, 22, 2):
            bucket = now - day * 86_400 - (now % 86_400) + hour * 3600
            for variant, version in versions:
                for language in ("en", "es", "fr", "de", "ja"):
                    sessions = rng.randint(2, 9)
                    cards = sessions * 3 + rng.randint(0, sessions) * 3
                    fallback = rng.randint(0, max(1, cards // (4 if variant.endswith("-b") else 8)))
                    kept = rng.randint(cards, cards * 2)
                    counts = {
                        "requests": cards // 3, "sessions": sessions, "refreshes": cards // 3 - sessions, "prompts_shown": cards,
                        "cards.fallback": fallback, "prompts_naming_detail": rng.randint(0, cards // 3),
                        "rounds_with_fallback_prompts": min(fallback, cards // 3), "judged_requests": sessions,
                        "model_calls": sessions + rng.randint(0, 2), "candidates.kept": kept, "candidates.rejected": rng.randint(0, kept // 2),
                        "near_duplicates": rng.randint(0, 2), "sessions_selected": rng.randint(0, sessions),
                        "tokens.prompt": sessions * 260, "tokens.completion": sessions * rng.randint(90, 140),
                        "first_answer_ms.le_500": sessions // 2, "first_answer_ms.le_1000": sessions - sessions // 2,
                        "rejected.too_long": rng.randint(0, 3), "fallback.timeout": rng.randint(0, 1),
                    }
                    rows += [(bucket, "photo-journal", variant, version, language, name, value) for name, value in counts.items() if value > 0]
    with sqlite3.connect(database, timeout=10) as connection:
        connection.executemany(
            "INSERT INTO templateStats (bucket, template, variant, version, language, counter, value) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)


def start(command, env, log):
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1800", "--disable-gpu"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def wait_loaded(driver, view):
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-loaded") == view)


def shown_number(text):
    """The number a cell shows: "41.7 %" -> 41.7, "120 ms" -> 120, "–" -> None."""
    text = text.replace("%", "").replace("ms", "").strip()
    return None if text in ("", "–") else float(text)


def expected_number(measure, value):
    if value is None:
        return None
    return value * 100 if measure in SHARES else value


def same(shown, expected, measure):
    if shown is None or expected is None:
        return shown is None and expected is None
    tolerance = 0.051 if measure in SHARES else (0.51 if measure.endswith("_ms") else 0.0051)
    return abs(shown - expected) <= tolerance


def cells(driver, selector):
    return {(cell.get_attribute("data-version") or cell.get_attribute("data-variant") or cell.get_attribute("data-run")
             or cell.get_attribute("data-backend"), cell.get_attribute("data-measure")): shown_number(cell.text)
            for cell in driver.find_elements(By.CSS_SELECTOR, selector)}


def open_view(driver, view):
    driver.find_element(By.CSS_SELECTOR, f'#tabs button[data-view="{view}"]').click()
    wait_loaded(driver, view)


def check_wrong_key(driver, base):
    driver.get(f"{base}/admin/console")
    driver.find_element(By.ID, "admin-key").send_keys("not-the-admin-key-at-all")
    driver.find_element(By.CSS_SELECTOR, "#key-form button[type=submit]").click()
    message = driver.find_element(By.ID, "message")
    WebDriverWait(driver, 10).until(lambda d: message.is_displayed())
    check("refused that key" in message.text, f"a wrong key names the problem (got {message.text!r})")
    check(not driver.find_element(By.ID, "console").is_displayed(), "a wrong key shows no console")
    check(not driver.find_elements(By.CSS_SELECTOR, "td[data-measure]"), "a wrong key shows no numbers")
    check(driver.execute_script("return sessionStorage.getItem('photoprompts.adminKey')") is None, "a refused key is not kept")
    driver.save_screenshot(str(SCREENSHOTS / "wrong-key.png"))


def check_templates(driver, base):
    driver.find_element(By.ID, "admin-key").send_keys(ADMIN_KEY)
    driver.find_element(By.CSS_SELECTOR, "#key-form button[type=submit]").click()
    wait_loaded(driver, "templates")
    check(ADMIN_KEY not in driver.current_url, "the key never goes into the URL")
    api = admin(base, "versions")
    shown = cells(driver, "#versions td[data-measure]")
    for version in api["versions"]:
        check(shown.get((version["version"], "sessions")) == version["sessions"], f"templates: sessions of {version['version']}")
    serving = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#serving tbody tr")]
    for variant in api["serving"]:
        check(any(variant["version"] in row for row in serving), f"templates: {variant['variant']}@{variant['version']} shown as serving")
    check(len(api["versions"]) >= 3, f"templates: the edit made a third version ({len(api['versions'])} seen)")
    # Versions are listed oldest first, so the default pair is the first two: the base variant and its edit.
    Select(driver.find_element(By.ID, "diff-a")).select_by_value(api["versions"][0]["version"])
    edited = next(v for v in api["versions"] if v["variant"] == api["versions"][0]["variant"] and v is not api["versions"][0])
    Select(driver.find_element(By.ID, "diff-b")).select_by_value(edited["version"])
    driver.find_element(By.ID, "diff-show").click()
    added = [span.text.strip() for span in driver.find_elements(By.CSS_SELECTOR, '#diff pre.diff[data-file="system.mustache"] span.added')]
    check("+ Keep each question warm and specific to this photo." in added, f"templates: the diff shows the edit's added line ({added})")
    Select(driver.find_element(By.ID, "render-version")).select_by_index(0)
    driver.find_element(By.ID, "render-show").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#render pre[data-part="system"]'))
    version = Select(driver.find_element(By.ID, "render-version")).first_selected_option.get_attribute("value")
    fixture = Select(driver.find_element(By.ID, "render-fixture")).first_selected_option.get_attribute("value")
    rendered = admin(base, f"versions/{version}/render?fixture={fixture}")
    check(driver.find_element(By.CSS_SELECTOR, '#render pre[data-part="system"]').text.strip() == rendered["system"].strip(),
          "templates: the render shows the system message the API gives")
    driver.save_screenshot(str(SCREENSHOTS / "templates.png"))


def check_quality(driver, base, language=""):
    Select(driver.find_element(By.ID, "language")).select_by_value(language)
    Select(driver.find_element(By.ID, "window")).select_by_value("7d")
    driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click() if driver.find_element(By.ID, "view-quality").is_displayed() else open_view(driver, "quality")
    wait_loaded(driver, "quality")
    api = admin(base, f"quality?window=7d&language={language}")
    shown = cells(driver, "#quality-totals td[data-measure]")
    check(len(api["versions"]) >= 2, f"quality{language and ' ' + language}: versions with answers ({len(api['versions'])})")
    for version in api["versions"]:
        for (key, measure), value in shown.items():
            if key != version["version"]:
                continue
            expected = expected_number(measure, version["totals"].get(measure))
            check(same(value, expected, measure), f"quality{language and ' ' + language}: {measure} of {key}: page {value}, API {expected}")
    drawn = driver.execute_script("return Object.keys(Chart.instances).length")
    check(drawn >= 10, f"quality: the charts are drawn ({drawn})")
    return api


def check_variants(driver, base):
    open_view(driver, "variants")
    Select(driver.find_element(By.ID, "language")).select_by_value("")
    driver.find_element(By.CSS_SELECTOR, "#filters button[type=submit]").click()
    wait_loaded(driver, "variants")
    api = admin(base, "variants?window=7d")
    verdict = driver.find_element(By.ID, "variants-verdict").text
    check(verdict == api["overall"]["sentence"], f"variants: the verdict is the API's ({verdict!r})")
    shown = {}
    for cell in driver.find_elements(By.CSS_SELECTOR, "#variants-arms td[data-measure]"):
        shown[(cell.get_attribute("data-variant"), cell.get_attribute("data-measure"))] = shown_number(cell.text.split(" (")[0])
    check(len(api["overall"]["arms"]) == 2, "variants: two arms")
    for arm in api["overall"]["arms"]:
        for measure in ("selection_rate", "model_card_share", "pass_rate", "fallback_rate"):
            expected = expected_number(measure, arm["measures"][measure]["value"])
            check(same(shown.get((arm["variant"], measure)), expected, measure), f"variants: {measure} of {arm['variant']}")
    languages = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#variants-languages li")]
    check(languages == [verdict["sentence"] for verdict in api["languages"]], "variants: each language's sentence is the API's")
    check(("is ahead" in verdict) == (api["overall"]["winner"] is not None), "variants: the page names a winner only where the API does")
    driver.save_screenshot(str(SCREENSHOTS / "variants.png"))


def check_evals(driver, base):
    open_view(driver, "evals")
    api = admin(base, "evals")
    check(len(api["runs"]) == 2, f"evals: both stored runs listed ({len(api['runs'])})")
    shown = cells(driver, "#eval-runs td[data-measure]")
    for run in api["runs"]:
        check(same(shown.get((run["id"], "pass_rate")), run["pass_rate"] * 100, "pass_rate"), f"evals: pass rate of {run['id']}")
    driver.find_element(By.ID, "eval-show").click()
    rows = driver.find_elements(By.CSS_SELECTOR, "#eval-compare tbody tr")
    check(len(rows) >= 2, f"evals: two runs side by side, a row per language ({len(rows)})")
    driver.save_screenshot(str(SCREENSHOTS / "evals.png"))


def check_backends(driver, base):
    open_view(driver, "backends")
    api = admin(base, "backends")
    shown = cells(driver, "#backends td[data-measure]")
    for backend in api["backends"]:
        check(shown.get((backend["backend"], "calls")) == backend["calls"], f"backends: calls of {backend['backend']}")
    first = api["backends"][0]
    check(sum(first["errors"].values()) > 0, "backends: the fake's HTTP 500s are counted as errors")
    driver.save_screenshot(str(SCREENSHOTS / "backends.png"))


def main():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="console-test-"))
    processes = []
    log = open(work / "processes.log", "w")
    try:
        stub_port, port = free_port(), free_port()
        processes.append(start([str(BIN / "stub-llm"), "--port", str(stub_port)], os.environ.copy(), log))
        stub = f"http://127.0.0.1:{stub_port}"
        wait_for(f"{stub}/hello")
        prompts = prepare_prompts(work)
        env = {
            **os.environ,
            "HTTP_PORT": str(port),
            "ADMIN_API_KEY": ADMIN_KEY,
            "DATABASE_PATH": str(work / "console.sqlite"),
            "PROMPTS_DIRECTORY": str(prompts),
            "PROMPTS_WATCH_INTERVAL": "0",
            "CONSOLE_DIRECTORY": str(ROOT / "console"),
            "STATS_FLUSH_INTERVAL": "1",
            "LLM_PROVIDER": "openai",
            "LLM_BASE_URL": f"{stub}/v1",
            "LLM_MODEL": "scripted-fake",
            "LLM_TIMEOUT": "5",
            "LLM_2_PROVIDER": "stub",
            "RATE_LIMIT_PER_USER": "0",
            "BREAKER_FAILURES": "1000",
        }
        processes.append(start([str(BIN / "photo-prompts"), "serve"], env, log))
        base = f"http://127.0.0.1:{port}"
        wait_for(f"{base}/healthz")
        traffic(base, stub, [("normal", 20), ("mixed", 10), ("error_500", 10)])
        first = admin(base, "versions")["serving"]
        seed_history(work / "console.sqlite", [(v["variant"], v["version"]) for v in first])
        # An operator's edit, reloaded: a new version of the base variant serves the rest.
        system = prompts / "photo-journal" / "system.mustache"
        system.write_text(system.read_text() + "\nKeep each question warm and specific to this photo.\n")
        request(f"{base}/admin/templates/reload", {}, {"Authorization": f"Bearer {ADMIN_KEY}"})
        traffic(base, stub, [("normal", 20)])
        for _ in range(2):
            subprocess.run(
                [str(BIN / "photo-prompts"), "eval", "--store", "--commit", "console-test", "--output", str(work / "eval.json"), "--concurrency", "2"],
                env={**{k: v for k, v in env.items() if not k.startswith("LLM_")}, "LLM_PROVIDER": "stub"}, check=True, stdout=log, stderr=subprocess.STDOUT, cwd=work,
            )
        time.sleep(1.5)  # one stats flush: the page and the API both flush, but let the service settle

        driver = browser()
        try:
            check_wrong_key(driver, base)
            check_templates(driver, base)
            check_quality(driver, base)
            driver.save_screenshot(str(SCREENSHOTS / "quality.png"))
            check_quality(driver, base, language="es")
            check_variants(driver, base)
            check_evals(driver, base)
            check_backends(driver, base)
        finally:
            driver.quit()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=10)
        log.close()
        if failures:
            print((work / "processes.log").read_text()[-4000:])
    if failures:
        raise SystemExit(f"console browser test: {len(failures)} check(s) failed")
    print(f"console browser test: every view shows the API's numbers; screenshots in {SCREENSHOTS.relative_to(ROOT)}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
