// ---- controls ----------------------------------------------------------------------------
import { $, P, data, el, fill, mathNode, sizes, values } from "./core.js";
import { SLIDER, acceptedTau, fromPosition, generatedIndex, state, tauValue, toPosition, writeHash } from "./state.js";
import { fitSoon, renderState } from "./render.js";
import { editCount, editsKey, syncEditor } from "./edit.js";
import { renderWalk } from "./walk.js";
export let sliding = false; // while the slider moves, it keeps its own position
export function setUpControls() {
  const select = $("row");
  data.rowLabels.forEach((label, i) => {
    select.append(el("option", { value: i + 1, text: fill("row_option", { row: i + 1, label }) }));
  });
  select.addEventListener("change", () => change({ row: Number(select.value) }));
  for (const node of document.querySelectorAll(".values-only")) node.hidden = !values;
  if (values) {
    const range = $("tau");
    range.max = String(state.free ? SLIDER : state.taus.length - 1);
    range.setAttribute("list", "tau-ticks");
    $("tau-ticks").append(...state.taus.filter((t) => !state.free || t.value !== undefined).map((t, k) => el("option", { value: state.free ? toPosition(t.value) : k, label: t.key })));
    $("tau-exact-label").textContent = P.exact_at;
    $("tau-scale").append(...state.taus.map((t) => {
      const button = el("button", { type: "button", class: "tau-pick", text: t.key, "aria-label": "τ = " + t.key });
      button.addEventListener("click", () => change({ tau: t.key }));
      return button;
    }));
    range.addEventListener("input", () => {
      sliding = true;
      change({ tau: state.free ? acceptedTau(fromPosition(Number(range.value))) : state.taus[Number(range.value)].key });
      sliding = false;
    });
    const typed = $("tau-text");
    typed.placeholder = state.free ? state.free.min + " – " + state.free.max : "";
    typed.addEventListener("change", () => {
      const tau = acceptedTau(typed.value);
      $("tau-error").hidden = tau !== null;
      typed.setAttribute("aria-invalid", String(tau === null));
      if (tau !== null) change({ tau });
    });
    $("tau-error").textContent = state.free ? fill("tau_invalid", state.free) : P.tau_invalid_fixed;
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

export function syncControls() {
  $("row").value = String(state.row);
  if (!values) return;
  const k = generatedIndex(state.tau);
  const tau = state.taus[Math.max(k, 0)];
  const output = $("tau-value");
  if (k >= 0) {
    // (a symbolic tau has no place on the slider)
    if (!sliding && (!state.free || tau.value !== undefined)) $("tau").value = String(state.free ? toPosition(tau.value) : k);
    $("tau").setAttribute("aria-valuetext", "τ = " + tau.key + (tau.dec ? " ≈ " + tau.dec : ""));
    const edited = editCount() > 0, key = tau.key + edited; // edited inputs: every value is float64
    if (output.dataset.tau !== key) output.replaceChildren(mathNode(tau.m), tau.dec ? el("span", { class: "dec", text: "≈ " + tau.dec }) : "",
      el("span", edited ? { class: "approx-tag", text: P.float64 } : { class: "exact-tag", text: P.exact }));
    output.dataset.tau = key; // the same τ and edit state (a change of row or mask): its output stays
  } else {
    const value = tauValue(state.tau);
    if (!sliding) $("tau").value = String(toPosition(value));
    $("tau").setAttribute("aria-valuetext", "τ = " + state.tau);
    delete output.dataset.tau;
    output.replaceChildren(el("span", { text: "τ = " + state.tau + (String(value) === state.tau ? "" : " ≈ " + Number(value.toPrecision(6))) }),
      el("span", { class: "approx-tag", text: P.float64 }));
  }
  if (document.activeElement !== $("tau-text")) $("tau-text").value = state.tau;
  for (const button of document.querySelectorAll(".tau-pick")) button.setAttribute("aria-pressed", String(button.textContent === state.tau));
  // a symbolic tau (t) has no place on the slider: dimmed
  $("tau").classList.toggle("symbolic", Boolean(state.free) && k >= 0 && tau.value === undefined);
  $("mask").checked = state.mask === "on";
  syncEditor();
}

async function copyLink() {
  const status = $("copy-status");
  const url = $("share-url").value;
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = P.copied;
  } catch {
    $("share-url").focus();
    $("share-url").select();
    status.textContent = P.copy_failed;
  }
}

export function change(update) {
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
