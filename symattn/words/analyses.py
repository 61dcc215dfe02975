"""Phrases of the sweep, non-uniqueness and gradient documents, in English and Chinese."""

from __future__ import annotations

ANALYSIS_PHRASES: dict[str, dict[str, str]] = {
    # parameter sweeps (参数实验)
    "sweep_title": {"en": "Parameter experiment", "zh": "参数实验"},
    "sweep_range": {"en": "${name}$ runs from ${start}$ to ${stop}$ in {steps} equally spaced "
                          "values.",
                    "zh": "${name}$ 从 ${start}$ 变到 ${stop}$，等间隔取 {steps} 个值。"},
    "sweep_list": {"en": "${name}$ takes the values ${values}$.", "zh": "${name}$ 依次取 ${values}$。"},
    "sweep_fixed": {"en": "Everything else stays as in the problem, so each change is the "
                          "effect of the swept parameters alone.",
                    "zh": "其余输入保持不变，因此每处变化都只来自被扫描的参数。"},
    "sweep_measures": {
        "en": "For each point: the weights $a_j = e^{{L_j}}/Z$ of the row's logits $L_j$, with "
              "$Z = \\sum_j e^{{L_j}}$, the output $o = \\sum_j a_j v_j$ (row $j$ of $V$ is $v_j$), "
              "the weight entropy $H = -\\sum_j a_j \\ln a_j$ (computed as "
              "$\\ln Z - \\sum_j a_j L_j$, since $\\ln a_j = L_j - \\ln Z$) and the maximum weight "
              "$\\max_j a_j$.",
        "zh": "每个点记录：该行 logit $L_j$ 的权重 $a_j = e^{{L_j}}/Z$（$Z = \\sum_j e^{{L_j}}$）、"
              "输出 $o = \\sum_j a_j v_j$（$v_j$ 为 $V$ 的第 $j$ 行）、权重熵 "
              "$H = -\\sum_j a_j \\ln a_j$（按 $\\ln a_j = L_j - \\ln Z$ 写成 "
              "$\\ln Z - \\sum_j a_j L_j$）以及最大权重 $\\max_j a_j$。"},
    "sweep_general": {"en": "Weights as functions of the parameters",
                      "zh": "权重作为参数的函数"},
    "sweep_general_text": {"en": "Keeping the symbols, the exact pipeline gives:",
                           "zh": "保留符号时，精确计算给出："},
    "sweep_row": {"en": "Query row {row}", "zh": "第 {row} 个 query 行"},
    "sweep_row_label": {"en": "Query row {row} ({label})", "zh": "第 {row} 个 query 行（{label}）"},
    "sweep_table": {"en": "Decimals for ${series}$", "zh": "${series}$ 时的数值"},
    "sweep_table_plain": {"en": "Decimals", "zh": "数值"},
    "sweep_exact": {"en": "Exact values for ${series}$", "zh": "${series}$ 时的精确值"},
    "sweep_exact_plain": {"en": "Exact values", "zh": "精确值"},
    "sweep_exact_rest": {"en": "At the other values of ${x}$ the exact weights are the formulas "
                               "above with ${x}$ put in, $o = aV$, and the table gives the decimals.",
                         "zh": "${x}$ 取其他值时，精确权重即把 ${x}$ 代入上面的公式，$o = aV$，"
                               "数值见上表。"},
    "sweep_exact_none": {"en": "At every value of ${x}$ the exact weights are the formulas above "
                               "with ${x}$ put in, $o = aV$, and the table gives the decimals.",
                         "zh": "${x}$ 取每个值时，精确权重即把 ${x}$ 代入上面的公式，$o = aV$，"
                               "数值见上表。"},
    "sweep_plot": {"en": "Weight of each key against ${x}$", "zh": "各 key 的权重随 ${x}$ 的变化"},
    "sweep_plot_row": {"en": "Weight of each key against ${x}$, query row {row}",
                       "zh": "第 {row} 个 query 行各 key 的权重随 ${x}$ 的变化"},
    "sweep_checked": {"en": "Every weight, output and entropy agrees with an independent "
                            "{digits}-digit mpmath recomputation at every point (largest "
                            "difference ${difference}$).",
                      "zh": "每个点的权重、输出与权重熵都与独立的 {digits} 位 mpmath 数值计算一致"
                            "（最大差 ${difference}$）。"},
    "list_comma": {"en": ", ", "zh": "、"},
    "sweep_weight": {"en": "weight", "zh": "权重"},
    "sweep_key": {"en": "key", "zh": "key"},
    # non-uniqueness (注意力权重的非唯一性)
    "nu_title": {"en": "Non-uniqueness of the attention weights", "zh": "注意力权重的非唯一性"},
    "nu_intro": {"en": "Which weight vectors $w$ on the keys a row reads give exactly that row's "
                       "output? They are the solutions of the linear system below with $w \\ge 0$: "
                       "an affine set intersected with the simplex. Here $v_j$ is row $j$ of $V$ "
                       "(key $j$'s value) and $o_i$ the output of row $i$.",
                 "zh": "哪些定义在该行可读取的 key 上的权重向量 $w$ 能精确给出同一输出？它们是下面"
                       "线性方程组满足 $w \\ge 0$ 的解：一个仿射集合与单纯形的交。其中 $v_j$ 为 $V$ 的"
                       "第 $j$ 行（第 $j$ 个 key 的 value），$o_i$ 为第 $i$ 行的输出。"},
    "nu_row": {"en": "Row {row}", "zh": "第 {row} 行"},
    "nu_row_label": {"en": "Row {row} ({label})", "zh": "第 {row} 行（{label}）"},
    "nu_observed": {"en": "Observed weights and output:", "zh": "观察到的权重与输出："},
    "nu_observed_named": {"en": "Observed weights and output, with \x00:",
                          "zh": "记 \x00，观察到的权重与输出为："},
    "nu_system": {"en": "The system over the keys this row reads (keys {keys}):",
                  "zh": "该行可读取的 key（第 {keys} 个）上的线性方程组："},
    "nu_rank": {"en": "The matrix has rank {rank} and {count} unknowns, so its null space has "
                      "dimension {dim}.",
                "zh": "系数矩阵的秩为 {rank}，未知数 {count} 个，零空间维数为 {dim}。"},
    "nu_unique": {"en": "The null space is $\\{{0\\}}$: the observed weights are the only weights "
                        "on the simplex that give this output.",
                  "zh": "零空间只含零向量：在单纯形上只有观察到的这组权重给出该输出。"},
    "nu_not_unique": {"en": "Every observed weight is positive ($a_j = e^{{L_j}}/\\sum_k e^{{L_k}} > 0$), so $a$ "
                            "lies inside the simplex and moving along any null direction keeps "
                            "it there for small steps: the observed weights are not unique, and "
                            "the set of weights with this output has dimension {dim}.",
                      "zh": "观察到的每个权重都为正（$a_j = e^{{L_j}}/\\sum_k e^{{L_k}} > 0$），$a$ 位于单纯形内部，"
                            "沿任一零空间方向移动一小步仍在单纯形上：权重不唯一，给出同一输出的"
                            "权重集合维数为 {dim}。"},
    "nu_null": {"en": "A basis of the null space:", "zh": "零空间的一组基："},
    "nu_segment": {"en": "Along the first direction, every entry of $w({t}) = a + {t}\\,n_1$ is "
                         "non-negative exactly for",
                   "zh": "沿第一个方向，$w({t}) = a + {t}\\,n_1$ 的各分量非负当且仅当"},
    "nu_vertices": {"en": "The set is the convex hull of these {count} vertices (each gives the "
                          "same output):",
                    "zh": "该集合是以下 {count} 个顶点的凸包（每个顶点给出同一输出）："},
    "nu_ends": {"en": "Too many candidate vertices to list; the two ends of that segment:",
                "zh": "候选顶点过多，不逐一列出；该线段的两个端点为："},
    "nu_pair": {"en": "Two far-apart distributions with identical output (total variation "
                      "distance ${distance}$):",
                "zh": "两个相差很大却给出完全相同输出的分布（总变差距离 ${distance}$）："},
    "nu_pair_long": {"en": "Two far-apart distributions with identical output, at total "
                           "variation distance",
                     "zh": "两个相差很大却给出完全相同输出的分布，二者的总变差距离为"},
    "nu_pair_check": {"en": "Both give the observed output exactly:",
                      "zh": "二者都精确给出观察到的输出："},
    "nu_verified": {"en": "Checked exactly: both are distributions and give the observed output.",
                    "zh": "已精确验证：二者都是概率分布，且都给出观察到的输出。"},
    "nu_not_verified": {"en": "The exact check of the pair FAILED.",
                        "zh": "对这两个分布的精确验证未通过。"},
    "nu_top_differs": {"en": "Their largest weights sit on different keys ({first} and {second}): "
                             "the output alone does not determine the weights, and a large "
                             "weight alone does not show which key decided the output.",
                       "zh": "二者的最大权重位于不同的 key（{first} 与 {second}）：仅凭输出无法唯一"
                             "反推出权重，仅凭权重大小也不能断言哪个位置决定了输出。"},
    "nu_skipped": {"en": "Row {row} reads no key and its weights are all 0: not a distribution.",
                   "zh": "第 {row} 行不能读取任何 key，权重全为 0，不构成概率分布。"},
    # gradients (梯度与反向传播)
    "grad_title": {"en": "Gradients by backpropagation", "zh": "反向传播计算梯度"},
    "grad_notation": {"en": "Write $dX$ for $\\partial \\ell / \\partial X$, a matrix of the "
                            "same shape as $X$.",
                      "zh": "记 $dX = \\partial \\ell / \\partial X$，与 $X$ 同形状。"},
    "grad_loss_sum": {"en": "Loss: the sum of the entries of the output, "
                            "$\\ell = \\sum_{{i,c}} O_{{ic}}$, so the upstream gradient $dO$ is all "
                            "ones.",
                      "zh": "损失取输出各元素之和 $\\ell = \\sum_{{i,c}} O_{{ic}}$，因此上游梯度 $dO$ "
                            "全为 1。"},
    "grad_loss_given": {"en": "The upstream gradient $dO$ is given; for a fixed $dO$ this is the "
                              "loss $\\ell = \\sum_{{i,c}} dO_{{ic}} O_{{ic}}$.",
                        "zh": "上游梯度 $dO$ 已给定；对固定的 $dO$，相应的损失为 "
                              "$\\ell = \\sum_{{i,c}} dO_{{ic}} O_{{ic}}$。"},
    "grad_loss_value": {"en": "Its value here:", "zh": "此处损失的值："},
    "grad_values": {"en": "Through $O = AV$: gradient of the values",
                    "zh": "经过 $O = AV$：值的梯度"},
    "grad_weights": {"en": "Through $O = AV$: gradient of the weights",
                     "zh": "经过 $O = AV$：权重的梯度"},
    "grad_softmax": {"en": "Through the softmax, row by row", "zh": "逐行经过 softmax"},
    "grad_softmax_text": {
        "en": "Write $a_i$ for row $i$ of $A$ (its weights $a_{{ir}} = A_{{ir}}$). The Jacobian of "
              "row $i$'s softmax is $J_i = \\operatorname{{diag}}(a_i) - "
              "a_i a_i^{{\\mathsf T}}$, so $dL_i = J_i\\, dA_i$: $dL_{{ij}} = a_{{ij}}(dA_{{ij}} - "
              "\\bar a_i)$ with $\\bar a_i = \\sum_r a_{{ir}}\\, dA_{{ir}}$. A masked entry has "
              "$a_{{ij}} = 0$, so its $dL_{{ij}}$ is 0.",
        "zh": "记 $a_i$ 为 $A$ 的第 $i$ 行（其权重 $a_{{ir}} = A_{{ir}}$）。第 $i$ 行 softmax 的雅可比"
              "矩阵为 $J_i = \\operatorname{{diag}}(a_i) - "
              "a_i a_i^{{\\mathsf T}}$，故 $dL_i = J_i\\, dA_i$，即 $dL_{{ij}} = a_{{ij}}(dA_{{ij}} - "
              "\\bar a_i)$，其中 $\\bar a_i = \\sum_r a_{{ir}}\\, dA_{{ir}}$。被掩码位置 "
              "$a_{{ij}} = 0$，其 $dL_{{ij}}$ 为 0。"},
    "grad_row": {"en": "Row {row} written out", "zh": "第 {row} 行逐步计算"},
    "grad_row_label": {"en": "Row {row} ({label}) written out", "zh": "第 {row} 行（{label}）逐步计算"},
    "grad_jacobian": {"en": "Its Jacobian:", "zh": "其雅可比矩阵："},
    "grad_fully_masked": {"en": "Row {row} reads no key; its weights are fixed by the policy, so "
                                "its $dL$ is 0.",
                          "zh": "第 {row} 行不能读取任何 key，其权重由空行策略固定，因此该行 $dL$ 为 0。"},
    "grad_temperature": {"en": "Through the temperature and the scale",
                         "zh": "经过温度与缩放"},
    "grad_temperature_root": {
        "en": "$L = (S + M)/\\tau$ with a constant mask gives $dS = dL/\\tau$; $S = sR$, with the "
              "scale $s = 1/\\sqrt{{d_k}} = {s}$, gives $dR = s\\, dS$.",
        "zh": "由 $L = (S + M)/\\tau$（掩码为常数）得 $dS = dL/\\tau$；由 $S = sR$（缩放因子 "
              "$s = 1/\\sqrt{{d_k}} = {s}$）得 $dR = s\\, dS$。"},
    "grad_temperature_none": {
        "en": "$L = (S + M)/\\tau$ with a constant mask gives $dS = dL/\\tau$; $S = sR$, with no "
              "scaling ($s = 1$), gives $dR = s\\, dS = dS$.",
        "zh": "由 $L = (S + M)/\\tau$（掩码为常数）得 $dS = dL/\\tau$；由 $S = sR$（不缩放，"
              "$s = 1$）得 $dR = s\\, dS = dS$。"},
    "grad_temperature_given": {
        "en": "$L = (S + M)/\\tau$ with a constant mask gives $dS = dL/\\tau$; $S = sR$, with the "
              "given scale $s = {s}$, gives $dR = s\\, dS$.",
        "zh": "由 $L = (S + M)/\\tau$（掩码为常数）得 $dS = dL/\\tau$；由 $S = sR$（给定的缩放因子 "
              "$s = {s}$）得 $dR = s\\, dS$。"},

    "grad_inputs": {"en": "Through $R = QK^{{\\mathsf T}}$: queries and keys",
                    "zh": "经过 $R = QK^{{\\mathsf T}}$：query 与 key 的梯度"},
    "grad_tau": {"en": "Gradient of the temperature", "zh": "温度的梯度"},
    "grad_tau_text": {"en": "$\\partial L_{{ij}}/\\partial \\tau = -L_{{ij}}/\\tau$ on readable "
                            "entries, so",
                      "zh": "在可读取位置 $\\partial L_{{ij}}/\\partial \\tau = -L_{{ij}}/\\tau$，因此"},
    "grad_projections": {"en": "Gradients of the projections", "zh": "投影矩阵的梯度"},
    "grad_projections_text": {"en": "$Q = XW_Q$, $K = XW_K$, $V = XW_V$, so by the chain rule:",
                              "zh": "由 $Q = XW_Q$、$K = XW_K$、$V = XW_V$ 及链式法则："},
    "grad_projections_cross": {"en": "$Q = XW_Q$, $K = YW_K$, $V = YW_V$, so by the chain rule:",
                               "zh": "由 $Q = XW_Q$、$K = YW_K$、$V = YW_V$ 及链式法则："},
    "grad_checked": {"en": "Central differences in mpmath ({digits} digits, step $h = 10^{{-20}}$) "
                           "for {count} input entries agree with the exact gradients: largest "
                           "difference ${difference}${at}.",
                     "zh": "mpmath 中心差分（{digits} 位精度，步长 $h = 10^{{-20}}$）对 {count} 个输入"
                           "元素与精确梯度一致：最大差 ${difference}${at}。"},
    "grad_check_failed": {"en": "Central differences in mpmath DISAGREE with the exact gradients "
                                "at {where}: difference ${difference}$.",
                          "zh": "mpmath 中心差分与精确梯度在 {where} 处不一致：差为 ${difference}$。"},
    "grad_symbols_at": {"en": " (symbols at {values})", "zh": "（符号取 {values}）"},
}
