"""The words of a textbook derivation (the lesson's Example 2 is the model), English and Chinese
with the course's vocabulary and full-width punctuation."""

from __future__ import annotations

TEXTBOOK_PHRASES: dict[str, dict[str, str]] = {
    "tb_take": {"en": "Take ", "zh": "取 "},
    "tb_temperature": {"en": "the temperature ", "zh": "温度 "},
    "tb_take_no_scale": {"en": "no scaling ($s = 1$)", "zh": "不缩放（$s = 1$）"},
    "tb_take_scale": {"en": "the scale factor $s = {s}$", "zh": "缩放因子 $s = {s}$"},
    "tb_symbols": {"en": ", the answer in terms of the symbols {symbols}",
                   "zh": "，答案用符号 {symbols} 表示"},
    "summary_lead": {"en": "The stages:", "zh": "各阶段："},
    "summary_names": {"en": "Here {names}.", "zh": "其中 {names}。"},
    "summary_names_below": {"en": "Here:", "zh": "其中："},
    "tb_and": {"en": " and ", "zh": "、"},
    "tb_comma": {"en": ", ", "zh": "、"},
    "tb_colon": {"en": ":", "zh": "："},
    "tb_period": {"en": ".", "zh": "。"},
    "tb_semicolon": {"en": "; ", "zh": "；"},
    "tb_mask_none": {"en": ", without a mask", "zh": "，不使用掩码"},
    "tb_mask_causal": {"en": ", with the causal mask", "zh": "，使用因果掩码"},
    "tb_mask_causal-bottom-right": {
        "en": ", with the causal mask aligned bottom-right ($j \\le i + n_k - n_q$)",
        "zh": "，使用右下对齐的因果掩码（$j \\le i + n_k - n_q$）"},
    "tb_mask_keep": {"en": ", with the boolean mask given", "zh": "，使用给定的布尔掩码"},
    "tb_mask_lengths": {"en": ", with padding: query $i$ reads only its first $\\ell_i$ keys, "
                              "$\\ell = ({lengths})$",
                        "zh": "，使用填充掩码：第 $i$ 个 query 只读取前 $\\ell_i$ 个 key，"
                              "$\\ell = ({lengths})$"},
    "tb_mask_bias": {"en": ", with the bias $B$ added to the scaled scores",
                     "zh": "，缩放分数上另加偏置 $B$"},
    "tb_tokens": {"en": "; the rows belong to the tokens {labels}",
                  "zh": "；各行依次对应 token {labels}"},
    "tb_tokens_cross": {"en": "; the queries belong to {labels} and the keys to {keys}",
                        "zh": "；query 依次对应 {labels}，key 依次对应 {keys}"},
    "tb_fully_masked": {"en": "Row {rows} may read no key; by the policy its weights are {how}.",
                        "zh": "第 {rows} 行没有可读取的 key；按策略，其权重取{how}。"},
    "tb_projections": {"en": "The queries, keys and values are projections of $X$, one row per "
                             "token:",
                       "zh": "query、key、value 由 $X$ 线性投影得到，每行对应一个 token："},
    "tb_projections_cross": {"en": "The queries are projections of $X$, the keys and values of "
                                   "$Y$:",
                             "zh": "query 由 $X$ 投影得到，key 与 value 由 $Y$ 投影得到："},
    "tb_given_R": {"en": "the problem gives the raw scores $R$ and the values $V$",
                   "zh": "本题直接给出原始分数 $R$ 与 value 矩阵 $V$"},
    "tb_given_S": {"en": "the problem gives the scaled scores $S$ and the values $V$",
                   "zh": "本题直接给出缩放分数 $S$ 与 value 矩阵 $V$"},
    "tb_given_L": {"en": "the problem gives the logits $L$ and the values $V$",
                   "zh": "本题直接给出 logits $L$ 与 value 矩阵 $V$"},
    "tb_scale_one": {"en": "Because $\\sqrt{{d_k}} = 1$, scaling leaves the raw scores unchanged",
                     "zh": "因为 $\\sqrt{{d_k}} = 1$，缩放不改变原始分数"},
    "tb_scale_root": {"en": "The raw scores, divided by $\\sqrt{{d_k}} = {root}$, give the scaled "
                            "scores",
                      "zh": "原始分数除以 $\\sqrt{{d_k}} = {root}$ 得到缩放分数"},
    "tb_scale_given": {"en": "The raw scores, multiplied by the given scale $s = {s}$, give the "
                             "scaled scores",
                       "zh": "原始分数乘以给定的缩放因子 $s = {s}$ 得到缩放分数"},
    "tb_scale_none": {"en": "The problem asks for no scaling (scale factor $s = 1$), so the "
                            "scaled scores are the raw scores",
                      "zh": "本题不缩放（缩放因子 $s = 1$），缩放分数等于原始分数"},
    "tb_same_logits": {"en": "; with no mask and $\\tau = 1$ they are also the logits",
                       "zh": "；无掩码且 $\\tau = 1$，它们也就是 logits"},
    "tb_write": {"en": "; write {names}", "zh": "；记 {names}"},
    "tb_with": {"en": ", with {names},", "zh": "，记 {names}，"},
    "tb_mask_sets_causal": {"en": "The causal mask sets $M_{{ij}} = -\\infty$ for $j > i$",
                            "zh": "因果掩码把第 $i$ 行中 $j > i$ 的位置置为 $-\\infty$"},
    "tb_mask_sets": {"en": "The mask sets $M_{{ij}} = -\\infty$ where query $i$ may not read key "
                           "$j$",
                     "zh": "掩码把禁止读取的位置置为 $-\\infty$"},
    "tb_mask_matrix": {"en": "The mask is", "zh": "掩码为"},
    "tb_hidden": {"en": "; a masked score is removed however large it is, even one larger than "
                        "every score its row may read: ${chain}$",
                  "zh": "；被屏蔽的分数无论多大都会被去掉，即使它大于该行所有可读取的分数：${chain}$"},
    "tb_hidden_bias": {"en": "; a masked score is pushed far down however large it is, even one "
                             "larger than every score its row may read: ${chain}$",
                       "zh": "；被屏蔽的分数无论多大都会被压到极小，即使它大于该行所有可读取的分数："
                             "${chain}$"},
    "tb_logits_rows": {"en": "the logits $L = ({sum})/\\tau$, with ${tau}$, are, row by row,",
                       "zh": "取 ${tau}$，逐行的 logits $L = ({sum})/\\tau$ 为"},
    "tb_logits_symbolic": {"en": "the logits $L = ({sum})/\\tau$ are, row by row,",
                           "zh": "逐行的 logits $L = ({sum})/\\tau$ 为"},
    "tb_logits_one": {"en": "since $\\tau = 1$, the logits $L = {sum}$ are, row by row,",
                      "zh": "因为 $\\tau = 1$，逐行的 logits $L = {sum}$ 为"},
    "tb_logits_plain": {"en": "Dividing by ${tau}$ gives the logits",
                        "zh": "除以 ${tau}$ 得到 logits"},
    "tb_exponentiate": {"en": "Exponentiating each row", "zh": "逐行取指数"},
    "tb_exponentiate_one": {"en": "Exponentiating the row", "zh": "对该行取指数"},
    "tb_minus_infinity": {"en": " ($e^{{-\\infty}} = 0$)", "zh": "（$e^{{-\\infty}} = 0$）"},
    "tb_gives": {"en": " gives", "zh": "得到"},
    "tb_gives_sums": {"en": " gives the sums", "zh": "，得到的指数之和为"},
    "tb_gives_sums_one": {"en": " gives the sum", "zh": "，得到的指数之和为"},
    "tb_sums": {"en": "with sums {sums}; dividing each row by its sum",
                "zh": "各行指数之和分别为 {sums}，逐行归一化"},
    "tb_sums_one": {"en": "with sum {sums}; dividing the row by its sum",
                    "zh": "指数之和为 {sums}，除以该和归一化"},
    "tb_sums_named": {"en": "with sums {sums}; dividing each row by its sum",
                      "zh": "各行指数之和分别记为 {sums}，逐行归一化"},
    "tb_sums_one_named": {"en": "with sum {sums}; dividing the row by its sum",
                          "zh": "指数之和记为 {sums}，除以该和归一化"},
    "tb_gives_weights": {"en": " gives", "zh": "得到"},
    "tb_sums_display": {"en": "Their sums are", "zh": "各行指数之和为"},
    "tb_sums_display_one": {"en": "Its sum is", "zh": "指数之和为"},
    "tb_normalise": {"en": "Dividing each row by its sum", "zh": "逐行归一化"},
    "tb_normalise_one": {"en": "Dividing the row by its sum", "zh": "除以该和归一化"},
    "tb_row_sums": {"en": "The rows sum to 1: {sums}", "zh": "各行权重之和分别是 {sums}"},
    "tb_row_sums_one": {"en": "The row sums to 1: {sums}", "zh": "该行权重之和为 {sums}"},
    "tb_named_sum": {"en": "\x00", "zh": "记 \x00"},
    "tb_row_sums_some": {"en": "Rows {rows} sum to 1: {sums}. The other rows sum to exactly 1 too",
                         "zh": "第 {rows} 行权重之和分别是 {sums}。其余各行权重之和也都精确为 1"},
    "tb_row_sums_some_one": {"en": "Row {rows} sums to 1: {sums}. The other rows sum to exactly 1 "
                                   "too",
                             "zh": "第 {rows} 行权重之和为 {sums}。其余各行权重之和也都精确为 1"},
    "tb_rounded": {"en": "The exact values from here on have more digits than a line holds (their "
                         "decimals do not end within 15 digits): each is written to {places} places, "
                         "marked $\\approx$. The exact values are kept; the checks below are made "
                         "on them.",
                   "zh": "以下各值的精确形式位数太多，一行写不下（其小数在 15 位以内不终止）："
                         "每个值保留 {places} 位小数，记作 $\\approx$。精确值仍然保留，下面的检验"
                         "都基于精确值。"},
    "tb_rows_exact": {"en": "Every row sums to exactly 1", "zh": "每一行权重之和都精确为 1"},
    "tb_rows_exact_one": {"en": "The row sums to exactly 1", "zh": "该行权重之和精确为 1"},
    "tb_masked_zero": {"en": "; every masked weight is exactly 0.",
                       "zh": "，所有被掩码位置的权重恰为零。"},
    "tb_output": {"en": "The output is", "zh": "输出为"},
    "tb_example": {"en": "For example, ", "zh": "例如，"},
    "tb_shape": {"en": "$A$ is ${n_q} \\times {n_k}$ and $V$ is ${n_k} \\times {d_v}$, so $O$ is "
                       "${n_q} \\times {d_v}$.",
                 "zh": "$A$ 为 ${n_q} \\times {n_k}$、$V$ 为 ${n_k} \\times {d_v}$，故 $O$ 为 "
                       "${n_q} \\times {d_v}$。"},
    "tb_decimals": {"en": "Decimals are rounded to {places} places.",
                    "zh": "小数保留 {places} 位。"},
    "tb_scientific": {"en": "Decimals are rounded to {places} places; a non-zero value that would "
                            "round to 0 is written in scientific form.",
                      "zh": "小数保留 {places} 位；会舍入为 0 的非零值用科学记数法表示。"},
    "tb_checks_all": {"en": "All {count} checks pass.", "zh": "全部 {count} 项核对均通过。"},
    "tb_checks_some": {"en": "{failed} of {count} checks do not pass.",
                       "zh": "{count} 项核对中有 {failed} 项未通过。"},
    "tb_checks_some_named": {"en": "{n} of {count} checks do not pass: {names}.",
                             "zh": "{count} 项核对中有 {n} 项未通过：{names}。"},
    "tb_checks_undecided_named": {"en": "{n} of {count} checks could not be decided: {names}.",
                                  "zh": "{count} 项核对中有 {n} 项无法判定：{names}。"},
    "tb_checks_undecided": {"en": "{undecided} of {count} checks could not be decided; the "
                                  "others pass.",
                            "zh": "{count} 项核对中有 {undecided} 项无法判定，其余均通过。"},
    "tb_check_shapes": {"en": "The shapes agree: $R$, $S$, $M$, $L$ and $A$ are ${n_q} \\times "
                              "{n_k}$, and $O$ is ${n_q} \\times {d_v}$.",
                        "zh": "形状一致：$R$、$S$、$M$、$L$、$A$ 都是 ${n_q} \\times {n_k}$，"
                              "$O$ 是 ${n_q} \\times {d_v}$。"},
    "tb_check_row_sums": {"en": "Every row of $A$ sums to exactly 1.",
                          "zh": "$A$ 的每一行之和精确为 1。"},
    "tb_check_masked_zero": {"en": "All {count} masked weights are exactly 0.",
                             "zh": "全部 {count} 个被掩码位置的权重精确为 0。"},
    "tb_check_masked_none": {"en": "No weight is masked.", "zh": "没有被掩码的权重。"},
    "tb_check_nonnegative": {"en": "Every weight is non-negative.", "zh": "所有权重都非负。"},
    "tb_check_output_bounds": {"en": "Every output lies between the smallest and the largest value "
                                     "its row reads.",
                               "zh": "每个输出都位于该行可读取 value 的最小值与最大值之间。"},
    "tb_check_numeric": {"en": "An independent {digits}-digit computation with mpmath gives the "
                               "same values{at}; the largest difference is ${difference}$.",
                         "zh": "独立的 {digits} 位 mpmath 数值计算给出相同的值{at}，最大差为 "
                               "${difference}$。"},
    "tb_at": {"en": " at the sample point ${values}$", "zh": "，取样本点 ${values}$"},
    "tb_check_permutation": {"en": "Reversing the order of the queries reverses the rows of $O$, "
                                   "and reversing the keys together with their values leaves $O$ "
                                   "unchanged.",
                             "zh": "倒转 query 的顺序，$O$ 的行随之倒转；key 与 value 一起倒转，"
                                   "$O$ 不变。"},
    "tb_check_failed": {"en": "The check “{name}” does not pass: {detail}.",
                        "zh": "核对“{name}”未通过：{detail}。"},
    "tb_check_undecided": {"en": "The check “{name}” is {detail}.",
                           "zh": "核对“{name}”{detail}。"},
    "tb_numerically": {"en": " ({count} of them numerically, to {digits} digits{at})",
                       "zh": "（其中 {count} 个为数值判定，{digits} 位{at}）"},
    "wk_dots": {"en": "The dot products of $\\mathbf q_{{{row}}}$ with each key:",
                "zh": "$\\mathbf q_{{{row}}}$ 与每个 key 的点积："},
    "wk_scale": {"en": "Divided by $\\sqrt{{d_k}} = {root}$:", "zh": "除以 $\\sqrt{{d_k}} = {root}$："},
    "wk_scale_given": {"en": "Multiplied by $s = {s}$:", "zh": "乘以 $s = {s}$："},
    "wk_logits": {"en": "Masked and divided by ${tau}$:", "zh": "加掩码并除以 ${tau}$："},
    "wk_logits_one": {"en": "Masked ($\\tau = 1$):", "zh": "加掩码（$\\tau = 1$）："},
    "wk_scaled_logits": {"en": "Divided by $\\sqrt{{d_k}} = {root}$, masked and divided by ${tau}$:",
                         "zh": "除以 $\\sqrt{{d_k}} = {root}$，加掩码并除以 ${tau}$："},
    "wk_scaled_logits_one": {"en": "Divided by $\\sqrt{{d_k}} = {root}$ and masked ($\\tau = 1$):",
                             "zh": "除以 $\\sqrt{{d_k}} = {root}$ 并加掩码（$\\tau = 1$）："},
    "wk_exponentials": {"en": "The exponentials of the readable logits and their sum:",
                        "zh": "可读取位置 logits 的指数及其和："},
    "wk_weights": {"en": "Each weight is its exponential divided by the sum:",
                   "zh": "每个权重等于对应指数除以总和："},
    "wk_check": {"en": "The weights sum to one: ${total}$.", "zh": "权重之和为一：${total}$。"},
    "wk_output": {"en": "The output is the weighted sum of the values:",
                  "zh": "输出是 value 的加权和："},
    "wk_masked_note": {"en": "(masked)", "zh": "（被掩码）"},
}
"""Phrase key -> language -> text; placeholders {…} and inline $math$ as in DERIVATION_PHRASES."""
