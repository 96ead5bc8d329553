// The PhotoPrompts operators' console: reads the service's /admin JSON with the key the operator typed, and draws it.
// Plain script, no build step. The key lives only in this tab's sessionStorage and travels only in the
// Authorization header: never in a URL, never in a log.
"use strict";

const KEY_STORAGE = "photoprompts.adminKey";
const charts = [];
let currentView = "templates";
let versionsSeen = [];

// ---- Talking to the service ----

class KeyRefused extends Error {}

async function api(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== "" && value != null));
  const text = query.toString();
  const response = await fetch(`/admin/${path}${text ? "?" + text : ""}`, {
    headers: { Authorization: `Bearer ${sessionStorage.getItem(KEY_STORAGE) || ""}` },
  });
  if (response.status === 401) throw new KeyRefused();
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message || `${path}: HTTP ${response.status}`);
  return body;
}

function rangeParams() {
  return {
    template: value("template"),
    window: value("window"),
    bucket: value("bucket"),
    language: value("language"),
  };
}

// ---- Formatting: the test reads these numbers back, so each kind has one format ----

const SHARES = new Set([
  "selection_rate", "model_card_share", "detail_share", "fallback_rate", "reask_rate", "pass_rate",
]);
const MEASURES = [
  ["model_card_share", "Cards from the model"],
  ["fallback_rate", "Answers with fallbacks"],
  ["pass_rate", "Candidates passing the gate"],
  ["detail_share", "Cards naming a photo detail"],
  ["angles_per_answer", "Angles per answer"],
  ["near_duplicates_per_answer", "Near-duplicates per answer"],
  ["first_answer_p50_ms", "First answer p50 (ms)"],
  ["first_answer_p95_ms", "First answer p95 (ms)"],
  ["model_calls_per_session", "Model calls per session"],
  ["tokens_per_session", "Tokens per session"],
  ["selection_rate", "Sessions with a prompt picked"],
];

function format(measure, number) {
  if (number == null) return "–";
  if (SHARES.has(measure)) return `${(number * 100).toFixed(1)} %`;
  if (measure.endsWith("_ms")) return `${Math.round(number)} ms`;
  return Number.isInteger(number) ? String(number) : number.toFixed(2);
}

function counts(map) {
  const entries = Object.entries(map || {}).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([name, count]) => `${name} ${count}`).join(", ") : "–";
}

// ---- Small DOM helpers ----

function value(id) { return document.getElementById(id).value.trim(); }
function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text != null) node.textContent = text;
  for (const [name, attribute] of Object.entries(attributes)) node.setAttribute(name, attribute);
  return node;
}
function fillTable(id, headings, rows) {
  const table = document.getElementById(id);
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const heading of headings) head.append(element("th", heading));
  const body = table.createTBody();
  for (const cells of rows) {
    const row = body.insertRow();
    for (const cell of cells) row.append(cell instanceof Node ? cell : element("td", cell));
  }
}
function numberCell(measure, number, extra = {}) {
  return element("td", format(measure, number), { "data-measure": measure, ...extra });
}
function fillSelect(id, options) {
  const select = document.getElementById(id);
  const previous = select.value;
  select.replaceChildren(...options.map(([optionValue, label]) => element("option", label, { value: optionValue })));
  if (options.some(([optionValue]) => optionValue === previous)) select.value = previous;
}
function say(text, isError = false) {
  const message = document.getElementById("message");
  message.textContent = text;
  message.hidden = !text;
  message.className = isError ? "error" : "";
}

// ---- Charts (Chart.js from libjs-chart.js) ----

// One colour per version, in the order the API lists them (most answers first).
const PALETTE = ["#2d6cdf", "#e8590c", "#2f9e44", "#9c36b5", "#c2255c", "#0c8599", "#5c940d", "#862e9c"];
function coloured(datasets) {
  return datasets.map((dataset, index) => ({
    ...dataset, borderColor: PALETTE[index % PALETTE.length], backgroundColor: PALETTE[index % PALETTE.length], pointRadius: 2, tension: 0.2,
  }));
}

function clearCharts() {
  while (charts.length) charts.pop().destroy();
}
function lineChart(container, title, labels, datasets) {
  const box = element("div", null, { class: "chart", "data-chart": title });
  box.append(element("h3", title));
  const canvas = element("canvas");
  box.append(canvas);
  container.append(box);
  if (!window.Chart) return;
  charts.push(new Chart(canvas, {
    type: "line",
    data: { labels, datasets: coloured(datasets) },
    options: { animation: false, responsive: true, maintainAspectRatio: false, spanGaps: true, plugins: { legend: { position: "bottom" } } },
  }));
}
function label(start, bucket) {
  const date = new Date(start);
  return bucket === "day" ? date.toISOString().slice(0, 10) : date.toISOString().slice(5, 13).replace("T", " ") + "h";
}

// ---- Views ----

async function showTemplates() {
  const [report, fixtures] = await Promise.all([api("versions"), api("fixtures").catch(() => ({ fixtures: [] }))]);
  fillTable("serving", ["Variant", "Version", "Weight"], report.serving.map((s) => [s.variant, s.version, `${s.weight}`]));
  versionsSeen = report.versions;
  fillTable(
    "versions",
    ["Variant", "Version", "First served", "Last served", "Sessions", "Answers", "Serving in the last hour"],
    report.versions.map((v) => [
      v.variant, v.version, v.first_served || "not yet", v.last_served || "not yet",
      numberCell("sessions", v.sessions, { "data-version": v.version }), numberCell("requests", v.requests, { "data-version": v.version }),
      v.serving_recently ? "yes" : "no",
    ]),
  );
  const choices = report.versions.map((v) => [v.version, `${v.variant}@${v.version}`]);
  for (const id of ["diff-a", "diff-b", "render-version"]) fillSelect(id, choices);
  if (choices.length > 1 && value("diff-a") === value("diff-b")) document.getElementById("diff-b").selectedIndex = 1;
  fillSelect("render-fixture", fixtures.fixtures.map((f) => [f.name, `${f.name} (${f.locale})`]));
}

async function showQuality() {
  const report = await api("quality", rangeParams());
  document.getElementById("quality-range").textContent =
    `${report.template}, ${report.from} to ${report.to}, by ${report.bucket}, ${report.language || "all languages"}`;
  clearCharts();
  const container = document.getElementById("quality-charts");
  container.replaceChildren();
  const starts = [...new Set(report.versions.flatMap((v) => v.points.map((p) => p.start)))].sort();
  const labels = starts.map((start) => label(start, report.bucket));
  for (const [measure, title] of MEASURES) {
    const datasets = report.versions.map((v) => {
      const byStart = new Map(v.points.map((p) => [p.start, p[measure]]));
      const scale = SHARES.has(measure) ? 100 : 1;
      return { label: `${v.variant}@${v.version}`, data: starts.map((s) => (byStart.get(s) == null ? null : byStart.get(s) * scale)) };
    });
    lineChart(container, title, labels, datasets);
  }
  fillTable(
    "quality-totals",
    ["Version", "Sessions", ...MEASURES.map(([, title]) => title), "Cards by angle", "Fallbacks by reason", "Rejections by reason", "Feedback"],
    report.versions.map((v) => [
      `${v.variant}@${v.version}`,
      numberCell("sessions", v.totals.sessions, { "data-version": v.version }),
      ...MEASURES.map(([measure]) => numberCell(measure, v.totals[measure], { "data-version": v.version })),
      counts(v.totals.angles), counts(v.totals.fallbacks_by_reason), counts(v.totals.rejections), counts(v.totals.feedback),
    ]),
  );
}

async function showVariants() {
  const report = await api("variants", rangeParams());
  document.getElementById("variants-range").textContent = `${report.template}, ${report.from} to ${report.to}`;
  document.getElementById("variants-verdict").textContent = report.overall.sentence;
  const measures = MEASURES.map(([measure]) => measure);
  fillTable(
    "variants-arms",
    ["Measure", ...report.overall.arms.map((arm) => `${arm.variant} (${arm.sessions} sessions)`)],
    measures.map((measure) => [
      MEASURES.find(([m]) => m === measure)[1],
      ...report.overall.arms.map((arm) => {
        const estimate = arm.measures[measure];
        const interval = estimate.low == null ? "" : ` (${format(measure, estimate.low)} – ${format(measure, estimate.high)})`;
        return element("td", format(measure, estimate.value) + interval, { "data-measure": measure, "data-variant": arm.variant });
      }),
    ]),
  );
  document.getElementById("variants-languages").replaceChildren(...report.languages.map((v) => element("li", v.sentence, { "data-language": v.language })));
}

async function showEvals() {
  const report = await api("evals");
  fillTable(
    "eval-runs",
    ["Run", "Stored", "Commit", "Template", "Model", "Fixtures", "Pass rate", "Fallbacks", "p95"],
    report.runs.map((run) => [
      run.id, run.created_at, run.commit || "–", `${run.template.variant}@${run.template.version}`, run.model, `${run.fixtures}`,
      numberCell("pass_rate", run.pass_rate, { "data-run": run.id }), numberCell("fallback_rate", run.fallback_rate, { "data-run": run.id }),
      numberCell("latency_p95_ms", run.latency_p95_ms, { "data-run": run.id }),
    ]),
  );
  const choices = report.runs.map((run) => [run.id, `${run.created_at} ${run.template.variant}@${run.template.version} ${run.model}`]);
  fillSelect("eval-a", choices);
  fillSelect("eval-b", choices);
  if (choices.length > 1 && value("eval-a") === value("eval-b")) document.getElementById("eval-b").selectedIndex = 1;
  document.getElementById("eval-show").onclick = () => compareEvals(report.runs);
}

function compareEvals(runs) {
  const a = runs.find((run) => run.id === value("eval-a"));
  const b = runs.find((run) => run.id === value("eval-b"));
  if (!a || !b) return;
  const languages = [...new Set([...Object.keys(a.languages), ...Object.keys(b.languages)])].sort();
  const columns = [["pass_rate", "pass"], ["model_card_share", "model cards"], ["detail_share", "naming a detail"], ["fallback_share", "fallbacks"]];
  fillTable(
    "eval-compare",
    ["Language", ...columns.flatMap(([, title]) => [`${title} A`, `${title} B`])],
    languages.map((language) => [
      language,
      ...columns.flatMap(([measure]) => [a, b].map((run) => numberCell(measure === "fallback_share" ? "fallback_rate" : measure, run.languages[language]?.[measure]))),
    ]),
  );
}

async function showBackends() {
  const report = await api("backends");
  document.getElementById("backends-since").textContent = `Counted since ${report.since} on this instance`;
  fillTable(
    "backends",
    ["#", "Backend", "Structured output", "Breaker", "Calls", "Errors", "Mean", "p50", "p95", "Tokens"],
    report.backends.map((b) => [
      `${b.position}`, b.backend, b.structured_output || "–", b.breaker, numberCell("calls", b.calls, { "data-backend": b.backend }),
      counts(b.errors), numberCell("latency_mean_ms", b.latency_mean_ms), numberCell("latency_p50_ms", b.latency_p50_ms),
      numberCell("latency_p95_ms", b.latency_p95_ms), counts(b.tokens),
    ]),
  );
  clearCharts();
  if (!window.Chart) return;
  const outcomes = [...new Set(report.backends.flatMap((b) => Object.keys(b.outcomes)))].sort();
  charts.push(new Chart(document.getElementById("backends-chart"), {
    type: "bar",
    data: { labels: report.backends.map((b) => b.backend), datasets: coloured(outcomes.map((o) => ({ label: o, data: report.backends.map((b) => b.outcomes[o] || 0) }))) },
    options: { animation: false, responsive: true, maintainAspectRatio: false, scales: { x: { stacked: true }, y: { stacked: true } } },
  }));
}

// ---- Diff and render ----

// A line diff by longest common subsequence: template files are short, so the quadratic table is fine.
function lineDiff(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  }
  const lines = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { lines.push([" ", a[i]]); i++; j++; }
    else if (j < b.length && (i === a.length || table[i][j + 1] >= table[i + 1][j])) { lines.push(["+", b[j]]); j++; }
    else { lines.push(["-", a[i]]); i++; }
  }
  return lines;
}

function showDiff() {
  const a = versionsSeen.find((v) => v.version === value("diff-a"));
  const b = versionsSeen.find((v) => v.version === value("diff-b"));
  const container = document.getElementById("diff");
  container.replaceChildren();
  if (!a?.files || !b?.files) { container.append(element("p", "The files of one of these versions were not kept.")); return; }
  for (const file of [...new Set([...Object.keys(a.files), ...Object.keys(b.files)])].sort()) {
    const lines = lineDiff(a.files[file] || "", b.files[file] || "");
    const changed = lines.some(([mark]) => mark !== " ");
    container.append(element("h3", `${file}${changed ? "" : " (unchanged)"}`));
    if (!changed) continue;
    const pre = element("pre", null, { class: "diff", "data-file": file });
    for (const [mark, text] of lines) pre.append(element("span", `${mark} ${text}\n`, { class: { "+": "added", "-": "removed", " ": "same" }[mark] }));
    container.append(pre);
  }
}

async function showRender() {
  const report = await api(`versions/${encodeURIComponent(value("render-version"))}/render`, { fixture: value("render-fixture") });
  const container = document.getElementById("render");
  container.replaceChildren(
    element("h3", "System"), element("pre", report.system, { "data-part": "system" }),
    element("h3", "User"), element("pre", report.user, { "data-part": "user" }),
    element("h3", "Parameters"), element("pre", JSON.stringify(report.parameters, null, 2)),
    element("h3", "Grammar (llama.cpp)"), element("pre", report.grammar, { "data-part": "grammar" }),
  );
}

// ---- Wiring ----

const VIEWS = { templates: showTemplates, quality: showQuality, variants: showVariants, evals: showEvals, backends: showBackends };

async function show(view) {
  currentView = view;
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${view}`;
  for (const tab of document.querySelectorAll("#tabs button")) tab.classList.toggle("active", tab.dataset.view === view);
  document.body.dataset.loaded = "";
  try {
    await VIEWS[view]();
    say("");
    document.body.dataset.loaded = view;
  } catch (error) {
    if (error instanceof KeyRefused) {
      sessionStorage.removeItem(KEY_STORAGE);
      document.getElementById("console").hidden = true;
      clearCharts();
      say("The service refused that key. Type the ADMIN_API_KEY the service was started with.", true);
    } else {
      say(error.message, true);
    }
  }
}

async function open() {
  document.getElementById("console").hidden = false;
  try {
    const templates = await api("templates");
    fillSelect("language", [["", "all languages"], ...templates.live.copy_locales.map((tag) => [tag, tag])]);
  } catch (error) {
    if (error instanceof KeyRefused) return show(currentView);
  }
  await show(currentView);
}

document.getElementById("key-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY_STORAGE, value("admin-key"));
  document.getElementById("admin-key").value = "";
  open();
});
document.getElementById("forget-key").addEventListener("click", () => {
  sessionStorage.removeItem(KEY_STORAGE);
  document.getElementById("console").hidden = true;
  say("Key forgotten.");
});
document.getElementById("filters").addEventListener("submit", (event) => { event.preventDefault(); show(currentView); });
for (const tab of document.querySelectorAll("#tabs button")) tab.addEventListener("click", () => show(tab.dataset.view));
document.getElementById("diff-show").addEventListener("click", showDiff);
document.getElementById("render-show").addEventListener("click", () => showRender().catch((error) => say(error.message, true)));
if (sessionStorage.getItem(KEY_STORAGE)) open();
