// Render whole Markdown documents the way a math-aware Markdown site does, to know that symattn's
// Markdown renders as a whole and not only block by block.
//
// Input (standard input): a JSON list of Markdown documents (strings).
// Output (standard output): a JSON list, one object per document:
//   {html, errors, math, display, inline, rendered, leaks}
// - html: markdown-it (CommonMark, tables, raw HTML allowed) with @mdit/plugin-tex's `$..$` /
//   `$$..$$` rules (Pandoc's: an opening `$` is not followed by a space, a closing `$` is not
//   preceded by a space nor followed by a digit; `\$` is a literal dollar), every math token
//   rendered by the pinned KaTeX in strict mode with throwOnError, trust off and a maxSize.
// - errors: [{tex, display, line, message}] — KaTeX errors, plus display math that other
//   renderers would not read as one block: a blank line inside it (Python-Markdown/arithmatex and
//   Pandoc end the block there) or a `$$` that is never closed (it swallows the rest).
// - math, display, inline: how many math elements KaTeX rendered; rendered: [{tex, display}] of
//   each, in document order (tex as the plugin read it: a display block ends with a newline).
// - leaks: [{match, context, line, where, escaped}] — text left in the HTML outside KaTeX that
//   still looks like math: a `$`, `\(`, `\)`, `\[`, `\]`, a TeX control word such as `\frac` or
//   `\begin`, or a `_{` / `^{`. where is "text", "code" or "html". escaped is "escape" when the
//   character came from a Markdown backslash escape in the source (`\$`, or `\(` whose backslash
//   Markdown ate), "entity" when it came from an HTML entity, else null. Each is reported; the
//   caller decides which are legitimate.
"use strict";
const katex = require("katex");
const markdownit = require("markdown-it");

const LEAK = /\$|\\[()[\]]|\\[A-Za-z]+|[_^]\{/g;
const DELIMITERS = new Set(["$", "(", ")", "[", "]"]);
const CONTEXT = 30;

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

function render(tex, display, env, unclosed) {
  const line = env.line;
  try {
    if (unclosed) throw new Error("$$ display math is never closed (it runs to the end)");
    if (display && /\n[ \t]*\n/.test(tex.trim())) {
      throw new Error("blank line inside $$ display math (Python-Markdown/arithmatex and Pandoc "
                      + "end the block at a blank line)");
    }
    // The options of check.js (tests/test_injection.py checks every renderToString call).
    const html = katex.renderToString(tex, {
      displayMode: display, strict: "error", throwOnError: true, trust: false,
      maxSize: 20, maxExpand: 1000, output: "htmlAndMathml",
    });
    env.counts[display ? "display" : "inline"] += 1;
    env.rendered.push({ tex, display });
    return display ? `<div class="math-display">${html}</div>\n` : html;
  } catch (error) {
    env.errors.push({ tex, display, line, message: String(error.message || error) });
    const tag = display ? "pre" : "code";
    return `<${tag} class="math-error">${escapeHtml(tex)}</${tag}>${display ? "\n" : ""}`;
  }
}

// A run of consecutive text tokens of one inline (what becomes one HTML text node), keeping for
// each character whether a backslash escape or an entity produced it.
function textRuns(children) {
  const runs = [];
  let run = null;
  for (const token of children) {
    if (token.type === "text" || token.type === "text_special") {
      if (!run) { run = { text: "", origin: [] }; runs.push(run); }
      const origin = token.type === "text_special" ? token.info || "special" : null;
      run.text += token.content;
      for (let i = 0; i < token.content.length; i += 1) run.origin.push(origin);
    } else {
      run = null;
      if (token.type === "code_inline") runs.push({ text: token.content, where: "code" });
      if (token.type === "html_inline") runs.push({ text: token.content, where: "html" });
      if (token.children) runs.push(...textRuns(token.children));
    }
  }
  return runs;
}

function findLeaks(text, where, line, origin, leaks) {
  const matches = [];
  for (const m of text.matchAll(LEAK)) matches.push({ index: m.index, match: m[0] });
  if (origin) {
    // `\(` in Markdown is an escaped `(`: the backslash is gone from the HTML, the delimiter
    // is not math any more. Report those (and escaped `$`, `[`...) from their origin.
    origin.forEach((kind, index) => {
      if (kind && DELIMITERS.has(text[index]) && !(text[index] === "$" && matches.some(
        (m) => m.index === index))) {
        matches.push({ index, match: text[index] });
      }
    });
  }
  matches.sort((a, b) => a.index - b.index);
  for (const { index, match } of matches) {
    leaks.push({
      match: origin && origin[index] === "escape" && match.length === 1 && match !== "$"
        ? `\\${match}` : match,
      context: text.slice(Math.max(0, index - CONTEXT), index + match.length + CONTEXT),
      line, where, escaped: origin ? origin[index] : null,
    });
  }
}

// Before text_join merges escapes into plain text: list what looks like math outside math.
function leakRule(state) {
  const leaks = state.env.leaks;
  for (const token of state.tokens) {
    const line = token.map ? token.map[0] + 1 : null;
    if (token.type === "inline") {
      for (const run of textRuns(token.children || [])) {
        findLeaks(run.text, run.where || "text", line, run.origin || null, leaks);
      }
    } else if (token.type === "fence" || token.type === "code_block") {
      findLeaks(token.content, "code", line, null, leaks);
    } else if (token.type === "html_block") {
      findLeaks(token.content, "html", line, null, leaks);
    }
  }
}

// A `$$` block whose last line is not a closing `$$` was never closed.
function unclosedRule(state) {
  const lines = state.src.split("\n");
  for (const token of state.tokens) {
    if (token.type !== "math_block" || token.markup !== "$$" || !token.map) continue;
    const [first, end] = token.map;
    const last = (lines[end - 1] || "").trim();
    const closed = last.endsWith("$$") && (end - 1 > first || last.length >= 4);
    if (!closed) token.meta = { ...token.meta, unclosed: true };
  }
}

async function main() {
  const { tex } = await import("@mdit/plugin-tex");
  const md = markdownit({ html: true, linkify: false, typographer: false });
  md.use(tex, {
    delimiters: "dollars",
    allowInlineWithSpace: false,
    render: (content, display, env) => render(content, display, env, false),
  });
  md.core.ruler.after("block", "symattn_unclosed_math", unclosedRule);
  md.core.ruler.before("text_join", "symattn_math_leaks", leakRule);
  // Line numbers for errors: remember the source line of the token being rendered.
  for (const rule of ["math_inline", "math_block"]) {
    const original = md.renderer.rules[rule];
    md.renderer.rules[rule] = (tokens, idx, options, env, self) => {
      if (tokens[idx].map) env.line = tokens[idx].map[0] + 1;
      if (tokens[idx].meta && tokens[idx].meta.unclosed) {
        return render(tokens[idx].content, true, env, true);
      }
      return original(tokens, idx, options, env, self);
    };
  }
  const originalInline = md.renderer.renderInline.bind(md.renderer);
  md.renderer.render = function renderWithLines(tokens, options, env) {
    let out = "";
    for (let i = 0; i < tokens.length; i += 1) {
      const token = tokens[i];
      if (token.map) env.line = token.map[0] + 1;
      if (token.type === "inline") out += originalInline(token.children, options, env);
      else if (this.rules[token.type]) out += this.rules[token.type](tokens, i, options, env, this);
      else out += this.renderToken(tokens, i, options, env);
    }
    return out;
  };

  let input = "";
  process.stdin.setEncoding("utf8");  // a character split across two chunks stays whole
  for await (const chunk of process.stdin) input += chunk;
  const results = [];
  for (const source of JSON.parse(input)) {
    const env = { errors: [], leaks: [], rendered: [], counts: { display: 0, inline: 0 },
                  line: null };
    const html = md.render(source, env);
    results.push({ html, errors: env.errors, math: env.counts.display + env.counts.inline,
                   display: env.counts.display, inline: env.counts.inline,
                   rendered: env.rendered, leaks: env.leaks });
  }
  process.stdout.write(JSON.stringify(results));
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exitCode = 1;
});
