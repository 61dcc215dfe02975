"""The words of a problem laid out in columns (Prince's book), in English and Chinese.

Each is the `_columns` twin of a phrase that says "row" (A's columns sum to 1 there), or a
mistake and formula a columns book names by the other axis.
"""

from __future__ import annotations

COLUMN_PHRASES: dict[str, dict[str, str]] = {
    "tb_tokens_columns": {"en": "; the columns belong to the tokens {labels}",
                          "zh": "；各列依次对应 token {labels}"},
    "tb_fully_masked_columns": {"en": "Column {rows} may read no key; by the policy its weights "
                                      "are {how}.",
                                "zh": "第 {rows} 列没有可读取的 key；按策略，其权重取{how}。"},
    "tb_projections_columns": {"en": "The queries, keys and values are projections of $X$, one "
                                     "column per token:",
                               "zh": "query、key、value 由 $X$ 线性投影得到，每列对应一个 token："},
    "tb_mask_causal-bottom-right_columns": {
        "en": ", with the causal mask aligned bottom-right ($i \\le j + n_k - n_q$)",
        "zh": "，使用右下对齐的因果掩码（$i \\le j + n_k - n_q$）"},
    "tb_mask_sets_causal_columns": {"en": "The causal mask sets $M_{{ij}} = -\\infty$ for $i > j$",
                                    "zh": "因果掩码把第 $j$ 列中 $i > j$ 的位置置为 $-\\infty$"},
    "tb_mask_sets_columns": {"en": "The mask sets $M_{{ij}} = -\\infty$ where query $j$ may not "
                                   "read key $i$",
                             "zh": "掩码把禁止读取的位置置为 $-\\infty$"},
    "tb_bias_sets_causal_columns": {"en": "The causal mask adds $M_{{ij}} = {bias}$ for $i > j$, "
                                          "not $-\\infty$",
                                    "zh": "因果掩码在第 $j$ 列中 $i > j$ 的位置加上 $M_{{ij}} = {bias}$，"
                                          "而不是 $-\\infty$"},
    "tb_bias_sets_columns": {"en": "The masks add $M_{{ij}} = {bias}$ where query $j$ may not "
                                   "read key $i$, not $-\\infty$",
                             "zh": "掩码在禁止读取的位置加上 $M_{{ij}} = {bias}$，而不是 $-\\infty$"},
    "tb_hidden_columns": {"en": "; a masked score is removed however large it is, even one larger "
                                "than every score its column may read: ${chain}$",
                          "zh": "；被屏蔽的分数无论多大都会被去掉，即使它大于该列所有可读取的分数："
                                "${chain}$"},
    "tb_hidden_bias_columns": {"en": "; a masked score is pushed far down however large it is, "
                                     "even one larger than every score its column may read: "
                                     "${chain}$",
                               "zh": "；被屏蔽的分数无论多大都会被压到极小，即使它大于该列所有可读取的"
                                     "分数：${chain}$"},
    "tb_logits_rows_columns": {"en": "the logits $L = ({sum})/\\tau$, with ${tau}$, are, column by "
                                     "column,",
                               "zh": "取 ${tau}$，逐列的 logits $L = ({sum})/\\tau$ 为"},
    "tb_logits_symbolic_columns": {"en": "the logits $L = ({sum})/\\tau$ are, column by column,",
                                   "zh": "逐列的 logits $L = ({sum})/\\tau$ 为"},
    "tb_logits_one_columns": {"en": "since $\\tau = 1$, the logits $L = {sum}$ are, column by "
                                    "column,",
                              "zh": "因为 $\\tau = 1$，逐列的 logits $L = {sum}$ 为"},
    "tb_exponentiate_columns": {"en": "Exponentiating each column", "zh": "逐列取指数"},
    "tb_exponentiate_one_columns": {"en": "Exponentiating the column", "zh": "对该列取指数"},
    "tb_sums_columns": {"en": "with sums {sums}; dividing each column by its sum",
                        "zh": "各列指数之和分别为 {sums}，逐列归一化"},
    "tb_sums_one_columns": {"en": "with sum {sums}; dividing the column by its sum",
                            "zh": "指数之和为 {sums}，除以该和归一化"},
    "tb_sums_named_columns": {"en": "with sums {sums}; dividing each column by its sum",
                              "zh": "各列指数之和分别记为 {sums}，逐列归一化"},
    "tb_sums_one_named_columns": {"en": "with sum {sums}; dividing the column by its sum",
                                  "zh": "指数之和记为 {sums}，除以该和归一化"},
    "tb_sums_display_columns": {"en": "Their sums are", "zh": "各列指数之和为"},
    "tb_normalise_columns": {"en": "Dividing each column by its sum", "zh": "逐列归一化"},
    "tb_normalise_one_columns": {"en": "Dividing the column by its sum", "zh": "除以该和归一化"},
    "tb_row_sums_columns": {"en": "The columns sum to 1: {sums}", "zh": "各列权重之和分别是 {sums}"},
    "tb_row_sums_one_columns": {"en": "The column sums to 1: {sums}", "zh": "该列权重之和为 {sums}"},
    "tb_row_sums_some_columns": {"en": "Columns {rows} sum to 1: {sums}. The other columns sum to "
                                       "exactly 1 too",
                                 "zh": "第 {rows} 列权重之和分别是 {sums}。其余各列权重之和也都精确为 1"},
    "tb_row_sums_some_one_columns": {"en": "Column {rows} sums to 1: {sums}. The other columns sum "
                                           "to exactly 1 too",
                                     "zh": "第 {rows} 列权重之和为 {sums}。其余各列权重之和也都精确为 1"},
    "tb_rows_exact_columns": {"en": "Every column sums to exactly 1", "zh": "每一列权重之和都精确为 1"},
    "tb_rows_exact_one_columns": {"en": "The column sums to exactly 1", "zh": "该列权重之和精确为 1"},
    "tb_shape_columns": {"en": "$V$ is ${d_v} \\times {n_k}$ and $A$ is ${n_k} \\times {n_q}$, so "
                               "$O$ is ${d_v} \\times {n_q}$.",
                         "zh": "$V$ 为 ${d_v} \\times {n_k}$、$A$ 为 ${n_k} \\times {n_q}$，故 $O$ 为 "
                               "${d_v} \\times {n_q}$。"},
    "tb_check_shapes_columns": {"en": "The shapes agree: $R$, $S$, $M$, $L$ and $A$ are ${n_k} "
                                      "\\times {n_q}$, and $O$ is ${d_v} \\times {n_q}$.",
                                "zh": "形状一致：$R$、$S$、$M$、$L$、$A$ 都是 ${n_k} \\times {n_q}$，"
                                      "$O$ 是 ${d_v} \\times {n_q}$。"},
    "tb_check_row_sums_columns": {"en": "Every column of $A$ sums to exactly 1.",
                                  "zh": "$A$ 的每一列之和精确为 1。"},
    "tb_check_output_bounds_columns": {"en": "Every output lies between the smallest and the "
                                             "largest value its column reads.",
                                       "zh": "每个输出都位于该列可读取 value 的最小值与最大值之间。"},
    "tb_check_permutation_columns": {"en": "Reversing the order of the queries reverses the "
                                           "columns of $O$, and reversing the keys together with "
                                           "their values leaves $O$ unchanged.",
                                     "zh": "倒转 query 的顺序，$O$ 的列随之倒转；key 与 value 一起"
                                           "倒转，$O$ 不变。"},
    "row_detail_columns": {"en": "Column {row} ({label}) step by step",
                           "zh": "第 {row} 列（{label}）逐步计算"},
    "row_detail_plain_columns": {"en": "Column {row} step by step", "zh": "第 {row} 列逐步计算"},
    "heads_text_columns": {"en": "{count} heads read the same input; each has its own "
                                 "projections, and head $k$'s output $O$ is written "
                                 "$\\text{{head}}_k$. The $h = {n}$ outputs are stacked along the "
                                 "feature axis and multiplied by $W_O$ from the left:",
                           "zh": "{count}个头读取同一输入，各有独立的投影矩阵；第 $k$ 个头的输出 $O$ "
                                 "记作 $\\text{{head}}_k$。$h = {n}$ 个头的输出沿特征轴纵向拼接后左乘 "
                                 "$W_O$："},
    "heads_split_columns": {"en": "As PyTorch's nn.MultiheadAttention splits them, the whole "
                                  "projections are split into $h = {h}$ heads: head $k$ takes its "
                                  "block of {d_k} rows of $W_Q$ and $W_K$ and {d_v} of $W_V$ (and "
                                  "the same entries of the biases), so its scale is "
                                  "$1/\\sqrt{{{d_k}}}$.",
                            "zh": "整体投影矩阵按 PyTorch 的 nn.MultiheadAttention 的方式拆分为 $h = {h}$ "
                                  "个头：第 $k$ 个头取 $W_Q$、$W_K$ 中对应的 {d_k} 行和 $W_V$ 中对应的 "
                                  "{d_v} 行（偏置取相同的分量），因此其缩放为 $1/\\sqrt{{{d_k}}}$。"},
    "heads_output_columns": {"en": "output = W_O Concat(heads): largest difference from mpmath "
                                   "{difference}",
                             "zh": "输出 = W_O Concat(heads)：与 mpmath 的最大差 {difference}"},
    "tb_bias_whole_rows_columns": {"en": "Column {rows} masks every key: the masks' ${bias}$ is "
                                         "added to all its logits and cancels in the softmax, so "
                                         "its weights are the softmax of its scores.",
                                   "zh": "第 {rows} 列的所有 key 都被掩码：${bias}$ 加到该列每个 "
                                         "logit 上，在 softmax 中相互抵消，所以其权重就是其分数的 "
                                         "softmax。"},
    "tb_check_masked_small_none_columns": {"en": "No key is masked in a column that reads another "
                                                 "key.",
                                           "zh": "没有哪个被掩码的 key 与可读取的 key 在同一列。"},
    "detail_masked_small_rows_columns": {
        "en": "{count} masked entries, each below 10^-{below}{at}; column(s) {rows} mask every key: "
              "the softmax of their scores",
        "zh": "{count} 个被掩码的位置，每个都小于 10^-{below}{at}；第 {rows} 列所有 key 都被掩码，"
              "权重为其分数的 softmax"},
    "detail_masked_small_none_columns": {"en": "no key masked in a column that reads another",
                                         "zh": "没有与可读取 key 同列的被掩码 key"},
    "check_name_row_sums_columns": {"en": "columns of A sum to 1", "zh": "A 的每列之和为 1"},
    "detail_shapes_ok_columns": {"en": "R, S, M, L, A are {n_k}x{n_q}; O is {d_v}x{n_q}",
                                 "zh": "R、S、M、L、A 为 {n_k}x{n_q}；O 为 {d_v}x{n_q}"},
    "detail_rows_bad_columns": {"en": "column(s) {rows} do not", "zh": "第 {rows} 列之和不为 1"},
    "detail_rows_undecided_columns": {"en": "not decided for column(s) {rows}",
                                      "zh": "第 {rows} 列无法判定"},
    "detail_rows_ok_columns": {"en": "all {count} column(s), exactly",
                               "zh": "全部 {count} 列，精确成立"},
    "detail_rows_ok_zero_columns": {
        "en": "all {count} column(s), exactly (fully masked columns {rows} sum to 0 by policy)",
        "zh": "全部 {count} 列，精确成立（完全被掩码的第 {rows} 列按策略之和为 0）"},
    "detail_permutation_ok_columns": {
        "en": "reversing the queries reverses the columns of O; reversing keys with values "
              "leaves O unchanged; exactly",
        "zh": "倒转 query 的顺序，O 的列随之倒转；key 与 value 一起倒转，O 不变；精确成立"},
    "remark_row_sum_columns": {"en": "no weights can be right here: the weights given for column "
                                     "{0} sum to {1}, not 1",
                               "zh": "这组权重不可能正确：第 {0} 列给出的权重之和为 {1}，不是 1"},
    "remark_outside_hull_columns": {"en": "no weights give this output: column {0} lies outside "
                                          "every weighting of the values its query may read",
                                    "zh": "任何权重都得不到这个输出：第 {0} 列不在该 query 可读取的 "
                                          "value 的任何加权平均之内"},
    "formula_mask_after_softmax_columns": {
        "en": "A'_ij = softmax(L without M)_ij where readable, else 0; columns no longer sum to 1",
        "zh": "A'_ij = 不加 M 的 softmax(L)_ij，被屏蔽处置 0；各列权重之和不再为 1"},
    "formula_swap_kv_columns": {"en": "R' = Vᵀ Q, O' = K A'", "zh": "R' = Vᵀ Q，O' = K A'"},
    "formula_sum_normalised_columns": {
        "en": "A'_ij = L_ij / Σ_r L_rj over the readable keys (no exp)",
        "zh": "A'_ij = L_ij / Σ_r L_rj（只对可读取的 key 求和，不取 exp）"},
}
"""The `_columns` twins, chosen by derivation.orientation.said() for a problem laid out in
columns; tests/test_conventions.py finds no row word in a columns derivation."""

MIRRORED_MISTAKES: dict[str, dict[str, str]] = {
    "mistake_rows": {"en": "softmax over rows", "zh": "沿行做 softmax"},
    "formula_rows": {"en": "A'_ij = exp(L_ij) / Σ_c exp(L_ic) (normalised along row i)",
                     "zh": "A'_ij = exp(L_ij) / Σ_c exp(L_ic)（沿第 i 行归一化）"},
}
"""The wrong axis of a columns book: its mistake is softmax over rows (answers.book)."""
