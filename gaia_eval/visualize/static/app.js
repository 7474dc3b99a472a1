// gaia-eval viewer: each view has its own URL (real links); every shown text goes through textContent, so no
// markup from a model output is ever parsed. Charts (server-drawn SVG) and the rendered report are the only
// HTML inserted (charts are <img> of server-drawn SVG), and the page's Content-Security-Policy runs no script but this file.
"use strict";
const main = () => document.getElementById("main");
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined) e.append(kid instanceof Node ? kid : String(kid));
  return e;
}
async function api(path) {
  const r = await fetch(path);
  if (!r.ok) { // the server says what it did not find and where it looked ({"error", "message"})
    const text = await r.text();
    let said = null;
    try { said = JSON.parse(text); } catch (e) { /* plain text */ }
    throw new Error((said && (said.message || said.error)) || text || String(r.status));
  }
  return r.json();
}
const fmt = (v, d = 1) => (v === null || v === undefined ? "—" : Number(v).toFixed(d));
const money = (v) => (v === null || v === undefined ? "—" : "$" + Number(v).toFixed(4));
const pct = (v) => (v === null || v === undefined ? "—" : Math.round(100 * v) + " %");
const badge = (r) => (r ? el("span", { class: "badge " + r }, r) : "—");
const itemUrl = (uc, id, q) => "/item/" + encodeURIComponent(uc) + "/" + (id ? encodeURIComponent(id) : "") + (q || "");
const matrixUrl = (uc, params) => "/matrix/" + encodeURIComponent(uc) + (params ? "?" + new URLSearchParams(params) : "");
const verdictBadge = (v) => (!v || v === "missing" ? el("span", { class: "muted" }, "—")
  : el("span", { class: "badge verdict " + ({ pass: "Excellent", fail: "Poor", error: "Poor" }[v] || v) }, v));

// A table sorted by a click on its header. With `limit`, only that many rows are drawn until "show all" is
// clicked: at 1,000 evaluations the first paint draws a screenful, not every row.
function sortable(table, rows, columns, render, limit) {
  let key = null, dir = 1, shown = limit || Infinity;
  const head = el("tr", {}, columns.map((c) => {
    const th = el("th", { class: "sortable" + (c.num ? " num" : ""), title: "sort" }, c.label);
    th.addEventListener("click", () => { dir = key === c.key ? -dir : (c.num ? -1 : 1); key = c.key; draw(); });
    return th;
  }));
  const body = el("tbody");
  function draw() {
    const sorted = key ? [...rows].sort((a, b) => { const x = a[key] ?? -Infinity, y = b[key] ?? -Infinity; return (x > y ? 1 : x < y ? -1 : 0) * dir; }) : rows;
    body.replaceChildren(...sorted.slice(0, shown).map(render));
    if (sorted.length > shown) {
      const more = el("button", { type: "button", class: "show-all" }, `show all ${sorted.length} rows`);
      more.addEventListener("click", () => { shown = Infinity; draw(); });
      body.append(el("tr", { class: "more" }, el("td", { colspan: String(columns.length) },
        el("span", { class: "muted" }, `${shown} of ${sorted.length} shown (sorted over all) `), more)));
    }
  }
  table.replaceChildren(el("thead", {}, head), body);
  draw();
  return draw; // to redraw when rows gain a value (the grade intervals come after the table)
}

// Asked for after every table is on screen: drawing takes seconds the first time, and the tables never wait for it.
function chartsFor(useCase) {
  const box = el("div", { class: "charts" }, el("p", { class: "muted charts-loading" }, "drawing charts…"));
  return [box, () => api("/api/charts?use_case=" + encodeURIComponent(useCase)).then((charts) => {
    box.replaceChildren();
    const titles = { grade: "Grade (95 % interval)", ratings: "Criterion × model", tradeoff: "Quality vs cost and latency (Pareto front dashed)", items: "Items per rating band" };
    for (const kind of charts.kinds) {
      // An <img>: the SVG (drawn by the server with matplotlib) is its own document and can run nothing here.
      const src = "/chart.svg?use_case=" + encodeURIComponent(useCase) + "&kind=" + encodeURIComponent(kind);
      // The SVG carries its own title; the tile links to it full size.
      box.append(el("div", { class: "chart" + ((charts.wide || []).includes(kind) ? " wide" : ""), "data-kind": kind },
        el("a", { href: src, target: "_blank", title: "open full size" }, el("img", { src, alt: titles[kind] || kind, loading: "lazy" }))));
    }
    for (const [kind, why] of Object.entries(charts.left_out || {})) box.append(el("p", { class: "muted chart-left-out", "data-kind": kind }, why));
  }).catch(() => box.replaceChildren(el("p", { class: "muted" }, "no charts")))];
}

const duration = (s) => (s === null || s === undefined ? "—" : s < 90 ? Math.round(s) + " s" : s < 5400 ? Math.round(s / 60) + " min" : (s / 3600).toFixed(1) + " h");

function fill(share) { // CSSOM, not a style attribute: the page's CSP allows no inline style markup
  const f = el("span", { class: "fill" });
  f.style.width = share + "%";
  return f;
}

function liveBox() {
  const box = el("div", { class: "card live", id: "live" }, el("h2", {}, "Live runs"), el("p", { class: "muted" }, "checking journals…"));
  const head = ["Stage", "Experiment", "Model", "State", "Progress", "Done", "Errors", "In flight", "Spend so far", "Tokens out", "Pace", "ETA", "Last write"];
  async function tick() {
    try {
      const data = await api("/api/live");
      const rows = data.runs.map((r) => {
        const share = r.total ? Math.min(100, Math.round((100 * r.finished) / r.total)) : null;
        const bar = share === null ? "—" : el("span", { class: "progress" },
          el("span", { class: "bar" }, fill(share)), ` ${r.finished} / ${r.total}`);
        return el("tr", { "data-run": r.experiment_name, class: r.running ? "running" : "stopped" },
          el("td", {}, r.stage), el("td", {}, r.experiment_name), el("td", {}, r.model ?? "—"),
          el("td", {}, r.running ? el("span", { class: "badge Good" }, "running") : el("span", { class: "badge Fair", title: "no write for two minutes: the same command resumes it" }, "stopped")),
          el("td", {}, bar), el("td", { class: "num done" }, r.done), el("td", { class: "num errors" }, r.errors),
          el("td", { class: "num inflight", title: "at most: the run's concurrency limit, which models on one endpoint share" }, r.in_flight ? "≤ " + r.in_flight : r.in_flight ?? "—"), el("td", { class: "num" }, money(r.spend_usd)),
          el("td", { class: "num" }, r.tokens_out), el("td", { class: "num" }, r.rate_per_min === null ? "—" : r.rate_per_min + " /min"),
          el("td", { class: "num eta" }, r.running ? duration(r.eta_s) : "—"), el("td", { class: "num" }, duration(r.seconds_since_update) + " ago"));
      });
      box.replaceChildren(el("h2", {}, "Live runs"), rows.length
        ? el("table", { class: "live-runs" }, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))), el("tbody", {}, rows))
        : el("p", { class: "muted" }, "No batch-experiment or eval --judge running in this workspace (no journals). Progress appears here while one runs, without reloading."));
    } catch (e) { /* keep the last view */ }
  }
  tick();
  setInterval(tick, 1500);
  return box;
}

function versus(value, base, scale, digits, lowerIsBetter) {
  if (value === null || value === undefined) return "—";
  const shown = (v) => (scale === 100 ? (100 * v).toFixed(digits) + " %" : Number(v).toFixed(digits));
  if (base === null || base === undefined) return shown(value);
  const delta = (value - base) * scale;
  const good = lowerIsBetter ? delta <= 0 : delta >= 0;
  return el("span", {}, shown(value), " ", el("span", { class: Math.abs(delta) < 1e-9 ? "muted" : good ? "better" : "worse" },
    `(${delta >= 0 ? "+" : ""}${delta.toFixed(digits)}${scale === 100 ? " pts" : ""} vs ${shown(base)})`));
}

function benchSection(runs) {
  const rows = runs.map((r) => {
    const b = r.baseline || {};
    const raw = (p, label) => el("a", { href: "/raw?root=reports&path=" + encodeURIComponent(p) }, label);
    return el("tr", { "data-bench": r.file },
      el("td", {}, raw(r.file, r.file)), el("td", {}, r.suite), el("td", {}, r.runner), el("td", { class: "num" }, r.n),
      el("td", { class: "num" }, versus(r.success_rate, b.success_rate, 100, 1, false)),
      el("td", { class: "num" }, versus(r.avg_steps, b.avg_steps, 1, 2, true)),
      el("td", { class: "num" }, versus(r.tool_error_rate, b.tool_error_rate, 100, 1, true)),
      el("td", { class: "num" }, r.runner_errors ?? "—"),
      el("td", { class: "num" }, r.usage ? `${r.usage.input_tokens} / ${r.usage.output_tokens}` : "—"),
      el("td", {}, r.baseline ? el("span", { title: r.baseline.file }, r.baseline.file.split("/").pop()) : el("span", { class: "muted" }, "none")),
      el("td", {}, r.failed_tasks.length ? el("details", {}, el("summary", {}, `${r.failed_tasks.length} failed`), r.failed_tasks.join(", ")) : "all passed"),
      el("td", {}, r.junit ? raw(r.junit, "JUnit") : "—"));
  });
  const charts = el("div", { class: "charts wide" }, runs.map((r) => {
    const src = "/bench.svg?path=" + encodeURIComponent(r.file);
    return el("div", { class: "chart", "data-kind": "bench" }, el("a", { href: src, target: "_blank", title: "open full size" },
      el("img", { src, alt: `bench ${r.suite} against its baseline` })));
  }));
  const head = ["Results", "Suite", "Runner", "Tasks", "Success", "Avg steps", "Tool-error rate", "Runner errors", "Tokens in / out", "Baseline", "Failed tasks", "Export"];
  return el("section", { class: "card", id: "bench" }, el("h2", {}, "Bench runs ", el("span", { class: "muted" }, `(${runs.length})`)),
    el("p", { class: "muted" }, "Each metric with its change against the run's baseline in brackets (green better, red worse). Results files written by gaia-eval bench -o under the reports folder."),
    el("table", { class: "bench" }, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))), el("tbody", {}, rows)), charts);
}

// How far the ranking agrees with the user's own blind ratings (gaia-eval annotate, then meta-eval --evaluations),
// the best score only with its n (or why none is named), and what people would rate each model.
function ownTrust(t) {
  if (!t) return null;
  const ci = (c) => (c ? ` [${fmt(c[0], 2)}, ${fmt(c[1], 2)}]` : "");
  const withheld = [...new Set(t.rows.map((r) => r.best_withheld).filter(Boolean))];
  const line = el("p", { class: "own-trust" }, el("strong", {}, "Against your own ratings: "),
    `${t.n_outputs} outputs rated blind by ${t.raters.join(", ")}. `,
    t.rows.map((r) => `${r.dimension}: ${t.scorer} τ ${r.output_kendall === null ? "—" : fmt(r.output_kendall, 2)}${ci(r.output_kendall_ci)}` +
      (r.best ? `, agrees best: ${r.best} (${fmt(r.best_kendall, 2)} over ${r.best_n} rated outputs${r.best_above_length === false ? ", not above the length baseline" : ""})` : "")).join("; ") + ".",
    withheld.length ? [" Best score: ", withheld.join("; "), "."] : []);
  if (!t.estimates || !t.estimates.length) return line;
  const dims = [...new Set(t.estimates.map((e) => e.dimension))];
  const models = [...new Set(t.estimates.map((e) => e.system))];
  const cell = (m, d) => {
    const e = t.estimates.find((x) => x.system === m && x.dimension === d);
    return el("td", { title: e ? e.sentence : null }, e ? `${fmt(e.value, 1)} (${fmt(e.ci95[0], 1)}–${fmt(e.ci95[1], 1)})` : "—");
  };
  const first = t.estimates[0];
  return el("div", { class: "own-trust-block" }, line,
    el("p", { class: "own-estimates" }, el("strong", {}, "What people would rate each model"),
      ` (1–5, 95 % interval; from ${first.n_rated} of your ratings and ${first.scorer === "grade" ? "the grade" : first.scorer} on ${first.n_outputs} outputs per model — hover a cell for its own n):`),
    el("table", { class: "own-estimates" }, el("thead", {}, el("tr", {}, el("th", {}, "Model"), dims.map((d) => el("th", {}, d)))),
      el("tbody", {}, models.map((m) => el("tr", {}, el("td", {}, m), dims.map((d) => cell(m, d)))))));
}

const DASHBOARD_ROWS = 100; // per use case at first; "show all" draws the rest

async function dashboard() {
  const data = await api("/api/dashboard");
  const m = main();
  const later = [], drawing = []; // every use case's grade intervals, then the charts: once every table is shown
  m.replaceChildren(el("h1", {}, "Evaluations"), liveBox());
  if (!data.use_cases.length) m.append(el("p", { class: "muted" }, "No evaluation files yet: run gaia-eval eval."));
  for (const uc of data.use_cases) {
    const table = el("table", { class: "dash", "data-use-case": uc.use_case });
    const qa = uc.pass_rates; // the server says: answers to questions, some model with a pass rate
    const extra = uc.models.some((r) => r.extra && r.extra.length); // eval --scorer
    const judged = uc.models.some((r) => r.unscored !== null || r.judge_cost_usd !== null); // eval --judge: its columns
    const cols = [
      { key: "experiment_name", label: "Experiment" }, { key: "model", label: "Model" },
      { key: "grade", label: "Grade (95 % CI)", num: 1 }, { key: "grade", label: "Rating" },
      ...(qa ? [{ key: "pass_rate", label: "Pass rate", num: 1 }] : []),
      { key: "items", label: "Items", num: 1 }, { key: "errors", label: "Errors", num: 1 },
      ...(judged ? [{ key: "unscored", label: "Judge unscored", num: 1 }] : []),
      { key: "cost_usd", label: "Model cost", num: 1 },
      ...(judged ? [{ key: "judge_cost_usd", label: "Judge cost", num: 1 }] : []),
      { key: "tokens_in", label: "Tokens in / out", num: 1 }, { key: "latency_p50_s", label: "Latency p50 / p95", num: 1 },
      ...(extra ? [{ key: "extra", label: "Extra (not in grade)" }] : []),
    ];
    const redraw = sortable(table, uc.models, cols, (r) => el("tr", { "data-file": r.file },
      el("td", {}, el("a", { href: "/eval/" + r.file }, r.experiment_name)), el("td", {}, r.model),
      el("td", { class: "num grade" }, fmt(r.grade) + (r.ci ? ` (${fmt(r.ci[0], 0)}–${fmt(r.ci[1], 0)})` : r.ci === undefined ? " (…)" : "")),
      el("td", {}, badge(r.rating)), ...(qa ? [el("td", { class: "num" }, pct(r.pass_rate))] : []),
      el("td", { class: "num" }, r.items), el("td", { class: "num" }, r.errors),
      ...(judged ? [el("td", { class: "num" }, r.unscored ?? "—")] : []),
      el("td", { class: "num" }, r.cost_text), ...(judged ? [el("td", { class: "num" }, money(r.judge_cost_usd))] : []),
      el("td", { class: "num" }, `${r.tokens_in} / ${r.tokens_out}`), el("td", { class: "num" }, r.latency_p50_s === null ? "—" : `${fmt(r.latency_p50_s, 3)} / ${fmt(r.latency_p95_s, 3)} s`),
      ...(extra ? [el("td", { class: "extra" }, r.extra.length ? r.extra.join("; ") : "—")] : [])), DASHBOARD_ROWS);
    const [charts, drawCharts] = chartsFor(uc.use_case);
    later.push(() => api("/api/intervals?use_case=" + encodeURIComponent(uc.use_case)).then((iv) => {
      for (const r of uc.models) r.ci = iv[r.file] ?? null;
      redraw();
    }).catch(() => { for (const r of uc.models) r.ci = null; redraw(); }));
    drawing.push(drawCharts);
    m.append(el("section", { class: "card" },
      el("h2", {}, uc.title, " ", el("span", { class: "muted" }, `(${uc.models.length} models)`)),
      el("div", { class: "toolbar" }, el("a", { href: matrixUrl(uc.use_case), class: "matrix-link" }, "Every item × system (matrix)"),
        el("a", { href: matrixUrl(uc.use_case, { filter: "disagree", sort: "spread" }) }, "Items where systems disagree"),
        el("a", { href: itemUrl(uc.use_case, "") }, "One item at a time")),
      ownTrust(uc.trust), table, charts)); // the card scrolls sideways when the table is wider
  }
  if (data.bench.length) m.append(benchSection(data.bench));
  // the tables are painted before anything slower is asked for
  requestAnimationFrame(() => setTimeout(async () => { for (const next of [...later, ...drawing]) await next(); }, 0));
}

function outputBlock(out) {
  if (out === null || out === undefined) return el("p", { class: "muted" }, "no output");
  if (typeof out === "string") return el("pre", { class: "out" }, out);
  return el("div", {}, Object.entries(out).map(([k, v]) => [el("h4", {}, k.replaceAll("_", " ")),
    el("pre", { class: "out" }, Array.isArray(v) ? v.map((x) => "• " + x).join("\n") : String(v))]));
}

async function itemPage(useCase, itemId) {
  const params = new URLSearchParams(location.search);
  const filter = params.get("filter") || "";
  const d = await api("/api/item?use_case=" + encodeURIComponent(useCase) + (itemId ? "&item=" + encodeURIComponent(itemId) : ""));
  let order = d.item_ids;
  if (filter === "disagree") order = d.disagreement;
  else if (filter.startsWith("failed:")) order = d.item_ids.filter((i) => d.failed_by[i].includes(filter.slice(7)));
  if (!itemId && order.length && order[0] !== d.item_id) { location.replace(itemUrl(useCase, order[0], location.search)); return; }
  const pos = order.indexOf(d.item_id);
  const prev = pos > 0 ? itemUrl(useCase, order[pos - 1], location.search) : null;
  const next = pos >= 0 && pos < order.length - 1 ? itemUrl(useCase, order[pos + 1], location.search) : null;
  document.onkeydown = (e) => {
    if (e.target.tagName === "SELECT") return;
    if ((e.key === "ArrowRight" || e.key === "j") && next) location.href = next;
    if ((e.key === "ArrowLeft" || e.key === "k") && prev) location.href = prev;
  };
  const sel = el("select", { id: "filter" }, el("option", { value: "" }, "all items"), el("option", { value: "disagree" }, "models disagree most first"),
    d.models.map((mm) => el("option", { value: "failed:" + mm.experiment_name }, "failed by " + mm.experiment_name)));
  sel.value = filter;
  sel.addEventListener("change", () => { location.href = itemUrl(useCase, "", sel.value ? "?filter=" + encodeURIComponent(sel.value) : ""); });
  main().replaceChildren(
    el("h1", {}, `${d.title} · item ${d.item_id}`),
    el("div", { class: "toolbar" }, prev ? el("a", { href: prev, id: "prev" }, "← previous") : el("span", { class: "muted" }, "← previous"),
      el("span", {}, `${pos + 1} of ${order.length}`), next ? el("a", { href: next, id: "next" }, "next →") : el("span", { class: "muted" }, "next →"),
      el("span", { class: "muted" }, "keys: ", el("kbd", {}, "←"), " ", el("kbd", {}, "→")), sel,
      el("span", { class: "muted" }, `score spread across models: ${fmt(d.spread[d.item_id])}`)),
    el("div", { class: "card" }, d.models.find((mm) => mm.query) ? el("p", {}, el("b", {}, "Question: "), d.models.find((mm) => mm.query).query) : "",
      el("details", { class: "source", ...((d.source || "").length < 1500 ? { open: "" } : {}) },
        el("summary", {}, `Source document (${(d.source || "").length} characters)`), el("pre", { class: "out" }, d.source || "—"))),
    sideBySide(d));
}

// One grid, one row per output section, one column per model with the ground truth first: the same section of
// every output sits on the same line, as in promptfoo's and inspect's viewers.
function sideBySide(d) {
  const qa = d.asks_questions; // the use case says: one answer per item, not sections
  const keys = [];
  for (const o of [d.groundtruth, ...d.models.map((mm) => mm.output)]) {
    if (!qa && o && typeof o === "object") for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k);
  }
  const text = (v) => (v === null || v === undefined || v === "" ? el("p", { class: "muted" }, "—")
    : el("pre", { class: "out" }, Array.isArray(v) ? (v.length ? v.map((x) => "• " + x).join("\n") : "(none)") : String(v)));
  const grid = el("div", { class: "grid", id: "side-by-side" });
  // CSSOM (allowed by the CSP). Four systems and the ground truth fit 1,400 px; more scroll sideways in the grid.
  grid.style.gridTemplateColumns = `130px repeat(${d.models.length + 1}, minmax(210px, 1fr))`;
  const row = (label, truth, perModel, cls) => grid.append(el("div", { class: "rowlabel " + (cls || "") }, label),
    el("div", { class: "truth " + (cls || "") }, truth), ...d.models.map((mm) => el("div", { class: "out-cell " + (cls || ""), "data-model": mm.experiment_name }, perModel(mm))));
  row("", el("b", {}, "Ground truth"), (mm) => el("div", { class: "model-output", "data-model": mm.experiment_name },
    el("b", {}, mm.experiment_name), " ", el("span", { class: "muted" }, mm.model), el("br"),
    "item score ", el("b", {}, fmt(mm.score)), " ", mm.score === null || mm.score === undefined ? "" : badge(bandOf(mm.score)),
    mm.passed === null ? "" : mm.passed ? el("span", { class: "badge Excellent" }, "pass") : el("span", { class: "badge Poor" }, "fail"),
    mm.status === "error" ? el("p", { class: "error" }, "error: " + mm.error) : ""), "head");
  if (qa) {
    row("Answer", d.groundtruth ? [text(d.groundtruth.answer), d.groundtruth.evidence ? el("p", { class: "muted" }, "evidence: ", d.groundtruth.evidence) : ""]
      : el("p", { class: "muted" }, "none (standalone)"), (mm) => text(mm.output));
  } else {
    for (const k of keys) row(k.replaceAll("_", " "), d.groundtruth ? text(d.groundtruth[k]) : el("p", { class: "muted" }, "none (standalone)"), (mm) => text(mm.output && mm.output[k]));
  }
  // Criterion and rating on one line, the evidence or rationale under it at the cell's full width.
  const checks = (list) => (list.length ? el("div", { class: "checks" }, list.map((c) => el("div", { class: "check" },
    el("div", {}, el("b", {}, c.label || c.criterion.replaceAll("_", " ")), " ", badge(c.rating)), el("p", { class: "why" }, c.explanation)))) : el("p", { class: "muted" }, "—"));
  row("Deterministic checks", el("p", { class: "muted" }, "per criterion: rating and the evidence the check found"), (mm) => checks(mm.criteria));
  if (d.models.some((mm) => mm.extra.length)) row("Extra scorers", el("p", { class: "muted" }, "eval --scorer: shown beside the grade, not part of it"), (mm) => checks(mm.extra));
  if (d.models.some((mm) => mm.judge.length)) row("LLM judge", el("p", { class: "muted" }, "the judge's rating and rationale per criterion"), (mm) => checks(mm.judge));
  row("Tokens · cost · latency", "", (mm) => el("span", { class: "muted" },
    `${mm.tokens_in ?? "—"} in / ${mm.tokens_out ?? "—"} out · ${money(mm.cost_usd)} · ${mm.latency_s === null ? "latency —" : fmt(mm.latency_s, 3) + " s"}`));
  return grid;
}

// The documented bands on the score rounded half up to a whole number, as rubric.rating_band does.
const bandOf = (score) => { const w = Math.floor(score + 0.5); return w >= 85 ? "Excellent" : w >= 67 ? "Good" : w >= 33 ? "Fair" : "Poor"; };

async function evalPage(rel) {
  const d = await api("/api/file?root=evaluation&path=" + encodeURIComponent(rel));
  const ev = d.json;
  const extra = ev.extra_criteria || []; // eval --scorer
  const qa = ev.items.some((it) => it.passed !== null && it.passed !== undefined);
  main().replaceChildren(el("h1", {}, ev.experiment_name, " ", el("span", { class: "muted" }, `${ev.provider}:${ev.model}`)),
    el("p", {}, `grade ${fmt(ev.grade.quality_score)} `, badge(ev.grade.overall_rating), ` · ${ev.grade.n_items} items · ${ev.grade.n_errors} errors · `,
      el("a", { href: "/raw?root=evaluation&path=" + encodeURIComponent(rel) }, "JSON")),
    el("p", { class: "toolbar" }, "Questions, answers and references of every item beside the other systems: ",
      el("a", { href: matrixUrl(ev.use_case), class: "matrix-link" }, "matrix"), el("a", { href: matrixUrl(ev.use_case, { filter: "failing" }) }, "failing items")),
    el("div", { class: "table-scroll" }, el("table", { class: "eval-items" }, el("thead", {}, el("tr", {}, el("th", {}, "Item"), el("th", {}, "Status"), qa ? el("th", {}, "Verdict") : "",
      ev.criteria.map((c) => el("th", {}, c.criterion.replaceAll("_", " "))), ev.judge ? el("th", {}, "LLM judge (per criterion)") : "",
      extra.map((c) => el("th", { class: "extra", title: "eval --scorer: not in the grade" }, "extra: " + (c.scorer === c.criterion ? c.criterion : `${c.scorer}: ${c.criterion}`))))),
      el("tbody", {}, ev.items.map((it) => el("tr", {}, el("td", {}, el("a", { href: itemUrl(ev.use_case, it.item_id) }, it.item_id)),
        el("td", {}, it.status === "error" ? el("span", { class: "error", title: it.error || "" }, "error") : it.status),
        qa ? el("td", {}, verdictBadge(it.status === "error" ? "error" : it.passed === null || it.passed === undefined ? null : it.passed ? "pass" : "fail")) : "",
        ev.criteria.map((c) => el("td", {}, badge((it.criteria.find((x) => x.criterion === c.criterion) || {}).rating))),
        ev.judge ? el("td", {}, it.judge && it.judge.criteria ? it.judge.criteria.map((c) => badge(c.rating)) : "—") : "",
        extra.map((c) => el("td", {}, badge(((it.extra_criteria || []).find((x) => x.scorer === c.scorer && x.criterion === c.criterion) || {}).rating)))))))));
}

// Every item × every system of one use case: the question (or the document's opening) and reference per row,
// per system its output (folded), verdict and score. Filtering, search, sorting and paging are done by the
// server (a form: each view has its own URL), so 1,000 items come a page at a time.
async function matrixPage(useCase) {
  const p = new URLSearchParams(location.search);
  const asked = { filter: p.get("filter") || "", q: p.get("q") || "", sort: p.get("sort") || "id", page: p.get("page") || "1" };
  const d = await api("/api/matrix?use_case=" + encodeURIComponent(useCase) + "&" + new URLSearchParams(asked));
  const form = el("form", { class: "toolbar matrix-controls", method: "get", action: matrixUrl(useCase) },
    el("label", {}, "Show ", el("select", { name: "filter", id: "matrix-filter" },
      el("option", { value: "" }, "all items"), el("option", { value: "failing" }, "failing (some system fails)"),
      el("option", { value: "disagree" }, "disagreeing (systems differ on pass/fail)"))),
    el("label", {}, "Sort ", el("select", { name: "sort", id: "matrix-sort" }, el("option", { value: "id" }, "by item id"),
      el("option", { value: "spread" }, "largest score spread first"), el("option", { value: "-spread" }, "smallest score spread first"))),
    el("input", { type: "search", name: "q", id: "matrix-search", placeholder: "search questions, references, outputs", value: d.q }),
    el("button", { type: "submit" }, "Search"));
  form.elements.filter.value = d.filter;
  form.elements.sort.value = d.sort;
  for (const s of form.querySelectorAll("select")) s.addEventListener("change", () => form.requestSubmit());
  const pageLink = (n, label, id) => (n >= 1 && n <= d.pages && n !== d.page
    ? el("a", { href: matrixUrl(useCase, { ...asked, page: n }), id }, label) : el("span", { class: "muted" }, label));
  const pager = () => el("div", { class: "toolbar pager" }, pageLink(d.page - 1, "← previous page", "matrix-prev"),
    el("span", { class: "matrix-count" }, d.total ? `items ${(d.page - 1) * d.size + 1}–${Math.min(d.total, d.page * d.size)} of ${d.total}` + (d.total < d.n_items ? ` (${d.n_items} in all)` : "") : `no items of ${d.n_items} match`),
    el("span", { class: "muted" }, `page ${d.page} of ${d.pages}`), pageLink(d.page + 1, "next page →", "matrix-next"));
  const needle = d.q.trim().toLowerCase();
  const folded = (text, more, cls) => {
    if (text === null || text === undefined) return el("p", { class: "muted" }, "—");
    const first = text.split("\n")[0];
    const hit = needle && text.toLowerCase().includes(needle); // a searched text is shown unfolded where it is
    return el("details", { class: "fold " + (cls || ""), ...(hit ? { open: "" } : {}) }, el("summary", {}, first.length > 90 ? first.slice(0, 90) + "…" : first),
      el("pre", { class: "out" }, text + (more ? `\n… (${more} more characters on the item page)` : "")));
  };
  const head = el("tr", {}, el("th", { class: "item-col" }, "Item"), el("th", { class: "input-col" }, d.asks_questions ? "Question" : "Input (document)"),
    el("th", { class: "ref-col" }, "Reference"), d.systems.map((s) => el("th", { class: "system-col", "data-system": s.experiment_name },
      el("a", { href: "/eval/" + s.file }, s.experiment_name), el("br"), el("span", { class: "muted" }, s.model))));
  const rows = d.rows.map((r) => el("tr", { "data-item": r.item_id, class: r.disagree ? "disagree" : "" },
    el("td", { class: "item-col" }, el("a", { href: itemUrl(useCase, r.item_id) }, r.item_id),
      el("div", { class: "muted spread" }, `spread ${fmt(r.spread)}`), r.disagree ? el("div", { class: "badge Fair" }, "disagree") : ""),
    el("td", { class: "input-col" }, r.is_question ? el("p", { class: "question" }, r.input) : folded(r.input, 0, "input")),
    el("td", { class: "ref-col" }, r.reference && r.reference.length < 120 && !r.reference.includes("\n") ? el("p", {}, r.reference) : folded(r.reference, 0, "reference")),
    r.cells.map((c, i) => el("td", { class: "cell", "data-system": d.systems[i].experiment_name, "data-verdict": c ? c.verdict : "missing" },
      c ? [el("div", { class: "verdict-line" }, verdictBadge(c.verdict), " ", el("b", { class: "score" }, fmt(c.score))),
        c.status === "error" ? el("p", { class: "error" }, "error: " + (c.error || "")) : folded(c.output, c.output_cut, "output")]
        : el("span", { class: "muted" }, "not evaluated")))));
  main().replaceChildren(el("h1", {}, `${d.title}: items × systems`),
    el("p", { class: "muted" }, "Each cell: the system's verdict (pass/fail, or the rating band where there is none: then Poor counts as failing), its item score and its output (click to unfold). Spread: the highest item score minus the lowest. The item link opens every check and rationale."),
    form, pager(), el("div", { class: "table-scroll matrix-scroll" }, el("table", { class: "matrix", id: "matrix" }, el("thead", {}, head), el("tbody", {}, rows))), pager());
}

async function reportPage(rel) {
  const d = await api("/api/report?path=" + encodeURIComponent(rel));
  const dir = rel.includes("/") ? rel.slice(0, rel.lastIndexOf("/") + 1) : "";
  const body = el("div", { class: "card report" });
  body.innerHTML = d.html; // report.md escapes every model- or user-supplied field when written
  for (const img of body.querySelectorAll("img")) {
    const src = img.getAttribute("src") || "";
    if (!/^[a-z]+:|^\//i.test(src)) img.src = "/raw?root=reports&path=" + encodeURIComponent(dir + src);
  }
  for (const table of body.querySelectorAll("table")) { // wide tables scroll inside the page, never past it
    const wrap = el("div", { class: "table-scroll" });
    table.replaceWith(wrap);
    wrap.append(table);
  }
  for (const td of body.querySelectorAll("td")) { // ratings as the dashboard's coloured badges
    const m = /^(Excellent|Good|Fair|Poor)( \(\d+\))?$/.exec(td.textContent);
    if (m) td.replaceChildren(badge(m[1]), m[2] || "");
  }
  const stem = rel.replace(/\.md$/, "");
  const dl = (ext) => el("a", { href: "/raw?root=reports&download=1&path=" + encodeURIComponent(stem + ext) }, ext.slice(1));
  main().replaceChildren(el("h1", {}, "Report"), el("div", { class: "toolbar" }, "Download: ", dl(".md"), dl(".csv"), dl(".json"), dl(".junit.xml")), body);
}

async function comparePage() {
  const p = new URLSearchParams(location.search);
  const d = await api("/api/compare?a=" + encodeURIComponent(p.get("a") || "") + "&b=" + encodeURIComponent(p.get("b") || ""));
  const text = (v) => (v === null || v === undefined ? "—" : typeof v === "string" ? v : outputBlock(v));
  const side = (s) => el("td", { "data-verdict": s.verdict || "" }, s.verdict ? el("div", { class: "verdict-line" }, verdictBadge(s.verdict), " ", el("b", {}, fmt(s.score))) : "", s.status === "error" ? el("p", { class: "error" }, "error: " + s.error) : typeof s.answer === "string" || s.answer === null || s.answer === undefined ? el("pre", { class: "out" }, s.answer ?? "—") : outputBlock(s.answer),
    el("p", { class: "muted" }, `${s.status ?? "missing"} · cost ${money(s.cost_usd)} · ${fmt(s.latency_s, 3)} s · ${s.tokens_out ?? "—"} tokens out`));
  main().replaceChildren(el("h1", {}, `${d.a} vs ${d.b}`),
    el("p", { class: "muted" }, (d.scored || []).length < 2 ? `Verdicts and scores show for an experiment that was evaluated (${(d.scored || []).length ? "only " + d[d.scored[0]] : "neither was"}). ` : "",
      "Scores per criterion for each item are on its item page (follow the item link); every system at once: ",
      el("a", { href: matrixUrl(d.use_case), class: "matrix-link" }, "matrix"), "."),
    el("table", { class: "compare" }, el("tr", {}, el("th", {}, "Item"), el("th", {}, "Expected"), el("th", {}, d.a), el("th", {}, d.b)),
      d.rows.map((r) => el("tr", {}, el("td", {}, el("a", { href: itemUrl(d.use_case, r.item_id) }, r.item_id), r.query ? el("p", { class: "muted" }, r.query) : ""),
        el("td", {}, r.expected && r.expected.answer !== undefined ? r.expected.answer : text(r.expected)), side(r.a), side(r.b)))));
}

async function filesPage() {
  const d = await api("/api/files");
  main().replaceChildren(el("h1", {}, "Files"), Object.entries(d).map(([root, entries]) => [el("h2", {}, root),
    el("ul", {}, entries.map((e) => el("li", {}, e.kind === "evaluation" ? el("a", { href: "/eval/" + e.path }, e.path)
      : e.kind === "markdown" && root === "reports" ? el("a", { href: "/report/" + e.path }, e.path)
      : el("a", { href: "/raw?root=" + root + "&path=" + encodeURIComponent(e.path) }, e.path), " ", el("span", { class: "muted" }, e.kind))))]));
}

async function route() {
  const p = decodeURIComponent(location.pathname);
  try {
    if (p === "/" || p === "/index.html") await dashboard();
    else if (p.startsWith("/eval/")) await evalPage(p.slice(6));
    else if (p.startsWith("/item/")) { const [uc, ...rest] = p.slice(6).split("/"); await itemPage(uc, rest.join("/")); }
    else if (p.startsWith("/matrix/")) await matrixPage(p.slice(8).replace(/\/$/, ""));
    else if (p.startsWith("/report/")) await reportPage(p.slice(8));
    else if (p.startsWith("/compare")) await comparePage();
    else if (p.startsWith("/files")) await filesPage();
  } catch (e) { // what was not found and where the viewer looked, with the ways back
    main().replaceChildren(el("h1", {}, "Nothing to show here"), el("p", { class: "error not-found" }, e.message),
      el("p", {}, "This address (", el("code", {}, p), ") names something the viewer's folders do not hold. Start from the ",
        el("a", { href: "/" }, "dashboard"), " or the ", el("a", { href: "/files" }, "list of files"), "."));
  }
}
document.addEventListener("DOMContentLoaded", route);
