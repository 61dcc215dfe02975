// ---- editable inputs: entries of Q, K, V typed by the student, computed in float64 ---------
// state.edits maps "Q:3:2" (matrix, row, column, from 1) to the typed text, kept only where it
// differs from the problem's own entry: with no edit left the page shows its exact states again.
// (Functions only: readHash runs before this section's constants would exist.)
import { $, P, data, el, fill, values } from "./core.js";
import { computed, exactOf, floatVariant, maskBase, state, tauValue } from "./state.js";
import { change } from "./controls.js";
import { floatAttention, scores, times } from "./float.js";
function editData() { // a multi-head page: X, W_O and every head's W's, in combine.edit
  return values && state.free ? (data.heads ? data.combine.edit : data.edit) || null : null;
}
// the edits the shown head's tables depend on
export function editCount() {
  return Object.keys(state.edits || {}).filter((k) => feeds(k.split(":")[0], state.head)).length;
}
export function editsKey() {
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
export function readEdits(params) {
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
export function editsHash() {
  if (!editData()) return "";
  const parts = Object.fromEntries(editData().editable.map((name) => [name, []]));
  const keys = Object.keys(state.edits || {}).map((k) => [k, editPlace(k)]);
  keys.sort((a, b) => a[1][1] - b[1][1] || a[1][2] - b[1][2]);
  for (const [key, [name, i, j]] of keys) parts[name].push(`${i + 1}.${j + 1}:${state.edits[key]}`);
  return Object.entries(parts).filter(([, p]) => p.length).map(([name, p]) => `&${name}=${p.join(",")}`).join("");
}

// the inputs of the state: the problem's (exact math), or with the typed entries as typed
export function inputsOf(v) {
  return (v && v.inputs) || data.inputs;
}
// name: as the editor has it (own)
function editedFloats(name) {
  return editData()[name].map((row, i) => row.map(([value], j) => {
    const typed = state.edits[editKey(name, i, j)];
    return typed === undefined ? value : editValue(typed).value;
  }));
}
function editedInputs(head = state.head) { // Q, K, V in float64: edited, or from the edited X and W's
  if (!data.projections) return ["Q", "K", "V"].map(editedFloats);
  const X = editedFloats("X");
  const source = editData().editable.includes("Y") ? editedFloats("Y") : X;
  return [times(X, editedFloats(own("W_Q", head))), times(source, editedFloats(own("W_K", head))), times(source, editedFloats(own("W_V", head)))];
}
// Q, K, V in float64 and, where the problem gives them directly, their entries' texts as the
// editor shows them (typed or given); null on a page without float inputs
export function floatInputs() {
  if (!editData()) return null;
  const [Q, K, V] = editedInputs();
  const shown = (name) => editData()[name].map((row, i) => row.map(([, text], j) => state.edits[editKey(name, i, j)] ?? text));
  return { Q, K, V, texts: data.projections ? null : { Q: shown("Q"), K: shown("K"), V: shown("V") } };
}
export function editedVariant() {
  const id = "edited:" + state.head + ":" + state.tau + ":" + state.mask + ":" + editsKey();
  if (computed.has(id)) return computed.get(id);
  if (!Number.isFinite(tauValue(state.tau))) return { error: fill("edit_symbolic", { tau: state.tau }) };
  const base = maskBase();
  if (base.error || !state.free.M[state.mask]) return base;
  const inputs = floatInputs();
  const { Q, K, V } = inputs;
  const [R, S] = scores(Q, K, data.edit.scale);
  const v = floatVariant(base, S, V, state.free.M[state.mask], R, inputs);
  if (data.projections) { // X and the W's as typed; Q, K, V computed from them, marked ≈
    v.projectionTables = {};
    for (const [name, cells] of Object.entries(data.projections.tables)) v.projectionTables[name] = typedIn(own(name), cells);
    v.inputs = { Q: approxCells(Q), K: approxCells(K), V: approxCells(V) };
  } else {
    v.inputs = Object.fromEntries(["Q", "K", "V"].map((name) => [name, typedIn(name, data.inputs[name])]));
  }
  if (computed.size > 200) computed.clear();
  computed.set(id, v);
  return v;
}

// the editor: one text field per entry, under the heatmap
export function setUpEditor() {
  const given = editData();
  if (!given && data.heads && state.free) noHeadsEditor();
  if (!given) return;
  $("edit-block").hidden = false;
  $("edit-projections").hidden = !data.projections;
  if (data.projections) $("edit-title").textContent = P.edit_title_projections;
  for (const name of given.editable) {
    const labels = ["Q", "X"].includes(name) ? data.rowLabels : ["K", "V", "Y"].includes(name) ? data.colLabels
      : given[name].map((_, i) => String(i + 1));
    // a head's own W (multi-head pages): its head
    const head = name.split("_")[2];
    const shown = head ? name.slice(0, 3) + " · " + fill("head_tag", { head }) : name;
    const top = el("tr", {}, el("td", {}), ...given[name][0].map((_, j) => el("th", { scope: "col", text: String(j + 1) })));
    const body = el("tbody", {}, ...given[name].map((row, i) => el("tr", {}, el("th", { scope: "row", text: labels[i] }),
      ...row.map((_, j) => el("td", {}, editField(name, i, labels[i], j, shown))))));
    $("edit-grids").append(el("figure", { class: "edit-card", "data-head": head }, el("figcaption", { text: shown }),
      el("div", { class: "scroll" }, el("table", { class: "edit-table", id: "edit-" + name }, el("thead", {}, top), body))));
  }
  if (data.heads) setUpHeadsEditor();
  $("edit-skip").addEventListener("click", () => $("walk").focus()); // past the entries, to the next section
  $("edit-undo").addEventListener("click", () => {
    for (const input of document.querySelectorAll(".edit-cell[aria-invalid]")) clearRefusal(input);
    change({ edits: {} });
  });
}
function editField(name, i, label, j, shown) {
  const input = el("input", { type: "text", class: "edit-cell", id: `edit-${name}-${i + 1}-${j + 1}`, inputmode: "decimal",
    autocomplete: "off", spellcheck: "false", size: 5, "aria-label": fill("edit_entry", { name: shown, row: i + 1, label, col: j + 1 }) });
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
export function syncEditor() {
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
  for (const card of $("edit-grids").children) if (card.dataset.head) card.hidden = card.dataset.head !== String(state.head);
  const count = Object.keys(state.edits).length;
  $("edit-status").textContent = count ? fill("edit_count", { count }) : P.edit_none;
}

// ---- editable inputs of a multi-head page: X (and Y) and W_O shared by the heads, each head's
// own W_Q, W_K, W_V (W_Q_2: head 2's). C and MultiHead(X) take every head at its own temperature
// and mask, as the file gives them, with the edited inputs, in float64.
// a head's projection as the editor names it
export function own(name, head = state.head) {
  return data.heads && /^W_[QKV]$/.test(name) ? name + "_" + head : name;
}
// an edited matrix the head's tables depend on
function feeds(name, head) {
  return !data.heads || name === "X" || name === "Y" || name.split("_")[2] === String(head);
}
// the cells with each typed entry as typed ([3]: an edited entry)
function typedIn(name, cells) {
  return cells.map((row, i) => row.map((cell, j) => {
    const typed = state.edits[editKey(name, i, j)];
    return typed === undefined ? cell : [null, typed, false, true];
  }));
}
function approxCells(m) {
  return m.map((row) => row.map((x) => [null, x.toFixed(data.places), true]));
}
// a multi-head page whose temperature is a symbol: why it has no editor
function noHeadsEditor() {
  $("edit-block").hidden = false;
  $("edit-title").textContent = P.edit_title_heads;
  $("edit-block").querySelector(".note").textContent = P.edit_heads_symbolic;
  $("edit-block").querySelector(".edit-line").hidden = true;
}
function setUpHeadsEditor() {
  $("edit-title").textContent = P.edit_title_heads;
  $("edit-projections").textContent += " " + P.edit_heads;
}
// C, W_O and MultiHead(X) with the edits; null: a head's own state fails
export function editedCombine() {
  const blocks = [];
  for (const [k, head] of data.heads.entries()) {
    const { tau, mask } = head.defaults;
    const at = head.temperatures.findIndex((t) => t.key === tau);
    const base = head.variants[at + ":" + mask];
    if (base.error || !head.free.M[mask]) return null;
    const [Q, K, V] = editedInputs(k + 1);
    const S = scores(Q, K, head.edit.scale)[1];
    blocks.push(floatAttention(S, head.free.M[mask], V, head.temperatures[at].value, base).O);
  }
  const C = blocks[0].map((_, i) => blocks.flatMap((O) => O[i]));
  return { C: approxCells(C), W_O: typedIn("W_O", data.combine.tables.W_O), MHA: approxCells(times(C, editedFloats("W_O"))) };
}
