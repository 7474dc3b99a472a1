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
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined) e.append(kid instanceof Node ? kid : String(kid));
  return e;
}
async function api(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error((await r.text()) || r.status);
  return r.json();
}
const fmt = (v, d = 1) => (v === null || v === undefined ? "—" : Number(v).toFixed(d));
const money = (v) => (v === null || v === undefined ? "—" : "$" + Number(v).toFixed(4));
const pct = (v) => (v === null || v === undefined ? "—" : Math.round(100 * v) + " %");
const badge = (r) => (r ? el("span", { class: "badge " + r }, r) : "—");
const itemUrl = (uc, id, q) => "/item/" + encodeURIComponent(uc) + "/" + (id ? encodeURIComponent(id) : "") + (q || "");

function sortable(table, rows, columns, render) {
  let key = null, dir = 1;
  const head = el("tr", {}, columns.map((c) => {
    const th = el("th", { class: "sortable" + (c.num ? " num" : ""), title: "sort" }, c.label);
    th.addEventListener("click", () => { dir = key === c.key ? -dir : (c.num ? -1 : 1); key = c.key; draw(); });
    return th;
  }));
  const body = el("tbody");
  function draw() {
    const sorted = key ? [...rows].sort((a, b) => { const x = a[key] ?? -Infinity, y = b[key] ?? -Infinity; return (x > y ? 1 : x < y ? -1 : 0) * dir; }) : rows;
    body.replaceChildren(...sorted.map(render));
  }
  table.replaceChildren(el("thead", {}, head), body);
  draw();
}

async function chartsFor(useCase) {
  const box = el("div", { class: "charts" });
  api("/api/charts?use_case=" + encodeURIComponent(useCase)).then((charts) => {
    const titles = { grade: "Grade (95 % interval)", ratings: "Criterion × model", tradeoff: "Quality vs cost and latency (Pareto front dashed)", items: "Per-item scores" };
    for (const kind of charts.kinds) {
      // An <img>: the SVG (drawn by the server with matplotlib) is its own document and can run nothing here.
      const src = "/chart.svg?use_case=" + encodeURIComponent(useCase) + "&kind=" + encodeURIComponent(kind);
      box.append(el("div", { class: "chart", "data-kind": kind }, el("h4", {}, titles[kind] || kind),
        el("a", { href: src, target: "_blank" }, el("img", { src, alt: titles[kind] || kind }))));
    }
  }).catch(() => box.append(el("p", { class: "muted" }, "no charts")));
  return box;
}

function liveBox() {
  const box = el("div", { class: "card live", id: "live" }, el("h2", {}, "Live runs"), el("p", { class: "muted" }, "checking journals…"));
  async function tick() {
    try {
      const data = await api("/api/live");
      const rows = data.runs.map((r) => el("tr", { "data-run": r.experiment_name },
        el("td", {}, r.experiment_name), el("td", {}, r.running ? "running" : "stalled / stopped"),
        el("td", { class: "num done" }, r.done), el("td", { class: "num" }, r.errors),
        el("td", { class: "num" }, money(r.spend_usd)), el("td", { class: "num" }, r.tokens_out),
        el("td", { class: "num" }, r.seconds_since_update + " s ago")));
      box.replaceChildren(el("h2", {}, "Live runs"), rows.length
        ? el("table", {}, el("tr", {}, ["Experiment", "State", "Done", "Errors", "Spend so far", "Tokens out", "Last item"].map((h) => el("th", {}, h))), rows)
        : el("p", { class: "muted" }, "No batch-experiment running in this workspace (no journals)."));
    } catch (e) { /* keep the last view */ }
  }
  tick();
  setInterval(tick, 1500);
  return box;
}

async function dashboard() {
  const data = await api("/api/dashboard");
  const m = main();
  m.replaceChildren(el("h1", {}, "Evaluations"), liveBox());
  if (!data.use_cases.length) m.append(el("p", { class: "muted" }, "No evaluation files yet: run gaia-eval eval."));
  for (const uc of data.use_cases) {
    const table = el("table", { class: "dash", "data-use-case": uc.use_case });
    const qa = uc.use_case === "qa";
    const cols = [
      { key: "experiment_name", label: "Experiment" }, { key: "model", label: "Model" },
      { key: "grade", label: "Grade (95 % CI)", num: 1 }, { key: "grade", label: "Rating" },
      ...(qa ? [{ key: "pass_rate", label: "Pass rate", num: 1 }] : []),
      { key: "items", label: "Items", num: 1 }, { key: "errors", label: "Errors", num: 1 }, { key: "unscored", label: "Judge unscored", num: 1 },
      { key: "cost_usd", label: "Model cost", num: 1 }, { key: "judge_cost_usd", label: "Judge cost", num: 1 },
      { key: "tokens_in", label: "Tokens in / out", num: 1 }, { key: "latency_p50_s", label: "Latency p50 / p95", num: 1 },
    ];
    sortable(table, uc.models, cols, (r) => el("tr", {},
      el("td", {}, el("a", { href: "/eval/" + r.file }, r.experiment_name)), el("td", {}, r.model),
      el("td", { class: "num" }, fmt(r.grade) + (r.ci ? ` (${fmt(r.ci[0], 0)}–${fmt(r.ci[1], 0)})` : "")),
      el("td", {}, badge(r.rating)), ...(qa ? [el("td", { class: "num" }, pct(r.pass_rate))] : []),
      el("td", { class: "num" }, r.items), el("td", { class: "num" }, r.errors), el("td", { class: "num" }, r.unscored ?? "—"),
      el("td", { class: "num" }, r.cost_text), el("td", { class: "num" }, money(r.judge_cost_usd)),
      el("td", { class: "num" }, `${r.tokens_in} / ${r.tokens_out}`), el("td", { class: "num" }, r.latency_p50_s === null ? "—" : `${fmt(r.latency_p50_s, 3)} / ${fmt(r.latency_p95_s, 3)} s`)));
    m.append(el("section", { class: "card" },
      el("h2", {}, uc.use_case, " ", el("span", { class: "muted" }, `(${uc.models.length} models)`)),
      el("div", { class: "toolbar" }, el("a", { href: itemUrl(uc.use_case, "") }, "Items side by side"),
        el("a", { href: itemUrl(uc.use_case, "", "?filter=disagree") }, "Items where models disagree most")),
      table, await chartsFor(uc.use_case)));
  }
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
  const cards = d.models.map((mm) => el("div", { class: "card model-output", "data-model": mm.experiment_name },
    el("h3", {}, mm.experiment_name, " ", el("span", { class: "muted" }, mm.model)),
    el("p", {}, "Item score ", el("b", {}, fmt(mm.score)), mm.passed === null ? "" : mm.passed ? " · pass" : " · fail", mm.status === "error" ? el("span", { class: "error" }, " · error: " + mm.error) : ""),
    outputBlock(mm.output),
    mm.criteria.length ? el("table", {}, el("tr", {}, el("th", {}, "Criterion"), el("th", {}, "Rating"), el("th", {}, "Evidence")),
      mm.criteria.map((c) => el("tr", {}, el("td", {}, c.criterion), el("td", {}, badge(c.rating)), el("td", {}, c.explanation)))) : "",
    mm.judge.length ? [el("h4", {}, "LLM judge"), el("table", {}, mm.judge.map((c) => el("tr", {}, el("td", {}, c.criterion), el("td", {}, badge(c.rating)), el("td", {}, c.explanation))))] : "",
    el("p", { class: "muted" }, `tokens ${mm.tokens_in ?? "—"} in / ${mm.tokens_out ?? "—"} out · cost ${money(mm.cost_usd)} · latency ${mm.latency_s === null ? "—" : fmt(mm.latency_s, 3) + " s"}`)));
  const query = d.models.find((mm) => mm.query)?.query;
  main().replaceChildren(
    el("h1", {}, `${useCase} · item ${d.item_id}`),
    el("div", { class: "toolbar" }, prev ? el("a", { href: prev, id: "prev" }, "← previous") : el("span", { class: "muted" }, "← previous"),
      el("span", {}, `${pos + 1} of ${order.length}`), next ? el("a", { href: next, id: "next" }, "next →") : el("span", { class: "muted" }, "next →"),
      el("span", { class: "muted" }, "keys: ", el("kbd", {}, "←"), " ", el("kbd", {}, "→")), sel,
      el("span", { class: "muted" }, `score spread across models: ${fmt(d.spread[d.item_id])}`)),
    query ? el("div", { class: "card" }, el("b", {}, "Question: "), query) : "",
    el("div", { class: "card" }, el("details", { class: "source", ...((d.source || "").length < 1500 ? { open: "" } : {}) },
      el("summary", {}, `Source document (${(d.source || "").length} characters)`), el("pre", { class: "out" }, d.source || "—")),
      el("h3", {}, "Ground truth"), d.groundtruth ? outputBlock(d.groundtruth.answer ?? d.groundtruth) : el("p", { class: "muted" }, "none (standalone)")),
    el("div", { class: "side" }, cards));
}

async function evalPage(rel) {
  const d = await api("/api/file?root=evaluation&path=" + encodeURIComponent(rel));
  const ev = d.json;
  main().replaceChildren(el("h1", {}, ev.experiment_name, " ", el("span", { class: "muted" }, `${ev.provider}:${ev.model}`)),
    el("p", {}, `grade ${fmt(ev.grade.quality_score)} `, badge(ev.grade.overall_rating), ` · ${ev.grade.n_items} items · ${ev.grade.n_errors} errors · `,
      el("a", { href: "/raw?root=evaluation&path=" + encodeURIComponent(rel) }, "JSON")),
    el("table", {}, el("tr", {}, el("th", {}, "Item"), el("th", {}, "Status"), el("th", {}, "Criteria")),
      ev.items.map((it) => el("tr", {}, el("td", {}, el("a", { href: itemUrl(ev.use_case, it.item_id) }, it.item_id)), el("td", {}, it.status),
        el("td", {}, it.criteria.map((c) => [c.criterion, " ", badge(c.rating), " "]))))));
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
  const stem = rel.replace(/\.md$/, "");
  const dl = (ext) => el("a", { href: "/raw?root=reports&download=1&path=" + encodeURIComponent(stem + ext) }, ext.slice(1));
  main().replaceChildren(el("h1", {}, "Report"), el("div", { class: "toolbar" }, "Download: ", dl(".md"), dl(".csv"), dl(".json"), dl(".junit.xml")), body);
}

async function comparePage() {
  const p = new URLSearchParams(location.search);
  const d = await api("/api/compare?a=" + encodeURIComponent(p.get("a") || "") + "&b=" + encodeURIComponent(p.get("b") || ""));
  const text = (v) => (v === null || v === undefined ? "—" : typeof v === "string" ? v : outputBlock(v));
  const side = (s) => el("td", {}, s.status === "error" ? el("p", { class: "error" }, "error: " + s.error) : el("pre", { class: "out" }, typeof s.answer === "string" ? s.answer : JSON.stringify(s.answer, null, 1)),
    el("p", { class: "muted" }, `${s.status ?? "missing"} · cost ${money(s.cost_usd)} · ${fmt(s.latency_s, 3)} s · ${s.tokens_out ?? "—"} tokens out`));
  main().replaceChildren(el("h1", {}, `${d.a} vs ${d.b}`),
    el("p", { class: "muted" }, "Scores per criterion for each item are on its item page (follow the item link)."),
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
    else if (p.startsWith("/report/")) await reportPage(p.slice(8));
    else if (p.startsWith("/compare")) await comparePage();
    else if (p.startsWith("/files")) await filesPage();
  } catch (e) { main().replaceChildren(el("p", { class: "error" }, "Could not load: " + e.message)); }
}
document.addEventListener("DOMContentLoaded", route);
