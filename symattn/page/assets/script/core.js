// ---- core: the page's data and math, element and phrase helpers, typesetting ----------------
const $ = (id) => document.getElementById(id);
const [data, math] = await Promise.all(["symattn-data", "symattn-math"].map(async (id) => JSON.parse(await inflate($(id).textContent.trim()))));
data.math = math;
const P = data.phrases;
const STEPS = 5;
const AUTOPLAY_MS = 2600;
const values = data.kind === "values";
const sizes = data.sizes;

async function inflate(base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

function el(tag, attributes = {}, ...children) {
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

function fill(key, fields) {
  return P[key].replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

const parsed = new Map();
function mathNode(id, extra = "") {
  let template = parsed.get(id);
  if (!template) {
    const [tex, display] = data.math[id];
    template = document.createElement("template");
    template.innerHTML = window.katex.renderToString(tex, { // the page's own TeX; labels escaped
      displayMode: display === 1, strict: "error", throwOnError: false, trust: false,
      maxSize: 20, maxExpand: 1000, output: "htmlAndMathml" });
    parsed.set(id, template);
  }
  return el("span", { class: ("m " + extra).trim() }, template.content.cloneNode(true));
}
