"""Every sentence a derivation says, in English and Chinese (the course's vocabulary)."""

from __future__ import annotations

DERIVATION_PHRASES: dict[str, dict[str, str]] = {
    "derivation": {"en": "Derivation", "zh": "推导过程"},
    "inputs": {"en": "Inputs", "zh": "输入"},
    "queries": {"en": "Queries", "zh": "query"},
    "keys": {"en": "Keys", "zh": "key"},
    "values": {"en": "Values", "zh": "value"},
    "row_labels": {"en": "Rows (queries): {labels}.", "zh": "行（query）：{labels}。"},
    "column_labels": {"en": "Columns (keys): {labels}.", "zh": "列（key）：{labels}。"},
    "scale_none": {"en": "Scale: none ($s = 1$).", "zh": "不缩放（$s = 1$）。"},
    "scale_given": {"en": "Scale: $s = {s}$ (given).", "zh": "缩放因子：$s = {s}$（给定）。"},
    "temperature": {"en": "Temperature: $\\tau = {tau}$.", "zh": "温度：$\\tau = {tau}$。"},
    "mask_none": {"en": "Mask: none, every query may read every key.",
                  "zh": "掩码：无，每个 query 都可以读取所有 key。"},
    "mask_causal": {"en": "Mask: causal, query $i$ may read key $j$ only if $j \\le i$.",
                    "zh": "掩码：因果掩码，第 $i$ 个 query 只能读取 $j \\le i$ 的 key。"},
    "mask_causal-bottom-right": {
        "en": "Mask: causal aligned bottom-right, query $i$ may read key $j$ only if "
              "$j \\le i + n_k - n_q$.",
        "zh": "掩码：右下对齐的因果掩码，第 $i$ 个 query 只能读取 $j \\le i + n_k - n_q$ 的 key。"},
    "mask_keep": {"en": "A boolean mask is given (true = may read).",
                  "zh": "给定布尔掩码（true 表示允许读取）。"},
    "mask_lengths": {"en": "Padding: query $i$ may read only the first $\\ell_i$ keys, "
                           "$\\ell = ({lengths})$.",
                     "zh": "填充掩码：第 $i$ 个 query 只能读取前 $\\ell_i$ 个 key，"
                           "$\\ell = ({lengths})$。"},
    "mask_bias": {"en": "An additive bias is added to the scaled scores.",
                  "zh": "缩放分数上另加一个加性偏置。"},
    "policy_error": {"en": "A row with no readable key would be refused.",
                     "zh": "若某行没有可读取的 key，计算将被拒绝。"},
    "policy_zero": {"en": "A row with no readable key gets weights and output 0.",
                    "zh": "若某行没有可读取的 key，其权重与输出都取 0。"},
    "policy_uniform": {"en": "A row with no readable key gets uniform weights $1/n_k$.",
                       "zh": "若某行没有可读取的 key，其权重取均匀分布 $1/n_k$。"},
    "fully_masked_row": {"en": "Row {row} may read no key; by the policy its weights are {how}.",
                         "zh": "第 {row} 行没有可读取的 key；按策略，其权重取{how}。"},
    "how_zero": {"en": "0", "zh": " 0"},
    "how_uniform": {"en": "uniform", "zh": "均匀分布"},
    "given_R": {"en": "The problem gives the raw scores $R = QK^{{\\mathsf T}}$ and the values $V$ "
                      "(no $Q$ and $K$).",
                "zh": "本题直接给出原始分数 $R = QK^{{\\mathsf T}}$ 与 value 矩阵 $V$（没有 $Q$ 和 $K$）。"},
    "given_R_d_k": {"en": "The problem gives the raw scores $R = QK^{{\\mathsf T}}$ and the values "
                          "$V$ (no $Q$ and $K$), with $d_k = {d_k}$ for the scale.",
                    "zh": "本题直接给出原始分数 $R = QK^{{\\mathsf T}}$ 与 value 矩阵 $V$（没有 $Q$ 和 "
                          "$K$），缩放所用的 $d_k = {d_k}$。"},
    "given_S": {"en": "The problem gives the scaled scores $S$ and the values $V$ (no $Q$, $K$ "
                      "or scale).",
                "zh": "本题直接给出缩放分数 $S$ 与 value 矩阵 $V$（没有 $Q$、$K$ 和缩放）。"},
    "given_L": {"en": "The problem gives the logits $L$ and the values $V$: the softmax starts "
                      "there.",
                "zh": "本题直接给出 logits $L$ 与 value 矩阵 $V$：从这里开始做 softmax。"},
    "shapes_title": {"en": "Shapes", "zh": "形状"},
    "shapes_inputs": {"en": "Queries $Q$: ${q}$; keys $K$: ${k}$; values $V$: ${v}$.",
                      "zh": "query $Q$：${q}$；key $K$：${k}$；value $V$：${v}$。"},
    "shapes_batch": {"en": "A batch of ${b}$ problems: every stage has the batch axis in front.",
                     "zh": "一批 ${b}$ 个样本：每个阶段的形状前面都多一个批次维。"},
    "shapes_heads": {"en": "${h}$ heads: each works on $d_k / h = {dk}$ and $d_v / h = {dv}$ "
                           "columns; their outputs are joined and multiplied by $W_O$.",
                     "zh": "${h}$ 个头：每个头使用 $d_k / h = {dk}$ 与 $d_v / h = {dv}$ 列；各头的输出"
                           "拼接后再乘以 $W_O$。"},
    "shapes_stages": {"en": "The shape of each stage", "zh": "各阶段的形状"},
    "shapes_share_d_k": {"en": "$Q$ and $K$ share $d_k = {d_k}$, so $QK^{{\\mathsf T}}$ is defined.",
                         "zh": "$Q$ 与 $K$ 的列数同为 $d_k = {d_k}$，所以 $QK^{{\\mathsf T}}$ 有定义。"},
    "shapes_keep": {"en": "Scaling, the mask, the temperature and the row-wise softmax act entry by "
                          "entry or row by row: they keep the shape.",
                    "zh": "缩放、掩码、温度与逐行 softmax 都按元素或按行进行，不改变形状。"},
    "shapes_share_n_k": {"en": "$A$ and $V$ share $n_k = {n_k}$, so $AV$ is defined.",
                         "zh": "$A$ 的列数与 $V$ 的行数同为 $n_k = {n_k}$，所以 $AV$ 有定义。"},
    "stage_R": {"en": "Raw scores", "zh": "原始分数"},
    "stage_S": {"en": "Scaled scores", "zh": "缩放分数"},
    "stage_M": {"en": "Mask", "zh": "掩码"},
    "stage_L": {"en": "Logits", "zh": "温度调整后的 logits"},
    "stage_A": {"en": "Row-wise softmax weights", "zh": "逐行 softmax 权重"},
    "stage_O": {"en": "Output", "zh": "输出"},
    "shape": {"en": "$\\operatorname{{MHA}}(X)$ is ${rows} \\times {cols}$.",
              "zh": "$\\operatorname{{MHA}}(X)$ 为 ${rows} \\times {cols}$。"},
    "names": {"en": "Names used below", "zh": "记号"},
    "row_detail": {"en": "Row {row} ({label}) step by step", "zh": "第 {row} 行（{label}）逐步计算"},
    "row_detail_plain": {"en": "Row {row} step by step", "zh": "第 {row} 行逐步计算"},
    "logits_row": {"en": "Scaled, masked and divided by the temperature:",
                   "zh": "缩放、加掩码并除以温度："},
    "exponentials": {"en": "Exponentials of the readable logits and their sum:",
                     "zh": "可读取位置 logits 的指数及其和："},
    "output_row": {"en": "The output is the weighted sum of the values:",
                   "zh": "输出是 value 的加权和："},
    "masked_weight": {"en": "masked", "zh": "被掩码"},
    "checks": {"en": "Checks", "zh": "核对"},
    "check_masked": {"en": "Masked weights are exactly 0", "zh": "被掩码的权重精确为 0"},
    "check_nonnegative": {"en": "Weights are non-negative", "zh": "权重非负"},
    "check_numeric": {"en": "Exact values agree with an independent {digits}-digit mpmath "
                            "computation (largest difference {difference})",
                      "zh": "精确值与独立的 {digits} 位 mpmath 数值计算一致（最大差 {difference}）"},
    "check_permutation": {"en": "Permuting the queries permutes the rows of $O$; permuting the "
                                 "keys with their values leaves $O$ unchanged",
                          "zh": "置换 query 的顺序会同样置换 $O$ 的行；key 与 value 一起置换时 $O$ 不变"},
    "parameters": {"en": "Temperature and parameters", "zh": "温度与参数"},
    "limits": {"en": "Limits in the temperature", "zh": "温度的极限"},
    "limits_rule": {"en": "As $\\tau \\to 0^+$ all weight goes to the keys with the largest logit, "
                          "shared equally when they tie; as $\\tau \\to \\infty$ the weights become "
                          "uniform over the readable keys. Masked weights stay 0.",
                    "zh": "当 $\\tau \\to 0^+$ 时，全部权重集中到 logit 最大的 key 上（并列时平分）；"
                          "当 $\\tau \\to \\infty$ 时，权重在可读取的 key 上趋于均匀。被掩码的权重始终为 0。"},
    "limit_cold_one": {"en": "Row {row}: the largest logit is at {keys} alone, which gets all the "
                             "weight, 1, in the cold limit",
                       "zh": "第 {row} 行：最大 logit 只在 {keys}，低温极限下它得到全部权重 1"},
    "limit_cold_tie": {"en": "Row {row}: the largest logit is shared by the {count} keys {keys}, "
                             "each of which gets $1/{count}$ in the cold limit",
                       "zh": "第 {row} 行：{count} 个 key（{keys}）并列最大 logit，低温极限下各得 "
                             "$1/{count}$"},
    "limit_hot_one": {"en": "; it is the only key the row reads, so it keeps weight 1 in the hot "
                            "limit too.",
                      "zh": "；它是该行唯一可读取的 key，高温极限下权重仍为 1。"},
    "limit_hot_many": {"en": "; each of the {total} keys the row reads gets $1/{total}$ in the hot "
                             "limit.",
                       "zh": "；高温极限下该行可读取的 {total} 个 key 各得 $1/{total}$。"},
    "limits_proved": {"en": "Every entry was computed by SymPy's limit of "
                            "$A_{{ij}} = 1/\\sum_r e^{{L_{{ir}} - L_{{ij}}}}$, where "
                            "$L = (S + M)/\\tau$, and agrees with the rule.",
                      "zh": "每个条目都由 SymPy 对 $A_{{ij}} = 1/\\sum_r e^{{L_{{ir}} - L_{{ij}}}}$"
                            "（其中 $L = (S + M)/\\tau$）求极限得到，并与上述规律一致。"},
    "limits_unproved": {"en": "SymPy's limits did not all agree with the rule.",
                        "zh": "SymPy 求得的极限与上述规律不完全一致。"},
    "derivative": {"en": "Derivative of the weights by ${name}$", "zh": "权重对 ${name}$ 的导数"},
    "derivative_rule": {"en": "The softmax Jacobian gives "
                              "$\\partial A_{{ij}}/\\partial {name} = A_{{ij}}\\,(\\partial L_{{ij}}/\\partial {name} "
                              "- \\sum_r A_{{ir}}\\, \\partial L_{{ir}}/\\partial {name})$.",
                        "zh": "由 softmax 的 Jacobian 得 "
                              "$\\partial A_{{ij}}/\\partial {name} = A_{{ij}}\\,(\\partial L_{{ij}}/\\partial {name} "
                              "- \\sum_r A_{{ir}}\\, \\partial L_{{ir}}/\\partial {name})$。"},
    "derivative_at": {"en": " Its entries below are at ${tau}$.", "zh": "下面的各项取 ${tau}$ 时的值。"},
    "derivative_rounded": {"en": " Its exact entries have more digits than a line holds (the inputs' "
                                 "long decimals): each is written by its decimals, marked $\\approx$; "
                                 "the check below is made on the exact values.",
                           "zh": "其精确形式位数太多，一行写不下（输入的小数很长）：每个值按小数写出，"
                                 "记作 $\\approx$；下面的检验针对精确值。"},
    "derivative_checked": {"en": "Central differences in mpmath agree to ${difference}$.",
                           "zh": "mpmath 中心差分与之一致，最大差 ${difference}$。"},
    "projections_text": {"en": "Queries, keys and values are projections of the same input $X$ "
                               "(one row per token):",
                         "zh": "query、key、value 由同一输入 $X$ 线性投影得到（每行对应一个 token）："},
    "projections_cross": {"en": "Queries come from $X$, keys and values from $Y$:",
                          "zh": "query 来自 $X$，key 与 value 来自 $Y$："},
    "heads": {"en": "Multi-head attention", "zh": "多头注意力"},
    "heads_text": {"en": "{count} heads read the same input; each has its own projections, and "
                         "head $k$'s output $O$ is written $\\text{{head}}_k$. The $h = {n}$ "
                         "outputs are concatenated along the feature axis and multiplied by $W_O$:",
                   "zh": "{count}个头读取同一输入，各有独立的投影矩阵；第 $k$ 个头的输出 $O$ 记作 "
                         "$\\text{{head}}_k$。$h = {n}$ 个头的输出沿特征轴拼接后乘以 $W_O$："},
    "heads_split": {"en": "As PyTorch's nn.MultiheadAttention splits them, the whole projections "
                          "are split into $h = {h}$ heads: head $k$ takes its block of {d_k} "
                          "columns of $W_Q$ and $W_K$ and {d_v} of $W_V$ (and the same entries of "
                          "the biases), so its scale is $1/\\sqrt{{{d_k}}}$.",
                    "zh": "整体投影矩阵按 PyTorch 的 nn.MultiheadAttention 的方式拆分为 $h = {h}$ 个头："
                          "第 $k$ 个头取 $W_Q$、$W_K$ 中对应的 {d_k} 列和 $W_V$ 中对应的 {d_v} 列"
                          "（偏置取相同的分量），因此其缩放为 $1/\\sqrt{{{d_k}}}$。"},
    "head": {"en": "Head {k}", "zh": "第 {k} 个头"},
    "concat": {"en": "Concatenation and output projection", "zh": "拼接与输出投影"},
    "heads_too_wide": {"en": "The exact entries of $C$ and of $\\operatorname{{MHA}}(X)$ are too long "
                             "for a line: each is made of the heads' exact outputs above, "
                             "combined by $W_O$; their decimals are shown.",
                       "zh": "$C$ 与 $\\operatorname{{MHA}}(X)$ 的精确元素过长，一行写不下：它们由上面各头的精确输出"
                             "经 $W_O$ 组合而成；这里给出其小数。"},
    "heads_output_weights": {"en": "The output projection is", "zh": "输出投影矩阵为"},
    "heads_checked": {"en": "Each head passes its own checks; the output agrees with an independent "
                            "{digits}-digit mpmath computation (largest difference ${difference}$).",
                      "zh": "每个头都通过各自的核对；输出与独立的 {digits} 位 mpmath 数值计算一致"
                            "（最大差 ${difference}$）。"},
    "blocks_columns": {"en": "Here ${first}$ stands for columns {a} to {b} of ${name}$: a matrix too "
                             "wide for a line is set in blocks of its columns.",
                       "zh": "这里 ${first}$ 表示 ${name}$ 的第 {a} 到 {b} 列：一行放不下的矩阵按列分块写出。"},
    "blocks_rows": {"en": "Here ${first}$ stands for rows {a} to {b} of ${name}$: a matrix too tall "
                          "for a page is set in blocks of its rows.",
                    "zh": "这里 ${first}$ 表示 ${name}$ 的第 {a} 到 {b} 行：一页放不下的矩阵按行分块写出。"},
    "problem_title": {"en": "The problem: {title}.", "zh": "题目：{title}。"},
    "problem_title_stopped": {"en": "The problem: {title}", "zh": "题目：{title}"},
    "heads_checked_short": {"en": "Each head passes its own checks, and the output agrees with an "
                                  "independent mpmath computation.",
                            "zh": "每个头都通过各自的核对，输出也与独立的 mpmath 数值计算一致。"},
    "heads_failed": {"en": "Some check of the heads or the output did not pass.",
                     "zh": "部分头或输出的核对未通过。"},
    "passed": {"en": "holds", "zh": "成立"},
    "failed": {"en": "FAILS", "zh": "不成立"},
    "undecided": {"en": "not decided", "zh": "未能判定"},
    "heatmap": {"en": "Heatmap of the weights $A$", "zh": "权重 $A$ 的热力图"},
    "decimals_note": {"en": "Decimals are rounded to {places} places.",
                      "zh": "小数保留 {places} 位。"},
}
"""Phrase key -> language -> text; text may hold {placeholders} and inline $math$."""

