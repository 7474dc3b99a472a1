// The rating page: one unit at a time from /api/state, actions POSTed with the session token. Every text from
// the evaluation is shown through textContent, never as HTML.
"use strict";

const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
let state = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method, headers: {"X-Annotate-Token": token, ...(body ? {"Content-Type": "application/json"} : {})},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({error: "HTTP " + response.status}));
  if (!response.ok) throw new Error(data.error || "HTTP " + response.status);
  return data;
}

function sections(list) {
  const box = el("div");
  for (const s of list || []) {
    box.append(el("h3", {text: s.title}));
    if (s.items) box.append(el("ul", {class: "items"}, ...s.items.map(i => el("li", {text: i}))));
    else box.append(el("p", {class: "text", text: s.text}));
  }
  return box;
}

function outputPanel(title, output, cls) {
  const panel = el("section", {class: "panel output " + (cls || "")}, el("h2", {text: title}));
  if (output.missing) panel.append(el("p", {class: "warn", text: "This output is no longer in the evaluation: skip it (s)."}));
  panel.append(sections(output.sections));
  return panel;
}

// What the rater opened (v, r) stays open while they rate that output: every action re-renders the page.
let panels = {unit: null, source: false, reference: null};

function remembered(details, key, fallback) {
  details.open = panels[key] === null ? fallback : panels[key];
  details.addEventListener("toggle", () => { panels[key] = details.open; });
  return details;
}

function context(unit) {
  if (panels.unit !== unit.id) panels = {unit: unit.id, source: false, reference: null};
  const parts = [];
  if (unit.query) parts.push(el("section", {class: "panel"}, el("h2", {text: "Question"}), el("p", {class: "text", text: unit.query})));
  if (unit.source) {
    const details = el("details", {class: "source", id: "source"}, el("summary", {text: "Source document (v to show or hide)"}),
      el("p", {class: "text", text: unit.source}));
    remembered(details, "source", false);
    parts.push(el("section", {class: "panel"}, details));
  }
  if (unit.reference) {
    // Open when short; a long reference (a summary) is one key away, so the outputs stay in view.
    const length = unit.reference.reduce((n, s) => n + (s.text || s.items.join(" ")).length, 0);
    const details = el("details", {class: "source", id: "reference"}, el("summary", {text: "Reference (r to show or hide)"}),
      sections(unit.reference));
    remembered(details, "reference", length < 400);
    parts.push(el("section", {class: "panel"}, details));
  }
  return parts;
}

function activeDimension() {
  return state.dimensions.find(d => !(d in state.ratings));
}

function render() {
  const main = document.getElementById("main");
  main.replaceChildren();
  document.body.dataset.unit = state.unit ? state.unit.id : "finished";
  document.body.dataset.done = String(state.done);
  document.getElementById("use-case").textContent = "· " + state.title;
  document.getElementById("progress").textContent =
    `${state.rater} · ${state.done} of ${state.total} done` + (state.position ? ` · showing ${state.position}` : "");
  if (state.torn_lines) main.append(el("p", {class: "warn", text: `The ratings file had ${state.torn_lines} unreadable line(s) (a crash mid-write); they are ignored.`}));
  if (!state.unit) {
    main.append(el("p", {class: "done", text: `All ${state.total} done. Thank you! To see which score agrees with you and what people would rate each model, run:`}),
      el("pre", {class: "next-command", text: state.next_command}));
    renderKeys();
    return;
  }
  const unit = state.unit;
  main.append(...context(unit));
  if (state.mode === "pairwise") {
    main.append(el("div", {class: "grid"}, outputPanel("A", unit.left, "left"), outputPanel("B", unit.right, "right")));
    const choices = el("div", {class: "panel choices"}, el("h2", {text: "Which output is better?"}));
    for (const [choice, label] of [["left", "A is better (a)"], ["tie", "Tie (t)"], ["right", "B is better (b)"]]) {
      const button = el("button", {type: "button", "data-choice": choice, text: label});
      button.addEventListener("click", () => act("/api/prefer", onUnit({choice})));
      choices.append(button);
    }
    main.append(choices);
  } else {
    main.append(outputPanel("Output to rate", unit.output));
    const dims = el("div", {class: "dims"});
    const active = activeDimension();
    for (const d of state.dimensions) {
      dims.append(el("div", {class: "dim" + (d === active ? " active" : ""), text: d}));
      const scale = el("div", {class: "scale", "data-dimension": d});
      for (let v = state.scale[0]; v <= state.scale[1]; v++) {
        const button = el("button", {type: "button", class: state.ratings[d] === v ? "on" : "", text: String(v)});
        button.addEventListener("click", () => rate(d, v));
        scale.append(button);
      }
      dims.append(scale);
    }
    main.append(el("section", {class: "panel"}, el("h2", {text: `Rate 1 (poor) to 5 (excellent)`}), dims));
  }
  const comment = el("textarea", {id: "comment", placeholder: "Optional comment (c to write, Esc to leave)"});
  comment.value = state.comment || "";
  const actions = el("div", {class: "actions"});
  const skip = el("button", {type: "button", id: "skip", text: "Skip (s)"});
  skip.addEventListener("click", () => act("/api/skip", onUnit({})));
  const undo = el("button", {type: "button", id: "undo", text: "Undo (u)"});
  undo.addEventListener("click", () => act("/api/undo", {}));
  actions.append(skip, undo);
  main.append(el("section", {class: "panel"}, comment, actions, el("p", {class: "error", id: "error"})));
  renderKeys();
}

function renderKeys() {
  const keys = state && state.mode === "pairwise"
    ? [["a", "A is better"], ["b", "B is better"], ["t", "tie"]]
    : [["1–5", "rate the marked dimension"]];
  const footer = document.getElementById("keys");
  footer.replaceChildren();
  for (const [k, what] of [...keys, ["s", "skip"], ["u", "undo"], ["c", "comment"], ["v", "source"], ["r", "reference"]]) {
    footer.append(el("kbd", {text: k}), " " + what + "   ");
  }
}

async function saveComment() {
  const box = document.getElementById("comment");
  if (box && state.unit && box.value !== (state.comment || "")) {
    await call("POST", "/api/comment", {unit: state.unit.id, text: box.value});
  }
}

// Actions run one after the other, each against the state the previous one left: keys pressed faster than the
// server answers are queued, never dropped, and "rate" picks its dimension when it runs.
let queue = Promise.resolve();

function act(path, body) {
  queue = queue.then(async () => {
    const request = typeof body === "function" ? body() : body;
    if (!request) return;
    try {
      if (path !== "/api/undo") await saveComment();
      state = await call("POST", path, request);
      render();
    } catch (error) {
      const box = document.getElementById("error");
      if (box) box.textContent = "Not saved: " + error.message;
    }
  });
  return queue;
}

function rate(dimension, value) {
  return act("/api/rate", () => (state.unit ? {unit: state.unit.id, dimension, value} : null));
}

function rateActive(value) {
  return act("/api/rate", () => {
    const dimension = state.unit && activeDimension();
    return dimension ? {unit: state.unit.id, dimension, value} : null;
  });
}

const onUnit = (extra) => () => (state.unit ? {unit: state.unit.id, ...extra} : null);

document.addEventListener("keydown", event => {
  if (!state || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && target.id === "comment") {
    if (event.key === "Escape") target.blur();
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "u" || key === "backspace") { event.preventDefault(); act("/api/undo", {}); return; }
  if (key === "s") act("/api/skip", onUnit({}));
  else if (!state.unit) return;
  else if (key === "c") { event.preventDefault(); document.getElementById("comment").focus(); }
  else if (key === "v" || key === "r") {
    const d = document.getElementById(key === "v" ? "source" : "reference");
    if (d) d.open = !d.open;
  }
  else if (state.mode === "pairwise") {
    const choice = {a: "left", arrowleft: "left", b: "right", arrowright: "right", t: "tie", "=": "tie"}[key];
    if (choice) act("/api/prefer", onUnit({choice}));
  } else if (/^[1-9]$/.test(key)) {
    const value = Number(key);
    if (value >= state.scale[0] && value <= state.scale[1]) rateActive(value);
  }
});

call("GET", "/api/state").then(data => { state = data; render(); }).catch(error => {
  document.getElementById("main").replaceChildren(el("p", {class: "error", text: "Cannot load: " + error.message +
    (token ? "" : " (open the URL gaia-eval annotate printed, with its #token=…)")}));
});
