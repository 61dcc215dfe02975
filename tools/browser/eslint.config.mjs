// eslint for the course page's script (symattn/page/assets/script/*.js, ES modules that
// symattn/page/build.py joins into one script) and its loader: every name is declared or imported
// (no-undef), nothing is declared and never used (no-unused-vars), no imported binding is assigned
// (what changes lives in the one `state` object). Run by tests/test_page_script.py as
//   tools/browser/node_modules/.bin/eslint -c tools/browser/eslint.config.mjs <files>
// from the repository's root. The browser's names the page uses are listed, not taken wholesale.
const browser = Object.fromEntries([
  "atob", "Blob", "cancelAnimationFrame", "clearInterval", "Event", "DecompressionStream", "document", "Element", "history", "IntersectionObserver", "ResizeObserver",
  "location", "navigator", "performance", "requestAnimationFrame", "Response", "setInterval", "setTimeout",
  "URLSearchParams", "window",
].map((name) => [name, "readonly"]));
const rules = { "no-undef": "error", "no-unused-vars": "error", "no-import-assign": "error", "no-redeclare": "error" };

export default [
  { files: ["symattn/page/assets/script/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: browser }, rules },
  { files: ["symattn/page/assets/loader.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: browser }, rules },
  { files: ["tools/browser/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { process: "readonly", URL: "readonly" } }, rules },
];
