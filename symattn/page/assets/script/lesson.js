// ---- the lesson: predictions and claim before the lab, the hand check, names by state ------
// The [page] table's texts are set as text; the hand check's steps and answers were computed
// for every state and row when the page was written (segments of text and math); at a float
// state (a free tau, edited inputs) the steps that depend on it are answered here in float64.
import { $, P, data, el, fill, mathNode, parsed, sizes, values } from "./core.js";
import { generatedIndex, maskBase, state, tauValue } from "./state.js";
import { fitSoon, segmentNodes } from "./render.js";
import { later } from "./speed.js";
export function setUpLesson() {
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
    $("hand-details-" + k).addEventListener("toggle", () => handAnswer(k - 1)); // opened: its answer now, if owed
  }
}
// An answer behind a closed <details> is drawn when the page is idle (or when opened), and only
// when the step's answer changed; until then it is empty, never another state's answer.
const answers = []; // per step: [the answer's segments as JSON, shown?, its segments]
function handAnswer(k) {
  const [key, shown, segments] = answers[k] || [];
  if (shown || key === undefined) return;
  answers[k][1] = true;
  $("hand-answer-" + (k + 1)).replaceChildren(...segmentNodes(segments));
}

// The steps of the current row; the <details> stay in place, so what is open stays open and
// the focus stays where it is. At a float state the steps come from floatHand; the generated
// steps it keeps are those of this tau (a generated one) or of another with this mask.
function renderHandCheck(v) {
  const float = Boolean(v && !v.error && v.free && v.floats);
  const at = data.variants[generatedIndex(state.tau) + ":" + state.mask];
  const source = float ? (at && !at.error && at.hand ? at : maskBase()) : v;
  const exact = source && !source.error && source.hand ? source.hand[state.row - 1] : null;
  const hand = exact && float ? floatHand(v, exact, at === source) : exact;
  $("hand-steps").hidden = !hand;
  const row = { row: state.row, label: data.rowLabels[state.row - 1], tau: state.tau };
  $("hand-note").textContent = hand ? fill("hand_note", { state: fill("hand_state", row) + maskText() }) : "";
  if (!hand) return;
  hand.forEach((step, k) => {
    $("hand-do-" + (k + 1)).replaceChildren(...segmentNodes(step.do));
    const key = JSON.stringify(step.ans);
    if (answers[k] && answers[k][0] === key) return;
    answers[k] = [key, false, step.ans];
    $("hand-answer-" + (k + 1)).replaceChildren();
    if ($("hand-details-" + (k + 1)).open) handAnswer(k);
    else later(() => handAnswer(k));
  });
}

// ---- the hand check at a float state, as symattn/page/handcheck.py writes it -----------------
// The same seven questions; every answer that depends on the edit or on tau computed from the
// float64 values the tables show, each computed number marked ≈. The column counts and the
// mask's row do not change: they stay the generated steps (so do R and S at a free tau).
// texIds: TeX written here -> its id in data.math (the same TeX, the same id); bounded: past
// TEX_LIMIT the ids start again between two renders (what is drawn stays drawn)
const texIds = new Map();
let mathBase = -1;
const TEX_LIMIT = 2000;
function texId(tex) {
  if (mathBase < 0) mathBase = data.math.length;
  if (!texIds.has(tex)) texIds.set(tex, data.math.push([tex, 0]) - 1);
  return texIds.get(tex);
}
// a phrase as segments: a field {m: tex} is math, a list of TeX several formulas
function say(key, fields) {
  return P[key].split(/\{(\w+)\}/).flatMap((part, k) => {
    const value = fields[part];
    if (k % 2 === 0) return part ? [part] : [];
    if (Array.isArray(value)) return value.flatMap((tex, n) => (n ? [P.hand_separator, texId(tex)] : [texId(tex)]));
    return [value.m ? texId(value.m) : String(value)];
  });
}
function floatHand(v, exact, sameTau) {
  if (texIds.size > TEX_LIMIT) {
    for (const id of texIds.values()) parsed.delete(id);
    texIds.clear();
    data.math.length = mathBase;
    answers.length = 0;
  }
  const i = state.row - 1;
  const f = v.floats;
  const num = (x) => (x === -Infinity ? "-\\infty" : x.toFixed(data.places));
  const cell = (name, j) => `${name}_{${i + 1},${j + 1}}`;
  // an entry as the editor shows it (typed or given), else rounded
  const entry = (name, r, c) => {
    const t = (f.texts ? f.texts[name][r][c] : num(f[name][r][c])).replace(/^\+/, "");
    return t[0] === "-" ? `(${t})` : t;
  };
  const readable = v.readable[i];
  const keys = readable.map((r, j) => j);
  const read = keys.filter((j) => readable[j] === 1);
  const cells = read.concat(keys.filter((j) => readable[j] !== 1)).slice(0, 2).sort((a, b) => a - b);
  const steps = exact.map((step) => ({ ...step }));
  const answer = (k, key, fields) => { steps[k].ans = say(key, fields); };
  if (v.edited && f.Q) { // R and S from the edited inputs
    answer(1, "hand_scores_answer", { cells: cells.map((j) => `${cell("R", j)} = \\mathbf{q}_{${i + 1}} \\cdot \\mathbf{k}_{${j + 1}} = `
      + f.Q[i].map((_, c) => `${entry("Q", i, c)} \\cdot ${entry("K", j, c)}`).join(" + ") + ` \\approx ${num(f.R[i][j])}`) });
    const byS = exact[2].do.some((s) => typeof s === "number" && data.math[s][0].startsWith("s = "));
    answer(2, byS ? "hand_scaled_by_answer" : "hand_scaled_answer", { cells: cells.map((j) =>
      `${cell("S", j)} = ${byS ? `s\\,${cell("R", j)}` : `\\frac{${cell("R", j)}}{\\sqrt{${sizes.d_k}}}`} \\approx ${num(f.S[i][j])}`) });
  }
  // L = (S + M)/tau
  if (!sameTau) {
    const tau = /^\d*\.?\d+$/.test(state.tau) ? state.tau : `${state.tau} \\approx ${num(tauValue(state.tau))}`;
    steps[4].do = say("hand_logits", { tau: { m: `\\tau = ${tau}` } });
  }
  const blocked = keys.find((j) => readable[j] !== 1);
  answer(4, "hand_logits_answer", { cells: cells.concat(blocked === undefined || cells.includes(blocked) ? [] : [blocked]).map((j) =>
    cell("L", j) + (readable[j] !== 1 ? " = -\\infty" : ` = \\frac{${f.M[i][j] === 0 ? cell("S", j) : `(${cell("S", j)} + ${cell("M", j)})`}}{\\tau} \\approx ${num(f.L[i][j])}`)) });
  // the weights, each rounded on its own, and their sum; rounded, else exact (one key, weight 1)
  const w = v.weights[i].map((x, j) => (readable[j] === 1 ? x : "0"));
  const unit = 10 ** data.places;
  const rounded = read.some((j) => w[j] !== "1");
  const units = read.reduce((sum, j) => sum + Math.round(w[j] * unit), 0);
  answer(5, units === unit ? "hand_softmax_answer" : "hand_softmax_rounding_answer",
    { weights: { m: `${rounded ? "\\approx " : ""}\\left(${w.join(", ")}\\right)` }, sum: (units / unit).toFixed(data.places) });
  // two components of the output from the rounded weights and V; where the rounded values do
  // not give the table's value, the answer says what they give and why the table differs
  const cells7 = [];
  const sums = [];
  for (let c = 0; c < Math.min(2, sizes.d_v); c++) {
    const shown = num(f.O[i][c]);
    cells7.push(`${cell("O", c)} ${rounded ? "\\approx" : "="} ${read.map((j) => `${w[j]} \\cdot ${entry("V", j, c)}`).join(" + ") || "0"} \\approx ${shown}`);
    const sum = num(read.reduce((total, j) => total + w[j] * (f.texts ? f.V[j][c] : num(f.V[j][c])), 0));
    if (sum !== shown) sums.push(`${cell("O", c)} \\approx ${sum}`);
  }
  answer(6, sums.length ? "hand_outputs_rounding_answer" : "hand_outputs_answer", { row: state.row, n_q: sizes.n_q, d_v: sizes.d_v, cells: cells7, sums });
  return steps;
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

export function legendNodes(legend, changed = [], before = null) {
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
export function namesInStep(v) {
  const i = state.row - 1;
  const rows = (state.step === 4 ? ["S", "L"] : ["O"]).concat(v.weights ? [] : ["A"]);
  const tex = rows.map((name) => v.tables[name][i].map(([id]) => (id === null ? "" : data.math[id][0])).join(" ")).join(" ");
  return (v.legend || []).filter((e) => {
    const symbol = data.math[e.s][0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp("(^|[^A-Za-z\\\\])" + symbol + "(?![A-Za-z_])").test(tex);
  });
}

export function renderLesson(v) {
  if (!values) return;
  renderNames(v);
  renderHandCheck(v);
}
