"""Phrases of the mistakes, their diagnoses, generated problems and problem sets (en, zh)."""

from __future__ import annotations

MISTAKE_NAMES = {
    "mistake_columns": {"en": "softmax over columns", "zh": "沿列做 softmax"},
    "mistake_no_scale": {"en": "forgetting the 1/√d_k scale", "zh": "漏除 √d_k"},
    "mistake_mask_after_softmax": {"en": "masking after the softmax without renormalising",
                                   "zh": "softmax 之后才屏蔽且未重新归一化"},
    "mistake_no_causal_mask": {"en": "omitting the causal mask", "zh": "遗漏因果掩码"},
    "mistake_mask_after_tau": {"en": "adding the mask after dividing by τ",
                               "zh": "先除以 τ 再加掩码"},
    "mistake_swap_kv": {"en": "swapping the roles of K and V", "zh": "交换 K 与 V 的角色"},
    "mistake_sum_normalised": {"en": "dividing each logit by the sum of its query's logits "
                                     "instead of the softmax",
                               "zh": "用该 query 的 logit 之和去除每个 logit，而不是做 softmax"},
}

MISTAKE_FORMULAS = {
    "formula_columns": {"en": "A'_ij = exp(L_ij) / Σ_r exp(L_rj) (normalised down column j)",
                        "zh": "A'_ij = exp(L_ij) / Σ_r exp(L_rj)（沿第 j 列归一化）"},
    "formula_no_scale": {"en": "S' = R (no 1/√d_k), L' = (S' + M)/τ",
                         "zh": "S' = R（未除以 √d_k），L' = (S' + M)/τ"},
    "formula_mask_after_softmax": {
        "en": "A'_ij = softmax(L without M)_ij where readable, else 0; rows no longer sum to 1",
        "zh": "A'_ij = 不加 M 的 softmax(L)_ij，被屏蔽处置 0；各行权重之和不再为 1"},
    "formula_no_causal_mask": {"en": "L' = (S + M')/τ with no causal entries in M'",
                               "zh": "L' = (S + M')/τ，M' 不含因果掩码"},
    "formula_mask_after_tau": {"en": "L' = S/τ + M instead of (S + M)/τ",
                               "zh": "L' = S/τ + M，而不是 (S + M)/τ"},
    "formula_swap_kv": {"en": "R' = Q Vᵀ, O' = A' K", "zh": "R' = Q Vᵀ，O' = A' K"},
    "formula_sum_normalised": {"en": "A'_ij = L_ij / Σ_r L_ir over the readable keys (no exp)",
                               "zh": "A'_ij = L_ij / Σ_r L_ir（只对可读取的 key 求和，不取 exp）"},
}

EXERCISE_PHRASES = {
    "diagnosis": {"en": "matches {mistake}", "zh": "与“{mistake}”的结果一致"},
    "mistake_not_applicable": {"en": "does not apply to this problem", "zh": "不适用于本题"},
    "mistake_same_result": {"en": "gives the correct result here", "zh": "在本题中结果与正确答案相同"},
    "mistake_over_budget": {"en": "took longer than its budget; not compared",
                            "zh": "超出计算预算，未作比较"},
    "diagnosis_none": {"en": "no classic mistake gives this value",
                       "zh": "没有哪种常见误区会得到这个值"},
    "diagnosis_over_budget": {"en": "no diagnosis: the classic mistakes took longer than their "
                                    "budget", "zh": "无诊断：常见误区的计算超出预算"},
    "remark_row_sum": {"en": "no weights can be right here: the weights given for row {0} sum "
                             "to {1}, not 1", "zh": "这组权重不可能正确：第 {0} 行给出的权重之和为 {1}，不是 1"},
    "remark_outside_hull": {"en": "no weights give this output: row {0} lies outside every "
                                  "weighting of the values its query may read",
                            "zh": "任何权重都得不到这个输出：第 {0} 行不在该 query 可读取的 value 的任何加权平均之内"},
    "mistakes_title": {"en": "Classic mistakes and what each gives", "zh": "常见误区及其结果"},
    "mistakes_output": {"en": "the output, every head making the same mistake",
                        "zh": "输出（每个头犯同一个错误）"},
}
"""Diagnoses and generated problems' words (MISTAKE_NAMES and MISTAKE_FORMULAS are registered beside)."""

SET_PHRASES = {
    "set_title": {"en": "Attention exercises", "zh": "注意力习题"},
    "set_questions": {"en": "Questions", "zh": "题目"},
    "set_question": {"en": "Question {k}", "zh": "第 {k} 题"},
    "set_task": {"en": "Compute the weights $A$ and the output $O$, exactly.",
                 "zh": "精确计算权重 $A$ 与输出 $O$。"},
    "set_task_heads": {"en": "Compute the output $\\operatorname{{MHA}}(X)$ of the heads, exactly.",
                       "zh": "精确计算这些头的输出 $\\operatorname{{MHA}}(X)$。"},
    "set_solutions": {"en": "Solutions", "zh": "解答"},
    "set_solution": {"en": "Solution {k}", "zh": "第 {k} 题解答"},
    "set_key": {"en": "Answer key", "zh": "答案速查"},
    "set_key_item": {"en": "Question {k}:", "zh": "第 {k} 题："},
}
"""Problem-set words."""
