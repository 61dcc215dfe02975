// ---- speed: blocks out of view are drawn when they come into view or the page is idle ----
// A control change redraws what the reader sees (controls, heatmap, summary, walkthrough, and
// any block on screen) at once; the tables, the derivation and the mistakes below the screen
// are redrawn when they come near the screen or when the page is idle, whichever is first, so
// their typesetting and layout do not delay the change. body[data-pending] marks a redraw owed.
import { $, data, el, lateMath, parsed, plain, sizes, typeset, values } from "./core.js";
import { generatedIndex, state } from "./state.js";
import { fitSoon, matrixCard, renderDerivation, shownBlocks } from "./render.js";
import { editCount } from "./edit.js";
const owed = new Map(); // block -> [name, draw]
const onScreen = new Set();
export let watcher = null;
let idle = 0;
function timedDraw(name, draw) {
  const start = performance.now();
  draw();
  performance.measure("symattn " + name, { start });
}
function blockOf(node) {
  return node.closest("section");
}
export function drawWhenSeen(node, name, draw, block = blockOf(node), seen = false) {
  if (!watcher) {
    watcher = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) onScreen.add(entry.target);
        else onScreen.delete(entry.target);
        if (entry.isIntersecting && owed.has(entry.target)) payOwed(entry.target);
      }
    });
    for (const id of ["tables", "derivation", "mistakes"]) watcher.observe(blockOf($(id)));
  }
  if (owed.delete(block)) settle();
  if (seen || onScreen.has(block)) {
    timedDraw(name, draw);
  } else {
    owed.set(block, [name, draw]);
    document.body.dataset.pending = "1";
    if (!idle) idle = (window.requestIdleCallback || setTimeout)(payIdle, { timeout: 1500 });
  }
}
export function settle() { // nothing owed: no block, no card, no part of a derivation, no MathML copy
  if (!owed.size && !slices.length && !lateMath.length) delete document.body.dataset.pending;
}

// Drawing put off to idle periods, in order, about 6 ms a slice (body[data-pending] until done).
const slices = [];
let slicing = 0;
export function later(draw) {
  slices.push(draw);
  document.body.dataset.pending = "1";
  if (!slicing) slicing = (window.requestIdleCallback || setTimeout)(drawSlice, { timeout: 300 });
}
function drawSlice() {
  slicing = 0;
  for (const start = performance.now(); slices.length && performance.now() - start < 6;) slices.shift()();
  fitSoon($("tables"));
  fitSoon($("derivation"));
  if (slices.length) slicing = (window.requestIdleCallback || setTimeout)(drawSlice, { timeout: 300 });
  else settle();
}

// A row's derivation (about 15 parts, 1 900 px and 6 000 elements) is drawn a screenful first:
// its parts down to the bottom of the screen at once, the others below them when the page is
// idle, where no one is reading yet. Where the screen ends is told by the heights and the place
// of the last derivation laid out, recorded after its frame (guideAfterFrame), so that a change
// reads no layout. parts: [box, make] in order.

// the derivation's top in the page and its height, its parts' heights, where its reader had it on
// the screen (place) and is to find it after a change (anchor), the height the controls cover
let guide = { top: null, height: 0, heights: [], place: null, anchor: null, cover: 0 };
let scrolled = 0; // window.scrollY as of the last scroll (reading it in a change would lay the page out)
window.addEventListener("scroll", () => { scrolled = window.scrollY; }, { passive: true });
function screenful(parts, heights) { // how many of the parts reach into the screen
  let y = guide.top === null ? $("derivation").getBoundingClientRect().top : guide.top - scrolled;
  let k = 0;
  for (; k < parts.length && y < window.innerHeight; k++) y += heights[k] || 60;
  return k;
}
export function drawInSlices(parts) {
  const k = screenful(parts, guide.heights);
  parts.slice(0, k).forEach(([box, make]) => box.append(make()));
  for (const [box, make] of parts.slice(k)) later(() => box.append(make()));
}
// A derivation seen before, shown again: its parts below the screen stay hidden (content-visibility,
// their layout kept) and are shown when the page is idle, so the change styles, lays out and paints
// a screenful, as on a first visit.
function partsLater(version, parts) {
  const k = screenful(parts, version.heights || guide.heights);
  parts.slice(k).forEach((part) => {
    part.classList.add("later");
    later(() => part.classList.remove("later"));
  });
}
export function guideAfterFrame() { // after a frame's layout (reading it costs nothing): a reader's place, the guide
  const block = blockOf($("derivation"));
  const shown = $("derivation").querySelector(":scope > .version:not(.stashed)");
  if (guide.anchor !== null) { // the derivation back where its reader had it
    const moved = $("derivation").getBoundingClientRect().top - guide.anchor;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    if (!document.body.dataset.pending) guide.anchor = null; // held while owed parts are drawn
  }
  if (!shownBlocks.has(block) || !shown || !shown.children.length || shown.querySelector(":scope > .later")) return;
  scrolled = window.scrollY;
  guide.top = $("derivation").getBoundingClientRect().top + scrolled;
  guide.height = $("derivation").offsetHeight;
  guide.cover = Math.max(0, Math.min($("controls").getBoundingClientRect().bottom, window.innerHeight / 4));
  if (shown.dataset.exact) guide.heights = shown.heights = [...shown.children].map((c) => c.offsetHeight);
}
function payOwed(block) {
  const [name, draw] = owed.get(block);
  owed.delete(block);
  timedDraw(name, draw);
  settle();
  fitSoon(block);
}
function payIdle() { // one block per idle period, so a reader's next change waits for little
  idle = 0;
  const next = owed.keys().next();
  if (next.done) return;
  payOwed(next.value);
  if (owed.size) idle = (window.requestIdleCallback || setTimeout)(payIdle, { timeout: 1500 });
}

// A table card is built once for its values and kept: a change of row only moves the row
// marks (no new layout), a change of state swaps only the cards whose values changed.
const cards = new Map();
export function rowClass(name, i, v) {
  const keyTable = ["K", "V", "Y"].includes(name);
  if (!keyTable && !name.startsWith("W_") && i + 1 === state.row) return "current";
  return keyTable && v && v.readable[state.row - 1][i] !== 1 ? "unread" : null;
}
export function cachedCard(name, cells, rows, cols, v) {
  const id = name + "\u0000" + JSON.stringify(cells);
  let card = cards.get(id);
  if (!card) {
    card = matrixCard(name, cells, rows, cols, v);
    card.querySelectorAll("tbody tr").forEach((tr, i) => tr.querySelectorAll("td").forEach((td, j) => {
      if (cells[i][j][3]) td.classList.add("edited");
    }));
    if (cards.size > 400) cards.clear();
    cards.set(id, card);
  }
  card.querySelector("tbody").querySelectorAll(":scope > tr").forEach((tr, i) => {
    const cls = rowClass(name, i, v);
    if (tr.className !== (cls || "")) tr.className = cls || "";
  });
  return card;
}
// Each table has a slot in the grid; the versions of its card already laid out stay in the slot,
// all but the shown one stashed (content-visibility: hidden keeps their layout, takes no room,
// and hides them from the accessibility tree), so that showing one again costs no new layout.
// A stashed version's ids are set aside (data-stashed-id), so every id names what is shown.
const STASH = 12;
function stash(node, on) {
  if (node.classList.contains("stashed") === on) return;
  node.classList.toggle("stashed", on);
  for (const inner of node.querySelectorAll(on ? "[id]" : "[data-stashed-id]")) {
    if (on) {
      inner.dataset.stashedId = inner.id;
      inner.removeAttribute("id");
    } else {
      inner.id = inner.dataset.stashedId;
      delete inner.dataset.stashedId;
    }
  }
}
// A card not built yet (a first visit: its math typeset, its cells laid out) is built at once
// only when its slot is on the screen, or new; a slot off the screen is owed like a block (drawn
// when it comes into view or the page is idle) and hides its old card until then, so no stale
// value is ever seen. wanted: cards, or [key, build] for a card not built yet (cardSoon).
export function keepCards(box, wanted) {
  wanted.forEach((card, k) => {
    let slot = box.children[k];
    if (!slot) box.append(slot = el("div", { class: "slot" }));
    const show = (shown) => {
      slot.classList.remove("owed");
      showOnly(slot, shown, STASH);
    };
    if (Array.isArray(card) && slot.children.length) {
      slot.classList.toggle("owed", !onScreen.has(slot));
      return drawWhenSeen(slot, "card", () => show(card[1]()), slot);
    }
    if (owed.delete(slot)) settle(); // built or new: shown now
    show(Array.isArray(card) ? card[1]() : card);
    watcher.observe(slot); // observed once (observing again changes nothing)
  });
  while (box.children.length > wanted.length) {
    owed.delete(box.lastElementChild);
    box.lastElementChild.remove();
  }
}
export function cardSoon(name, cells, rows, cols, v) { // a kept card, or how to build it when it is seen
  const key = name + "\u0000" + JSON.stringify(cells);
  return cards.has(key) ? cachedCard(name, cells, rows, cols, v) : [key, () => cachedCard(name, cells, rows, cols, v)];
}
function showOnly(box, shown, most) { // shown becomes box's one unstashed child; at most `most` kept
  if (shown.parentNode !== box) box.append(shown);
  for (const other of box.children) if (other !== shown) stash(other, true);
  stash(shown, false);
  while (box.children.length > most) box.removeChild(box.firstElementChild === shown ? shown.nextElementSibling : box.firstElementChild);
}

// The derivation and checks of an exact state already shown are kept the same way (8 states);
// a free or edited state's note is drawn afresh.
const derivations = new Map(); // state (its head, tau, mask and row) -> [derivation version, checks version]
let drawing = null;
export function derivationTargets() {
  return drawing || [$("derivation"), $("checks")];
}
export function keptDerivation(v) {
  const id = !values ? "shapes" : v && !v.free ? `${state.head || 1}:${state.tau}:${state.mask}:${state.row}` : "live";
  let versions = derivations.get(id);
  if (!versions || id === "live") {
    versions = versions || [el("div", { class: "version", "data-exact": id !== "live" ? "1" : null }), el("div", { class: "version" })];
    drawing = versions;
    try {
      renderDerivation(v);
    } finally {
      drawing = null;
    }
    derivations.set(id, versions);
  } else if (versions[0].classList.contains("stashed")) {
    partsLater(versions[0], [...versions[0].children, ...versions[1].children]);
  }
  const before = $("derivation").querySelector(":scope > .version:not(.stashed)");
  showOnly($("derivation"), versions[0], 8);
  showOnly($("checks"), versions[1], 8);
  keepPlace(before, versions[0]);
  for (const [key, kept] of derivations) if (!kept[0].parentNode) derivations.delete(key);
}

// A reader of the derivation (it fills the middle of the screen) keeps their place through a
// change: its top stays where it was on the screen, though the tables above it change height
// (guideAfterFrame scrolls by the difference before the frame is painted). A note in its place
// (a free temperature, edited inputs) is brought just below the controls and keeps the block
// reaching the bottom of the screen, so that the page does not shrink under the reader; going
// back to a derivation returns them to where they were in it.
for (const type of ["wheel", "touchstart", "pointerdown", "keydown"]) { // the reader moves on: their place is theirs
  window.addEventListener(type, (event) => { if (type !== "keydown" || event.target === document.body) guide.anchor = null; }, { passive: true, capture: true });
}
function keepPlace(before, shown) {
  const onScreen = guide.top === null ? null : guide.top - scrolled;
  const reading = onScreen !== null && onScreen < window.innerHeight / 2 && onScreen + guide.height > window.innerHeight / 2;
  if (reading && before && before.dataset.exact) guide.place = onScreen;
  const exact = Boolean(shown.dataset.exact);
  guide.anchor = !reading ? null : exact ? (guide.place !== null ? guide.place : onScreen) : guide.cover;
  $("derivation").style.minHeight = exact || !reading ? "" : window.innerHeight - guide.cover + "px";
}

// ---- first visits: no walkthrough animation off screen ----
// A change redraws the walkthrough; its entrance animation (cells fading in, 19 composited
// layers) and its bars' width transition (a layout every frame for 0.7 s) only run when the
// walkthrough is on screen: off screen no one sees them, and their frames delay the change's.
let walkOnScreen = true;
export function walkSeen() {
  if (!walkSeen.watcher) {
    walkSeen.watcher = new IntersectionObserver((entries) => { walkOnScreen = entries.at(-1).isIntersecting; });
    walkSeen.watcher.observe($("walk"));
  }
  return walkOnScreen;
}

// ---- first visits typeset ahead: the formulas of the states one step away ----
// When nothing is owed and the page is idle, the formulas of the states a reader reaches in one
// step (the next and the previous row, the other mask, the neighbouring generated temperatures)
// are typeset and parsed (typeset(): out of the document, no style, layout or paint), a few
// milliseconds a slice, so that a first visit only clones them. Work owed to the reader comes first.
let ahead = [];
let aheadIdle = 0;
function idsOf(v, row) { // the formulas of an exact state's tables and of a row's derivation and checks
  const ids = [];
  const add = (segments) => segments.forEach((s) => typeof s === "number" && ids.push(s));
  for (const b of [...v.rows[row - 1], ...v.checks]) {
    if (b.k === "d") ids.push(b.m);
    else if (b.items) b.items.forEach(add);
    else add(b.s);
  }
  for (const cells of Object.values(v.tables)) for (const line of cells) for (const [id] of line) if (id !== null) ids.push(id);
  return ids;
}
export function typesetAhead() {
  const k = generatedIndex(state.tau);
  const other = state.mask === "on" ? "off" : "on";
  const steps = !values || editCount() || k < 0 ? [] : [[k, state.mask, state.row + 1], [k, state.mask, state.row - 1],
    [k, other, state.row], [k + 1, state.mask, state.row], [k - 1, state.mask, state.row]];
  ahead = [];
  for (const [t, mask, row] of steps) {
    const v = data.variants[t + ":" + mask];
    if (v && !v.error && row >= 1 && row <= sizes.n_q) ahead.push(...idsOf(v, row).filter((id) => !parsed.has(id) && !plain(id)));
  }
  if (ahead.length && !aheadIdle) aheadIdle = (window.requestIdleCallback || setTimeout)(typesetSlice, { timeout: 1000 });
}
function typesetSlice() {
  aheadIdle = 0;
  for (const start = performance.now(); ahead.length && !document.body.dataset.pending && performance.now() - start < 5;) typeset(ahead.shift());
  if (ahead.length) aheadIdle = (window.requestIdleCallback || setTimeout)(typesetSlice, { timeout: 1000 });
}
