// ---- multi-head pages: the head selector, the chosen head's data, the concatenation and W_O;
// ---- and the note of a state left symbolic (no colours, no decimals) ---------------------
import { $, P, data, el, fill, mathNode, sizes } from "./core.js";
import { acceptedTau, generatedIndex, state } from "./state.js";
import { change } from "./controls.js";
import { fitSoon } from "./render.js";
import { editedCombine } from "./edit.js";
import { cachedCard } from "./speed.js";
export function headFromHash(params) { // the head named in the link, else the first; undefined: one head
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
  state.taus = data.temperatures || [];
  state.free = data.free;
  $("mask-label").textContent = data.maskLabel ? P[data.maskLabel] : "";
  $("mask").closest(".control").hidden = !data.maskLabel;
}

function pickHead(head) { // keep the row and a temperature the head has; its own mask
  useHead(head);
  change({ head, tau: acceptedTau(state.tau) ? state.tau : data.defaults.tau, mask: data.defaults.mask });
}

export function setUpHeads() {
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

export function renderHeads(v) {
  renderSymbolic(v);
  if (!data.heads) return;
  $("head").value = String(state.head);
  for (const tag of document.querySelectorAll(".head-tag")) tag.textContent = " · " + fill("head_tag", { head: state.head });
  const own = data.combine.settings[state.head - 1];
  const same = generatedIndex(state.tau) === generatedIndex(own.tau) && state.mask === data.defaults.mask;
  const edited = Object.keys(state.edits || {}).length ? editedCombine() : null;
  $("heads-note").textContent = (edited ? P.heads_edited : P.heads_note) + (same ? "" : " " + fill("heads_other_state", { head: state.head }));
  const tables = edited || data.combine.tables;
  const numbers = (cells) => cells.map((_, r) => String(r + 1));
  $("heads-tables").replaceChildren(
    cachedCard("C", tables.C, data.rowLabels, numbers(tables.C[0]), null),
    cachedCard("W_O", tables.W_O, numbers(tables.W_O), numbers(tables.W_O[0]), null),
    cachedCard("MHA", tables.MHA, data.rowLabels, numbers(tables.MHA[0]), null));
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
