// The page's float64 attention (symattn/page/assets/script/float.js, the functions the page runs
// at a free temperature and on edited inputs) against symattn's own recomputation (symattn/numeric
// .py, mpmath at 30 digits, rounded once to float64), on the cases tests/test_page_script.py
// writes: each problem's page data (free: S, M, V; edit: the input entries; the generated state
// whose weights a row that reads no key takes) and the recomputed R, S, L, A, O at several
// temperatures and both mask states. Node's built-ins only:
//   SYMATTN_FLOAT_CASES=cases.json node --test tools/browser/float_attention.test.mjs
//
// Tolerance: |page - symattn| <= TOL * (|symattn| + size), size being what float64's rounding
// scales with: the same computation on absolute values (|Q||K|ᵀ for R, (|S| + |M|)/τ for L), and
// for A and O the row's largest such |L| as well (exp turns an absolute error of a logit into a
// relative error of its weight). float64 gives about 1e-16 of that (the worst on the corpus and
// the examples: 2.4e-16, a weight of 1.1e-206 whose plain relative error is 2e-13); TOL leaves
// 40 times that and no more.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const TOL = 1e-14;
const source = readFileSync(new URL("../../symattn/page/assets/script/float.js", import.meta.url));
// the module as the page has it (it imports nothing), loaded without a package.json of its own
const { floatAttention, scores, times } = await import("data:text/javascript;base64," + source.toString("base64"));
const cases = JSON.parse(readFileSync(process.env.SYMATTN_FLOAT_CASES, "utf8"));

const abs = (m) => m.map((row) => row.map((x) => (x === null ? 0 : Math.abs(x))));
const rowMax = (m) => m.map((row) => Math.max(0, ...row.filter(Number.isFinite)));

// every entry of a matrix within the tolerance (null: -inf, a masked entry)
function agree(actual, expected, size, where) {
  assert.equal(actual.length, expected.length, where + ": rows");
  expected.forEach((row, i) => {
    assert.equal(actual[i].length, row.length, `${where}: columns of row ${i + 1}`);
    row.forEach((want, j) => {
      const got = actual[i][j];
      const at = `${where}[${i + 1},${j + 1}]: page ${got}, symattn ${want}`;
      if (want === null) return assert.equal(got, -Infinity, at);
      assert.ok(Math.abs(got - want) <= TOL * (Math.abs(want) + size(i, j)), at);
    });
  });
}

// L, A, O from S, M, V at tau, each against symattn's; S's size as above
function attention(S, sizeS, M, V, tau, base, want, where) {
  const { L, A, O } = floatAttention(S, M, V, tau, base);
  const sizeL = sizeS.map((row, i) => row.map((s, j) => (s + (M[i][j] === null ? 0 : Math.abs(M[i][j]))) / tau));
  const top = rowMax(sizeL);
  agree(L, want.L, (i, j) => sizeL[i][j], where + " L");
  agree(A, want.A, (i, j) => want.A[i][j] * top[i], where + " A");
  const sizeO = times(abs(want.A), abs(V));
  agree(O, want.O, (i, c) => sizeO[i][c] * (1 + top[i]), where + " O");
  return { A, sizeO: sizeO.map((row, i) => row.map((x) => x * (1 + top[i]))), O };
}

// Q, K, V as the page computes them from the editor's entries (edit.js, editedInputs), each with
// its size
function inputs(given) {
  const value = (name) => given[name] && given[name].map((row) => row.map((entry) => entry[0]));
  if (!given.X) return ["Q", "K", "V"].map(value).map((m) => [m, abs(m)]);
  const X = value("X");
  const source = value("Y") || X;
  return ["W_Q", "W_K", "W_V"].map((w, k) => {
    const from = k ? source : X;
    return [times(from, value(w)), times(abs(from), abs(value(w)))];
  });
}

// R and S from the entries, with their sizes
function scored(head) {
  const [[Q, sizeQ], [K, sizeK], [V]] = inputs(head.edit);
  const [R, S] = scores(Q, K, head.edit.scale);
  const sizeR = scores(sizeQ, sizeK, 1)[0];
  return { R, S, V, sizeR, sizeS: sizeR.map((row) => row.map((r) => r * Math.abs(head.edit.scale))) };
}

test("the cases cover the page's float problems", () => {
  assert.ok(cases.length >= 20, `${cases.length} problems`);
});

for (const problem of cases) {
  test(problem.name, () => {
    for (const head of problem.heads) {
      const { R, S, V, sizeR, sizeS } = scored(head);
      for (const [mask, states] of Object.entries(head.expected)) {
        const M = head.free.M[mask];
        for (const want of states) {
          const where = `${problem.name}${head.label} mask ${mask} tau ${want.tau}`;
          // a free temperature: S and V as the page data gives them (float64 of the exact ones)
          attention(head.free.S, abs(head.free.S), M, head.free.V, want.tauValue, head.base[mask], want, where + " (free)");
          // edited inputs, none changed: R and S computed here from the entries, then L, A, O
          agree(R, want.R, (i, j) => sizeR[i][j], where + " (edit) R");
          agree(S, want.S, (i, j) => sizeS[i][j], where + " (edit) S");
          attention(S, sizeS, M, V, want.tauValue, head.base[mask], want, where + " (edit)");
        }
      }
    }
    if (problem.combine) { // multi-head: C from each head at its own state, then C W_O (editedCombine)
      const { W_O, heads, MHA } = problem.combine;
      const blocks = heads.map(({ index, mask, tau }) => {
        const head = problem.heads[index];
        const { S, V } = scored(head);
        const { L, A, O } = floatAttention(S, head.free.M[mask], V, tau, head.base[mask]);
        const top = rowMax(abs(L));
        return [O, times(A, abs(V)).map((row, i) => row.map((x) => x * (1 + top[i])))];
      });
      const C = blocks[0][0].map((_, i) => blocks.flatMap(([O]) => O[i]));
      const sizeC = blocks[0][0].map((_, i) => blocks.flatMap(([, size]) => size[i]));
      const size = times(sizeC, abs(W_O));
      agree(times(C, W_O), MHA, (i, c) => size[i][c], problem.name + " MultiHead(X)");
    }
  });
}
