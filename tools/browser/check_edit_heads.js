// Drive the editor of symattn course pages of multi-head problems and of a symbolic temperature in
// the system Chromium (headless, playwright-core) and print what was observed as JSON;
// tests/test_page_edit_heads.py asserts on it. Standard input: {"chromium": PATH, "jobs": [{"name",
// "page", "scenario", ...}]}.
// scenario "heads": an entry of head 2's W_Q typed, head 1 chosen, X and W_O typed, the link
// reopened, the entries typed back, reset; "symbolic": an entry typed at the symbolic tau, then a
// numeric tau, the link reopened, reset; "timing": edits and head changes timed; "open": the page
// as opened (job.hash); "screenshot": job.hash at job.width x job.height, scrolled
// to job.scrollTo, with axe-core's violations.
"use strict";
const path = require("path");
const { pathToFileURL } = require("url");
const { VIEWPORT, ready, openPage, axe, serve } = require("./common");

// What a test asserts on, read from the page as a reader sees it.
async function observe(page) {
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 });
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const heat = {};
    for (const td of document.querySelectorAll("#heatmap td")) (heat[td.dataset.row] = heat[td.dataset.row] || []).push(td.textContent);
    const table = (name) => [...document.querySelectorAll(`#table-${name} tbody tr`)].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => {
        const a = td.querySelector("[data-tex]");
        return a ? "tex:" + a.dataset.tex : td.textContent;
      }));
    const fields = {};
    for (const input of document.querySelectorAll(".edit-cell")) {
      if (input.closest("[hidden]")) continue;
      fields[input.id] = { value: input.value, edited: input.classList.contains("edited"), label: input.getAttribute("aria-label") };
    }
    return {
      hash: location.hash, share: $("share-url").value, head: $("head") ? $("head").value : null,
      heat, summary: $("summary").textContent,
      tables: Object.fromEntries(["X", "W_Q", "Q", "K", "V", "A", "O", "C", "W_O", "MHA"].map((n) => [n, table(n)])),
      fields, editShown: !$("edit-block").hidden, editTitle: $("edit-title").textContent,
      editNote: $("edit-block").querySelector(".note").textContent,
      editStatus: $("edit-status").textContent, headsNote: ($("heads-note") || {}).textContent || null,
      stateError: $("state-error").hidden ? null : $("state-error-text").textContent,
      tau: $("tau-text").value, tauShown: $("tau-value").textContent, sliderDimmed: $("tau").classList.contains("symbolic"),
      cards: [...document.querySelectorAll("#edit-grids figure:not([hidden]) figcaption")].map((f) => f.textContent),
    };
  });
}

async function type(page, id, text) {
  const selector = `[id='${id}']`;
  await page.fill(selector, text);
  await page.press(selector, "Enter");
  return observe(page);
}

function pageUrl(job, hash) {
  return pathToFileURL(path.resolve(job.page)).href + "#" + hash;
}

async function reopen(context, url) { // the link in a new tab, then reloaded
  const { page, log } = await openPage(context, url);
  await page.reload();
  await ready(page);
  return { log, seen: await observe(page) };
}

async function heads(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, log } = await openPage(context, pageUrl(job, "head=2&row=2&tau=1&mask=off&step=4"));
  const out = { log, initial: await observe(page) };
  out.edited = await type(page, "edit-W_Q_2-2-1", "2"); // head 2's W_Q: row 2 of its queries
  await page.selectOption("#head", "1");
  out.head1 = await observe(page);
  await type(page, "edit-X-1-2", "1/2"); // X feeds both heads
  out.both = await type(page, "edit-W_O-3-1", "-1");
  const shared = await reopen(context, out.both.share);
  out.restored = shared.seen;
  out.sharedLog = shared.log;
  await type(page, "edit-X-1-2", "0");
  await type(page, "edit-W_O-3-1", "1");
  await page.selectOption("#head", "2");
  out.undone = await type(page, "edit-W_Q_2-2-1", "1");
  await type(page, "edit-W_V_2-1-1", "3");
  await page.click("#reset");
  out.reset = await observe(page);
  await context.close();
  return out;
}

async function symbolic(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, log } = await openPage(context, pageUrl(job, "row=3&tau=t&mask=on&step=4"));
  const out = { log, initial: await observe(page) };
  out.edited = await type(page, "edit-Q-3-1", "2");
  out.numeric = await type(page, "tau-text", "1.234");
  const shared = await reopen(context, out.numeric.share);
  out.restored = shared.seen;
  out.sharedLog = shared.log;
  out.slid = await page.evaluate(() => { // the slider at its left end: tau = 0.05
    const range = document.getElementById("tau");
    range.value = "0";
    range.dispatchEvent(new Event("input", { bubbles: true }));
    return location.hash;
  });
  await page.click("#reset");
  out.reset = await observe(page);
  await context.close();
  return out;
}

// Each change on a multi-head page, from the event to the end of the forced layout of the
// redrawn state (as check_edit.js times the 5-token page): two rounds of an entry of head 2's W_Q
// and of W_O typed and typed back, and of the head chosen.
async function timing(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page } = await openPage(context, pageUrl(job, "head=2&row=2&tau=1&mask=off&step=4"));
  const changes = await page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const timed = (name, id, value) => {
      const start = performance.now();
      $(id).value = value;
      $(id).dispatchEvent(new Event("change", { bubbles: true }));
      document.body.getBoundingClientRect(); // style and layout of the redrawn state
      return { name, ms: performance.now() - start };
    };
    const out = [];
    for (let round = 0; round < 2; round++) {
      for (const value of ["2", "1"]) out.push(timed("edit W_Q", "edit-W_Q_2-2-1", value));
      for (const value of ["-1", "1"]) out.push(timed("edit W_O", "edit-W_O-3-1", value));
      for (const head of ["1", "2"]) out.push(timed("head", "head", head));
    }
    return out;
  });
  await context.close();
  return { changes };
}

// A page opened as it is (job.hash).
async function open(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, log } = await openPage(context, pageUrl(job, job.hash));
  const out = { log, first: await observe(page) };
  await context.close();
  return out;
}

async function screenshot(browser, job) {
  const phone = job.width < 700;
  const context = await browser.newContext({ viewport: { width: job.width, height: job.height }, isMobile: phone, hasTouch: phone,
    bypassCSP: true }); // the context lets axe's test script in, nothing else
  const { page, log } = await openPage(context, pageUrl(job, job.hash));
  if (job.scrollTo) await page.evaluate((id) => document.getElementById(id).scrollIntoView(), job.scrollTo);
  await page.waitForTimeout(600);
  await page.screenshot({ path: job.screenshot });
  const out = { log, saved: job.screenshot, axe: await axe(page) };
  await context.close();
  return out;
}

serve({ heads, symbolic, timing, open, screenshot });
