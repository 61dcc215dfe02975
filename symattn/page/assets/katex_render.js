// Render the math of a symattn course page with KaTeX at generation time, so the page needs no
// KaTeX script. Standard input: {"katex": DIR, "items": [{"tex": ..., "display": bool}, ...]},
// DIR holding node_modules/katex. Standard output: {"html": [...]} or {"error": ..., "index": N}.
"use strict";
const path = require("path");
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const request = JSON.parse(input);
  const katex = require(path.join(request.katex, "node_modules", "katex"));
  const html = [];
  for (const [index, item] of request.items.entries()) {
    try {
      html.push(katex.renderToString(item.tex, {
        displayMode: item.display, strict: "error", throwOnError: true, trust: false,
        maxSize: 20, maxExpand: 1000, output: "htmlAndMathml",
      }));
    } catch (error) {
      process.stdout.write(JSON.stringify({ error: String(error.message || error), index }));
      return;
    }
  }
  process.stdout.write(JSON.stringify({ html, version: katex.version }));
});
