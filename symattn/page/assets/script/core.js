// ---- core: the page's data and math, element and phrase helpers, typesetting ----------------
import { settle } from "./speed.js";
export const $ = (id) => document.getElementById(id);
export const [data, math] = await Promise.all(["symattn-data", "symattn-math"].map(async (id) => JSON.parse(await inflate($(id).textContent.trim()))));
data.math = math;
export const P = data.phrases;
export const STEPS = 5;
export const AUTOPLAY_MS = 2600;
export const values = data.kind === "values";
export const sizes = data.sizes;

async function inflate(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function fill(key, fields) {
  return P[key].replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

// A plain number in the TeX (1.4, -0.6, 0, -\infty) is written as text in KaTeX's Main font,
// the look KaTeX gives it, in one element instead of about a dozen (HTML and MathML copies);
// every formula, typeset or not, keeps its TeX in data-tex (what the browser checks read).
const PLAIN = /^-?(?:\d+(?:\.\d+)?|\\infty)$/;
// KaTeX's MathML copy of a formula (what screen readers read; clipped to one pixel) costs as much
// layout as the formula it draws. It is put in when the page is idle, a slice at a time, right
// after the change that drew the formula; body[data-pending] stays set until every copy is in.
export const parsed = new Map(); // id -> [template, elements in its MathML copy]
export const lateMath = []; // [where, MathML copy, its elements]
let lateIdle = 0;
function addLateMath() {
  lateIdle = 0;
  for (let budget = 600; lateMath.length && budget > 0;) { // about 10 ms of layout in the next frame
    const [where, copy, size] = lateMath.shift();
    where.prepend(copy);
    budget -= size;
  }
  if (lateMath.length) lateIdle = (window.requestIdleCallback || setTimeout)(addLateMath, { timeout: 500 });
  else settle();
}
export const plain = (id) => !data.math[id][1] && PLAIN.test(data.math[id][0]);
export function typeset(id) { // the formula typeset by KaTeX, parsed once (not in the document: no layout)
  let kept = parsed.get(id);
  if (!kept) {
    const [tex, display] = data.math[id];
    const template = document.createElement("template");
    template.innerHTML = window.katex.renderToString(tex, { // the page's own TeX; labels escaped
      displayMode: display === 1, strict: "error", throwOnError: false, trust: false,
      maxSize: 20, maxExpand: 1000, output: "htmlAndMathml" });
    const copy = template.content.querySelector(".katex-mathml");
    parsed.set(id, kept = [template, copy ? copy.getElementsByTagName("*").length + 1 : 0]);
  }
  return kept;
}
export function mathNode(id, extra = "") {
  const tex = data.math[id][0];
  const cls = ("m " + extra).trim();
  if (plain(id)) return el("span", { class: cls + " num", "data-tex": tex, text: tex.replace("-", "\u2212").replace("\\infty", "\u221e") });
  const kept = typeset(id);
  const node = el("span", { class: cls, "data-tex": tex }, kept[0].content.cloneNode(true));
  const copy = kept[1] && node.querySelector(".katex-mathml");
  if (copy) {
    lateMath.push([copy.parentNode, copy, kept[1]]);
    copy.remove();
    document.body.dataset.pending = "1";
    if (!lateIdle) lateIdle = (window.requestIdleCallback || setTimeout)(addLateMath, { timeout: 500 });
  }
  return node;
}
