// The course page embedded as courses embed it, served over HTTP: each host page is opened, the
// lab's row and step are changed in its frame (or at the top), and what happened is read back:
// the host's address, the frame's, how many frames there are (a host loaded into its own frame
// is one more), the share field and Copy, and the frame's height.
//   node tools/browser/check_embed.js CHROMIUM '{"name": "http://127.0.0.1:PORT/host.html", ...}'
// prints {name: observations} as JSON; tests/test_embed.py asserts on it.
"use strict";
const { chromium } = require("playwright-core");
const { ARGS } = require("./common");

async function labFrame(page) { // the frame (or the page) that holds the lab, once it is ready
  for (let tries = 0; tries < 300; tries++) {
    for (const frame of page.frames()) {
      const ready = await frame.evaluate(() => document.body && document.body.dataset.ready === "1").catch(() => false);
      if (ready) return frame;
    }
    await page.waitForTimeout(50);
  }
  throw new Error("no lab became ready in " + page.url());
}

async function embed(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  const host = page.url();
  let frame = await labFrame(page);
  const before = frame.url();
  await frame.selectOption("#row", "1");
  await frame.click("#walk-tab-3");
  await page.waitForTimeout(400); // a navigation, if the change caused one, has started by now
  await page.waitForLoadState("load");
  frame = await labFrame(page);
  const out = { host, hostAfter: page.url(), before, after: frame.url(), frames: page.frames().length, errors };
  Object.assign(out, await frame.evaluate(() => ({
    row: document.getElementById("row").value,
    share: document.getElementById("share-url").value,
    sharePlaceholder: document.getElementById("share-url").placeholder,
    copyDisabled: document.getElementById("copy-link").disabled,
    pageHeight: document.documentElement.scrollHeight,
  })));
  out.frameHeight = await page.evaluate(() => {
    const box = document.querySelector("iframe");
    return box ? box.getBoundingClientRect().height : null;
  });
  out.windowHeight = await page.evaluate(() => innerHeight);
  await context.close();
  return out;
}

async function main() {
  const [executable, hostsJson] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: executable, args: ARGS, headless: true });
  const results = {};
  try {
    for (const [name, url] of Object.entries(JSON.parse(hostsJson))) results[name] = await embed(browser, url);
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(results));
}
main().catch((error) => { console.error(error); process.exit(1); });
