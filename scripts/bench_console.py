"""The console's endpoints on a year of stats: `make bench` (scripts/bench.py) runs this on SQLite and PostgreSQL.

A year of hourly counters for 10 templates, 13 languages and 2 variants is written straight into a migrated store
(the same tables and counter names the service writes, with the daily sums it keeps beside them), then each console
endpoint is timed from a client on loopback against the release build. `python3 scripts/bench.py console` runs only
this and prints the figures.
"""
import shutil
import statistics
import subprocess
import time
import urllib.request

TEMPLATES = ["photo-journal"] + [f"template-{index}" for index in range(1, 10)]
LANGUAGES = ["en", "es", "fr", "de", "it", "pt", "nl", "ja", "ko", "zh-Hans", "ar", "hi", "th"]
VARIANTS = ["a", "b"]
# What an hour of one version in one language holds: the counters every answer writes, and a few of the others.
COUNTERS = ["requests", "sessions", "refreshes", "prompts_shown", "cards.fallback", "prompts_naming_detail", "judged_requests",
            "model_calls", "candidates.kept", "candidates.rejected", "tokens.prompt", "first_answer_ms.le_1000"]
HOURS = 365 * 24
REQUESTS_PER_ENDPOINT = 40


def listed(items, alias):
    """A one-column table of `items`, as both SQLite and PostgreSQL read it."""
    return "(SELECT '" + items[0] + "' AS name" + "".join(f" UNION ALL SELECT '{item}'" for item in items[1:]) + f") AS {alias}"


def year_sql(start):
    """One INSERT … SELECT of every hourly row: templates × hours × variants × languages × counters, in the key's
    order (CROSS JOIN keeps SQLite from reordering), so the tables' b-trees are written front to back."""
    return f"""
        INSERT INTO templateStats (bucket, template, variant, version, language, counter, value)
        SELECT {start} + h.i * 3600, t.name, t.name || '-' || v.name, 'v-' || v.name, l.name, c.name, 1 + (h.i * 7 + length(c.name)) % 13
        FROM {listed(sorted(TEMPLATES), "t")} CROSS JOIN hours h CROSS JOIN {listed(VARIANTS, "v")}
            CROSS JOIN {listed(sorted(LANGUAGES), "l")} CROSS JOIN {listed(sorted(COUNTERS), "c")}
    """


DAILY_SQL = """
    INSERT INTO templateStatsDaily (day, template, variant, version, language, counter, value)
    SELECT bucket - bucket % 86400, template, variant, version, language, counter, SUM(value) FROM templateStats
    GROUP BY 1, 2, 3, 4, 5, 6;
    INSERT INTO templateStatsDaily (day, template, variant, version, language, counter, value)
    SELECT bucket - bucket % 86400, template, variant, version, '*', counter, SUM(value) FROM templateStats
    GROUP BY 1, 2, 3, 4, 6
"""


def fill_sqlite(path, start):
    import sqlite3
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    # Filling, not serving: no fsync per page, and a large cache while the year is written.
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute("PRAGMA cache_size=-1000000")
    connection.execute(f"CREATE TEMP TABLE hours AS WITH RECURSIVE h(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM h WHERE i < {HOURS - 1}) SELECT i FROM h")
    sql = year_sql(start)
    with connection:
        connection.execute(sql)
        for statement in DAILY_SQL.split(";"):
            connection.execute(statement)
    rows = connection.execute("SELECT COUNT(*) FROM templateStats").fetchone()[0]
    connection.execute("PRAGMA optimize")
    connection.close()
    return rows


def fill_postgres(url, start):
    script = f"""
        CREATE TEMP TABLE hours AS SELECT generate_series(0, {HOURS - 1}) AS i;
        {year_sql(start)};
        {DAILY_SQL};
        SELECT COUNT(*) FROM templateStats;
    """
    output = subprocess.run(["psql", url, "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", script], check=True, capture_output=True, text=True)
    # As autovacuum leaves a table at rest: statistics, and the visibility map that lets reads stay in the index.
    subprocess.run(["psql", url, "-q", "-c", "VACUUM ANALYZE templateStats", "-c", "VACUUM ANALYZE templateStatsDaily"], check=True, capture_output=True)
    return int(output.stdout.split()[-1])


def timed(url, key):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        response.read()
    return (time.perf_counter() - started) * 1000


ENDPOINTS = [
    ("quality, a year by day, all languages", "/admin/quality?template={t}&window=365d&bucket=day"),
    ("quality, a year by day, one language", "/admin/quality?template={t}&window=365d&bucket=day&language=es"),
    ("quality, a week by hour, all languages", "/admin/quality?template={t}&window=7d&bucket=hour"),
    ("variants, a year, per language", "/admin/variants?template={t}&window=365d"),
    ("variants, a week, per language", "/admin/variants?template={t}&window=7d"),
    ("versions of the serving template, a year", "/admin/versions"),
    ("stats, the last 24 hours", "/admin/stats?template={t}"),
]


def measure(service, key):
    figures = {}
    for label, path in ENDPOINTS:
        timed(service.url(path.format(t=TEMPLATES[1])), key)  # the first read warms the page cache
        times = sorted(timed(service.url(path.format(t=TEMPLATES[index % len(TEMPLATES)])), key) for index in range(REQUESTS_PER_ENDPOINT))
        figures[label] = {"p50_ms": statistics.median(times), "p95_ms": times[int(len(times) * 0.95) - 1], "max_ms": times[-1]}
    return figures


def console_year(results, Service, Stub, fresh_postgres_database, admin_key, postgres_url=None):
    """Fills a year into SQLite, then PostgreSQL when a server is given, and times every console endpoint on each."""
    start = (int(time.time()) // 3600 * 3600) - HOURS * 3600
    stub = Stub()
    runs = {}
    service = Service(stub)
    service.stop()
    started = time.monotonic()
    filled = service.database
    rows = fill_sqlite(f"{filled}/bench.sqlite", start)
    fill_seconds = time.monotonic() - started
    service = Service(stub, extra={"DATABASE_PATH": f"{filled}/bench.sqlite"})
    runs["SQLite"] = {"rows": rows, "fill_s": fill_seconds, "endpoints": measure(service, admin_key)}
    service.stop()
    shutil.rmtree(filled, ignore_errors=True)  # about 2 GB
    shutil.rmtree(service.database, ignore_errors=True)
    if postgres_url:
        url = fresh_postgres_database(postgres_url, "console_year")
        service = Service(stub, extra={"DATABASE_URL": url})
        service.stop()
        started = time.monotonic()
        rows = fill_postgres(url, start)
        fill_seconds = time.monotonic() - started
        service = Service(stub, extra={"DATABASE_URL": url})
        runs["PostgreSQL"] = {"rows": rows, "fill_s": fill_seconds, "endpoints": measure(service, admin_key)}
        service.stop()
    stub.stop()
    results["console"] = runs


def console_lines(r):
    runs = r.get("console")
    if not runs:
        return []
    lines = [
        "## The operators' console on a year of stats",
        "",
        f"A year of hourly counters ({HOURS} hours × {len(TEMPLATES)} templates × {len(LANGUAGES)} languages × {len(VARIANTS)} variants × "
        f"{len(COUNTERS)} counters) written into a migrated store with the daily sums the service keeps beside them, then "
        f"{REQUESTS_PER_ENDPOINT} sequential requests per endpoint from one client, templates taken in turn. Target: p95 ≤ 200 ms.",
        "",
        "| endpoint | " + " | ".join(f"{store} p50 / p95 (ms)" for store in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for label, _ in ENDPOINTS:
        cells = [f"{run['endpoints'][label]['p50_ms']:.1f} / {run['endpoints'][label]['p95_ms']:.1f}" for run in runs.values()]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    worst = max(endpoint["p95_ms"] for run in runs.values() for endpoint in run["endpoints"].values())
    lines += [
        "",
        "Rows: " + "; ".join(f"{store} {run['rows']:,} hourly rows, written in {run['fill_s']:.0f} s" for store, run in runs.items())
        + f". Slowest p95: {worst:.0f} ms ({'within' if worst <= 200 else 'over'} the 200 ms target).",
        "",
    ]
    return lines
