// Drive a symattn course page's editable inputs and time its control changes in the system
// Chromium (headless, playwright-core) and print what was observed as JSON; tests/test_page_edit.py
// asserts on it. Standard input: {"chromium": PATH, "jobs": [{"name", "page", "scenario", ...}]}.
// scenario "edit": an entry of Q typed (a fraction), a refused entry, the entry typed back, a link
// with edits reloaded, a malformed link, reset; "timing": time to usable and control changes, at
// the top of the page, with the tables and with the derivation in view (each to the end of its
// forced layout and to the next frame), then first visits by trusted keys timed by Chromium's
// Event Timing; "open": the page as opened (job.hash); "screenshot": job.hash at job.width x job.height;
// "steady": where the reader of the derivation stays through a free temperature and back.
// The measurements in docs/performance.md come from, in the repository root,
//   .venv/bin/symattn page worked_examples/05_five_tokens_temperature/problem.toml -o /tmp/p.html
//   echo '{"chromium": "/usr/bin/chromium", "jobs": [{"name": "t", "page": "/tmp/p.html",
//     "scenario": "timing", "runs": 5}]}' | node tools/browser/check_edit.js
// (add "pause": 1000 to the job for a change every second, at a reader's pace).
"use strict";
const path = require("path");
const { pathToFileURL } = require("url");
const { VIEWPORT, watch, ready, axe, loadTimes, changeTimes, partTimes, serve } = require("./common");

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
        return { tex: a ? a.dataset.tex : null, text: a ? null : td.textContent, edited: td.classList.contains("edited") };
      }));
    const fields = {};
    for (const input of document.querySelectorAll(".edit-cell")) {
      fields[input.id] = { value: input.value, edited: input.classList.contains("edited"),
        invalid: input.getAttribute("aria-invalid"), label: input.getAttribute("aria-label") };
    }
    return {
      error: document.body.dataset.error || null, hash: location.hash, share: $("share-url").value,
      heat, summary: $("summary").textContent, derivation: [...$("derivation").children].filter((c) => !c.classList.contains("stashed")).map((c) => c.textContent).join(""),
      checks: ($("checks-verdict") || {}).className || null, mistakes: $("mistakes").textContent,
      tables: Object.fromEntries(["Q", "K", "V", "R", "S", "L", "A", "O"].map((n) => [n, table(n)])),
      walk: $("walk-panel").textContent, fields, editShown: !$("edit-block").hidden,
      editError: $("edit-error").hidden ? null : $("edit-error").textContent,
      editStatus: $("edit-status").textContent, focus: document.activeElement.id,
      projectionsNote: !$("edit-projections").hidden, tau: $("tau-text").value, row: $("row").value,
      tauTag: [...$("tau-value").querySelectorAll(".exact-tag, .approx-tag")].map((t) => t.className + " " + t.textContent),
    };
  });
}

async function type(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, "Enter");
  return observe(page);
}

async function edit(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = watch(page);
  const url = pathToFileURL(path.resolve(job.page)).href;
  await page.goto(url + "#row=3&tau=17%2F20&mask=on&step=4");
  await ready(page);
  const out = { log, initial: await observe(page) };
  out.edited = await type(page, "#edit-Q-3-1", "1/2");
  out.second = await type(page, "#edit-K-2-1", "-0.75");
  out.refused = await type(page, "#edit-V-1-1", "1/0");
  out.refusedText = await type(page, "#edit-V-1-1", "abc");
  await page.press("#edit-V-1-1", "Escape");
  out.escaped = await observe(page);
  out.freeTau = await type(page, "#tau-text", "1.234");
  // the share link restores exactly this state, also after a reload
  const shared = await context.newPage();
  const sharedLog = watch(shared);
  await shared.goto(out.freeTau.share);
  await ready(shared);
  out.restored = await observe(shared);
  await shared.reload();
  await ready(shared);
  out.reloaded = await observe(shared);
  // a malformed link: the malformed matrices are ignored, the rest is read
  await shared.goto(url + "#row=2&tau=17%2F20&mask=on&Q=1.1:2,9.9:1&K=1.1:abc&V=1.2:5%2F2,2.1:7&step=2");
  await ready(shared);
  out.malformed = await observe(shared);
  await shared.goto(url + "#row=2&Q=1.1:1/0&K=0.1:3&V=1.1:2000");
  await ready(shared);
  out.malformedAll = await observe(shared);
  out.sharedLog = sharedLog;
  // typed back to the problem's own values: the exact state again
  await type(page, "#tau-text", "17/20");
  await type(page, "#edit-K-2-1", "1.4");
  out.undone = await type(page, "#edit-Q-3-1", "1.34");
  await type(page, "#edit-V-2-2", "3");
  await page.click("#reset");
  out.reset = await observe(page);
  await context.close();
  return out;
}

// Time to usable (navigation start -> the page marks itself ready) over job.runs loads; then each
// control change, from the event to the end of the forced layout of the redrawn state (handlers
// run synchronously) and to the next frame: at the top of the page, then scrolled to the tables,
// then to the derivation; then first visits by trusted keys (eventTimes), `pause` or 300 ms apart.
async function timing(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, url, loads } = await loadTimes(context, job);
  const out = { loads, changes: {} };
  for (const where of ["top", "tables", "derivation"]) {
    if (job.pause) await page.goto("about:blank"); // a new document: no state kept from the last position
    await page.goto(url + "#row=3&tau=17%2F20&mask=on&step=4");
    await ready(page);
    if (where !== "top") await page.evaluate((id) => document.getElementById(id).scrollIntoView(), where);
    await page.waitForTimeout(300);
    await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20 });
    out.changes[where] = await changeTimes(page, true, job.pause || 0, where === "top" ? null : where);
  }
  // what the redraws of the blocks below the screen cost when they are paid (idle or scrolled to)
  out.parts = await partTimes(page);
  out.events = {};
  for (const where of ["top", "tables", "derivation"]) out.events[where] = await eventTimes(page, url, where, job.pause || 300);
  await context.close();
  return out;
}

// ---- first visits timed by the browser: trusted keys on the controls, Chromium's Event Timing ----
// A fresh page scrolled to `where`; rows 2, 1 (ArrowUp), 2, 3, 4, 5 (ArrowDown; 2 and 3 seen
// before), the mask off and on (Space), the slider one step right and back (free τ, then 17/20),
// `pause` ms apart. For each key: Event Timing's duration (input to the next frame presented,
// in steps of 8 ms; entries of 16 ms and more, the longest of the key's keydown, keypress, keyup
// and click; null when none came within a second) and the same span measured in the page
// (`frame`: the keydown's timeStamp to the first task after the animation frame that follows
// the keydown, or the click a Space on the mask's checkbox makes on its keyup).
async function eventTimes(page, url, where, pause) {
  await page.goto("about:blank");
  await page.goto(url + "#row=3&tau=17%2F20&mask=on&step=4");
  await ready(page);
  await page.evaluate((where) => {
    window.eventLog = [];
    new PerformanceObserver((list) => window.eventLog.push(...list.getEntries().map((e) =>
      ({ name: e.name, start: e.startTime, duration: e.duration, processing: e.processingEnd - e.processingStart }))))
      .observe({ type: "event", durationThreshold: 16, buffered: false });
    window.frameLog = [];
    const frameAfter = (mark) => {
      delete mark.frame;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { mark.frame = performance.now() - mark.start; };
        channel.port2.postMessage(0);
      });
    };
    window.addEventListener("keydown", (event) => {
      window.frameLog.push({ start: event.timeStamp });
      frameAfter(window.frameLog.at(-1));
    }, { capture: true });
    window.addEventListener("click", () => frameAfter(window.frameLog.at(-1)), { capture: true });
    if (where !== "top") document.getElementById(where).scrollIntoView();
  }, where);
  await page.waitForTimeout(300);
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20 });
  const keys = [["row", "ArrowUp"], ["row", "ArrowUp"], ["row", "ArrowDown"], ["row", "ArrowDown"], ["row", "ArrowDown"],
    ["row", "ArrowDown"], ["mask", " "], ["mask", " "], ["tau", "ArrowRight"], ["tau", "ArrowLeft"]];
  const out = [];
  for (const [id, key] of keys) {
    if (where !== "top") await page.evaluate((where) => document.getElementById(where).scrollIntoView(), where);
    await page.waitForTimeout(pause);
    await page.evaluate((id) => document.getElementById(id).focus({ preventScroll: true }), id);
    await page.keyboard.press(key);
    await page.waitForTimeout(150); // the frame is presented and its entries delivered
    await page.waitForFunction(() => window.frameLog.at(-1).frame !== undefined && window.eventLog.some((e) =>
      e.start >= window.frameLog.at(-1).start - 1), null, { polling: 20, timeout: 1000 }).catch(() => null);
    const seen = await page.evaluate(() => {
      const mark = window.frameLog.at(-1);
      const entries = window.eventLog.filter((e) => e.start >= mark.start - 1);
      return { frame: mark.frame, event: entries.length ? Math.max(...entries.map((e) => e.duration)) : null,
        entries: entries.map((e) => `${e.name} ${e.duration}`) };
    });
    out.push(Object.assign({ name: id === "tau" ? "tau slider" : id, key, state: await page.evaluate(() => location.hash) }, seen));
  }
  return out;
}

// A page opened as it is: what the editor offers there.
async function open(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = watch(page);
  await page.goto(pathToFileURL(path.resolve(job.page)).href + (job.hash ? "#" + job.hash : ""));
  await ready(page);
  const out = { log, first: await observe(page) };
  await context.close();
  return out;
}

async function screenshot(browser, job) {
  const phone = job.width < 700;
  const context = await browser.newContext({ viewport: { width: job.width, height: job.height }, isMobile: phone, hasTouch: phone,
    bypassCSP: Boolean(job.axe) }); // the context lets axe's test script in, nothing else
  const page = await context.newPage();
  const log = watch(page);
  await page.goto(pathToFileURL(path.resolve(job.page)).href + "#" + job.hash);
  await ready(page);
  if (job.scrollTo) await page.evaluate((id) => document.getElementById(id).scrollIntoView(), job.scrollTo);
  await page.waitForTimeout(1200);
  await page.screenshot({ path: job.screenshot, fullPage: Boolean(job.full) });
  const out = { log, saved: job.screenshot };
  if (job.axe) { // after a refused entry too: the message and the marked field
    await page.fill("#edit-V-1-1", "1/0");
    await page.press("#edit-V-1-1", "Enter");
    out.axe = await axe(page);
  }
  await context.close();
  return out;
}

// "steady": the derivation in view, the slider a step right (a free temperature: a note in the
// derivation's place) and back; the page's scroll and the derivation's place after each.
async function steady(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const log = watch(page);
  await page.goto(pathToFileURL(path.resolve(job.page)).href + "#" + job.hash);
  await ready(page);
  await page.evaluate(() => document.getElementById("derivation").scrollIntoView());
  const place = async () => {
    await page.waitForTimeout(300);
    await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20 });
    return page.evaluate(() => {
      const top = (node) => (node ? Math.round(node.getBoundingClientRect().top) : null);
      const note = document.querySelector("#derivation .free-note:not(.stashed *)");
      return { scroll: Math.round(window.scrollY), top: top(document.getElementById("derivation")), tau: document.getElementById("tau-text").value,
        note: Boolean(note), note_top: top(note), cover: Math.round(document.getElementById("controls").getBoundingClientRect().bottom) };
    });
  };
  const out = { log, places: [await place()] };
  await page.focus("#tau");
  for (const key of ["ArrowRight", "ArrowLeft"]) {
    await page.keyboard.press(key);
    out.places.push(await place());
  }
  await context.close();
  return out;
}

serve({ edit, timing, open, screenshot, steady });
