// First visits of a course page's states by trusted keys, traced in the system Chromium: for each
// key, the renderer main thread's wall time and CPU time from the keydown to the end of the first
// frame after the key's last input event (tracing categories toplevel and devtools.timeline; the
// tracing itself adds some time). CPU time, unlike wall time, hardly moves with the load of other
// jobs on a shared machine, so two pages can be compared there. Pages alternate, `loads` fresh
// loads each; `where` (top, tables or derivation) is scrolled into view before each key. From the
// repository root:
//   node tools/browser/trace_first_visits.js derivation 3 /tmp/before.html /tmp/after.html
// Also each phase's CPU median (style, layout, prepaint, paint, layerize; script etc. the rest).
// Keys: rows 2, 1 (first visits), 2, 3 (seen before), 4, 5 (first), the mask off (first) and on, the
// slider a step right (a free temperature) and back (the generated one, seen before).
"use strict";
const { chromium } = require("playwright-core");
const { ARGS, ready } = require("./common");
const { pathToFileURL } = require("url");
const path = require("path");

// The span of one traced key: wall and CPU ms, or null when the trace holds no input or frame.
function span(buffer) {
  const t = JSON.parse(buffer.toString());
  const ev = t.traceEvents || t;
  const names = new Map();
  for (const e of ev) if (e.name === "thread_name") names.set(e.pid + ":" + e.tid, e.args.name);
  const count = new Map();
  for (const e of ev) { const k = e.pid + ":" + e.tid; if (names.get(k) === "CrRendererMain") count.set(k, (count.get(k) || 0) + 1); }
  const main = [...count].sort((a, b) => b[1] - a[1])[0][0];
  const xs = ev.filter((e) => e.pid + ":" + e.tid === main && e.ph === "X" && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const top = []; let end = -1;
  for (const e of xs) if (e.ts >= end) { top.push(e); end = e.ts + e.dur; }
  const inside = (task, pred) => xs.some((e) => e.ts >= task.ts && e.ts < task.ts + task.dur && pred(e));
  const isInput = (e) => e.name === "EventDispatch" && ["keydown", "keyup", "click"].includes(((e.args || {}).data || {}).type);
  const inputs = top.filter((task) => inside(task, isInput));
  if (!inputs.length) return null;
  const first = inputs[0], last = inputs[inputs.length - 1];
  const frame = top.find((task) => task.ts >= last.ts + last.dur && inside(task, (e) => e.name === "Layerize" || e.name === "PrePaint"));
  if (!frame) return null;
  const stop = frame.ts + frame.dur;
  const cpu = top.filter((task) => task.ts >= first.ts && task.ts < stop).reduce((s, task) => s + (task.tdur || task.dur), 0);
  // CPU ms by phase (outermost event of each phase; "script etc." is the rest of the CPU time)
  const phases = { style: 0, layout: 0, prepaint: 0, paint: 0, layerize: 0 };
  const phaseOf = { UpdateLayoutTree: "style", Layout: "layout", PrePaint: "prepaint", Paint: "paint", Layerize: "layerize" };
  let inside_ = -1;
  for (const e of xs) {
    if (e.ts < first.ts || e.ts >= stop || !phaseOf[e.name] || e.ts < inside_) continue;
    phases[phaseOf[e.name]] += (e.tdur || e.dur) / 1000;
    inside_ = e.ts + e.dur;
  }
  phases.script = cpu / 1000 - Object.values(phases).reduce((a, b) => a + b, 0);
  return { wall: (stop - first.ts) / 1000, cpu: cpu / 1000, phases };
}
(async () => {
  const [where, n, ...files] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS, headless: true });
  const res = Object.fromEntries(files.map((f) => [f, { first: [], again: [], free: [], back: [] }]));
  const keys = [["row", "ArrowUp", "first"], ["row", "ArrowUp", "first"], ["row", "ArrowDown", "again"], ["row", "ArrowDown", "again"],
    ["row", "ArrowDown", "first"], ["row", "ArrowDown", "first"], ["mask", " ", "first"], ["mask", " ", "again"], ["tau", "ArrowRight", "free"], ["tau", "ArrowLeft", "back"]];
  for (let k = 0; k < Number(n); k++) for (const file of files) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(pathToFileURL(path.resolve(file)).href + "#row=3&tau=17%2F20&mask=on&step=4");
    await ready(page);
    for (const [id, key, kind] of keys) {
      if (where !== "top") await page.evaluate((w) => document.getElementById(w).scrollIntoView(), where);
      await page.waitForTimeout(400);
      await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20 });
      await page.evaluate((id) => document.getElementById(id).focus({ preventScroll: true }), id);
      await browser.startTracing(page, { categories: ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline"] });
      await page.keyboard.press(key);
      await page.waitForTimeout(250);
      const s = span(await browser.stopTracing());
      if (s) res[file][kind].push(s);
    }
    await context.close();
  }
  const med = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? Math.round(s[Math.floor(s.length / 2)]) : "-"; };
  for (const f of files) for (const kind of ["first", "again", "free", "back"]) {
    const r = res[f][kind];
    console.log(where, path.basename(f), kind, "n", r.length, "wall med", med(r.map((x) => x.wall)), "max", Math.round(Math.max(...r.map((x) => x.wall))),
      "| cpu med", med(r.map((x) => x.cpu)), "max", Math.round(Math.max(...r.map((x) => x.cpu))),
      "| cpu med by phase", Object.keys((r[0] || {}).phases || {}).map((p) => p + " " + med(r.map((x) => x.phases[p]))).join(", "));
  }
  await browser.close();
})();
