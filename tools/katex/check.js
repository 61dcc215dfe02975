// Render every math expression given on standard input (a JSON list of {tex, display}) with KaTeX
// in strict mode, throwOnError, trust off and a maxSize; print a JSON list of errors (empty = ok).
"use strict";
const katex = require("katex");
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const errors = [];
  for (const [index, item] of JSON.parse(input).entries()) {
    try {
      katex.renderToString(item.tex, {
        displayMode: item.display, strict: "error", throwOnError: true, trust: false,
        maxSize: 20, maxExpand: 1000, output: "htmlAndMathml",
      });
    } catch (error) {
      errors.push({ index, message: String(error.message || error) });
    }
  }
  process.stdout.write(JSON.stringify(errors));
});
