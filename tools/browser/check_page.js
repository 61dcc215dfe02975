// Drive symattn's generated course pages in the system Chromium (headless) with playwright-core and
// print what was observed as JSON; tests/test_page.py asserts on it. Standard input:
//   {"chromium": "/usr/bin/chromium", "jobs": [{"name", "page", "scenario", "screenshot"?}, ...]}
// scenario "smoke": open, typeset math, tables, every state of the controls and every row;
// "demo": the course experiment (row 3, causal mask, temperature, share URL, keyboard, screenshots);
// "reduced": the same page with prefers-reduced-motion: reduce; "screenshot": one PNG; "layout": at
// job.width x job.height, the cells no scrolling brings into view, the share of the screen the
// sticky controls take, and axe-core's violations; "free": a free temperature, typed and linked. The README's
// docs/page.png is made, from the repository root, by
//   echo '{"chromium": "/usr/bin/chromium", "jobs": [{"name": "readme", "scenario": "screenshot",
//     "page": "worked_examples/05_five_tokens_temperature/page.html", "screenshot": "docs/page.png"}]}' \
//     | node tools/browser/check_page.js
"use strict";
const path = require("path");
const { pathToFileURL } = require("url");
const common = require("./common");
const { VIEWPORT, ready, openPage: open, serve } = common;

// Everything a test asserts on, read from the page as a reader would see it (once the blocks
// drawn when seen or idle are drawn: body[data-pending]).
async function observe(page) {
  await page.waitForFunction(() => !document.body.dataset.pending, null, { polling: 20, timeout: 10000 });
  return page.evaluate(() => {
    const $ = (id) => document.getElementById(id);
    const tables = {};
    for (const t of document.querySelectorAll("[id^='table-']")) {
      tables[t.id.slice(6)] = { rows: Number(t.dataset.rows), cols: Number(t.dataset.cols),
        shown: t.tagName === "TABLE" ? [t.tBodies[0].rows.length, t.tHead.rows[0].cells.length - 1] : null,
        current: [...t.querySelectorAll("tr")].filter((r) => r.parentNode.tagName === "TBODY")
          .map((r, i) => (r.classList.contains("current") ? i + 1 : 0)).filter(Boolean) };
    }
    const heat = {};
    for (const td of document.querySelectorAll("#heatmap td")) {
      (heat[td.dataset.row] = heat[td.dataset.row] || []).push({ weight: td.dataset.weight || null,
        readable: td.dataset.readable === "1", text: td.textContent });
    }
    const exactA = [...document.querySelectorAll("#table-A tbody tr")].map((tr) =>
      [...tr.querySelectorAll("td")].map((td) => (td.querySelector("[data-tex]") || { dataset: {} }).dataset.tex));
    const tab = document.querySelector("#walk-tabs [aria-selected='true']");
    return {
      error: document.body.dataset.error || null, lang: document.documentElement.lang, title: document.title,
      h1: document.querySelector("h1").textContent,
      headings: [...document.querySelectorAll("h2")].map((h) => h.textContent),
      katex: document.querySelectorAll(".katex").length,
      katexErrors: document.querySelectorAll(".katex-error").length,
      withoutMathML: [...document.querySelectorAll(".katex")].filter((k) => !k.querySelector(".katex-mathml math")).length,
      plain: [...new Set([...document.querySelectorAll(".m.num")].map((n) => JSON.stringify([n.dataset.tex, n.textContent])))].map(JSON.parse),
      fonts: [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family),
      scripts: [...document.scripts].map((s) => ({ type: s.type, src: s.src })),
      csp: (document.querySelector("meta[http-equiv='Content-Security-Policy']") || {}).content || null,
      state: { row: $("row").value, tau: $("tau-text").value, slider: $("tau").value, tauText: $("tau-value").textContent,
        tauError: $("tau-error").hidden ? null : $("tau-error").textContent,
        mask: $("mask").checked, step: $("walk-step").textContent, tab: tab && tab.dataset.step,
        panel: $("walk-panel").dataset.step },
      stateError: $("state-error").hidden ? null : $("state-error-text").textContent,
      hash: location.hash, share: $("share-url").value, tables, heat, exactA,
      summary: $("summary").textContent, derivation: [...$("derivation").children].filter((c) => !c.classList.contains("stashed")).map((c) => c.textContent).join(""),
      checks: ($("checks-verdict") || {}).className || null, focus: document.activeElement.id,
      motionNote: !$("motion-note").hidden, playDisabled: $("walk-play").disabled,
      maskOffered: $("mask").offsetParent !== null,
      mistakes: [...document.querySelectorAll("#mistakes-table tbody tr")].map((tr) =>
        [...tr.children].map((c) => (c.firstChild && c.firstChild.nodeType === 1 ? c.firstChild.textContent : c.textContent))),
      qkvHeadings: ["Q", "K", "V"].map((n) => {
        const t = $("table-" + n);
        const a = t && t.closest("figure").querySelector("figcaption [data-tex]");
        return a ? a.dataset.tex : null;
      }),
    };
  });
}

// Every state of the controls (temperature x mask) once, the query row cycling so that every row
// is drawn too: no page error, no KaTeX error, and a derivation or the state's reason shown.
async function everyState(page) {
  return page.evaluate(async () => {
    const packed = document.getElementById("symattn-data").textContent.trim(); // gzip, base64
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const data = JSON.parse(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text());
    const taus = (data.temperatures || [{ key: null }]).map((t) => t.key);
    const masks = data.kind === "values" ? ["on", "off"] : [null];
    const states = taus.flatMap((tau) => masks.map((mask) => ({ tau, mask })));
    if (data.free) states.push(...masks.map((mask) => ({ tau: "1.234", mask }))); // float64 in the page
    const seen = [];
    const faces = {}; // the KaTeX face each typeset character is drawn in -> those characters
    const useOfFonts = () => {
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement.closest(".katex-html, .num") || !node.data.trim()) continue; // typeset, or a plain number set as KaTeX would
        const style = getComputedStyle(node.parentElement);
        const family = style.fontFamily.split(",")[0].trim().replace(/"/g, "");
        if (!family.startsWith("KaTeX_")) continue;
        const bold = Number(style.fontWeight) >= 600;
        const italic = style.fontStyle === "italic";
        const face = family + "-" + ((bold ? "Bold" : "") + (italic ? "Italic" : "") || "Regular");
        for (const c of node.data) if (c.trim()) (faces[face] = faces[face] || new Set()).add(c);
      }
    };
    for (let k = 0; k < Math.max(states.length, data.sizes.n_q); k++) {
      const { tau, mask } = states[k % states.length];
      const row = (k % data.sizes.n_q) + 1;
      const params = new URLSearchParams({ row });
      if (tau !== null) { params.set("tau", tau); params.set("mask", mask); }
      const changed = new Promise((r) => window.addEventListener("hashchange", () => setTimeout(r, 0), { once: true }));
      location.hash = params.toString();
      await changed; // the page's own hashchange listener has drawn the state
      while (document.body.dataset.pending) await new Promise((r) => setTimeout(r, 20)); // and the blocks below
      seen.push({ tau, mask, row, shownRow: document.getElementById("row").value,
        error: document.getElementById("state-error").hidden ? null : document.getElementById("state-error-text").textContent,
        katexErrors: document.querySelectorAll(".katex-error").length,
        withoutMathML: [...document.querySelectorAll(".katex")].filter((k) => !k.querySelector(".katex-mathml math")).length,
        derivationMath: document.querySelectorAll("#derivation > :not(.stashed) .katex").length,
        freeNote: document.querySelector("#derivation > :not(.stashed) .free-note") !== null });
      useOfFonts();
    }
    const declared = [...document.fonts].map((f) => f.family.replace(/"/g, "") + "/" + f.weight + "/" + f.style);
    return { seen, declared, faces: Object.fromEntries(Object.entries(faces).map(([f, cs]) => [f, [...cs].join("")])) };
  });
}

async function smoke(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, log } = await open(context, pathToFileURL(path.resolve(job.page)).href);
  const first = await observe(page);
  const every = first.error ? { seen: [], declared: [], faces: {} } : await everyState(page);
  if (job.screenshot) await page.screenshot({ path: job.screenshot, fullPage: true });
  await context.close();
  return { first, states: every.seen, declared: every.declared, faces: every.faces, log };
}

async function press(page, selector, key, times = 1) {
  await page.focus(selector);
  for (let k = 0; k < times; k++) await page.keyboard.press(key);
}

async function demo(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, log } = await open(context, pathToFileURL(path.resolve(job.page)).href);
  const out = { log, initial: await observe(page) };
  await page.selectOption("#row", "3");
  await page.check("#mask");
  out.row3Causal = await observe(page);
  await press(page, "#tau", "End");
  out.hottest = await observe(page);
  await press(page, "#tau", "Home");
  out.coldest = await observe(page);
  await page.uncheck("#mask");
  out.row3Open = await observe(page);
  await page.selectOption("#row", "1");
  out.row1Open = await observe(page);
  // a state to share: row 2, one slider step above 17/20, mask off, step 4 (by keyboard)
  await page.click(".tau-pick >> text='17/20'");
  await page.selectOption("#row", "2");
  await press(page, "#tau", "ArrowRight");
  await press(page, "#walk", "ArrowRight", 3);
  out.before = await observe(page);
  const shared = await context.newPage();
  const sharedLog = { pageErrors: [] };
  shared.on("pageerror", (e) => sharedLog.pageErrors.push(String(e)));
  await shared.goto(out.before.share);
  await ready(shared);
  await shared.reload();
  await ready(shared);
  out.restored = await observe(shared);
  out.sharedLog = sharedLog;
  // the walkthrough by keyboard: arrows on the panel, Home/End, Enter on the buttons, arrows on a tab
  const steps = [];
  await press(page, "#walk", "Home");
  steps.push((await observe(page)).state);
  await press(page, "#walk", "ArrowRight");
  steps.push((await observe(page)).state);
  await press(page, "#walk", "End");
  steps.push((await observe(page)).state);
  await press(page, "#walk-prev", "Enter");
  steps.push((await observe(page)).state);
  await press(page, "#walk-tab-1", "ArrowRight");
  const onTab = await observe(page);
  steps.push(Object.assign({ focus: onTab.focus }, onTab.state));
  out.steps = steps;
  await press(page, "#walk-tab-4", "Enter");
  // the button that disables itself at an end hands the focus to the other one
  await press(page, "#walk-next", "Enter");
  out.atEnd = await observe(page);
  await press(page, "#walk-tab-2", "Enter");
  await press(page, "#walk-prev", "Enter");
  out.atStart = await observe(page);
  await press(page, "#walk-tab-4", "Enter");
  out.normalMotion = await page.evaluate(() => ({
    barTransition: getComputedStyle(document.querySelector(".bar-fill") || document.body).transitionDuration,
  }));
  await context.close();
  if (job.screenshot) await screenshot(browser, Object.assign({ full: true }, job));
  return out;
}

// The page in the state of job.hash (default: the course's row 3, causal, tau = 17/20, step 4) as a
// PNG of the first screen (and of the whole page with job.full, beside it as NAME.full.png).
async function screenshot(browser, job) {
  const phone = Boolean(job.width && job.width < 700);
  const context = await browser.newContext({ viewport: job.width ? { width: job.width, height: job.height } : VIEWPORT,
    isMobile: phone, hasTouch: phone });
  const hash = job.hash || "row=3&tau=17%2F20&mask=on&step=4";
  const { page, log } = await open(context, pathToFileURL(path.resolve(job.page)).href + "#" + hash);
  await page.waitForTimeout(1200); // let the entrance animation and the bars finish
  await page.screenshot({ path: job.screenshot });
  if (job.full) await page.screenshot({ path: job.screenshot.replace(/\.png$/, ".full.png"), fullPage: true });
  await context.close();
  return { log, saved: job.screenshot };
}

// A free temperature: opened from a link, typed (fraction, a generated value, out of range), reset;
// with the time each control change takes (its handlers and the layout after them).
async function free(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, log } = await open(context, pathToFileURL(path.resolve(job.page)).href + "#row=3&tau=1.234&mask=on");
  const out = { log, linked: await observe(page) };
  const type = async (text) => {
    await page.fill("#tau-text", text);
    await page.press("#tau-text", "Enter");
    return observe(page);
  };
  out.fraction = await type("5/4");
  out.generated = await type("0.85");
  out.outside = await type("9");
  await page.click("#reset");
  out.reset = await observe(page);
  await context.close();
  return out;
}

// Time to usable (navigation start -> the page marks itself ready, controls drawn) over job.runs
// loads, optionally with the CPU slowed job.slowdown times; then the time each control change
// takes: its handlers run synchronously, so dispatch -> forced layout covers the redraw.
async function timing(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, url, loads } = await common.loadTimes(context, job);
  await page.goto(url + "#row=3&tau=17%2F20&mask=on&step=4");
  await ready(page);
  const changes = await common.changeTimes(page, false);
  const parts = await common.partTimes(page);
  await context.close();
  return { loads, changes, parts };
}

async function reduced(browser, job) {
  const context = await browser.newContext({ viewport: VIEWPORT, reducedMotion: "reduce" });
  const { page, log } = await open(context, pathToFileURL(path.resolve(job.page)).href + "#step=1");
  const out = { log, first: await observe(page) };
  await press(page, "#walk", "ArrowRight", 3);
  out.after = await observe(page);
  out.motion = await page.evaluate(() => ({
    barTransition: getComputedStyle(document.querySelector(".bar-fill")).transitionDuration,
    cellAnimation: getComputedStyle(document.querySelector("#walk-panel td")).animationName,
  }));
  await context.close();
  return out;
}

// "layout": row 3 at step 4 unless the job says otherwise
const layout = (browser, job) => common.layout(browser, job, { hash: "row=3&step=4" });

serve({ smoke, demo, reduced, screenshot, free, layout, timing });
