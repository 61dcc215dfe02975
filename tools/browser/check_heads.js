// Drive symattn's course pages of multi-head problems (and of a symbolic temperature) in the system
// Chromium (headless) with playwright-core and print what was observed as JSON; tests/test_page_heads.py
// asserts on it. Standard input: {"chromium": "/usr/bin/chromium", "jobs": [{"name", "page", "scenario", ...}]}
// scenario "switch": the head selector by keyboard, each head's tables, the link round trip with a head;
// "layout": at job.width x job.height (job.hash), cells no scrolling brings into view, the sticky
// controls' share of the screen, axe-core's violations, a screenshot; "symbolic": the heatmap at a
// numeric and at the symbolic temperature.
"use strict";
const path = require("path");
const { pathToFileURL } = require("url");
const common = require("./common");
const { VIEWPORT, ready, openPage: open, serve } = common;

// What the tests assert on: the chosen head, the TeX of head tables and of C and MultiHead(X).
async function observe(page) {
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 }); // blocks drawn when seen or idle
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const tex = (id) => [...document.querySelectorAll(`#table-${id} tbody tr`)].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => (td.querySelector("[data-tex]") || { dataset: {} }).dataset.tex));
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

// "layout", and with a screenshot the combination of the heads too (scrolled into view: sections
// off screen are not painted)
const layout = (browser, job) => common.layout(browser, job, { more: async (page) => {
  await page.evaluate(() => document.getElementById("heads-block").scrollIntoView());
  await page.waitForTimeout(300);
  await page.screenshot({ path: job.screenshot.replace(/\.png$/, ".combine.png") });
} });

serve({ switch: switchHeads, layout, symbolic });
