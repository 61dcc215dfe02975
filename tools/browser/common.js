// What the browser checks of the course page share: Chromium's flags, opening a page and waiting
// until it is drawn, axe-core, the cells no scrolling brings into view, and the stdin/stdout runner
// of named scenarios ({"chromium", "jobs": [{"name", "scenario", ...}]} -> {"browser", "results"}).
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const VIEWPORT = { width: 1280, height: 900 };

// The page's console errors and warnings, uncaught errors and requests.
function watch(page) {
  const log = { console: [], pageErrors: [], requests: [] };
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") log.console.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => log.pageErrors.push(String(e)));
  page.on("request", (r) => log.requests.push(r.url().slice(0, 60)));
  return log;
}

// Drawn: ready (or failed), the blocks drawn when seen or idle drawn (body[data-pending]), fonts loaded.
async function ready(page) {
  await page.waitForSelector("body[data-ready='1'], body[data-error]", { state: "attached", timeout: 30000 });
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 });
  await page.evaluate(() => document.fonts.ready.then(() => true));
}

async function openPage(context, url) {
  const page = await context.newPage();
  const log = watch(page);
  await page.goto(url);
  await ready(page);
  return { page, log };
}

// axe-core's violations of the page as it stays on screen (after every animation has finished:
// the walkthrough's cells fade in, and mid-fade text is lighter by design).
async function axe(page) {
  await page.evaluate(fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")); // the context bypasses the CSP for it
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length,
      targets: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
      why: v.nodes.slice(0, 4).map((n) => (n.any[0] || {}).message || n.failureSummary) }));
  });
}

// The table cells no scrolling brings into view: shown is the part inside the viewport and every
// clipping ancestor; a cell wider than its scroll box is reachable when it fills the box.
function unreachableCells(page) {
  return page.evaluate(() => {
    const bad = [];
    for (const cell of document.querySelectorAll("main table td, main table th, main .shape-grid .sq")) {
      if (!cell.getClientRects().length) continue;
      cell.scrollIntoView({ block: "nearest", inline: "nearest" });
      const r = cell.getBoundingClientRect();
      let [left, right] = [Math.max(r.left, 0), Math.min(r.right, innerWidth)];
      for (let a = cell.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const box = a.getBoundingClientRect();
        [left, right] = [Math.max(left, box.left), Math.min(right, box.right)];
      }
      const box = cell.parentElement.closest(".scroll, .display");
      if (right - left < Math.min(r.width, box ? box.clientWidth : r.width) - 1) {
        bad.push((cell.closest("[id]") || {}).id + ":" + cell.textContent.slice(0, 12));
      }
    }
    window.scrollTo(0, 0);
    return bad;
  });
}

// At job.width x job.height: the unreachable cells, how far the page overflows sideways, the share
// of the screen the sticky controls take once scrolled past them, axe's violations; the screenshot
// job.screenshot, then what more(page, job) shoots. hash: the state opened when the job gives none.
async function layout(browser, job, { hash = "", more = null } = {}) {
  const phone = job.width < 700;
  const context = await browser.newContext({ viewport: { width: job.width, height: job.height },
    isMobile: phone, hasTouch: phone, bypassCSP: true });
  const { page, log } = await openPage(context, pathToFileURL(path.resolve(job.page)).href + "#" + (job.hash || hash));
  const out = { log };
  out.unreachable = await unreachableCells(page);
  // sideways scroll: past the screen's width (a phone's layout viewport widens with the content)
  out.overflow = await page.evaluate((width) => document.documentElement.scrollWidth - width, job.width);
  out.sticky = await page.evaluate(() => {
    const controls = document.getElementById("controls");
    window.scrollTo(0, controls.offsetTop + 600); // past the controls (a lesson's questions may come first)
    const box = controls.getBoundingClientRect();
    const stuck = getComputedStyle(controls).position === "sticky" && box.top <= 1 && box.bottom > 0;
    window.scrollTo(0, 0);
    return { stuck, share: stuck ? box.height / innerHeight : 0, height: box.height };
  });
  out.axe = await axe(page);
  if (job.screenshot) {
    await page.screenshot({ path: job.screenshot });
    if (more) await more(page, job);
  }
  await context.close();
  return out;
}

// Time to usable (navigation start -> the page marks itself ready) over job.runs loads, the CPU
// slowed job.slowdown times; the page stays open (and slowed) for changeTimes.
async function loadTimes(context, job) {
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.body && document.body.dataset.ready) { window.readyAt = performance.now(); observer.disconnect(); }
    }).observe(document, { attributes: true, subtree: true });
  });
  const url = pathToFileURL(path.resolve(job.page)).href;
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: job.slowdown || 1 });
  const loads = [];
  for (let k = 0; k < (job.runs || 5); k++) {
    await page.goto(url + "#row=3&tau=17%2F20&mask=on&step=1");
    await ready(page);
    loads.push(await page.evaluate(() => window.readyAt));
    await page.goto("about:blank");
  }
  return { page, url, loads };
}

// Each control change, from the event to the end of the forced layout of the redrawn state
// (handlers run synchronously; `ms`) and to the next frame (`paint`: the first task after the
// next animation frame, so the frame's style, layout, paint and the page's frame callbacks are
// in; what a reader waits for, close to Event Timing's duration): two rounds (the first typesets, the second reuses) of 5 rows, 4
// slider moves, 2 mask toggles and, with edits and where the page has the editor, 2 edits; one
// right after the other, or `pause` ms apart (a reader's pace: the page's background work runs),
// the element `keep` scrolled back into view before each pause (redrawn blocks change heights).
function changeTimes(page, edits, pause = 0, keep = null) {
  return page.evaluate(async ([edits, pause, keep]) => {
    const $ = (id) => document.getElementById(id);
    const timed = async (name, act) => {
      if (pause && keep) $(keep).scrollIntoView();
      if (pause) await new Promise((done) => setTimeout(done, pause));
      const start = performance.now();
      act();
      document.body.getBoundingClientRect(); // style and layout of the redrawn state
      const ms = performance.now() - start;
      await new Promise((done) => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = done;
        channel.port2.postMessage(0);
      }));
      return { name, ms, paint: performance.now() - start };
    };
    const fire = (node, type) => node.dispatchEvent(new Event(type, { bubbles: true }));
    const changes = [];
    for (let round = 0; round < 2; round++) {
      for (const row of ["1", "2", "4", "5", "3"]) changes.push(await timed("row", () => { $("row").value = row; fire($("row"), "change"); }));
      for (const position of ["700", "720", "740", "615"]) changes.push(await timed("tau slider", () => { $("tau").value = position; fire($("tau"), "input"); }));
      for (const on of [false, true]) changes.push(await timed("mask", () => { $("mask").checked = on; fire($("mask"), "change"); }));
      if (!edits || !$("edit-Q-3-1")) continue; // a page without the editor (to measure an older page)
      for (const value of ["1/2", "1.34"]) changes.push(await timed("edit", () => { $("edit-Q-3-1").value = value; fire($("edit-Q-3-1"), "change"); }));
    }
    return changes;
  }, [edits, pause, keep]);
}

// The page's own performance measures ("symattn tables", ...), in ms, by part.
function partTimes(page) {
  return page.evaluate(() => {
    const parts = {};
    for (const m of performance.getEntriesByType("measure")) {
      if (m.name.startsWith("symattn ")) (parts[m.name.slice(8)] = parts[m.name.slice(8)] || []).push(Math.round(m.duration));
    }
    return parts;
  });
}

// Read the request from stdin, run each job's scenario in one Chromium, write the results.
function serve(scenarios) {
  async function main(request) {
    const browser = await chromium.launch({ executablePath: request.chromium, args: ARGS, headless: true });
    const version = browser.version();
    const results = {};
    try {
      for (const job of request.jobs) {
        try {
          const start = Date.now();
          results[job.name] = await scenarios[job.scenario](browser, job);
          results[job.name].ms = Date.now() - start;
        } catch (error) {
          results[job.name] = { failure: String(error && error.stack || error) };
        }
      }
    } finally {
      await browser.close();
    }
    return { browser: version, results };
  }
  let input = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => { input += chunk; });
  process.stdin.on("end", () => {
    main(JSON.parse(input)).then(
      (out) => process.stdout.write(JSON.stringify(out)),
      (error) => { process.stderr.write(String(error && error.stack || error) + "\n"); process.exit(1); },
    );
  });
}

module.exports = { ARGS, VIEWPORT, watch, ready, openPage, axe, unreachableCells, layout, loadTimes, changeTimes, partTimes, serve };
