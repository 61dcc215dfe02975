// ---- the state: error, heatmap, summary, tables, derivation ------------------------------
import { $, P, data, el, fill, mathNode, sizes, values } from "./core.js";
import { cellNode, state, variant } from "./state.js";
import { change, syncControls } from "./controls.js";
import { editCount, inputsOf } from "./edit.js";
import { cardSoon, derivationTargets, drawInSlices, drawWhenSeen, guideAfterFrame, keepCards, keptDerivation, later, rowClass, typesetAhead } from "./speed.js";
import { renderHeads } from "./heads.js";
import { renderLesson } from "./lesson.js";
export function renderState() {
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
  typesetAhead();
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

// The heatmap is built again only for other values; a change of row moves its row marks.
let heatmapOf = [];
function renderHeatmap(v) {
  const table = $("heatmap");
  if (heatmapOf[0] === v && table.tBodies.length) {
    [...table.tBodies[0].rows].forEach((tr, i) => {
      const current = i + 1 === state.row;
      if (tr.classList.contains("current") !== current) tr.classList.toggle("current", current);
      tr.querySelector(".row-pick").setAttribute("aria-pressed", String(current));
    });
    return;
  }
  heatmapOf = [v];
  const head = el("tr", {}, el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: P.heat_corner })));
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
  if ($("claim-box").hidden || $("claim-feedback").firstChild) lines.push(P.summary_caution); // it answers the claim
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
      box.push(cardSoon(name, cells, rows, cells[0].map((_, c) => String(c + 1)), v));
    }
  }
  for (const name of ["Q", "K", "V", "R", "S", "M", "L", "A", "O"]) {
    const cells = keyRows.includes(name) || name === "Q" ? inputsOf(v)[name] : v ? v.tables[name] : null;
    if (!cells) continue;
    const rows = keyRows.includes(name) ? data.colLabels : data.rowLabels;
    const cols = ["R", "S", "M", "L", "A"].includes(name) ? data.colLabels : cells[0].map((_, c) => String(c + 1));
    box.push(cardSoon(name, cells, rows, cols, v));
  }
  keepCards($("tables"), box);
}

function cardHead(name, rows, cols) {
  return el("figcaption", {}, mathNode(data.headings[name], "heading"), el("span", { class: "words", text: data.words[name] }),
    el("span", { class: "shape", text: fill("shape", { rows, cols }) }));
}

export function matrixCard(name, cells, rows, cols, v) {
  const head = el("tr", {}, el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: P.table_corner })), ...cols.map((c) => el("th", { scope: "col", text: c })));
  const body = el("tbody");
  // a table whose first column alone nearly fills its scroll box (A's and O's long exact values):
  // its other columns are typeset when the page is idle, their decimals there at once
  const wide = cells.some((row) => row[0][0] !== null && data.math[row[0][0]][0].length > 60);
  cells.forEach((row, i) => {
    const tr = el("tr", { class: rowClass(name, i, v) }, el("th", { scope: "row", text: rows[i] }));
    row.forEach(([id, decimal, approx], j) => {
      if (id === null) return tr.append(el("td", {}, cellNode([id, decimal, approx])));
      const td = el("td", {}, wide && j > 0 ? null : mathNode(id), decimal ? el("span", { class: "dec", text: decimal }) : null);
      if (wide && j > 0) later(() => td.prepend(mathNode(id)));
      tr.append(td);
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

export function segmentNodes(segments) {
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

export function renderDerivation(v) {
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
      : fill("free_note", { tau: state.tau, taus: state.taus.map((t) => t.key).join(", ") }) }));
    return;
  }
  box.replaceChildren();
  if (!v) return;
  const verdict = () => el("p", { class: v.passed ? "passed" : "failed", id: "checks-verdict", text: v.passed ? P.all_passed : P.some_failed });
  drawInSlices([...v.rows[state.row - 1].map((b) => [box, () => blockNode(b)]),
    ...v.checks.map((b) => [checks, () => blockNode(b)]), [checks, verdict]]);
}

// A region that scrolls sideways can be reached and scrolled by keyboard; controls that would
// take more than a fifth of the screen stop following the reader. After a change only the boxes
// the browser lays out anyway are measured: reading a width inside a block skipped off screen
// (content-visibility: auto) or a closed <details> lays that part out on its own, one forced
// layout each (8 of them, 50 ms, with the derivation on screen); those are fitted when they come
// on screen or open (fitSoon(event)), or when redrawn (fitSoon(block)); at start and on a resize, all.
const SKIPPABLE = ".block:not(.lesson)";
export const shownBlocks = new Set(); // the skippable blocks the browser lays out (on or near the screen)
document.addEventListener("contentvisibilityautostatechange", (event) => {
  if (event.skipped) shownBlocks.delete(event.target);
  else shownBlocks.add(event.target);
}, true);
function laidOut(box, scopes) {
  for (let a = box.parentElement; a && a !== document.body; a = a.parentElement) {
    if (a.tagName === "DETAILS" && !a.open) return false;
    if (scopes.has(a)) return true;
    if (a.matches(SKIPPABLE) && !shownBlocks.has(a)) return false;
  }
  return true;
}
const BOXES = ".scroll:not(.stashed *), .display:not(.stashed *)";
export function fitLayout(all = true, scopes = new Set()) {
  const boxes = [...document.querySelectorAll(BOXES.replace(/^|, /g, "$&main "))].filter((box) => all || laidOut(box, scopes));
  // every width read before any attribute is set: one layout, not one per box
  const scrolls = boxes.map((box) => box.scrollWidth > box.clientWidth + 1);
  const numbered = new Map(); // a box's number: its place among its card's or section's boxes (the same in any fit)
  boxes.forEach((box, k) => {
    if (scrolls[k]) {
      const holder = box.closest("figure, section");
      const title = holder.querySelector("figcaption, h2");
      if (!numbered.has(holder)) numbered.set(holder, [...holder.querySelectorAll(BOXES)]);
      const label = `${title ? title.textContent + " · " : ""}${P.scroll_region} ${numbered.get(holder).indexOf(box) + 1}`;
      if (box.getAttribute("aria-label") === label) return; // set before: no change to restyle
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", label);
    } else if (box.hasAttribute("tabindex")) {
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
    }
  });
  const controls = $("controls"); // sticky or not, the same height
  controls.classList.toggle("unstuck", controls.offsetHeight > 0.2 * window.innerHeight);
}
let fitting = 0;
let fitAll = false;
const fitScopes = new Set();
export function fitSoon(cause) { // cause: a block redrawn, an event (its target: a block shown, a <details> toggled, a resize)
  if (cause && cause.skipped) return; // a block left the screen: nothing to fit
  const scope = cause instanceof Event ? cause.target : cause;
  if (scope === window) fitAll = true;
  else if (scope instanceof Element) fitScopes.add(scope);
  cancelAnimationFrame(fitting);
  fitting = requestAnimationFrame(() => {
    const start = performance.now();
    fitLayout(fitAll, fitScopes);
    guideAfterFrame();
    performance.measure("symattn fit", { start });
    fitAll = false;
    fitScopes.clear();
  });
}
window.addEventListener("resize", fitSoon);

// ==== editable inputs and speed (symattn page: the student edits Q, K, V; fast control changes) ====
