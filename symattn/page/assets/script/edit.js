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
