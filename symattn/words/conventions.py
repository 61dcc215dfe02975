"""The words of a large finite mask (mask_bias, the courses' -1e9) and of scores given with a
book's d_k: in derivations, in `symattn check` and in verdicts, English and Chinese."""

from __future__ import annotations

CONVENTION_PHRASES: dict[str, dict[str, str]] = {
    # the opening sentence and the mask
    "tb_mask_bias_added": {"en": ", the masks adding ${bias}$ instead of $-\\infty$ (the code's "
                                 "convention)",
                           "zh": "，掩码加上 ${bias}$ 而不是 $-\\infty$（代码中的写法）"},
    "tb_bias_whole_rows": {"en": "Row {rows} masks every key: the masks' ${bias}$ is added to "
                                 "all its logits and cancels in the softmax, so its weights are "
                                 "the softmax of its scores.",
                           "zh": "第 {rows} 行的所有 key 都被掩码：${bias}$ 加到该行每个 logit "
                                 "上，在 softmax 中相互抵消，所以其权重就是其分数的 softmax。"},
    "tb_bias_sets_causal": {"en": "The causal mask adds $M_{{ij}} = {bias}$ for $j > i$, not "
                                  "$-\\infty$",
                            "zh": "因果掩码在 $j > i$ 的位置加上 $M_{{ij}} = {bias}$，而不是 "
                                  "$-\\infty$"},
    "tb_bias_sets": {"en": "The masks add $M_{{ij}} = {bias}$ where query $i$ may not read key "
                           "$j$, not $-\\infty$",
                     "zh": "掩码在禁止读取的位置加上 $M_{{ij}} = {bias}$，而不是 $-\\infty$"},
    "tb_bias_small": {"en": " (with ${name} = {value} \\approx {decimal}$ a masked key's "
                            "exponential is a multiple of ${name}$, not 0)",
                      "zh": "（记 ${name} = {value} \\approx {decimal}$，被掩码 key 的指数是 "
                            "${name}$ 的倍数，而不是 0）"},
    "tb_masked_small": {"en": ". No masked weight is exactly 0: each is a tiny positive number, "
                              "below $10^{{-{below}}}$.",
                        "zh": "。被掩码的权重都不精确为 0，而是极小的正数，都小于 $10^{{-{below}}}$。"},
    "tb_with_below": {"en": ", with {names} as below,", "zh": "，记 {names}（见下式），"},
    # the checks
    "tb_check_masked_small": {"en": "The masks add ${bias}$, not $-\\infty$, so the {count} "
                                    "masked weights are not exactly 0, but each is below "
                                    "$10^{{-{below}}}$.",
                              "zh": "掩码加上的是 ${bias}$ 而不是 $-\\infty$，所以 {count} 个被掩码"
                                    "位置的权重并不精确为 0，但每个都小于 $10^{{-{below}}}$。"},
    "tb_check_masked_small_none": {"en": "No key is masked in a row that reads another key.",
                                   "zh": "没有哪个被掩码的 key 与可读取的 key 在同一行。"},
    "check_name_masked_small": {"en": "masked weights negligible",
                                "zh": "被掩码的权重可忽略"},
    "detail_masked_small_ok": {"en": "{count} masked entries, each below 10^-{below}{at}",
                               "zh": "{count} 个被掩码的位置，每个都小于 10^-{below}{at}"},
    "detail_masked_small_rows": {"en": "{count} masked entries, each below 10^-{below}{at}; "
                                       "row(s) {rows} mask every key: the softmax of their scores",
                                 "zh": "{count} 个被掩码的位置，每个都小于 10^-{below}{at}；第 "
                                       "{rows} 行所有 key 都被掩码，权重为其分数的 softmax"},
    "detail_masked_small_none": {"en": "no key masked in a row that reads another",
                                 "zh": "没有与可读取 key 同行的被掩码 key"},
    "detail_masked_small_bad": {"en": "{count} masked entries, each below 10^-{below} only{at}: "
                                      "mask_bias is too small to mask (10^-15 needed)",
                                "zh": "{count} 个被掩码的位置，仅小于 10^-{below}{at}：mask_bias "
                                      "太小，起不到掩码作用（需小于 10^-15）"},
    "detail_masked_small_undecided": {"en": "not decided: the logits need more working digits",
                                      "zh": "无法判定：logits 需要更多的工作精度"},
    "limits_mask_bias": {"en": "As $\\tau \\to 0^+$ all weight goes to the keys with the largest "
                               "logit, shared equally when they tie. Here the masks add a finite "
                               "${bias}$, which $\\tau$ divides too: as $\\tau \\to \\infty$ it "
                               "fades, and the weights become uniform over every key, masked or not.",
                         "zh": "当 $\\tau \\to 0^+$ 时，全部权重集中到 logit 最大的 key 上（并列时平分）。"
                               "这里掩码加上的是有限的 ${bias}$，它同样被 $\\tau$ 除：当 "
                               "$\\tau \\to \\infty$ 时它逐渐消失，权重在所有 key（无论是否被掩码）"
                               "上趋于均匀。"},
    "limits_signs": {"en": "Every entry follows from the signs of the differences "
                           "${c} = (S + M)_{{ir}} - (S + M)_{{ij}}$ between key $r$ and key $j$ of "
                           "row $i$: $e^{{{c}/\\tau}}$ tends to 0, 1 or "
                           "$\\infty$ as $\\tau \\to 0^+$ for ${c} < 0$, ${c} = 0$ or ${c} > 0$, and to 1 "
                           "as $\\tau \\to \\infty$.",
                     "zh": "每个条目都由第 $i$ 行中 key $r$ 与 key $j$ 之差 "
                           "${c} = (S + M)_{{ir}} - (S + M)_{{ij}}$ 的符号得出：当 "
                           "$\\tau \\to 0^+$ 时，$e^{{{c}/\\tau}}$ 在 ${c} < 0$、${c} = 0$、${c} > 0$ 时分别趋于 "
                           "0、1、$\\infty$；当 $\\tau \\to \\infty$ 时趋于 1。"},
    # verdicts
    "rule_masked": {"en": "equals the value with the masked keys at −∞, which mask_bias stands "
                          "for (they agree to {n} digits)",
                    "zh": "等于被掩码 key 取 −∞ 时的值，即 mask_bias 所代表的值（两者前 {n} 位一致）"},
    "rule_masked_infinity": {"en": "−∞ for a masked entry, which mask_bias stands for",
                             "zh": "被掩码位置取 −∞，即 mask_bias 所代表的值"},
    # given scores with the book's d_k
    "tb_given_scale": {"en": " (with the book's $d_k = {d_k}$ they already include "
                             "$1/\\sqrt{{d_k}} = {s}$)",
                       "zh": "（按书中的 $d_k = {d_k}$，它们已经乘上了 $1/\\sqrt{{d_k}} = {s}$）"},
}
"""Phrase key -> language -> text; placeholders {…} and inline $math$ as in TEXTBOOK_PHRASES."""
