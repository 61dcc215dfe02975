// Open built documentation pages (Sphinx with MathJax, MkDocs with KaTeX) in the system Chromium,
// headless, wait until their math is typeset, and print per page as JSON: how many math elements
// the generator wrote, how many the engine rendered, the engine's error nodes with their text, and
// the console errors (KaTeX: also the TeX each formula received). tests/test_sphinx_site.py and tests/test_mkdocs.py assert on it.
// Standard input: {"chromium": "/usr/bin/chromium", "pages": [{"name", "page", "engine"}, ...]}
// with engine "mathjax" or "katex".
"use strict";
const { chromium } = require("playwright-core");
const { pathToFileURL } = require("url");

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--allow-file-access-from-files"];

const TYPESET = {
  mathjax: () => window.MathJax && window.MathJax.startup && window.MathJax.startup.promise
    ? window.MathJax.startup.promise.then(() => true) : Promise.resolve(false),
  katex: () => !!window.katex && typeof window.renderMathInElement === "function",  // typeset on DOMContentLoaded
};

function observe(engine) {
  const count = (selector) => document.querySelectorAll(selector).length;
  const texts = (selector) => [...document.querySelectorAll(selector)].map((e) =>
    (e.getAttribute("data-mjx-error") || e.getAttribute("title") || e.textContent).slice(0, 200));
  if (engine === "mathjax") {
    return { written: count("div.math, span.math"), rendered: count("mjx-container"),
      errors: texts("mjx-merror") };
  }
  return { written: count(".arithmatex"), rendered: count(".arithmatex .katex"),
    errors: texts(".katex-error"),
    tex: [...document.querySelectorAll('.katex annotation[encoding="application/x-tex"]')]
      .map((e) => e.textContent),
    unrendered: [...document.querySelectorAll(".arithmatex")].filter((e) => !e.querySelector(".katex"))
      .map((e) => e.textContent.slice(0, 200)) };
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const { chromium: executable, pages } = JSON.parse(input);
  const browser = await chromium.launch({ executablePath: executable, args: ARGS });
  const out = {};
  try {
    for (const job of pages) {
      const page = await browser.newPage();
      const consoleErrors = [];
      page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
      page.on("pageerror", (e) => consoleErrors.push(String(e)));
      await page.goto(pathToFileURL(job.page).href);
      const typeset = await page.evaluate(TYPESET[job.engine]);
      out[job.name] = { typeset, ...(await page.evaluate(observe, job.engine)), console: consoleErrors };
      if (job.screenshot) await page.screenshot({ path: job.screenshot });  // the first screen
      await page.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => { console.error(e); process.exit(1); });
