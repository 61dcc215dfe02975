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
    const hash = "#" + new URLSearchParams(fields).toString();
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
    const k = generatedIndex(state.tau);
    return k >= 0 || !free ? data.variants[Math.max(k, 0) + ":" + state.mask] : freeVariant();
  }

  const computed = new Map();
  // A free temperature: R, S, M and what each row may read are those of every generated state with
  // this mask (they do not depend on tau); L, A and O are computed in float64.
  function freeVariant() {
    const id = state.head + ":" + state.tau + ":" + state.mask;
    if (computed.has(id)) return computed.get(id);
    const states = taus.map((_, k) => data.variants[k + ":" + state.mask]);
    const base = states.find((v) => !v.error) || states[0];
    if (base.error || !free.M[state.mask]) return base;
    const tau = tauValue(state.tau);
    const M = free.M[state.mask];
    const L = free.S.map((row, i) => row.map((s, j) => (M[i][j] === null ? -Infinity : (s + M[i][j]) / tau)));
    const A = L.map((row, i) => {
      const top = Math.max(...row);
      if (top === -Infinity) return base.weights ? base.weights[i].map(Number) : row.map(() => 0); // the row's policy
      const e = row.map((l) => Math.exp(l - top));
      const z = e.reduce((a, b) => a + b, 0);
      return e.map((x) => x / z);
    });
    const O = A.map((a) => free.V[0].map((_, c) => a.reduce((sum, w, j) => sum + w * free.V[j][c], 0)));
    const text = (x) => (x === -Infinity ? "−∞" : x.toFixed(data.places));
    // exact where float64 needs no rounding: a masked weight is 0, a row reading one key gives it 1
    const exactWeight = (i, j) => (base.readable[i][j] !== 1 ? "0" : base.readable[i].filter((r) => r === 1).length === 1 ? "1" : null);
    const cells = (m, weights) => m.map((row, i) => row.map((x, j) => {
      const exact = weights ? exactWeight(i, j) : null;
      return exact !== null ? [null, exact, false] : [null, text(x), x !== -Infinity];
    }));
    const v = { free: true, tau, readable: base.readable, passed: null, names: [],
      tables: { R: base.tables.R, S: base.tables.S, M: base.tables.M, L: cells(L, false), A: cells(A, true), O: cells(O, false) },
      weights: A.map((row, i) => row.map((x, j) => exactWeight(i, j) || text(x))), outputs: O.map((row) => row.map(text)) };
    computed.set(id, v);
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
    $("reset").addEventListener("click", () => change(Object.assign({}, data.defaults || { row: sizes.n_q, step: 1 })));
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
    const before = JSON.stringify([state.row, state.tau, state.mask, state.head]);
    Object.assign(state, update);
    $("tau-error").hidden = true; // any accepted change clears a refused typed temperature
    $("tau-text").removeAttribute("aria-invalid");
    if (JSON.stringify([state.row, state.tau, state.mask, state.head]) !== before) renderState();
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
    timed("tables", () => renderTables(error ? null : v));
    timed("derivation", () => renderDerivation(error ? null : v));
    renderMistakes();
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
        const same = (j) => (v.free ? ["S", "M"].every((t) => v.tables[t][i][j][0] === v.tables[t][i][best][0])
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
    const box = $("tables");
    box.replaceChildren();
    $("names").replaceChildren();
    if (!values) {
      for (const name of ["Q", "K", "V", "R", "S", "M", "L", "A", "O"]) box.append(shapeCard(name));
      return;
    }
    const keyRows = ["K", "V"];
    if (data.projections) {
      for (const [name, cells] of Object.entries(data.projections.tables)) {
        const rows = name === "X" ? data.rowLabels : name === "Y" ? data.colLabels : cells.map((_, r) => String(r + 1));
        box.append(matrixCard(name, cells, rows, cells[0].map((_, c) => String(c + 1)), v));
      }
    }
    for (const name of ["Q", "K", "V", "R", "S", "M", "L", "A", "O"]) {
      const cells = keyRows.includes(name) || name === "Q" ? data.inputs[name] : v ? v.tables[name] : null;
      if (!cells) continue;
      const rows = keyRows.includes(name) ? data.colLabels : data.rowLabels;
      const cols = ["R", "S", "M", "L", "A"].includes(name) ? data.colLabels : cells[0].map((_, c) => String(c + 1));
      box.append(matrixCard(name, cells, rows, cols, v));
    }
  }

  function cardHead(name, rows, cols) {
    return el("figcaption", {}, mathNode(data.headings[name], "heading"), el("span", { class: "words", text: data.words[name] }),
      el("span", { class: "shape", text: fill("shape", { rows, cols }) }));
  }

  function matrixCard(name, cells, rows, cols, v) {
    const keyTable = ["K", "V", "Y"].includes(name);
    const queryTable = !keyTable && !name.startsWith("W_");
    const head = el("tr", {}, el("th", { class: "corner", text: "" }), ...cols.map((c) => el("th", { scope: "col", text: c })));
    const body = el("tbody");
    cells.forEach((row, i) => {
      let cls = null;
      if (queryTable && i + 1 === state.row) cls = "current";
      if (keyTable && v && v.readable[state.row - 1][i] !== 1) cls = "unread";
      const tr = el("tr", { class: cls }, el("th", { scope: "row", text: rows[i] }));
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
    const box = $("derivation");
    const checks = $("checks");
    if (!values) {
      box.replaceChildren(el("p", { text: P.shapes_only }), el("ul", {},
        el("li", { text: fill("constraint_dk", sizes) }), el("li", { text: fill("constraint_nk", sizes) })));
      checks.replaceChildren();
      return;
    }
    checks.replaceChildren();
    if (v && v.free) {
      box.replaceChildren(el("p", { class: "note free-note", text: fill("free_note", { tau: state.tau, taus: taus.map((t) => t.key).join(", ") }) }));
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
    for (const box of document.querySelectorAll("main .scroll, main .display")) {
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
      ...data.inputs.Q[i].map(([id], k) => staggered(el("span", { class: "cell" }, mathNode(id)), k)));
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
    return el("div", {}, grid, keyTable([keyRow(P.scores_row, cells, null, ([id]) => mathNode(id))]));
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
      keyRow(P.scaled_row, v.tables.S[i], null, ([id]) => mathNode(id)),
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
        el("td", { class: "times", text: "×" }), el("td", {}, ...data.inputs.V[j].map(([id]) => el("span", { class: "cell" }, mathNode(id))))), j));
    });
    const output = el("tr", { class: "result" }, el("th", { scope: "row" }, mathNode(data.rowMath.O[i])), el("td", { text: "=" }), el("td", {}),
      el("td", {}, ...v.tables.O[i].map((cell) => el("span", { class: "cell" }, cellNode(cell)))));
    terms.append(output);
    return el("div", { class: "scroll" }, el("table", { class: "steps sum" }, terms));
  }
})();
