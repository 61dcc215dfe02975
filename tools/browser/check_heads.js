// Drive symattn's course pages of multi-head problems (and of a symbolic temperature) in the system
// Chromium (headless) with playwright-core and print what was observed as JSON; tests/test_page_heads.py
// asserts on it. Standard input: {"chromium": "/usr/bin/chromium", "jobs": [{"name", "page", "scenario", ...}]}
// scenario "switch": the head selector by keyboard, each head's tables, the link round trip with a head;
// "layout": at job.width x job.height (job.hash), cells no scrolling brings into view, the sticky
// controls' share of the screen, axe-core's violations, a screenshot; "symbolic": the heatmap at a
// numeric and at the symbolic temperature.
"use strict";
const { chromium } = require("playwright-core");
const path = require("path");
const { pathToFileURL } = require("url");

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const VIEWPORT = { width: 1280, height: 900 };

async function open(context, url) {
  const page = await context.newPage();
  const log = { console: [], pageErrors: [], requests: [] };
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") log.console.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => log.pageErrors.push(String(e)));
  page.on("request", (r) => log.requests.push(r.url().slice(0, 60)));
  await page.goto(url);
  await ready(page);
  return { page, log };
}

async function ready(page) {
  await page.waitForSelector("body[data-ready='1'], body[data-error]", { state: "attached", timeout: 30000 });
  await page.evaluate(() => document.fonts.ready.then(() => true));
}

// What the tests assert on: the chosen head, the TeX of head tables and of C and MultiHead(X).
async function observe(page) {
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 }); // blocks drawn when seen or idle
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const tex = (id) => [...document.querySelectorAll(`#table-${id} tbody tr`)].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => (td.querySelector("annotation") || {}).textContent));
    return {
      head: $("head") ? $("head").value : null, hash: location.hash, share: $("share-url").value,
      row: $("row").value, tau: $("tau-text").value, mask: $("mask").checked, focus: document.activeElement.id,
      A: tex("A"), C: tex("C"), MHA: tex("MHA"),
      heat: [...document.querySelectorAll("#heatmap td")].map((td) => td.textContent),
      derivation: [...$("derivation").children].filter((c) => !c.classList.contains("stashed")).map((c) => c.textContent).join("").slice(0, 400),
      tag: (document.querySelector("#tables-title .head-tag") || {}).textContent,
      note: ($("heads-note") || {}).textContent,
    };
  });
}

async function switchHeads(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const url = pathToFileURL(path.resolve(job.page)).href;
  const { page, log } = await open(context, url);
  const out = { log, first: await observe(page) };
  await page.focus("#head");
  await page.keyboard.press("ArrowDown"); // a closed select changes its value by keyboard
  out.second = await observe(page);
  await page.click(".tau-pick >> text='2'");
  out.hotter = await observe(page);
  // a state to share: head 2, row 2, tau 3/2, the causal mask, step 3
  await page.selectOption("#row", "2");
  await page.click(".tau-pick >> text='3/2'");
  await page.check("#mask");
  await page.click("#walk-tab-3");
  out.before = await observe(page);
  const shared = await context.newPage();
  shared.on("pageerror", (e) => log.pageErrors.push(String(e)));
  await shared.goto(out.before.share);
  await ready(shared);
  await shared.reload();
  await ready(shared);
  out.restored = await observe(shared);
  await shared.goto(url + "#head=7&row=1");
  await shared.reload();
  await ready(shared);
  out.bad = await observe(shared);
  await shared.goto(url + "#head=2&row=2&tau=1.234&mask=off"); // a free temperature, float64 in the page
  await shared.reload();
  await ready(shared);
  out.free = await observe(shared);
  await context.close();
  return out;
}

// Every table cell, scrolled into view as a reader would: wholly inside the viewport and every
// clipping ancestor (as tools/browser/check_page.js measures it).
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

async function axe(page) {
  const source = require("fs").readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source); // the context bypasses the page's CSP for this test script only
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length,
      targets: v.nodes.slice(0, 4).map((n) => n.target.join(" ")) }));
  });
}

async function layout(browser, job) {
  const phone = job.width < 700;
  const context = await browser.newContext({ viewport: { width: job.width, height: job.height },
    isMobile: phone, hasTouch: phone, bypassCSP: true });
  const { page, log } = await open(context, pathToFileURL(path.resolve(job.page)).href + "#" + (job.hash || ""));
  const out = { log };
  out.unreachable = await unreachableCells(page);
  out.overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  out.sticky = await page.evaluate(() => {
    window.scrollTo(0, 600);
    const controls = document.getElementById("controls");
    const box = controls.getBoundingClientRect();
    const stuck = getComputedStyle(controls).position === "sticky" && box.top <= 1 && box.bottom > 0;
    window.scrollTo(0, 0);
    return { stuck, share: stuck ? box.height / innerHeight : 0, height: box.height };
  });
  out.axe = await axe(page);
  if (job.screenshot) {
    await page.waitForTimeout(800);
    await page.screenshot({ path: job.screenshot });
    // the combination of the heads, scrolled into view (sections off screen are not painted)
    await page.evaluate(() => document.getElementById("heads-block").scrollIntoView());
    await page.waitForTimeout(300);
    await page.screenshot({ path: job.screenshot.replace(/\.png$/, ".combine.png") });
  }
  await context.close();
  return out;
}

async function symbolic(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const url = pathToFileURL(path.resolve(job.page)).href;
  const { page, log } = await open(context, url + "#row=2&tau=1%2F2&mask=on");
  const look = () => page.evaluate(() => {
    const note = document.getElementById("symbolic-note");
    return { note: note && !note.hidden ? note.textContent : null,
      coloured: [...document.querySelectorAll("#heatmap td")].filter((td) => td.style.backgroundColor).length };
  });
  const out = { log, numeric: await look() };
  await page.click(".tau-pick >> text='t'");
  out.symbolic = await look();
  await context.close();
  return out;
}

async function main(request) {
  const browser = await chromium.launch({ executablePath: request.chromium, args: ARGS, headless: true });
  const results = {};
  const version = browser.version();
  try {
    for (const job of request.jobs) {
      const run = { switch: switchHeads, layout, symbolic }[job.scenario];
      try {
        const start = Date.now();
        results[job.name] = await run(browser, job);
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
