// ---- float64 attention: what the page computes at a free temperature or with edited inputs --
// (no DOM: tools/browser/float_attention.test.mjs runs it against symattn's own recomputation)
// a b in float64, each sum from its first term on
export function times(a, b) {
  return a.map((row) => b[0].map((_, c) => row.reduce((sum, x, k) => sum + x * b[k][c], 0)));
}
// R = QK^T and S = sR in float64
export function scores(Q, K, scale) {
  const R = Q.map((q) => K.map((k) => q.reduce((sum, x, c) => sum + x * k[c], 0)));
  return [R, R.map((row) => row.map((r) => r * scale))];
}
// L = (S + M) / tau, A = softmax(L), O = AV in float64; a row that reads no key takes the
// weights of the generated state `base` (the row's policy)
export function floatAttention(S, M, V, tau, base) {
  const L = S.map((row, i) => row.map((s, j) => (M[i][j] === null ? -Infinity : (s + M[i][j]) / tau)));
  const A = L.map((row, i) => {
    const top = Math.max(...row);
    if (top === -Infinity) return base.weights ? base.weights[i].map(Number) : row.map(() => 0);
    const e = row.map((l) => Math.exp(l - top));
    const z = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / z);
  });
  return { L, A, O: times(A, V) };
}
