// symattn course page (run by loader.js after KaTeX): reads the embedded JSON and math (TeX), then
// draws the state chosen by the controls (query row, temperature, causal mask, walkthrough step).
// Every exact value was computed when the page was written; this script only shows it. User text
// is set as text (textContent); only KaTeX's output for the page's own TeX is inserted as HTML.
"use strict";
(async () => {
  const $ = (id) => document.getElementById(id);
  const [data, math] = await Promise.all(["symattn-data", "symattn-math"].map(async (id) => JSON.parse(await inflate($(id).textContent.trim()))));
  data.math = math;
  const P = data.phrases;
  const STEPS = 5;
  const AUTOPLAY_MS = 2600;
  const values = data.kind === "values";
  const sizes = data.sizes;

  async function inflate(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function fill(key, fields) {
    return P[key].replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
  }

  const parsed = new Map();
  function mathNode(id, extra = "") {
    let template = parsed.get(id);
    if (!template) {
      const [tex, display] = data.math[id];
      template = document.createElement("template");
      template.innerHTML = window.katex.renderToString(tex, { // the page's own TeX; labels escaped
        displayMode: display === 1, strict: "error", throwOnError: false, trust: false,
        maxSize: 20, maxExpand: 1000, output: "htmlAndMathml" });
      parsed.set(id, template);
    }
    return el("span", { class: ("m " + extra).trim() }, template.content.cloneNode(true));
  }

  // ---- state and the URL -------------------------------------------------------------------
  let taus = data.temperatures || [];
  let free = values ? data.free : null; // any tau in [min, max] computed here in float64
  const state = readHash();

  // ---- temperatures: a generated one (exact) or a free one (float64, marked ≈) -------------
  function exactOf(text) { // "1.234" or "5/4" or "1.5/2" -> {num, den} as BigInts; null otherwise
    const m = /^\s*(\d{1,12}(?:\.\d{1,12})?|\.\d{1,12})(?:\s*\/\s*(\d{1,12}(?:\.\d{1,12})?))?\s*$/.exec(text || "");
    if (!m) return null;
    const dec = (t) => { const [a, b = ""] = t.split("."); return [BigInt((a || "0") + b), 10n ** BigInt(b.length)]; };
    let [num, den] = dec(m[1]);
    if (m[2]) {
      const [n2, d2] = dec(m[2]);
      if (n2 === 0n) return null;
      [num, den] = [num * d2, den * n2];
    }
    return { num, den };
  }

  function generatedIndex(text) {
    const direct = taus.findIndex((t) => t.key === text);
    if (direct >= 0) return direct;
    const x = exactOf(text);
    return x ? taus.findIndex((t) => t.num !== undefined && BigInt(t.num) * x.den === x.num * BigInt(t.den)) : -1;
  }

  function tauValue(text) {
    const k = generatedIndex(text);
    if (k >= 0) return taus[k].value;
    const x = exactOf(text);
    return x ? Number(x.num) / Number(x.den) : NaN;
  }

  function acceptedTau(text) { // the state's tau for a typed or linked value, or null
    const k = generatedIndex(text);
    if (k >= 0) return taus[k].key;
    const value = tauValue(text);
    return free && value >= free.min && value <= free.max ? String(text).replace(/\s/g, "") : null;
  }

  // the slider of a free temperature is logarithmic: position 0..1000 <-> tau min..max
  const SLIDER = 1000;
  const toPosition = (tau) => Math.round(SLIDER * Math.log(tau / free.min) / Math.log(free.max / free.min));
  const fromPosition = (k) => { // a generated temperature at this position, else 3 digits
    const near = taus.find((t) => t.value !== undefined && toPosition(t.value) === k);
    return near ? near.key : String(Number((free.min * Math.pow(free.max / free.min, k / SLIDER)).toPrecision(3)));
  };
  let sliding = false; // while the slider moves, it keeps its own position

  function readHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    const head = headFromHash(params); // a multi-head page: that head's data becomes the page's
    const chosen = Object.assign({ row: sizes.n_q, step: 1 }, data.defaults || {}, head ? { head } : {});
    const row = Number(params.get("row"));
    if (Number.isInteger(row) && row >= 1 && row <= sizes.n_q) chosen.row = row;
    const step = Number(params.get("step"));
    if (Number.isInteger(step) && step >= 1 && step <= STEPS) chosen.step = step;
    if (values) {
      chosen.edits = readEdits(params);
      const tau = params.get("tau") && acceptedTau(params.get("tau"));
      if (tau) chosen.tau = tau;
      const mask = params.get("mask");
      if ((mask === "on" || mask === "off") && data.variants["0:" + mask]) chosen.mask = mask;
    }
    return chosen;
  }

  function writeHash() {
    const fields = data.heads ? { head: state.head, row: state.row } : { row: state.row };
    if (values) Object.assign(fields, { tau: state.tau, mask: state.mask });
    fields.step = state.step;
    const hash = "#" + new URLSearchParams(fields).toString() + editsHash();
    if (location.hash !== hash) {
      try {
        history.replaceState(null, "", hash);
      } catch (error) {
        location.replace(hash);
      }
    }
    const share = $("share-url");
    share.value = location.href;
    share.scrollLeft = share.scrollWidth; // the state is at the end of the link
  }

  function tauIndex() {
    return Math.max(0, generatedIndex(state.tau));
  }

  function variant() {
    if (!values) return null;
    if (editCount()) return editedVariant();
    const k = generatedIndex(state.tau);
    return k >= 0 || !free ? data.variants[Math.max(k, 0) + ":" + state.mask] : freeVariant();
  }

  const computed = new Map();
  // A free temperature: R, S, M and what each row may read are those of every generated state with
  // this mask (they do not depend on tau); L, A and O are computed in float64.
  function freeVariant() {
    const id = state.head + ":" + state.tau + ":" + state.mask;
    if (computed.has(id)) return computed.get(id);
    const base = maskBase();
    if (base.error || !free.M[state.mask]) return base;
    const v = floatVariant(base, free.S, free.V, free.M[state.mask], null);
    computed.set(id, v);
    return v;
  }

  function maskBase() { // a generated state with this mask: what each row may read, R, S, M
    const states = taus.map((_, k) => data.variants[k + ":" + state.mask]);
    return states.find((v) => !v.error) || states[0];
  }

  // L, A and O in float64 at the state's tau from S, M and V (and R, S themselves when the
  // inputs were edited)
  function floatVariant(base, S, V, M, R) {
    const tau = tauValue(state.tau);
    const L = S.map((row, i) => row.map((s, j) => (M[i][j] === null ? -Infinity : (s + M[i][j]) / tau)));
    const A = L.map((row, i) => {
      const top = Math.max(...row);
      if (top === -Infinity) return base.weights ? base.weights[i].map(Number) : row.map(() => 0); // the row's policy
      const e = row.map((l) => Math.exp(l - top));
      const z = e.reduce((a, b) => a + b, 0);
      return e.map((x) => x / z);
    });
    const O = A.map((a) => V[0].map((_, c) => a.reduce((sum, w, j) => sum + w * V[j][c], 0)));
    const text = (x) => (x === -Infinity ? "−∞" : x.toFixed(data.places));
    // exact where float64 needs no rounding: a masked weight is 0, a row reading one key gives it 1
    const exactWeight = (i, j) => (base.readable[i][j] !== 1 ? "0" : base.readable[i].filter((r) => r === 1).length === 1 ? "1" : null);
    const cells = (m, weights) => m.map((row, i) => row.map((x, j) => {
      const exact = weights ? exactWeight(i, j) : null;
      return exact !== null ? [null, exact, false] : [null, text(x), x !== -Infinity];
    }));
    const v = { free: true, tau, readable: base.readable, passed: null, names: [],
      tables: { R: R ? cells(R, false) : base.tables.R, S: R ? cells(S, false) : base.tables.S, M: base.tables.M,
        L: cells(L, false), A: cells(A, true), O: cells(O, false) },
      weights: A.map((row, i) => row.map((x, j) => exactWeight(i, j) || text(x))), outputs: O.map((row) => row.map(text)) };
    if (R) Object.assign(v, { edited: true, tie: (i, j, b) => L[i][j] === L[i][b] }); // equal floats: equal weights
    return v;
  }

  // a table cell: exact math (with its decimal), or a float64 value marked ≈
  function cellNode([id, decimal, approx], withDecimal = true) {
    if (id === null) return el("span", { class: approx ? "approx" : null, text: (approx ? "≈ " : "") + decimal });
    const node = mathNode(id);
    return withDecimal && decimal ? el("span", {}, node, el("span", { class: "dec", text: decimal })) : node;
  }

  // ---- controls ----------------------------------------------------------------------------
  function setUpControls() {
    const select = $("row");
    data.rowLabels.forEach((label, i) => {
      select.append(el("option", { value: i + 1, text: fill("row_option", { row: i + 1, label }) }));
    });
    select.addEventListener("change", () => change({ row: Number(select.value) }));
    for (const node of document.querySelectorAll(".values-only")) node.hidden = !values;
    if (values) {
      const range = $("tau");
      range.max = String(free ? SLIDER : taus.length - 1);
      range.setAttribute("list", "tau-ticks");
      $("tau-ticks").append(...taus.map((t, k) => el("option", { value: free ? toPosition(t.value) : k, label: t.key })));
      $("tau-exact-label").textContent = P.exact_at;
      $("tau-scale").append(...taus.map((t) => {
        const button = el("button", { type: "button", class: "tau-pick", text: t.key, "aria-label": "τ = " + t.key });
        button.addEventListener("click", () => change({ tau: t.key }));
        return button;
      }));
      range.addEventListener("input", () => {
        sliding = true;
        change({ tau: free ? acceptedTau(fromPosition(Number(range.value))) : taus[Number(range.value)].key });
        sliding = false;
      });
      const typed = $("tau-text");
      typed.placeholder = free ? free.min + " – " + free.max : "";
      typed.addEventListener("change", () => {
        const tau = acceptedTau(typed.value);
        $("tau-error").hidden = tau !== null;
        typed.setAttribute("aria-invalid", String(tau === null));
        if (tau !== null) change({ tau });
      });
      $("tau-error").textContent = free ? fill("tau_invalid", free) : P.tau_invalid_fixed;
      $("mask").addEventListener("change", () => change({ mask: $("mask").checked ? "on" : "off" }));
      if (data.maskLabel) $("mask-label").textContent = P[data.maskLabel];
      else $("mask").closest(".control").hidden = true; // cross-attention: no causal order to mask
      if (data.projections) { // Q = XW_Q, ...: their tables come first, under their own names
        Object.assign(data.headings, data.projections.headings);
        for (const name of Object.keys(data.projections.tables)) data.words[name] = P[name.startsWith("W") ? "words_W" : "words_" + name];
      }
    }
    $("reset").addEventListener("click", () => change(Object.assign({ edits: {} }, data.defaults || { row: sizes.n_q, step: 1 })));
    $("copy-link").addEventListener("click", copyLink);
    $("share-url").addEventListener("focus", () => $("share-url").select());
  }

  function syncControls() {
    $("row").value = String(state.row);
    if (!values) return;
    const k = generatedIndex(state.tau);
    const tau = taus[Math.max(k, 0)];
    const output = $("tau-value");
    if (k >= 0) {
      if (!sliding) $("tau").value = String(free ? toPosition(tau.value) : k);
      $("tau").setAttribute("aria-valuetext", "τ = " + tau.key + (tau.dec ? " ≈ " + tau.dec : ""));
      output.replaceChildren(mathNode(tau.m), tau.dec ? el("span", { class: "dec", text: "≈ " + tau.dec }) : "", el("span", { class: "exact-tag", text: P.exact }));
    } else {
      const value = tauValue(state.tau);
      if (!sliding) $("tau").value = String(toPosition(value));
      $("tau").setAttribute("aria-valuetext", "τ = " + state.tau);
      output.replaceChildren(el("span", { text: "τ = " + state.tau + (String(value) === state.tau ? "" : " ≈ " + Number(value.toPrecision(6))) }),
        el("span", { class: "approx-tag", text: P.float64 }));
    }
    if (document.activeElement !== $("tau-text")) $("tau-text").value = state.tau;
    for (const button of document.querySelectorAll(".tau-pick")) button.setAttribute("aria-pressed", String(button.textContent === state.tau));
    $("mask").checked = state.mask === "on";
    syncEditor();
  }

  async function copyLink() {
    const status = $("copy-status");
    const url = $("share-url").value;
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = P.copied;
    } catch (error) {
      $("share-url").focus();
      $("share-url").select();
      status.textContent = P.copy_failed;
    }
  }

  function change(update) {
    const before = JSON.stringify([state.row, state.tau, state.mask, state.head, editsKey()]);
    Object.assign(state, update);
    $("tau-error").hidden = true; // any accepted change clears a refused typed temperature
    $("tau-text").removeAttribute("aria-invalid");
    if (JSON.stringify([state.row, state.tau, state.mask, state.head, editsKey()]) !== before) renderState();
    else syncControls();
    let start = performance.now();
    renderWalk();
    performance.measure("symattn walk", { start });
    start = performance.now();
    writeHash();
    performance.measure("symattn hash", { start });
    fitSoon();
  }

  // ---- the state: error, heatmap, summary, tables, derivation ------------------------------
  function renderState() {
    syncControls();
    const v = variant();
    const error = v && v.error;
    $("state-error").hidden = !error;
    $("state-error-text").textContent = error || "";
    const timed = (name, draw) => {
      const start = performance.now();
      draw();
      performance.measure("symattn " + name, { start });
    };
    if (values) {
      timed("heatmap", () => renderHeatmap(error ? null : v));
      timed("summary", () => renderSummary(error ? null : v));
    }
    drawWhenSeen($("tables"), "tables", () => renderTables(error ? null : v));
    drawWhenSeen($("derivation"), "derivation", () => keptDerivation(error ? null : v));
    drawWhenSeen($("mistakes"), "mistakes", renderMistakes);
    renderHeads(v);
    renderLesson(error ? null : v);
  }

  // The weight's colour, from near white to deep blue, and whether white text reads on it: black
  // text reads (4.5:1, WCAG AA) on a background of relative luminance >= 0.175, white on one
  // <= 0.183, so switching at 0.179 keeps both sides AA along the whole ramp.
  const LIGHT = [244, 247, 253];
  const DEEP = [8, 48, 120];
  function shade(weight) {
    const rgb = LIGHT.map((c, k) => Math.round(c + (DEEP[k] - c) * weight));
    const linear = rgb.map((c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : Math.pow((c / 255 + 0.055) / 1.055, 2.4)));
    const luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
    return { color: `rgb(${rgb.join(", ")})`, dark: luminance < 0.179 };
  }

  function renderHeatmap(v) {
    const table = $("heatmap");
    const head = el("tr", {}, el("th", { class: "corner", scope: "col", text: "" }));
    data.colLabels.forEach((label) => head.append(el("th", { scope: "col", text: label })));
    const body = el("tbody");
    data.rowLabels.forEach((label, i) => {
      const current = i + 1 === state.row;
      const button = el("button", { type: "button", class: "row-pick", text: label, "aria-pressed": String(current) });
      button.addEventListener("click", () => change({ row: i + 1 }));
      const tr = el("tr", { class: current ? "current" : null }, el("th", { scope: "row" }, button));
      data.colLabels.forEach((_, j) => {
        const readable = v ? v.readable[i][j] === 1 : true;
        const weight = v && v.weights ? v.weights[i][j] : null;
        const td = el("td", { "data-row": i + 1, "data-col": j + 1, "data-readable": readable ? "1" : "0" });
        if (weight !== null) td.dataset.weight = weight;
        if (!readable) {
          td.className = "masked";
          const why = v && v.zeros ? P["zero_" + v.zeros[i][j]] : P.masked;
          td.title = fill("zero_title", { reason: why });
          td.setAttribute("aria-label", "0, " + td.title);
          td.textContent = "0";
        } else if (weight !== null) {
          const w = Number(weight);
          const { color, dark } = shade(w);
          td.style.backgroundColor = color;
          if (dark) td.classList.add("dark");
          const fraction = !v.free && v.fractions && v.fractions.A[i][j];
          if (fraction) td.append(el("span", { class: "frac", text: fraction }), el("span", { class: "dec", text: weight }));
          else td.textContent = (v.free && v.tables.A[i][j][2] ? "≈" : "") + weight;
        } else if (v) {
          td.append(mathNode(v.tables.A[i][j][0]));
        } else {
          td.textContent = "—"; // this state cannot be computed: its reason is shown above
        }
        tr.append(td);
      });
      body.append(tr);
    });
    table.replaceChildren(el("thead", {}, head), body);
  }

  function renderSummary(v) {
    const box = $("summary");
    box.replaceChildren();
    if (!v) return;
    const i = state.row - 1;
    const label = data.rowLabels[i];
    const readable = data.colLabels.filter((_, j) => v.readable[i][j] === 1);
    const masked = data.colLabels.map((c, j) => (v.zeros ? `${c} (${P["zero_" + v.zeros[i][j]]})` : c)).filter((_, j) => v.readable[i][j] !== 1);
    const lines = [
      fill(label === String(state.row) ? "summary_reads_plain" : "summary_reads",
        { row: state.row, label, count: readable.length, total: sizes.n_k, keys: readable.join(P.list_separator) || "—" }),
      masked.length ? fill("summary_masked", { keys: masked.join(P.list_separator) }) : P.summary_unmasked,
    ];
    if (v.weights) {
      const weights = v.weights[i];
      const approx = v.free ? "≈ " : "";
      const mark = (j) => (v.free && v.tables.A[i][j][2] ? "≈ " : "");
      // an exact rational weight or output as the course writes it, its decimal beside
      const exact = (table, j, decimal) => {
        const fraction = !v.free && v.fractions && v.fractions[table][i][j];
        if (!fraction) return decimal;
        const [num, den] = fraction.split("/").map(Number);
        return `${fraction} ${num / den === Number(decimal) ? "=" : "≈"} ${decimal}`;
      };
      const shown = data.colLabels.map((c, j) => `${c} ${v.readable[i][j] === 1 ? mark(j) + exact("A", j, weights[j]) : "0"}`);
      lines.push(fill("summary_weights", { weights: shown.join(P.list_separator) }));
      if (readable.length) {
        let best = -1;
        data.colLabels.forEach((_, j) => {
          if (v.readable[i][j] === 1 && (best < 0 || Number(weights[j]) > Number(weights[best]))) best = j;
        });
        // exactly equal weights: the same exact value, or (at a free tau) the same S and M entries
        const same = (j) => (v.tie ? v.tie(i, j, best) : v.free ? ["S", "M"].every((t) => v.tables[t][i][j][0] === v.tables[t][i][best][0])
          : v.tables.A[i][j][0] === v.tables.A[i][best][0]);
        const tied = data.colLabels.filter((_, j) => v.readable[i][j] === 1 && same(j));
        const key = v.free ? "summary_largest_free" : "summary_largest";
        lines.push(tied.length > 1
          ? fill(key + "_tie", { keys: tied.join(P.list_separator), count: tied.length, weight: mark(best) + exact("A", best, weights[best]) })
          : fill(key, { key: data.colLabels[best], weight: mark(best) + exact("A", best, weights[best]) }));
      }
      // the lesson's note: rounded weights need not add up to 1 (0.376 + 0.175 + 0.448 = 0.999)
      const scale = 10 ** data.places;
      const rounded = weights.reduce((sum, w, j) => sum + (v.readable[i][j] === 1 ? Math.round(Number(w) * scale) : 0), 0);
      if (rounded !== scale) lines.push(fill("summary_rounding", { sum: (rounded / scale).toFixed(data.places) }));
      lines.push(fill("summary_output", { row: state.row, values: v.outputs[i].map((x, c) => approx + exact("O", c, x)).join(", ") }));
    }
    lines.push(P.summary_caution);
    box.replaceChildren(el("ul", {}, ...lines.map((line) => el("li", { text: line }))));
  }

  function renderTables(v) {
    const box = []; // the names legend above the tables is renderNames' (drawn with every state)
    if (!values) {
      for (const name of ["Q", "K", "V", "R", "S", "M", "L", "A", "O"]) box.push(shapeCard(name));
      return keepCards($("tables"), box);
    }
    const keyRows = ["K", "V"];
    if (data.projections) {
      for (const [name, cells] of Object.entries((v && v.projectionTables) || data.projections.tables)) {
        const rows = name === "X" ? data.rowLabels : name === "Y" ? data.colLabels : cells.map((_, r) => String(r + 1));
        box.push(cachedCard(name, cells, rows, cells[0].map((_, c) => String(c + 1)), v));
      }
    }
    for (const name of ["Q", "K", "V", "R", "S", "M", "L", "A", "O"]) {
      const cells = keyRows.includes(name) || name === "Q" ? inputsOf(v)[name] : v ? v.tables[name] : null;
      if (!cells) continue;
      const rows = keyRows.includes(name) ? data.colLabels : data.rowLabels;
      const cols = ["R", "S", "M", "L", "A"].includes(name) ? data.colLabels : cells[0].map((_, c) => String(c + 1));
      box.push(cachedCard(name, cells, rows, cols, v));
    }
    keepCards($("tables"), box);
  }

  function cardHead(name, rows, cols) {
    return el("figcaption", {}, mathNode(data.headings[name], "heading"), el("span", { class: "words", text: data.words[name] }),
      el("span", { class: "shape", text: fill("shape", { rows, cols }) }));
  }

  function matrixCard(name, cells, rows, cols, v) {
    const head = el("tr", {}, el("th", { class: "corner", text: "" }), ...cols.map((c) => el("th", { scope: "col", text: c })));
    const body = el("tbody");
    cells.forEach((row, i) => {
      const tr = el("tr", { class: rowClass(name, i, v) }, el("th", { scope: "row", text: rows[i] }));
      row.forEach(([id, decimal, approx]) => {
        tr.append(el("td", {}, ...(id === null ? [cellNode([id, decimal, approx])] : [mathNode(id), decimal ? el("span", { class: "dec", text: decimal }) : null])));
      });
      body.append(tr);
    });
    const table = el("table", { class: "matrix", id: "table-" + name, "data-rows": cells.length, "data-cols": cols.length },
      el("thead", {}, head), body);
    return el("figure", { class: "card" }, cardHead(name, cells.length, cols.length), el("div", { class: "scroll" }, table));
  }

  function shapeCard(name) {
    const [rows, cols] = data.shapes[name];
    const table = el("div", { class: "shape-grid", id: "table-" + name, "data-rows": rows, "data-cols": cols, style: null });
    table.style.setProperty("--cols", cols);
    for (let i = 0; i < rows * cols; i++) {
      const current = name !== "K" && name !== "V" && Math.floor(i / cols) + 1 === state.row;
      table.append(el("span", { class: current ? "sq current" : "sq" }));
    }
    return el("figure", { class: "card" }, cardHead(name, rows, cols), table);
  }

  function segmentNodes(segments) {
    return segments.map((s) => (typeof s === "number" ? mathNode(s) : document.createTextNode(s)));
  }

  function blockNode(block) {
    if (block.k === "h") return el("h3", {}, ...segmentNodes(block.s));
    if (block.k === "p") return el("p", {}, ...segmentNodes(block.s));
    if (block.k === "d") return el("div", { class: "display" }, mathNode(block.m));
    return el("ul", {}, ...block.items.map((item) => el("li", {}, ...segmentNodes(item))));
  }

  function renderMistakes() {
    const found = values && data.mistakes;
    $("mistakes-block").hidden = !found;
    if (!found) return;
    if (editCount()) return $("mistakes").replaceChildren(el("p", { class: "note", text: P.edit_mistakes }));
    const i = state.row - 1;
    const head = el("tr", {}, el("th", { scope: "col", text: P.mistake_column }),
      el("th", { scope: "col", text: fill("weights_of_row", { row: state.row }) }),
      el("th", { scope: "col", text: fill("output_of_row", { row: state.row }) }));
    const line = (name, formula, A, O, reason) => el("tr", { class: reason === undefined ? "right" : null },
      el("th", { scope: "row" }, el("span", { text: name }), formula ? el("span", { class: "formula-text", text: formula }) : null),
      ...(A ? [el("td", { text: "(" + A[i].join(", ") + ")" }), el("td", { text: "(" + O[i].join(", ") + ")" })]
        : [el("td", { colspan: 2, class: "note", text: P["mistake_" + reason] })]));
    const body = el("tbody", {}, line(P.right_answer, null, found.A, found.O),
      ...found.items.map((m) => line(m.name, m.formula, m.A, m.O, m.reason || null)));
    $("mistakes").replaceChildren(el("table", { class: "mistakes", id: "mistakes-table" }, el("thead", {}, head), body));
  }

  function renderDerivation(v) {
    const [box, checks] = derivationTargets();
    if (!values) {
      box.replaceChildren(el("p", { text: P.shapes_only }), el("ul", {},
        el("li", { text: fill("constraint_dk", sizes) }), el("li", { text: fill("constraint_nk", sizes) })));
      checks.replaceChildren();
      return;
    }
    checks.replaceChildren();
    if (v && v.free) {
      box.replaceChildren(el("p", { class: "note free-note", text: v.edited ? fill("edit_note", { count: editCount() })
        : fill("free_note", { tau: state.tau, taus: taus.map((t) => t.key).join(", ") }) }));
      return;
    }
    box.replaceChildren(...(v ? v.rows[state.row - 1].map(blockNode) : []));
    if (!v) return;
    checks.append(...v.checks.map(blockNode));
    checks.append(el("p", { class: v.passed ? "passed" : "failed", id: "checks-verdict", text: v.passed ? P.all_passed : P.some_failed }));
  }

  // A region that scrolls sideways can be reached and scrolled by keyboard; controls that would
  // take more than a fifth of the screen stop following the reader.
  function fitLayout() {
    let count = 0;
    for (const box of document.querySelectorAll("main .scroll:not(.stashed *), main .display:not(.stashed *)")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls) {
        const title = box.closest("figure, section").querySelector("figcaption, h2");
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", `${title ? title.textContent + " · " : ""}${P.scroll_region} ${++count}`);
      } else if (box.hasAttribute("tabindex")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
    const controls = $("controls");
    controls.classList.remove("unstuck");
    controls.classList.toggle("unstuck", controls.offsetHeight > 0.2 * window.innerHeight);
  }
  let fitting = 0;
  const fitSoon = () => { cancelAnimationFrame(fitting); fitting = requestAnimationFrame(fitLayout); };
  window.addEventListener("resize", fitSoon);

  // ==== editable inputs and speed (symattn page: the student edits Q, K, V; fast control changes) ====

  // ---- editable inputs: entries of Q, K, V typed by the student, computed in float64 ---------
  // state.edits maps "Q:3:2" (matrix, row, column, from 1) to the typed text, kept only where it
  // differs from the problem's own entry: with no edit left the page shows its exact states again.
  // (Functions only: readHash runs before this section's constants would exist.)
  function editData() { // one head's page only: a multi-head page shows its heads as given
    return values && free && !data.heads ? data.edit || null : null;
  }
  function editCount() {
    return Object.keys(state.edits || {}).length;
  }
  function editsKey() {
    return Object.keys(state.edits || {}).sort().map((k) => k + "=" + state.edits[k]).join(";");
  }
  function canonical(text) {
    return String(text).replace(/\u2212/g, "-").replace(/\s/g, "");
  }
  function editValue(text) { // "-1.5", "3/4", "−2/3" -> {num, den, value}; null if not a number in range
    const t = canonical(text);
    const m = /^([+-]?)([0-9./]{1,30})$/.exec(t);
    const x = m && exactOf(m[2]);
    if (!x) return null;
    const num = m[1] === "-" ? -x.num : x.num;
    const value = Number(num) / Number(x.den);
    return Number.isFinite(value) && Math.abs(value) <= editData().limit ? { num, den: x.den, value } : null;
  }
  function sameAsGiven(name, i, j, x) { // the typed value is the problem's own entry, exactly
    const exact = editData()[name][i][j][2];
    if (!exact) return false;
    const [n, d] = exact.split("/").map(BigInt);
    return x.num * d === n * x.den;
  }
  function editKey(name, i, j) {
    return `${name}:${i + 1}:${j + 1}`;
  }
  function editPlace(key) { // "Q:3:2" -> ["Q", 2, 1]
    const [name, i, j] = key.split(":");
    return [name, Number(i) - 1, Number(j) - 1];
  }

  // In the link: Q=3.2:1/2,1.1:-0.5 (row.column:value, the characters left as they are). A part
  // that does not parse, is out of range or names no entry drops its matrix's edits, nothing else.
  function readEdits(params) {
    const edits = {};
    const given = editData();
    if (!given) return edits;
    for (const name of given.editable) {
      const text = params.get(name);
      if (!text || text.length > 4000) continue;
      const found = {};
      const ok = text.split(",").every((part) => {
        const m = /^(\d{1,4})\.(\d{1,4}):(.{1,31})$/.exec(part);
        if (!m) return false;
        const [i, j] = [Number(m[1]) - 1, Number(m[2]) - 1];
        if (i < 0 || j < 0 || i >= given[name].length || j >= given[name][0].length) return false;
        const x = editValue(m[3]);
        if (!x) return false;
        if (!sameAsGiven(name, i, j, x)) found[editKey(name, i, j)] = canonical(m[3]);
        return true;
      });
      if (ok) Object.assign(edits, found);
    }
    return edits;
  }
  function editsHash() {
    if (!editData()) return "";
    const parts = Object.fromEntries(editData().editable.map((name) => [name, []]));
    const keys = Object.keys(state.edits || {}).map((k) => [k, editPlace(k)]);
    keys.sort((a, b) => a[1][1] - b[1][1] || a[1][2] - b[1][2]);
    for (const [key, [name, i, j]] of keys) parts[name].push(`${i + 1}.${j + 1}:${state.edits[key]}`);
    return Object.entries(parts).filter(([, p]) => p.length).map(([name, p]) => `&${name}=${p.join(",")}`).join("");
  }

  // the inputs of the state: the problem's (exact math), or with the typed entries as typed
  function inputsOf(v) {
    return (v && v.inputs) || data.inputs;
  }
  function editedFloats(name) {
    return editData()[name].map((row, i) => row.map(([value], j) => {
      const typed = state.edits[editKey(name, i, j)];
      return typed === undefined ? value : editValue(typed).value;
    }));
  }
  function editedInputs() { // Q, K, V in float64: edited, or computed from the edited X and W's
    if (!data.projections) return ["Q", "K", "V"].map(editedFloats);
    const times = (a, b) => a.map((row) => b[0].map((_, c) => row.reduce((sum, x, k) => sum + x * b[k][c], 0)));
    const X = editedFloats("X");
    const source = editData().editable.includes("Y") ? editedFloats("Y") : X;
    return [times(X, editedFloats("W_Q")), times(source, editedFloats("W_K")), times(source, editedFloats("W_V"))];
  }
  function editedVariant() {
    const id = "edited:" + state.tau + ":" + state.mask + ":" + editsKey();
    if (computed.has(id)) return computed.get(id);
    const base = maskBase();
    if (base.error || !free.M[state.mask]) return base;
    const [Q, K, V] = editedInputs();
    const R = Q.map((q) => K.map((k) => q.reduce((sum, x, c) => sum + x * k[c], 0)));
    const S = R.map((row) => row.map((r) => r * data.edit.scale));
    const v = floatVariant(base, S, V, free.M[state.mask], R);
    const typedIn = (name, cells) => cells.map((row, i) => row.map((cell, j) => {
      const typed = state.edits[editKey(name, i, j)];
      return typed === undefined ? cell : [null, typed, false, true]; // [3]: an edited entry
    }));
    if (data.projections) { // X and the W's as typed; Q, K, V computed from them, marked ≈
      v.projectionTables = {};
      for (const [name, cells] of Object.entries(data.projections.tables)) v.projectionTables[name] = typedIn(name, cells);
      const approx = (m) => m.map((row) => row.map((x) => [null, x.toFixed(data.places), true]));
      v.inputs = { Q: approx(Q), K: approx(K), V: approx(V) };
    } else {
      v.inputs = Object.fromEntries(["Q", "K", "V"].map((name) => [name, typedIn(name, data.inputs[name])]));
    }
    if (computed.size > 200) computed.clear();
    computed.set(id, v);
    return v;
  }

  // the editor: one text field per entry, under the heatmap
  function setUpEditor() {
    const given = editData();
    if (!given) return;
    $("edit-block").hidden = false;
    $("edit-projections").hidden = !data.projections;
    if (data.projections) $("edit-title").textContent = P.edit_title_projections;
    for (const name of given.editable) {
      const labels = ["Q", "X"].includes(name) ? data.rowLabels : ["K", "V", "Y"].includes(name) ? data.colLabels
        : given[name].map((_, i) => String(i + 1));
      const head = el("tr", {}, el("td", {}), ...given[name][0].map((_, j) => el("th", { scope: "col", text: String(j + 1) })));
      const body = el("tbody", {}, ...given[name].map((row, i) => el("tr", {}, el("th", { scope: "row", text: labels[i] }),
        ...row.map((_, j) => el("td", {}, editField(name, i, labels[i], j))))));
      $("edit-grids").append(el("figure", { class: "edit-card" }, el("figcaption", { text: name }),
        el("div", { class: "scroll" }, el("table", { class: "edit-table", id: "edit-" + name }, el("thead", {}, head), body))));
    }
    $("edit-undo").addEventListener("click", () => {
      for (const input of document.querySelectorAll(".edit-cell[aria-invalid]")) clearRefusal(input);
      change({ edits: {} });
    });
  }
  function editField(name, i, label, j) {
    const input = el("input", { type: "text", class: "edit-cell", id: `edit-${name}-${i + 1}-${j + 1}`, inputmode: "decimal",
      autocomplete: "off", spellcheck: "false", size: 5, "aria-label": fill("edit_entry", { name, row: i + 1, label, col: j + 1 }) });
    input.dataset.key = editKey(name, i, j);
    input.addEventListener("change", () => typedEntry(input));
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      clearRefusal(input);
      syncEditor();
    });
    return input;
  }
  function typedEntry(input) {
    const [name, i, j] = editPlace(input.dataset.key);
    const x = editValue(input.value);
    if (!x) { // refused: said beside the grid, marked on the field, the focus stays there
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "edit-error");
      $("edit-error").textContent = fill("edit_invalid", { entry: input.getAttribute("aria-label"), limit: editData().limit });
      $("edit-error").hidden = false;
      if (document.activeElement !== input) input.focus();
      return;
    }
    clearRefusal(input);
    const edits = Object.assign({}, state.edits);
    if (sameAsGiven(name, i, j, x)) delete edits[input.dataset.key];
    else edits[input.dataset.key] = canonical(input.value);
    change({ edits });
  }
  function clearRefusal(input) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
    if (!document.querySelector(".edit-cell[aria-invalid]")) $("edit-error").hidden = true;
  }
  function syncEditor() {
    const given = editData();
    if (!given) return;
    for (const input of $("edit-grids").querySelectorAll(".edit-cell")) {
      const key = input.dataset.key;
      const [name, i, j] = editPlace(key);
      const edited = key in state.edits;
      if (input.hasAttribute("aria-invalid") && document.activeElement !== input) clearRefusal(input);
      const shown = edited ? state.edits[key] : given[name][i][j][1];
      if (!input.hasAttribute("aria-invalid") && input.value !== shown) input.value = shown;
      input.classList.toggle("edited", edited);
      input.classList.toggle("wide", shown.length > 5);
    }
    $(data.projections ? "edit-X" : "edit-Q").querySelectorAll("tbody tr").forEach((tr, i) => tr.classList.toggle("current", i + 1 === state.row));
    const count = editCount();
    $("edit-status").textContent = count ? fill("edit_count", { count }) : P.edit_none;
  }

  // ---- speed: blocks out of view are drawn when they come into view or the page is idle ----
  // A control change redraws what the reader sees (controls, heatmap, summary, walkthrough, and
  // any block on screen) at once; the tables, the derivation and the mistakes below the screen
  // are redrawn when they come near the screen or when the page is idle, whichever is first, so
  // their typesetting and layout do not delay the change. body[data-pending] marks a redraw owed.
  const owed = new Map(); // block -> [name, draw]
  const onScreen = new Set();
  let watcher = null;
  let idle = 0;
  function timedDraw(name, draw) {
    const start = performance.now();
    draw();
    performance.measure("symattn " + name, { start });
  }
  function blockOf(node) {
    return node.closest("section");
  }
  function drawWhenSeen(node, name, draw) {
    const block = blockOf(node);
    if (!watcher) {
      watcher = new IntersectionObserver((entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) onScreen.add(entry.target);
          else onScreen.delete(entry.target);
          if (entry.isIntersecting && owed.has(entry.target)) payOwed(entry.target);
        }
      });
      for (const id of ["tables", "derivation", "mistakes"]) watcher.observe(blockOf($(id)));
    }
    owed.delete(block);
    if (onScreen.has(block)) {
      timedDraw(name, draw);
    } else {
      owed.set(block, [name, draw]);
      document.body.dataset.pending = "1";
      if (!idle) idle = (window.requestIdleCallback || setTimeout)(payIdle, { timeout: 1500 });
    }
  }
  function payOwed(block) {
    const [name, draw] = owed.get(block);
    owed.delete(block);
    timedDraw(name, draw);
    if (!owed.size) delete document.body.dataset.pending;
    fitSoon();
  }
  function payIdle() { // one block per idle period, so a reader's next change waits for little
    idle = 0;
    const next = owed.keys().next();
    if (next.done) return;
    payOwed(next.value);
    if (owed.size) idle = (window.requestIdleCallback || setTimeout)(payIdle, { timeout: 1500 });
  }

  // A table card is built once for its values and kept: a change of row only moves the row
  // marks (no new layout), a change of state swaps only the cards whose values changed.
  const cards = new Map();
  function rowClass(name, i, v) {
    const keyTable = ["K", "V", "Y"].includes(name);
    if (!keyTable && !name.startsWith("W_") && i + 1 === state.row) return "current";
    return keyTable && v && v.readable[state.row - 1][i] !== 1 ? "unread" : null;
  }
  function cachedCard(name, cells, rows, cols, v) {
    const id = name + "\u0000" + JSON.stringify(cells);
    let card = cards.get(id);
    if (!card) {
      card = matrixCard(name, cells, rows, cols, v);
      card.querySelectorAll("tbody tr").forEach((tr, i) => tr.querySelectorAll("td").forEach((td, j) => {
        if (cells[i][j][3]) td.classList.add("edited");
      }));
      if (cards.size > 400) cards.clear();
      cards.set(id, card);
    }
    card.querySelector("tbody").querySelectorAll(":scope > tr").forEach((tr, i) => {
      const cls = rowClass(name, i, v);
      if (tr.className !== (cls || "")) tr.className = cls || "";
    });
    return card;
  }
  // Each table has a slot in the grid; the versions of its card already laid out stay in the slot,
  // all but the shown one stashed (content-visibility: hidden keeps their layout, takes no room,
  // and hides them from the accessibility tree), so that showing one again costs no new layout.
  // A stashed version's ids are set aside (data-stashed-id), so every id names what is shown.
  const STASH = 12;
  function stash(node, on) {
    if (node.classList.contains("stashed") === on) return;
    node.classList.toggle("stashed", on);
    for (const inner of node.querySelectorAll(on ? "[id]" : "[data-stashed-id]")) {
      if (on) {
        inner.dataset.stashedId = inner.id;
        inner.removeAttribute("id");
      } else {
        inner.id = inner.dataset.stashedId;
        delete inner.dataset.stashedId;
      }
    }
  }
  function keepCards(box, wanted) {
    wanted.forEach((card, k) => {
      let slot = box.children[k];
      if (!slot) box.append(slot = el("div", { class: "slot" }));
      showOnly(slot, card, STASH);
    });
    while (box.children.length > wanted.length) box.lastElementChild.remove();
  }
  function showOnly(box, shown, most) { // shown becomes box's one unstashed child; at most `most` kept
    if (shown.parentNode !== box) box.append(shown);
    for (const other of box.children) if (other !== shown) stash(other, true);
    stash(shown, false);
    while (box.children.length > most) box.removeChild(box.firstElementChild === shown ? shown.nextElementSibling : box.firstElementChild);
  }

  // The derivation and checks of an exact state already shown are kept the same way (8 states);
  // a free or edited state's note is drawn afresh.
  const derivations = new Map(); // state -> [derivation version, checks version]
  let drawing = null;
  function derivationTargets() {
    return drawing || [$("derivation"), $("checks")];
  }
  function keptDerivation(v) {
    const id = !values ? "shapes" : v && !v.free ? `${state.tau}:${state.mask}:${state.row}` : "live";
    let versions = derivations.get(id);
    if (!versions || id === "live") {
      versions = versions || [el("div", { class: "version" }), el("div", { class: "version" })];
      drawing = versions;
      try {
        renderDerivation(v);
      } finally {
        drawing = null;
      }
      derivations.set(id, versions);
    }
    showOnly($("derivation"), versions[0], 8);
    showOnly($("checks"), versions[1], 8);
    for (const [key, kept] of derivations) if (!kept[0].parentNode) derivations.delete(key);
  }


  // ---- multi-head pages: the head selector, the chosen head's data, the concatenation and W_O;
  // ---- and the note of a state left symbolic (no colours, no decimals) ---------------------
  function headFromHash(params) { // the head named in the link, else the first; undefined: one head
    if (!data.heads) return undefined;
    const h = Number(params.get("head"));
    const head = Number.isInteger(h) && h >= 1 && h <= data.heads.length ? h : 1;
    useHead(head);
    return head;
  }

  function useHead(head) { // the head's tables, temperatures, mask and defaults become the page's
    const chosen = data.heads[head - 1];
    const projected = chosen.projections ? chosen.projections.headings : {};
    Object.assign(data, chosen, { headings: Object.assign({}, chosen.headings, projected, data.combine.headings) });
    if (chosen.projections) {
      for (const name of Object.keys(chosen.projections.tables)) data.words[name] = P[name.startsWith("W") ? "words_W" : "words_" + name];
    }
    Object.assign(sizes, chosen.sizes);
    taus = data.temperatures || [];
    free = data.free;
    $("mask-label").textContent = data.maskLabel ? P[data.maskLabel] : "";
    $("mask").closest(".control").hidden = !data.maskLabel;
  }

  function pickHead(head) { // keep the row and a temperature the head has; its own mask
    useHead(head);
    change({ head, tau: acceptedTau(state.tau) ? state.tau : data.defaults.tau, mask: data.defaults.mask });
  }

  function setUpHeads() {
    if (!data.heads) return;
    const select = el("select", { id: "head" });
    data.combine.settings.forEach((own, k) => {
      const setting = fill(own.mask === "none" ? "head_unmasked" : "head_masked", { tau: own.tau });
      select.append(el("option", { value: k + 1, text: fill("head_option", { head: k + 1, count: data.heads.length, setting }) }));
    });
    select.addEventListener("change", () => pickHead(Number(select.value)));
    $("controls").prepend(el("div", { class: "control head-control" }, el("label", { for: "head", text: P.head }), select));
    for (const id of ["heatmap-title", "walk-title", "tables-title", "derivation-title", "mistakes-title"]) {
      $(id).append(el("span", { class: "head-tag" }));
    }
    for (const name of ["C", "W_O", "MHA"]) data.words[name] = P["words_" + name];
    document.querySelector("label[for='share-url']").textContent = P.share_heads;
    const section = el("section", { class: "block", id: "heads-block", "aria-labelledby": "heads-title" },
      el("h2", { id: "heads-title", text: P.heads_title }),
      el("div", { class: "display" }, mathNode(data.combine.formula)),
      el("p", { class: "note", id: "heads-note" }), el("div", { id: "heads-tables", class: "tables" }));
    $("tables-title").closest("section").after(section);
  }

  function renderHeads(v) {
    renderSymbolic(v);
    if (!data.heads) return;
    $("head").value = String(state.head);
    for (const tag of document.querySelectorAll(".head-tag")) tag.textContent = " · " + fill("head_tag", { head: state.head });
    const own = data.combine.settings[state.head - 1];
    const same = generatedIndex(state.tau) === generatedIndex(own.tau) && state.mask === data.defaults.mask;
    $("heads-note").textContent = P.heads_note + (same ? "" : " " + fill("heads_other_state", { head: state.head }));
    const tables = data.combine.tables;
    const numbers = (cells) => cells.map((_, r) => String(r + 1));
    $("heads-tables").replaceChildren(
      matrixCard("C", tables.C, data.rowLabels, numbers(tables.C[0]), null),
      matrixCard("W_O", tables.W_O, numbers(tables.W_O), numbers(tables.W_O[0]), null),
      matrixCard("MHA", tables.MHA, data.rowLabels, numbers(tables.MHA[0]), null));
  }

  // A section laid out only when near the screen (content-visibility: auto) learns whether its
  // displays scroll sideways when it is laid out: fit them then (keyboard reach, region names).
  document.addEventListener("contentvisibilityautostatechange", fitSoon, true);

  // A state whose weights are still expressions (a symbolic temperature, or another symbol) has
  // no colours and no decimals: say why under the heatmap.
  function renderSymbolic(v) {
    let note = $("symbolic-note");
    if (!note) {
      note = el("p", { class: "note symbolic-note", id: "symbolic-note", hidden: true });
      $("heatmap").closest(".scroll").after(note);
    }
    const symbols = v && !v.error && !v.free && !v.weights && v.symbols ? v.symbols : [];
    note.hidden = !symbols.length;
    if (!symbols.length) return;
    const onlyTau = symbols.length === 1 && symbols[0] === state.tau;
    note.textContent = onlyTau ? fill("symbolic_tau_note", { tau: state.tau }) : fill("symbolic_note", { symbols: symbols.join(P.list_separator) });
  }

  setUpHeads();
  // ---- the lesson: predictions and claim before the lab, the hand check, names by state ------
  // The [page] table's texts are set as text; the hand check's steps and answers were computed
  // for every state and row when the page was written (segments of text and math).
  function setUpLesson() {
    const lesson = data.lesson;
    $("before-lab").hidden = !lesson;
    if (values) setUpHandCheck();
    if (!lesson) return;
    $("predictions-box").hidden = !lesson.predictions.length;
    $("predictions").replaceChildren(...lesson.predictions.map((text) => el("li", { text })));
    const claim = lesson.claim;
    $("claim-box").hidden = !claim;
    if (!claim) return;
    $("claim-text").textContent = claim.text;
    for (const [id, answer] of [["claim-true", true], ["claim-false", false]]) {
      $(id).addEventListener("click", () => {
        $("claim-true").setAttribute("aria-pressed", String(answer));
        $("claim-false").setAttribute("aria-pressed", String(!answer));
        const right = answer === claim.answer;
        const word = (claim.answer ? P.claim_true : P.claim_false).toLowerCase();
        $("claim-feedback").replaceChildren(
          el("p", { class: right ? "claim-right" : "claim-wrong", text: fill(right ? "claim_right" : "claim_wrong", { answer: word }) }),
          el("p", { text: claim.reason }));
      });
    }
  }

  function maskText() { // ", mask on" where the page has a mask toggle
    return data.maskLabel ? P.list_separator + (state.mask === "on" ? P.mask_on : P.mask_off) : "";
  }

  function stateText() {
    return "τ = " + state.tau + maskText();
  }

  function setUpHandCheck() {
    const list = $("hand-steps");
    for (let k = 1; k <= 7; k++) {
      list.append(el("li", { class: "hand-step", id: "hand-step-" + k },
        el("p", { class: "hand-do", id: "hand-do-" + k }),
        el("details", { id: "hand-details-" + k },
          el("summary", { id: "hand-summary-" + k, text: P.hand_reveal }),
          el("div", { class: "hand-answer scroll", id: "hand-answer-" + k }))));
      $("hand-details-" + k).addEventListener("toggle", fitSoon); // an answer wider than the screen scrolls by keyboard
    }
  }

  // The steps of the current row; the <details> stay in place, so what is open stays open and
  // the focus stays where it is. At a free tau, steps 5 to 7 point to the exact temperatures.
  function renderHandCheck(v) {
    const free = Boolean(v && v.free);
    const source = free ? taus.map((_, k) => data.variants[k + ":" + state.mask]).find((x) => !x.error && x.hand) : v;
    const hand = source && !source.error && source.hand ? source.hand[state.row - 1] : null;
    $("hand-steps").hidden = !hand;
    const row = { row: state.row, label: data.rowLabels[state.row - 1], tau: state.tau };
    $("hand-note").textContent = hand ? fill("hand_note", { state: fill("hand_state", row) + maskText() }) : "";
    if (!hand) return;
    hand.forEach((step, k) => {
      const late = free && k >= 4;
      $("hand-do-" + (k + 1)).replaceChildren(...(late ? [fill("hand_free", { tau: state.tau, taus: taus.map((t) => t.key).join(", ") })] : segmentNodes(step.do)));
      $("hand-details-" + (k + 1)).hidden = late;
      $("hand-answer-" + (k + 1)).replaceChildren(...segmentNodes(step.ans));
    });
  }

  // Each name the tables and the derivation use, with what it stands for at this state; when a
  // state change gives a name another value, the legend says so and what it stood for before.
  let shownNames = null; // the last state with names: its words and its names
  function renderNames(v) {
    const legend = v && !v.error && v.legend ? v.legend : [];
    const here = stateText();
    let changed = [];
    let before = null;
    if (legend.length) {
      if (shownNames && shownNames.text !== here) {
        before = shownNames.text;
        changed = legend.filter((e) => shownNames.map.has(e.n) && shownNames.map.get(e.n).m !== e.m).map((e) => [e, shownNames.map.get(e.n)]);
      }
      shownNames = { text: here, map: new Map(legend.map((e) => [e.n, e])) };
    }
    for (const id of ["names", "derivation-names"]) $(id).replaceChildren(...legendNodes(legend, changed, before));
  }

  function legendNodes(legend, changed = [], before = null) {
    if (!legend.length) return [];
    const box = el("div", { class: "names-legend" });
    if (changed.length) {
      box.append(el("div", { class: "names-changed" }, el("p", { text: fill("names_changed", { state: before }) }),
        el("ul", {}, ...changed.map(([now, was]) => el("li", {}, mathNode(now.s), " " + P.names_was + " ",
          was.dec ? "≈ " + was.dec : mathNode(was.m))))));
    }
    box.append(el("p", { class: "note", text: fill("names_at", { state: stateText() }) }),
      el("ul", { class: "names-list" }, ...legend.map((e) => el("li", { "data-name": e.n }, el("div", { class: "scroll" }, mathNode(e.m))))));
    return [box];
  }

  // The names the walkthrough's step shows in its cells (rows of S and L, or of O; the weights'
  // row where it is shown as math rather than as bars).
  function namesInStep(v) {
    const i = state.row - 1;
    const rows = (state.step === 4 ? ["S", "L"] : ["O"]).concat(v.weights ? [] : ["A"]);
    const tex = rows.map((name) => v.tables[name][i].map(([id]) => (id === null ? "" : data.math[id][0])).join(" ")).join(" ");
    return (v.legend || []).filter((e) => {
      const symbol = data.math[e.s][0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return new RegExp("(^|[^A-Za-z\\\\])" + symbol + "(?![A-Za-z_])").test(tex);
    });
  }

  function renderLesson(v) {
    if (!values) return;
    renderNames(v);
    renderHandCheck(v);
  }

  setUpLesson();
  setUpControls();
  setUpEditor();
  renderState();
  setUpWalk();
  renderWalk();
  $("footer").textContent = fill("footer", { source: data.source, places: data.places });
  window.addEventListener("hashchange", () => {
    Object.assign(state, readHash());
    renderState();
    renderWalk();
    writeHash();
  });
  document.body.classList.toggle("shapes-only", !values);
  $("app").hidden = false;
  fitLayout();
  writeHash();
  document.body.dataset.ready = "1";

  // ---- the five-step walkthrough -----------------------------------------------------------
  function setUpWalk() {
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)");
    const walk = $("walk");
    let timer = null;
    const play = $("walk-play");
    const stop = () => {
      clearInterval(timer);
      timer = null;
      play.textContent = P.play;
      play.setAttribute("aria-pressed", "false");
    };
    const motion = () => {
      $("motion-note").hidden = !reduce.matches;
      play.disabled = reduce.matches;
      walk.classList.toggle("reduced", reduce.matches);
      if (reduce.matches) stop();
    };
    reduce.addEventListener("change", motion);
    motion();
    const go = (step, focusTab) => {
      change({ step: Math.min(STEPS, Math.max(1, step)) });
      if (focusTab) $("walk-tab-" + state.step).focus();
    };
    $("walk-prev").addEventListener("click", () => { stop(); go(state.step - 1); });
    $("walk-next").addEventListener("click", () => { stop(); go(state.step + 1); });
    play.addEventListener("click", () => {
      if (timer) return stop();
      play.textContent = P.pause;
      play.setAttribute("aria-pressed", "true");
      if (state.step === STEPS) go(1);
      timer = setInterval(() => (state.step >= STEPS ? stop() : go(state.step + 1)), AUTOPLAY_MS);
    });
    for (const tab of document.querySelectorAll("#walk-tabs [role=tab]")) {
      tab.addEventListener("click", () => { stop(); go(Number(tab.dataset.step)); });
    }
    walk.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const onTab = document.activeElement && document.activeElement.getAttribute("role") === "tab";
      const from = onTab ? Number(document.activeElement.dataset.step) : state.step; // as in a tab list
      const moves = { ArrowRight: from + 1, ArrowLeft: from - 1, Home: 1, End: STEPS };
      if (!(event.key in moves)) return;
      event.preventDefault();
      stop();
      go(moves[event.key], onTab);
    });
  }

  function renderWalk() {
    $("walk-step").textContent = fill("step_of", { n: state.step });
    for (const tab of document.querySelectorAll("#walk-tabs [role=tab]")) {
      const selected = Number(tab.dataset.step) === state.step;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
    for (const [id, other, off] of [["walk-prev", "walk-next", state.step === 1], ["walk-next", "walk-prev", state.step === STEPS]]) {
      const focused = document.activeElement === $(id);
      $(id).disabled = off;
      if (off && focused) $(other).focus(); // a disabled button would drop the focus to the page
    }
    const panel = $("walk-panel");
    panel.setAttribute("aria-labelledby", "walk-tab-" + state.step);
    panel.dataset.step = String(state.step);
    const v = variant();
    const ok = values && v && !v.error;
    const fields = Object.assign({ row: state.row, label: data.rowLabels[state.row - 1] }, sizes);
    const visual = [null, stepTokens, stepProjections, stepScores, stepSoftmax, stepSum][state.step](ok ? v : null);
    const formula = state.step > 1 ? el("div", { class: "formula" }, mathNode(data.stepMath[state.step - 2])) : null;
    // new nodes in the panel start their entrance animation (none with reduced motion)
    panel.replaceChildren(el("h3", { text: P["step" + state.step] }), el("p", { text: fill("step" + state.step + (state.step === 2 && data.projections ? "_text_projections" : "_text"), Object.assign({ source: data.projections && data.projections.cross ? "Y" : "X" }, fields)) }),
      ...[formula, visual].filter(Boolean), ...(ok && state.step >= 4 && !v.free ? legendNodes(namesInStep(v)) : []));
  }

  function staggered(node, k) {
    node.style.setProperty("--k", String(k));
    return node;
  }

  function chips(labels, current, title) {
    return el("div", { class: "chips" }, el("span", { class: "chip-title", text: title }),
      ...labels.map((label, i) => staggered(el("span", { class: i === current ? "chip current" : "chip", text: label }), i)));
  }

  function stepTokens() {
    const same = data.rowLabels.join("\u0000") === data.colLabels.join("\u0000");
    return el("div", { class: "visual" }, chips(data.rowLabels, state.row - 1, P.queries_label),
      same ? null : chips(data.colLabels, -1, P.keys_label));
  }

  function squares(name, rows, cols, currentRow, readable) {
    const grid = el("div", { class: "shape-grid small" });
    grid.style.setProperty("--cols", cols);
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        let cls = "sq";
        if (i === currentRow) cls += " current";
        if (readable && readable[i] === 0) cls += " off";
        grid.append(staggered(el("span", { class: cls }), i));
      }
    }
    return el("figure", { class: "mini" }, grid, el("figcaption", { text: `${name}  ${rows} × ${cols}` }));
  }

  function stepProjections(v) {
    const i = state.row - 1;
    const read = v ? v.readable[i] : null;
    const row = el("div", { class: "visual row-wrap" }, squares("Q", sizes.n_q, sizes.d_k, i),
      squares("K", sizes.n_k, sizes.d_k, -1, read), squares("V", sizes.n_k, sizes.d_v, -1, read));
    if (!v) return row;
    const q = el("p", { class: "vector" }, mathNode(data.rowMath.q[i]), el("span", { text: "=" }),
      ...inputsOf(v).Q[i].map((cell, k) => staggered(el("span", { class: "cell" }, cellNode(cell, false)), k)));
    return el("div", {}, row, q);
  }

  function keyRow(title, cells, readable, render) {
    return el("tr", {}, el("th", { scope: "row", text: title }), ...cells.map((cell, j) => {
      const td = el("td", { class: readable && readable[j] !== 1 ? "off" : null }, render(cell, j));
      return staggered(td, j);
    }));
  }

  function keyTable(rows) {
    return el("div", { class: "scroll" }, el("table", { class: "steps" },
      el("thead", {}, el("tr", {}, el("th", { text: "" }), ...data.colLabels.map((c) => el("th", { scope: "col", text: c })))),
      el("tbody", {}, ...rows)));
  }

  function stepScores(v) {
    const grid = el("div", { class: "visual row-wrap" }, squares("R = QKᵀ", sizes.n_q, sizes.n_k, state.row - 1));
    if (!v) return grid;
    const cells = v.tables.R[state.row - 1];
    return el("div", {}, grid, keyTable([keyRow(P.scores_row, cells, null, (cell) => cellNode(cell, false))]));
  }

  function bar(weight) {
    const fillNode = el("span", { class: "bar-fill" });
    requestAnimationFrame(() => requestAnimationFrame(() => fillNode.style.setProperty("--w", weight)));
    return el("span", { class: "bar", "data-weight": weight }, fillNode, el("span", { class: "bar-text", text: weight }));
  }

  function stepSoftmax(v) {
    const i = state.row - 1;
    if (!v) return el("div", { class: "visual row-wrap" }, squares("A", sizes.n_q, sizes.n_k, i));
    const read = v.readable[i];
    const rows = [
      keyRow(P.scaled_row, v.tables.S[i], null, (cell) => cellNode(cell, false)),
      keyRow(P.logits_row, v.tables.L[i], read, (cell) => cellNode(cell, false)),
      keyRow(P.weights_row, v.tables.A[i], read, (cell, j) => (v.weights && read[j] === 1 ? bar(v.weights[i][j]) : cellNode(cell, false))),
    ];
    return keyTable(rows);
  }

  function stepSum(v) {
    const i = state.row - 1;
    if (!v) return el("div", { class: "visual row-wrap" }, squares("O = AV", sizes.n_q, sizes.d_v, i));
    const terms = el("tbody");
    data.colLabels.forEach((label, j) => {
      if (v.readable[i][j] !== 1) return;
      const weight = v.weights ? bar(v.weights[i][j]) : cellNode(v.tables.A[i][j], false);
      terms.append(staggered(el("tr", {}, el("th", { scope: "row", text: label }), el("td", {}, weight),
        el("td", { class: "times", text: "×" }), el("td", {}, ...inputsOf(v).V[j].map((cell) => el("span", { class: "cell" }, cellNode(cell, false))))), j));
    });
    const output = el("tr", { class: "result" }, el("th", { scope: "row" }, mathNode(data.rowMath.O[i])), el("td", { text: "=" }), el("td", {}),
      el("td", {}, ...v.tables.O[i].map((cell) => el("span", { class: "cell" }, cellNode(cell)))));
    terms.append(output);
    return el("div", { class: "scroll" }, el("table", { class: "steps sum" }, terms));
  }
})();
