"""The classic mistakes as a LaTeX or Markdown document writes them: names and formulas in math."""

from __future__ import annotations

MISTAKE_TEX: dict[str, dict[str, str]] = {
    "tex_mistake_columns": {"en": "Softmax over columns", "zh": "沿列做 softmax"},
    "tex_mistake_rows": {"en": "Softmax over rows", "zh": "沿行做 softmax"},
    "tex_mistake_no_scale": {"en": "Forgetting the $1/\\sqrt{{d_k}}$ scale",
                             "zh": "漏除 $\\sqrt{{d_k}}$"},
    "tex_mistake_mask_after_softmax": {"en": "Masking after the softmax without renormalising",
                                       "zh": "softmax 之后才屏蔽且未重新归一化"},
    "tex_mistake_no_causal_mask": {"en": "Omitting the causal mask", "zh": "遗漏因果掩码"},
    "tex_mistake_mask_after_tau": {"en": "Adding the mask after dividing by $\\tau$",
                                   "zh": "先除以 $\\tau$ 再加掩码"},
    "tex_mistake_swap_kv": {"en": "Swapping the roles of $K$ and $V$",
                            "zh": "交换 $K$ 与 $V$ 的角色"},
    "tex_mistake_sum_normalised": {"en": "Dividing each logit by the sum of its query's logits "
                                         "instead of the softmax",
                                   "zh": "用该 query 的 logit 之和去除每个 logit，而不是做 softmax"},
    "tex_formula_columns": {
        "en": "$A'_{{ij}} = e^{{L_{{ij}}}} / \\sum_r e^{{L_{{rj}}}}$, normalised down column $j$.",
        "zh": "$A'_{{ij}} = e^{{L_{{ij}}}} / \\sum_r e^{{L_{{rj}}}}$，沿第 $j$ 列归一化。"},
    "tex_formula_rows": {
        "en": "$A'_{{ij}} = e^{{L_{{ij}}}} / \\sum_c e^{{L_{{ic}}}}$, normalised along row $i$.",
        "zh": "$A'_{{ij}} = e^{{L_{{ij}}}} / \\sum_c e^{{L_{{ic}}}}$，沿第 $i$ 行归一化。"},
    "tex_formula_no_scale": {"en": "$S' = R$ (no $1/\\sqrt{{d_k}}$), $L' = (S' + M)/\\tau$.",
                             "zh": "$S' = R$（未除以 $\\sqrt{{d_k}}$），$L' = (S' + M)/\\tau$。"},
    "tex_formula_mask_after_softmax": {
        "en": "$A'_{{ij}}$ is the softmax of $L$ without $M$ where the entry is readable, else "
              "0; the rows no longer sum to 1.",
        "zh": "可读取处 $A'_{{ij}}$ 取不加 $M$ 的 softmax，被屏蔽处置 0；各行权重之和不再为 1。"},
    "tex_formula_mask_after_softmax_columns": {
        "en": "$A'_{{ij}}$ is the softmax of $L$ without $M$ where the entry is readable, else "
              "0; the columns no longer sum to 1.",
        "zh": "可读取处 $A'_{{ij}}$ 取不加 $M$ 的 softmax，被屏蔽处置 0；各列权重之和不再为 1。"},
    "tex_formula_no_causal_mask": {"en": "$L' = (S + M')/\\tau$, with no causal entries in $M'$.",
                                   "zh": "$L' = (S + M')/\\tau$，$M'$ 不含因果掩码。"},
    "tex_formula_mask_after_tau": {"en": "$L' = S/\\tau + M$ instead of $(S + M)/\\tau$.",
                                   "zh": "$L' = S/\\tau + M$，而不是 $(S + M)/\\tau$。"},
    "tex_formula_swap_kv": {"en": "$R' = QV^{{\\mathsf T}}$, $O' = A'K$.",
                            "zh": "$R' = QV^{{\\mathsf T}}$，$O' = A'K$。"},
    "tex_formula_swap_kv_columns": {"en": "$R' = V^{{\\mathsf T}}Q$, $O' = KA'$.",
                                    "zh": "$R' = V^{{\\mathsf T}}Q$，$O' = KA'$。"},
    "tex_formula_sum_normalised": {
        "en": "$A'_{{ij}} = L_{{ij}} / \\sum_r L_{{ir}}$ over the readable keys (no exponential).",
        "zh": "$A'_{{ij}} = L_{{ij}} / \\sum_r L_{{ir}}$（只对可读取的 key 求和，不取指数）。"},
    "tex_formula_sum_normalised_columns": {
        "en": "$A'_{{ij}} = L_{{ij}} / \\sum_r L_{{rj}}$ over the readable keys (no exponential).",
        "zh": "$A'_{{ij}} = L_{{ij}} / \\sum_r L_{{rj}}$（只对可读取的 key 求和，不取指数）。"},
    "tex_mistakes_correct": {"en": "Done correctly, the weights and the output, to compare each "
                                   "mistake with, are:",
                             "zh": "正确计算时，注意力权重与输出如下，可与每种错误对照："},
    "tex_mistakes_correct_named": {"en": "Done correctly, with \x00, the weights and the output, to "
                                         "compare each mistake with, are:",
                                   "zh": "正确计算时（记 \x00），注意力权重与输出如下，可与每种错误对照："},
    "tex_mistakes_correct_output": {"en": "Done correctly, the output, to compare each mistake "
                                          "with, is:",
                                    "zh": "正确计算时，输出如下，可与每种错误对照："},
    "tex_mistake_gives": {"en": "It gives:", "zh": "由此得到："},
    "tex_mistake_gives_named": {"en": "It gives, with \x00:", "zh": "记 \x00，由此得到："},
    "tex_mistake_output": {"en": "Every head making it, the output is:",
                           "zh": "每个头都犯这个错误时，输出为："},
    "tex_mistake_skipped": {"en": "This mistake {reason}.", "zh": "该误区{reason}。"},
}
