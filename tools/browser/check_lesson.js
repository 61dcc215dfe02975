// Drive symattn's course pages in headless Chromium (playwright-core) through what a student meets
// in the lesson around the lab: the predictions and the true/false claim, the seven-step hand
// check (answers hidden until revealed, by keyboard), the names' legend when a state change gives
// a name another value; axe-core and clipped content at 1280 and 390 px, with screenshots.
//   node tools/browser/check_lesson.js CHROMIUM '{"name": "page.html", ...}' SHOTS_DIR
// prints {name: observations} as JSON; tests/test_page_lesson.py asserts on it.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

const { ARGS, axe } = require("./common");
const WIDTHS = [[1280, 900], [390, 844]];

async function open(browser, file, viewport, hash = "") {
  const phone = viewport.width < 700;
  const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone, bypassCSP: true });
  const page = await context.newPage();
  const log = { pageErrors: [], console: [], requests: [], dialogs: [] };
  page.on("pageerror", (e) => log.pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") log.console.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) log.requests.push(r.url().slice(0, 60)); });
  page.on("dialog", (d) => { log.dialogs.push(d.message()); d.dismiss(); });
  await page.goto(pathToFileURL(path.resolve(file)).href + hash);
  await page.waitForSelector("body[data-ready='1']", { state: "attached", timeout: 30000 });
  await page.evaluate(() => document.fonts.ready.then(() => true));
  return { context, page, log };
}

// Text as a reader meets it, math as its TeX ($...$), from the data-tex the page sets on every formula.
async function text(page, selector) {
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 }); // blocks drawn when seen or idle
  return page.evaluate((selector) => {
    const read = (node) => {
      if (node.nodeType === 3) return node.textContent;
      if (node.nodeType !== 1) return "";
      if (node.dataset.tex !== undefined) return "$" + node.dataset.tex + "$"; // typeset or a plain number
      return [...node.childNodes].map(read).join("");
    };
    const node = document.querySelector(selector);
    return node ? read(node) : null;
  }, selector);
}

const visibleAnswers = (page) => page.evaluate(() =>
  [...document.querySelectorAll(".hand-answer")].filter((a) => a.checkVisibility()).length);

async function revealAll(page) {
  for (let k = 1; k <= 7; k++) {
    const open = await page.evaluate((k) => { const d = document.getElementById("hand-details-" + k); return !d || d.hidden || d.open; }, k);
    if (!open) {
      await page.focus("#hand-summary-" + k);
      await page.keyboard.press("Enter");
    }
  }
}

// All a reader or a screen reader can meet: text and labels outside elements with the hidden attribute.
function readable(page) {
  return page.evaluate(() => {
    const out = [document.title];
    const shown = (e) => !e.closest("[hidden], script, style, template");
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) if (shown(n.parentElement)) out.push(n.textContent);
    for (const e of document.querySelectorAll("*")) {
      if (!shown(e)) continue;
      for (const a of ["aria-label", "aria-description", "aria-valuetext", "title", "alt", "content", "placeholder", "value"]) {
        if (e.hasAttribute(a)) out.push(e.getAttribute(a));
      }
    }
    return out.join("\n");
  });
}

async function lesson(browser, file, name) {
  const { context, page, log } = await open(browser, file, { width: 1280, height: 900 });
  const out = { log };
  out.order = await page.evaluate(() => [...document.querySelectorAll("main > [id]")].filter((n) => !n.hidden).map((n) => n.id));
  out.predictions = await page.evaluate(() => [...document.querySelectorAll("#predictions li")].map((li) => li.textContent));
  out.claim = await page.evaluate(() => document.getElementById("claim-text").textContent);
  out.feedbackBefore = await text(page, "#claim-feedback");
  out.readableBefore = await readable(page);
  if (await page.evaluate(() => !document.getElementById("claim-box").hidden)) {
    await page.focus("#claim-true");
    await page.keyboard.press("Enter");
    out.feedbackTrue = await text(page, "#claim-feedback");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    out.feedbackFalse = await text(page, "#claim-feedback");
    out.claimFocus = await page.evaluate(() => document.activeElement.id);
    out.pressed = await page.evaluate(() => ["claim-true", "claim-false"].map((id) => document.getElementById(id).getAttribute("aria-pressed")));
    const pick = (to) => page.evaluate((to) => { // another row's summary, and back
      const select = document.getElementById("row");
      const was = select.value;
      select.value = to || (was === "1" ? "2" : "1");
      select.dispatchEvent(new Event("change"));
      return was;
    }, to);
    const row = await pick(null);
    out.summaryAnswered = await text(page, "#summary");
    await pick(row);
  }
  out.steps = await page.evaluate(() => document.querySelectorAll("#hand-steps > li").length);
  out.handNote = await text(page, "#hand-note");
  out.dos = [];
  for (let k = 1; k <= out.steps; k++) out.dos.push(await text(page, "#hand-do-" + k));
  out.answersVisibleBefore = await visibleAnswers(page);
  if (out.steps) {
    await page.focus("#hand-summary-6");
    await page.keyboard.press("Enter");
    out.revealFocus = await page.evaluate(() => document.activeElement.id);
    out.answersVisibleOne = await visibleAnswers(page);
    await revealAll(page);
    out.answersVisibleAfter = await visibleAnswers(page);
    out.answers = [];
    for (let k = 1; k <= 7; k++) out.answers.push(await text(page, "#hand-answer-" + k));
    out.answer6 = out.answers[5];
    out.answer7 = out.answers[6];
    await page.focus("#row");
    await page.selectOption("#row", "2");
    out.openAfterRowChange = await page.evaluate(() => document.querySelectorAll("#hand-steps details[open]").length);
    out.focusAfterRowChange = await page.evaluate(() => document.activeElement.id);
    out.answer6Row2 = await text(page, "#hand-answer-6");
    out.handNoteRow2 = await text(page, "#hand-note");
    // a free temperature: steps 1 to 4 stay, 5 to 7 point to the exact temperatures
    await page.evaluate(() => { location.hash = "#row=3&tau=1.234&mask=on"; });
    await page.waitForFunction(() => document.getElementById("tau-text").value === "1.234");
    out.freeDo5 = await text(page, "#hand-do-5");
    out.freeDetails5Hidden = await page.evaluate(() => document.getElementById("hand-details-5").hidden);
    out.freeAnswer4 = await text(page, "#hand-answer-4");
    // the rounding note wherever the rounded weights shown do not add up to 1, at a free tau too
    out.freeSummary = {};
    for (const tau of ["1.1", "1.234"]) {
      await page.evaluate((tau) => { location.hash = "#row=3&tau=" + tau + "&mask=on"; }, tau);
      await page.waitForFunction((tau) => document.getElementById("tau-text").value === tau, tau);
      out.freeSummary[tau] = await text(page, "#summary");
    }
  }
  if (out.steps && name.startsWith("demo")) out.floatHand = await floatHand(page);
  await page.evaluate(() => { location.hash = ""; });
  await page.click("#reset");
  out.legendBeside = await page.evaluate(() => document.querySelectorAll("#names .names-legend, #derivation-names .names-legend").length);
  out.legendNames = await page.evaluate(() => [...document.querySelectorAll("#names .names-list li")].map((li) => li.dataset.name));
  out.namesChangedBefore = (await text(page, "#names .names-changed")) || "";
  const other = await page.evaluate(() => [...document.querySelectorAll(".tau-pick")].map((b) => b.textContent)
    .find((t) => t !== document.getElementById("tau-text").value));
  if (other) {
    await page.click(`.tau-pick[aria-label="τ = ${other}"]`);
    out.namesChanged = (await text(page, "#names .names-changed")) || "";
    out.namesChangedInDerivation = (await text(page, "#derivation-names .names-changed")) || "";
  }
  out.evil = await page.evaluate(() => document.querySelectorAll("#evil").length);
  out.images = await page.evaluate(() => document.querySelectorAll("main img").length);
  out.dialogs = log.dialogs;
  await context.close();
  return out;
}

// The hand check at float states (example 05): Q's entry (3, 1) edited at tau = 17/20, then a free tau with
// no edit; every step revealed, its instruction and answer read.
async function floatHand(page) {
  const out = {};
  for (const [name, hash] of [["edited", "#row=3&tau=17%2F20&mask=on&step=1&Q=3.1:1"], ["free", "#row=3&tau=1.1&mask=on&step=1"]]) {
    await page.evaluate((hash) => { location.hash = hash; }, hash);
    await page.waitForFunction((edited) => document.getElementById("edit-Q-3-1").value === (edited ? "1" : "1.34"), name === "edited");
    await revealAll(page);
    const seen = { dos: [], answers: [], hidden: [] };
    for (let k = 1; k <= 7; k++) {
      seen.dos.push(await text(page, "#hand-do-" + k));
      seen.answers.push(await text(page, "#hand-answer-" + k));
      seen.hidden.push(await page.evaluate((k) => document.getElementById("hand-details-" + k).hidden, k));
    }
    seen.note = await text(page, "#hand-note");
    seen.table = await page.evaluate(() => (document.querySelector("#table-R tbody tr:nth-child(3)") || {}).textContent || null);
    out[name] = seen;
  }
  return out;
}

// Content of the lesson's parts outside the viewport or cut by an ancestor that does not scroll.
function clipped(page) {
  return page.evaluate(() => {
    const bad = [];
    if (document.documentElement.scrollWidth > innerWidth + 1) bad.push("page:" + (document.documentElement.scrollWidth - innerWidth));
    const nodes = document.querySelectorAll("#before-lab *, #hand-check *, .names-legend *");
    for (const node of nodes) {
      if (!node.getClientRects().length || node.closest(".scroll, .hand-answer, .katex-display")) continue;
      if (node.parentElement.closest(".katex")) continue; // KaTeX's parts: the .katex box is judged
      const r = node.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < -1 || r.right > innerWidth + 1) bad.push((node.id || node.getAttribute("class") || node.tagName) + ":" + node.textContent.slice(0, 20));
      for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === "visible") continue;
        if (style.overflowX === "auto" || style.overflowX === "scroll") break;
        const box = a.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) bad.push((node.id || node.tagName) + " cut by " + (a.id || a.getAttribute("class")));
      }
    }
    // an answer's math that is wider than its box scrolls (and is reachable by keyboard)
    for (const box of document.querySelectorAll(".hand-answer")) {
      if (box.checkVisibility() && box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX === "visible") bad.push(box.id);
    }
    return bad;
  });
}

async function layouts(browser, name, file, shots) {
  const out = {};
  for (const [width, height] of WIDTHS) {
    const { context, page, log } = await open(browser, file, { width, height }, "#row=3&step=4");
    if (await page.evaluate(() => !document.getElementById("claim-box").hidden)) await page.click("#claim-false");
    if (await page.evaluate(() => document.getElementById("hand-steps").children.length)) await revealAll(page);
    // the blocks drawn when idle are in, and the frame after them has fitted their boxes (a box
    // drawn after the last fit is fitted in the next frame: axe would catch it in between)
    await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const seen = { log, clipped: await clipped(page), axe: (await axe(page)).filter((v) => v.impact === "serious" || v.impact === "critical") };
    for (const id of ["before-lab", "hand-check"]) {
      if (await page.evaluate((id) => !document.getElementById(id).hidden, id)) {
        const shot = path.join(shots, `${name}-${id}-${width}.png`);
        await page.locator("#" + id).screenshot({ path: shot });
      }
    }
    await context.close();
    out[width] = seen;
  }
  return out;
}

// Tab presses from the top of the page until the focus is in the hand check (at most 150): by Tab
// alone, and taking the editor's skip link (Enter on it; the Enter is counted); whether the skip
// link is seen unfocused and focused, and where the focus went from it.
async function tabs(browser, file) {
  const out = {};
  for (const skip of [false, true]) {
    const { context, page } = await open(browser, file, { width: 1280, height: 900 });
    await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 }); // the editor may be drawn at idle
    let presses = 0;
    for (; presses < 150; presses++) {
      const at = await page.evaluate(() => {
        const a = document.activeElement;
        const box = a.id === "edit-skip" ? a : null; // looked at once focused, scrolled to its middle
        if (box) box.scrollIntoView({ block: "center" });
        const r = box && box.getBoundingClientRect();
        return { id: a.id, inHand: Boolean(a.closest("#hand-check")),
          skipSeen: box ? document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === box : null };
      });
      if (at.inHand) break;
      if (skip && at.id === "edit-skip") {
        out.skipSeenFocused = at.skipSeen;
        await page.keyboard.press("Enter");
        presses++;
        out.afterSkip = await page.evaluate(() => document.activeElement.id);
      } else {
        await page.keyboard.press("Tab");
      }
    }
    if (!skip) { // unfocused, after the count: scrolling first moves where Chromium starts Tab from
      out.skipSeen = await page.evaluate(() => {
        document.activeElement.blur();
        const box = document.getElementById("edit-skip");
        if (!box) return null;
        box.scrollIntoView({ block: "center" }); // seen: its middle is where a click lands
        const r = box.getBoundingClientRect();
        return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === box;
      });
    }
    out[skip ? "skipping" : "plain"] = presses;
    await context.close();
  }
  return out;
}

async function main() {
  const [executable, pagesJson, shots] = process.argv.slice(2);
  const pages = JSON.parse(pagesJson);
  fs.mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: executable, args: ARGS, headless: true });
  const results = {};
  try {
    for (const [name, file] of Object.entries(pages)) {
      results[name] = await lesson(browser, file, name);
      results[name].layouts = await layouts(browser, name, file, shots);
      results[name].tabs = await tabs(browser, file);
    }
  } finally {
    await browser.close();
  }
  return results;
}

main().then((out) => process.stdout.write(JSON.stringify(out)),
  (error) => { process.stderr.write(String(error && error.stack || error) + "\n"); process.exit(1); });
