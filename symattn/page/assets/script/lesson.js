// ---- the lesson: predictions and claim before the lab, the hand check, names by state ------
// The [page] table's texts are set as text; the hand check's steps and answers were computed
// for every state and row when the page was written (segments of text and math).
import { $, P, data, el, fill, mathNode, values } from "./core.js";
import { state } from "./state.js";
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
// the focus stays where it is. At a free tau, steps 5 to 7 point to the exact temperatures.
function renderHandCheck(v) {
  const free = Boolean(v && v.free);
  const source = free ? state.taus.map((_, k) => data.variants[k + ":" + state.mask]).find((x) => !x.error && x.hand) : v;
  const hand = source && !source.error && source.hand ? source.hand[state.row - 1] : null;
  $("hand-steps").hidden = !hand;
  const row = { row: state.row, label: data.rowLabels[state.row - 1], tau: state.tau };
  $("hand-note").textContent = hand ? fill("hand_note", { state: fill("hand_state", row) + maskText() }) : "";
  if (!hand) return;
  hand.forEach((step, k) => {
    const late = free && k >= 4;
    $("hand-do-" + (k + 1)).replaceChildren(...(late ? [fill("hand_free", { tau: state.tau, taus: state.taus.map((t) => t.key).join(", ") })] : segmentNodes(step.do)));
    $("hand-details-" + (k + 1)).hidden = late;
    const key = JSON.stringify(step.ans);
    if (answers[k] && answers[k][0] === key) return;
    answers[k] = [key, false, step.ans];
    $("hand-answer-" + (k + 1)).replaceChildren();
    if ($("hand-details-" + (k + 1)).open) handAnswer(k);
    else later(() => handAnswer(k));
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
