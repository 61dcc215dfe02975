// ---- the five-step walkthrough -----------------------------------------------------------
import { $, AUTOPLAY_MS, P, STEPS, data, el, fill, mathNode, sizes, values } from "./core.js";
import { cellNode, state, variant } from "./state.js";
import { change } from "./controls.js";
import { inputsOf } from "./edit.js";
import { drawWhenSeen, walkSeen, watcher } from "./speed.js";
import { legendNodes, namesInStep } from "./lesson.js";
export function setUpWalk() {
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

export function renderWalk() {
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
  // off screen the panel is drawn when it comes into view or the page is idle (speed.js)
  drawWhenSeen(panel, "walk panel", () => renderWalkPanel(v), panel, walkSeen());
  watcher.observe(panel); // observed once (observing again changes nothing)
}

// the step's sentence: its variant for inputs given by projections, or for a finite mask bias
function stepTextKey() {
  if (state.step === 2 && data.projections) return "step2_text_projections";
  if (state.step === 4 && data.maskBias) return "step4_text_bias";
  return "step" + state.step + "_text";
}

function renderWalkPanel(v) {
  const panel = $("walk-panel");
  const ok = values && v && !v.error;
  const fields = Object.assign({ row: state.row, label: data.rowLabels[state.row - 1] }, sizes);
  const visual = [null, stepTokens, stepProjections, stepScores, stepSoftmax, stepSum][state.step](ok ? v : null);
  const formula = state.step > 1 ? el("div", { class: "formula" }, mathNode(data.stepMath[state.step - 2])) : null;
  // new nodes in the panel start their entrance animation (none with reduced motion, none off screen)
  panel.classList.toggle("enter", walkSeen());
  panel.replaceChildren(el("h3", { text: P["step" + state.step] }), el("p", { text: fill(stepTextKey(), Object.assign({ source: data.projections && data.projections.cross ? "Y" : "X", bias: data.maskBias }, fields)) }),
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

export function keyTable(rows) {
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
