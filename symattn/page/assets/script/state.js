// ---- state and the URL -------------------------------------------------------------------
import { $, P, STEPS, data, el, mathNode, sizes, values } from "./core.js";
import { editCount, editedVariant, editsHash, floatInputs, readEdits } from "./edit.js";
import { headFromHash } from "./heads.js";
import { floatAttention } from "./float.js";
// The one object that changes: what the controls and the link chose (row, step, tau, mask, head,
// edits) and the shown head's temperatures and free-temperature data (any tau in [min, max]
// computed here in float64); every part reads and changes it, none keeps its own copy.
export const state = { taus: data.temperatures || [], free: values ? data.free : null };
Object.assign(state, readHash());

// ---- temperatures: a generated one (exact) or a free one (float64, marked ≈) -------------
export function exactOf(text) { // "1.234" or "5/4" or "1.5/2" -> {num, den} as BigInts; null otherwise
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

export function generatedIndex(text) {
  const direct = state.taus.findIndex((t) => t.key === text);
  if (direct >= 0) return direct;
  const x = exactOf(text);
  return x ? state.taus.findIndex((t) => t.num !== undefined && BigInt(t.num) * x.den === x.num * BigInt(t.den)) : -1;
}

export function tauValue(text) {
  const k = generatedIndex(text);
  if (k >= 0) return state.taus[k].value;
  const x = exactOf(text);
  return x ? Number(x.num) / Number(x.den) : NaN;
}

export function acceptedTau(text) { // the state's tau for a typed or linked value, or null
  const k = generatedIndex(text);
  if (k >= 0) return state.taus[k].key;
  const value = tauValue(text);
  return state.free && value >= state.free.min && value <= state.free.max ? String(text).replace(/\s/g, "") : null;
}

// the slider of a free temperature is logarithmic: position 0..1000 <-> tau min..max
export const SLIDER = 1000;
export const toPosition = (tau) => Math.round(SLIDER * Math.log(tau / state.free.min) / Math.log(state.free.max / state.free.min));
export const fromPosition = (k) => { // a generated temperature at this position, else 3 digits
  const near = state.taus.find((t) => t.value !== undefined && toPosition(t.value) === k);
  return near ? near.key : String(Number((state.free.min * Math.pow(state.free.max / state.free.min, k / SLIDER)).toPrecision(3)));
};

export function readHash() {
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

export function writeHash() {
  const fields = data.heads ? { head: state.head, row: state.row } : { row: state.row };
  if (values) Object.assign(fields, { tau: state.tau, mask: state.mask });
  fields.step = state.step;
  const hash = "#" + new URLSearchParams(fields).toString() + editsHash();
  // the page's own address, absolute: in a frame, "#..." alone resolves against the host page's
  // address (a srcdoc frame's base) and changing to it would load the host inside the frame
  const here = location.href.split("#")[0] + hash;
  if (location.hash !== hash) {
    try {
      history.replaceState(history.state, "", here);
    } catch { // an address this frame may not change: the state stays on the page, never a navigation
    }
  }
  const share = $("share-url");
  const own = location.protocol !== "about:"; // a srcdoc frame has no address to share
  share.value = own ? here : "";
  share.placeholder = own ? "" : P.share_none;
  $("copy-link").disabled = !own;
  share.scrollLeft = share.scrollWidth; // the state is at the end of the link
}

export function variant() {
  if (!values) return null;
  if (editCount()) return editedVariant();
  const k = generatedIndex(state.tau);
  return k >= 0 || !state.free ? data.variants[Math.max(k, 0) + ":" + state.mask] : freeVariant();
}

export const computed = new Map();
// A free temperature: R, S, M and what each row may read are those of every generated state with
// this mask (they do not depend on tau); L, A and O are computed in float64.
function freeVariant() {
  const id = state.head + ":" + state.tau + ":" + state.mask;
  if (computed.has(id)) return computed.get(id);
  const base = maskBase();
  if (base.error || !state.free.M[state.mask]) return base;
  const v = floatVariant(base, state.free.S, state.free.V, state.free.M[state.mask], null, floatInputs());
  computed.set(id, v);
  return v;
}

export function maskBase() { // a generated state with this mask: what each row may read, R, S, M
  const states = state.taus.map((_, k) => data.variants[k + ":" + state.mask]);
  return states.find((v) => !v.error) || states[0];
}

// L, A and O in float64 at the state's tau from S, M and V (and R, S themselves when the
// inputs were edited); the variant keeps every float64 matrix (floats) and the entries of Q, K,
// V as the editor shows them (inputs.texts; null when they are computed), for the hand check
export function floatVariant(base, S, V, M, R, inputs = null) {
  const { L, A, O } = floatAttention(S, M, V, tauValue(state.tau), base);
  const text = (x) => (x === -Infinity ? "−∞" : x.toFixed(data.places));
  // exact where float64 needs no rounding: a masked weight is 0, a row reading one key gives it 1
  const exactWeight = (i, j) => (base.readable[i][j] !== 1 ? "0" : base.readable[i].filter((r) => r === 1).length === 1 ? "1" : null);
  const cells = (m, weights) => m.map((row, i) => row.map((x, j) => {
    const exact = weights ? exactWeight(i, j) : null;
    return exact !== null ? [null, exact, false] : [null, text(x), x !== -Infinity];
  }));
  const v = { free: true, readable: base.readable, zeros: base.zeros, passed: null, names: [],
    tables: { R: R ? cells(R, false) : base.tables.R, S: R ? cells(S, false) : base.tables.S, M: base.tables.M,
      L: cells(L, false), A: cells(A, true), O: cells(O, false) },
    weights: A.map((row, i) => row.map((x, j) => exactWeight(i, j) || text(x))), outputs: O.map((row) => row.map(text)) };
  v.floats = { Q: inputs && inputs.Q, K: inputs && inputs.K, V, R, S, M, L, A, O, texts: inputs && inputs.texts };
  if (R) Object.assign(v, { edited: true, tie: (i, j, b) => L[i][j] === L[i][b] }); // equal floats: equal weights
  return v;
}

// a table cell: exact math (with its decimal), or a float64 value marked ≈
export function cellNode([id, decimal, approx], withDecimal = true) {
  if (id === null) return el("span", { class: approx ? "approx" : null, text: (approx ? "≈ " : "") + decimal });
  const node = mathNode(id);
  return withDecimal && decimal ? el("span", {}, node, el("span", { class: "dec", text: decimal })) : node;
}
