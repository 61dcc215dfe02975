"""The words of the course page's seven-step hand check, in English and Chinese: what to do at
each step and its answer (symattn/page/handcheck.py and the page script fill them)."""

from __future__ import annotations

from .registry import Same

HAND_PHRASES: dict[str, dict[str, str] | Same] = {
    "hand_title": {"en": "Check by hand first", "zh": "先动手复核"},
    "hand_note": {"en": "Do each step on paper first, then reveal its answer. The steps and answers "
                        "follow the current query row, temperature and mask: {state}.",
                  "zh": "每一步先在纸上完成，再展开答案。步骤与答案随当前 query 行、温度与掩码变化：{state}。"},
    "hand_state": {"en": "query row {row} ({label}), τ = {tau}",
                   "zh": "第 {row} 个 query（{label}），τ = {tau}"},
    "hand_separator": Same("item_separator"),
    "hand_reveal": {"en": "Answer", "zh": "答案"},
    "hand_columns": {"en": "In the tables Q, K and V, count the columns, and find the row of the "
                           "current query, {label}.",
                     "zh": "在 Q、K、V 表中核对列数，并找到当前 query“{label}”所在的行。"},
    "hand_columns_answer": {"en": "Q, K and V have {d_k}, {d_k} and {d_v} columns (Q and K share "
                                  "d_k = {d_k}); {label} is row {row}.",
                            "zh": "Q、K、V 的列数为 {d_k}、{d_k}、{d_v}（Q 与 K 共享 d_k = {d_k}）；"
                                  "“{label}”是第 {row} 行。"},
    "hand_columns_plain": {"en": "In the tables Q, K and V, count the columns, and find the row of "
                                 "the current query.",
                           "zh": "在 Q、K、V 表中核对列数，并找到当前 query 所在的行。"},
    "hand_columns_plain_answer": {"en": "Q, K and V have {d_k}, {d_k} and {d_v} columns (Q and K "
                                        "share d_k = {d_k}); the current query is row {row}.",
                                  "zh": "Q、K、V 的列数为 {d_k}、{d_k}、{d_v}（Q 与 K 共享 d_k = {d_k}）；"
                                        "当前 query 是第 {row} 行。"},
    "hand_scores": {"en": "Take the dot product of row {row} of Q with each row of K, and check "
                          "the cells in columns {cells} of row {row} of QKᵀ (the table R).",
                    "zh": "用 Q 的第 {row} 行与 K 的每一行做点积，抽查 QKᵀ（表 R）第 {row} 行第 {cells} 列的单元。"},
    "hand_scores_answer": {"en": "{cells}", "zh": "{cells}"},
    "hand_scaled": {"en": "Divide those cells by {by} and compare them with the scaled-score table "
                          "S: here the divisor is √d_k, not the temperature.",
                    "zh": "把抽查结果除以 {by}，与缩放分数表 S 比较：这里除以 √d_k，不能用温度代替。"},
    "hand_scaled_answer": {"en": "{cells}", "zh": "{cells}"},
    "hand_scaled_by": {"en": "Multiply those cells by the problem's scale {by} and compare them "
                             "with the scaled-score table S: the temperature does not enter here.",
                       "zh": "把抽查结果乘以本题的缩放系数 {by}，与缩放分数表 S 比较：这里不涉及温度。"},
    "hand_scaled_by_answer": {"en": "{cells}", "zh": "{cells}"},
    "hand_mask": {"en": "Read row {row} of the mask M in this state: which cells are −∞, and why?",
                  "zh": "读出当前状态下掩码 M 的第 {row} 行：哪些单元为 −∞，为什么？"},
    "hand_mask_answer": {"en": "Row {row} of M is {M}. Blocked, with weight exactly 0: {keys}.",
                         "zh": "M 的第 {row} 行为 {M}。被禁止、权重精确为 0 的 key：{keys}。"},
    "hand_mask_none_answer": {"en": "Row {row} of M is {M}: without a mask every cell of M is 0 "
                                    "and every key may be read.",
                              "zh": "M 的第 {row} 行为 {M}：关闭掩码时 M 全为零，每个 key 都可读取。"},
    "hand_mask_open_answer": {"en": "Row {row} of M is {M}: query {row} may read every key.",
                              "zh": "M 的第 {row} 行为 {M}：第 {row} 个 query 可读取全部 key。"},
    "hand_logits": {"en": "In the logits table L, check that an allowed cell is the scaled score "
                          "(plus its mask entry) divided by {tau}, and that a masked cell stays −∞.",
                    "zh": "在 logits 表 L 中核对：允许位置等于缩放分数（加上掩码项）除以 {tau}，禁止位置仍为 −∞。"},
    "hand_logits_answer": {"en": "{cells}", "zh": "{cells}"},
    "hand_softmax": {"en": "Apply a stable softmax to row {row} of L (subtract the row's largest "
                           "logit before taking exponentials); round the weights to {places} places "
                           "and add them up.",
                     "zh": "对 L 的第 {row} 行执行稳定 softmax（先减去该行最大的 logit 再取指数）；"
                           "把权重舍入到 {places} 位小数并相加。"},
    "hand_softmax_answer": {"en": "The weights are {weights}; the rounded weights add up to {sum}.",
                            "zh": "权重为 {weights}；舍入后的权重相加为 {sum}。"},
    "hand_softmax_rounding_answer": {"en": "The weights are {weights}; the rounded weights add up "
                                           "to {sum}, not 1: each is rounded on its own, and the "
                                           "exact weights sum to exactly 1.",
                                     "zh": "权重为 {weights}；舍入后的权重相加为 {sum} 而不是 1：每个数各自舍入，"
                                           "未舍入的精确权重之和恰为 1。"},
    "hand_softmax_exact_answer": {"en": "The weights are {weights}; they sum to exactly 1.",
                                  "zh": "权重为 {weights}；其和精确为 1。"},
    "hand_outputs": {"en": "Multiply these weights by the rows of V, check two components of row "
                           "{row} of the output O, and give the shape of O.",
                     "zh": "用这行权重乘 V 的各行，抽查输出 O 第 {row} 行的两个分量，并写出 O 的形状。"},
    "hand_outputs_answer": {"en": "{cells}; O is {n_q} × {d_v}.",
                            "zh": "{cells}；O 为 {n_q} × {d_v}。"},
    "hand_outputs_rounding_answer": {"en": "{cells}; O is {n_q} × {d_v}. With the weights rounded "
                                           "as shown, the sums come to {sums} instead: the table "
                                           "computes O from the unrounded weights.",
                                     "zh": "{cells}；O 为 {n_q} × {d_v}。按所示舍入后的权重相加，结果为 "
                                           "{sums}：表中的 O 由未舍入的权重算出。"},
}
"""Key -> language -> text, registered with the page's words (as page.hand_*)."""
