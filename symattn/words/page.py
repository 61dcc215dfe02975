"""Every word the interactive course page shows, in English and Chinese (the course's vocabulary).

Placeholders in {braces} are filled by the page script with plain text (never HTML).
"""

from __future__ import annotations

from .handcheck import HAND_PHRASES
from .registry import PHRASES, Same

PREFIX = "page."
"""The page's keys are registered as page.KEY: the page script reads them by KEY."""

PAGE_PHRASES: dict[str, dict[str, str] | Same] = {
    "lab": {"en": "exact attention lab", "zh": "精确注意力实验"},
    "intro": {"en": "At the listed temperatures every value below is exact, computed by symattn "
                    "before this page was written, with decimals beside; at any other temperature "
                    "the page computes float64 values, marked ≈.",
              "zh": "在列出的温度上，下面每个数都是 symattn 在生成页面时算出的精确值，旁附小数；"
                    "其他温度下由本页以 float64 计算，标 ≈。"},
    "intro_exact": {"en": "Every value below is exact, computed by symattn for each state of the "
                          "controls before this page was written; decimals are shown beside the "
                          "exact entries.",
                    "zh": "下面每个数都是精确值：symattn 在生成页面时已为控件的每种状态完成精确计算；"
                          "精确值旁给出小数。"},
    "noscript": {"en": "The controls of this page need JavaScript. The same derivation is printed "
                       "by: symattn solve FILE --format markdown",
                 "zh": "本页控件需要 JavaScript。相同的推导可用 symattn solve FILE --format markdown "
                       "输出。"},
    "old_browser": {"en": "This browser cannot unpack the page's scripts and math (it lacks "
                           "DecompressionStream); open the page in a current browser.",
                    "zh": "此浏览器无法解压本页的脚本与公式（缺少 DecompressionStream）；请用较新的浏览器打开。"},
    "controls": {"en": "Experiment controls", "zh": "实验控件"},
    "query_row": {"en": "Query row", "zh": "当前 query 行"},
    "row_option": {"en": "{row} · {label}", "zh": "{row} · {label}"},
    "temperature": {"en": "Temperature τ", "zh": "温度 τ"},
    "tau_typed": {"en": "Temperature τ, typed (a decimal or a fraction)",
                  "zh": "输入温度 τ（小数或分数）"},
    "tau_invalid": {"en": "Give τ between {min} and {max}, as a decimal or a fraction (1.25 or 5/4).",
                    "zh": "请输入 {min} 到 {max} 之间的 τ，可写成小数或分数（1.25 或 5/4）。"},
    "tau_invalid_fixed": {"en": "This page has exact values only at the listed temperatures.",
                          "zh": "本页只在列出的温度上有精确值。"},
    "exact_at": {"en": "Exact at τ =", "zh": "精确值：τ ="},
    "exact": {"en": "exact", "zh": "精确"},
    "float64": {"en": "≈ float64, computed in this page", "zh": "≈ 本页内 float64 计算"},
    "free_note": {"en": "At τ = {tau} the logits, weights and outputs are float64 values computed in "
                        "this page (marked ≈); R, S and M do not depend on τ and stay exact. The "
                        "exact derivation and its checks are given at τ = {taus}.",
                  "zh": "τ = {tau} 时，logits、权重和输出是本页内以 float64 计算的值（标 ≈）；R、S、M 与 τ "
                        "无关，仍为精确值。精确推导及核对见 τ = {taus}。"},
    "causal_mask": {"en": "Causal mask", "zh": "因果掩码"},
    "causal_mask_top_left": {"en": "Causal mask (cross-attention, top-left: query i reads keys 1 to i)",
                             "zh": "因果掩码（交叉注意力，左上对齐：第 i 个 query 读取第 1 到 i 个 key）"},
    "words_X": {"en": "token representations", "zh": "token 表示"},
    "words_Y": {"en": "key/value sequence", "zh": "key/value 序列"},
    "words_W": {"en": "projection", "zh": "投影矩阵"},
    "step2_text_projections": {"en": "This problem gives the token representations X and the "
                                     "projections W_Q, W_K, W_V (the tables below): Q = XW_Q is "
                                     "{n_q} × {d_k}, K = {source}W_K is {n_k} × {d_k}, V = "
                                     "{source}W_V is {n_k} × {d_v}: Q and K share d_k = {d_k}.",
                               "zh": "本题给出 token 表示 X 与投影矩阵 W_Q、W_K、W_V（见下方表格）：Q = XW_Q 为 "
                                     "{n_q} × {d_k}，K = {source}W_K 为 {n_k} × {d_k}，V = {source}W_V 为 "
                                     "{n_k} × {d_v}：Q 与 K 共享 d_k = {d_k}。"},
    "causal_mask_bottom_right": {"en": "Causal mask (bottom-right)", "zh": "因果掩码（右下对齐）"},
    "share": {"en": "Share link (restores row, temperature, mask, step and edits)",
              "zh": "分享链接（恢复 query 行、温度、掩码、步骤与修改）"},
    "copy": {"en": "Copy link", "zh": "复制链接"},
    "copied": {"en": "Copied", "zh": "已复制"},
    "copy_failed": {"en": "Select the link and copy it", "zh": "请选中链接后手动复制"},
    "share_none": {"en": "Embedded without an address of its own: open the page itself to share a state",
                   "zh": "此处嵌入的页面没有自己的地址：请单独打开该页面再分享状态"},
    "reset": {"en": "Reset", "zh": "重置"},
    "heatmap": {"en": "Attention weights A", "zh": "注意力权重矩阵 A"},
    "heatmap_note": {"en": "Rows are queries, columns are keys. Colour encodes the weight only: read "
                           "it with the values in the cells, the tables and the summary.",
                     "zh": "行是 query，列是 key。颜色只编码权重大小，须与单元数值、矩阵表和文本摘要一起读取。"},
    "list_separator": Same("list_separator"),
    "masked": Same("masked_weight"),
    "zero_future": {"en": "future position", "zh": "未来位置"},
    "zero_padding": {"en": "padding", "zh": "填充"},
    "zero_entry": {"en": "mask entry", "zh": "掩码条目"},
    "zero_bias": {"en": "−∞ bias", "zh": "−∞ 偏置"},
    "zero_title": {"en": "weight exactly 0: {reason}", "zh": "权重精确为 0：{reason}"},
    "summary": {"en": "The current row", "zh": "当前行摘要"},
    "summary_reads": {"en": "Query {row} ({label}) may read {count} of {total} keys: {keys}.",
                      "zh": "第 {row} 个 query（{label}）可读取 {total} 个 key 中的 {count} 个：{keys}。"},
    "summary_reads_plain": {"en": "Query {row} may read {count} of {total} keys: {keys}.",
                            "zh": "第 {row} 个 query 可读取 {total} 个 key 中的 {count} 个：{keys}。"},
    "summary_masked": {"en": "Masked, weight exactly 0: {keys}.",
                       "zh": "被掩码、权重精确为 0：{keys}。"},
    "summary_unmasked": {"en": "No key is masked.", "zh": "没有 key 被掩码。"},
    "summary_weights": {"en": "Weights: {weights}.", "zh": "权重：{weights}。"},
    "summary_largest": {"en": "Largest weight: {key} ({weight}); the readable weights sum to "
                              "exactly 1.",
                        "zh": "最大权重：{key}（{weight}）；可读取位置的权重之和精确为 1。"},
    "summary_largest_tie": {"en": "Largest weight: a tie of {count} keys, {keys}, exactly equal ({weight} "
                                  "each); the readable weights sum to exactly 1.",
                            "zh": "最大权重：{count} 个 key 并列（{keys}），精确相等（各为 {weight}）；"
                                  "可读取位置的权重之和精确为 1。"},
    "summary_largest_free": {"en": "Largest weight: {key} ({weight}); the readable weights sum to 1 "
                                   "up to float64 rounding.",
                             "zh": "最大权重：{key}（{weight}）；可读取位置的权重之和在 float64 舍入误差内为 1。"},
    "summary_largest_free_tie": {"en": "Largest weight: a tie of {count} keys, {keys}, exactly equal "
                                       "at every τ ({weight} each); the readable weights sum to 1 up "
                                       "to float64 rounding.",
                                 "zh": "最大权重：{count} 个 key 并列（{keys}），在任何 τ 下都精确相等（各为 "
                                       "{weight}）；可读取位置的权重之和在 float64 舍入误差内为 1。"},
    "summary_rounding": {"en": "The rounded weights shown add up to {sum}, not 1: each is rounded "
                               "on its own; the exact weights sum to exactly 1.",
                         "zh": "显示的舍入权重相加为 {sum} 而不是 1：每个数各自舍入；精确权重之和恰为 1。"},
    "summary_output": {"en": "Output, row {row} of O: ({values}).",
                       "zh": "输出 O 的第 {row} 行：({values})。"},
    "summary_caution": {"en": "A large weight is not the cause of a model's prediction: this is "
                              "one head of one layer, with fixed matrices.",
                        "zh": "最大权重不等于最终预测的完整原因：这里只有一个固定的头和一层。"},
    "scroll_region": {"en": "Scrolls sideways (arrow keys)", "zh": "可横向滚动（方向键）"},
    "mistakes": {"en": "Classic mistakes", "zh": "经典错误"},
    "mistakes_note": {"en": "What each classic mistake gives for the current query row, beside the "
                            "right weights and output, at the problem's own temperature and mask "
                            "(symattn mistakes FILE prints them exactly).",
                      "zh": "每个经典错误在当前 query 行给出的权重与输出，与正确结果并列；按题目本身的温度与掩码计算"
                            "（symattn mistakes FILE 输出精确值）。"},
    "mistake_column": {"en": "Computed as", "zh": "计算方式"},
    "weights_of_row": {"en": "Weights, row {row}", "zh": "第 {row} 行权重"},
    "output_of_row": {"en": "Output, row {row}", "zh": "第 {row} 行输出"},
    "right_answer": {"en": "Right", "zh": "正确"},
    "mistake_not_applicable": Same("mistake_not_applicable"),
    "mistake_same_result": {"en": "gives the right result here", "zh": "在本题恰好得到正确结果"},
    "mistake_over_budget": {"en": "too costly to compute here", "zh": "计算代价过高，未计算"},
    "tables": {"en": "The nine tables", "zh": "九张表"},
    "shape": {"en": "{rows} × {cols}", "zh": "{rows} × {cols}"},
    "derivation": {"en": "Derivation of the current row", "zh": "当前行的推导"},
    "all_passed": {"en": "All checks pass.", "zh": "全部核对通过。"},
    "some_failed": {"en": "A check did not pass.", "zh": "有核对未通过。"},
    "state_error": {"en": "This state cannot be computed:", "zh": "此状态无法计算："},
    "walkthrough": {"en": "The mechanism in five steps", "zh": "机制动画：五个步骤"},
    "step_of": {"en": "Step {n} / 5", "zh": "第 {n} 步 / 共 5 步"},
    "previous": {"en": "Previous", "zh": "上一步"},
    "next": {"en": "Next", "zh": "下一步"},
    "play": {"en": "Play", "zh": "播放"},
    "pause": {"en": "Pause", "zh": "暂停"},
    "keys_hint": {"en": "Keyboard: ← and → move between the steps, Home and End go to the first "
                        "and the last.",
                  "zh": "键盘：← 与 → 切换步骤，Home 与 End 跳到第一步与最后一步。"},
    "reduced_motion": {"en": "Reduced motion is on: the same five steps, without continuous motion. "
                             "Use the buttons or the arrow keys.",
                       "zh": "已启用减少动态效果：步骤完全相同，但没有连续动画。请使用按钮或方向键。"},
    "step1": {"en": "Tokens", "zh": "Token"},
    "step1_text": {"en": "The input: {n_q} query positions and {n_k} key/value positions. Each row "
                         "of a matrix is one position; the query being updated is {label}.",
                   "zh": "输入：{n_q} 个 query 位置与 {n_k} 个 key/value 位置。矩阵的每一行对应一个位置；"
                         "当前更新的 query 是“{label}”。"},
    "step2": {"en": "Q/K/V projections", "zh": "Q/K/V 投影"},
    "step2_text": {"en": "In a model all three are projections of the token representations H; "
                         "this problem gives Q, K and V directly. Q is {n_q} × {d_k}, K is "
                         "{n_k} × {d_k}, V is {n_k} × {d_v}: Q and K share d_k = {d_k}.",
                   "zh": "模型中三者都由 token 表示 H 投影得到；本题直接给出 Q、K、V。Q 为 {n_q} × {d_k}，"
                         "K 为 {n_k} × {d_k}，V 为 {n_k} × {d_v}：Q 与 K 共享 d_k = {d_k}。"},
    "step3": {"en": "Score matrix", "zh": "分数矩阵"},
    "step3_text": {"en": "Query {row} is compared with every key: the score matrix is {n_q} × {n_k}, "
                         "and its row {row} holds the dot products of query {row} with each key.",
                   "zh": "第 {row} 个 query 与每个 key 比较：分数矩阵为 {n_q} × {n_k}，"
                         "其第 {row} 行是第 {row} 个 query 与各 key 的点积。"},
    "step4": {"en": "Scale, mask, softmax", "zh": "缩放、掩码、softmax"},
    "step4_text": {"en": "Scale the scores, add the mask (−∞ blocks a key), divide by τ, then "
                         "normalise the row: the weights are non-negative and sum to 1.",
                   "zh": "缩放分数，加上掩码（−∞ 禁止读取），除以 τ，再逐行归一化：权重非负且和为 1。"},
    "step4_text_bias": {"en": "Scale the scores, add the mask (a masked key gets {bias} instead "
                              "of −∞, as the code writes it: its weight is tiny, not 0), divide by "
                              "τ, then normalise the row: the weights are non-negative and sum to 1.",
                        "zh": "缩放分数，加上掩码（被掩码的 key 得到 {bias} 而非 −∞，与代码的写法一致："
                              "其权重极小但不为 0），除以 τ，再逐行归一化：权重非负且和为 1。"},
    "step5": {"en": "Weighted sum", "zh": "加权求和"},
    "step5_text": {"en": "Output row {row} is the weighted sum of the value rows, a vector of "
                         "length d_v = {d_v}; masked keys add nothing.",
                   "zh": "输出的第 {row} 行是 value 各行的加权和，长度为 d_v = {d_v}；被掩码的 key 不参与。"},
    "queries_label": {"en": "Queries", "zh": "Query"},
    "keys_label": {"en": "Keys / values", "zh": "Key / value"},
    "scores_row": {"en": "scores", "zh": "原始分数"},
    "scaled_row": {"en": "scaled", "zh": "缩放分数"},
    "logits_row": {"en": "logits", "zh": "logits"},
    "weights_row": {"en": "weights", "zh": "权重"},
    "shapes_only": {"en": "This problem gives only shapes: every stage's shape and the two "
                          "constraints.",
                    "zh": "本题只给出形状：各阶段的形状与两条约束。"},
    "constraint_dk": {"en": "Q and K share d_k = {d_k}, so QKᵀ is defined: {n_q} × {n_k}.",
                      "zh": "Q 与 K 共享 d_k = {d_k}，所以 QKᵀ 有定义：{n_q} × {n_k}。"},
    "constraint_nk": {"en": "K and V share n_k = {n_k}, so AV is defined: {n_q} × {d_v}.",
                      "zh": "K 与 V 共享 n_k = {n_k}，所以 AV 有定义：{n_q} × {d_v}。"},
    "footer": {"en": "Generated by symattn from {source}. Exact values from SymPy, checked against "
                     "an independent mpmath computation; decimals rounded to {places} places; math "
                     "typeset in this page by KaTeX (MIT licence). The page needs no network access.",
               "zh": "由 symattn 从 {source} 生成。精确值由 SymPy 计算，并与独立的 mpmath 数值计算核对；"
                     "小数保留 {places} 位；公式由本页内的 KaTeX（MIT 许可）排版。本页无需联网。"},
    # ---- multi-head pages and symbolic states ----
    "head": {"en": "Head", "zh": "注意力头"},
    "head_option": {"en": "{head} of {count} · {setting}", "zh": "第 {head} 个（共 {count} 个）· {setting}"},
    "head_masked": {"en": "τ = {tau}, causal mask", "zh": "τ = {tau}，因果掩码"},
    "head_unmasked": {"en": "τ = {tau}, no mask", "zh": "τ = {tau}，无掩码"},
    "head_tag": {"en": "head {head}", "zh": "第 {head} 个头"},
    "heads_title": {"en": "Combining the heads: concatenate, then project",
                    "zh": "合并各头：先拼接，再投影"},
    "share_heads": {"en": "Share link (restores head, row, temperature, mask, step and edits)",
                    "zh": "分享链接（恢复注意力头、行、温度、掩码、步骤与修改）"},
    "heads_note": {"en": "Each head's output O (its last table above) becomes a block of columns "
                         "of C; C times W_O is the layer's output. These three tables are exact, "
                         "at each head's own temperature and mask as the file gives them.",
                   "zh": "每个头的输出 O（上方该头的最后一张表）成为 C 的一组列；C 乘 W_O 即本层输出。"
                         "这三张表为精确值，各头取文件给定的温度与掩码。"},
    "heads_other_state": {"en": "Head {head} is shown above at another temperature or mask, so "
                                "its O there differs from its block of C.",
                          "zh": "上方第 {head} 个头显示的是另一温度或掩码，故其 O 与 C 中对应的列不同。"},
    "words_C": {"en": "heads' outputs side by side", "zh": "各头输出并排"},
    "words_W_O": {"en": "output projection", "zh": "输出投影"},
    "words_MHA": {"en": "multi-head output", "zh": "多头输出"},
    "symbolic_tau_note": {"en": "At τ = {tau} the weights are functions of {tau}, not numbers: the "
                                "heatmap has no colours and the tables no decimals here. Choose a "
                                "numeric temperature to see them.",
                          "zh": "在 τ = {tau} 时权重是 {tau} 的函数而不是数：此处热力图无颜色，表格无小数。"
                                "选一个数值温度即可看到。"},
    "symbolic_note": {"en": "These weights depend on {symbols}, which has no value on this page: "
                            "the heatmap has no colours and the tables no decimals. symattn solve "
                            "--subs gives exact values at chosen values.",
                      "zh": "这些权重依赖于 {symbols}，本页未给它取值：热力图无颜色，表格无小数。"
                            "symattn solve --subs 可在指定取值下给出精确值。"},
    # ---- the lesson: predictions, the claim, the seven-step hand check, names by state ----
    "before_lab": {"en": "Before the lab", "zh": "打开实验前"},
    "predictions_note": {"en": "Write down your predictions before you use the lab; the lab and "
                               "its tables will answer them.",
                         "zh": "使用实验前先在纸上写下预测；实验与下面的表格会给出答案。"},
    "predictions": {"en": "Predictions", "zh": "预测"},
    "claim_title": {"en": "True or false?", "zh": "判断真假"},
    "claim_true": {"en": "True", "zh": "真"},
    "claim_false": {"en": "False", "zh": "假"},
    "claim_right": {"en": "Right: the claim is {answer}.", "zh": "判断正确：这句话为{answer}。"},
    "claim_wrong": {"en": "Not quite: the claim is {answer}.", "zh": "判断有误：这句话为{answer}。"},
    "mask_on": {"en": "mask on", "zh": "掩码开启"},
    "mask_off": {"en": "mask off", "zh": "掩码关闭"},
    "names_at": {"en": "Names at this state ({state}):", "zh": "本状态（{state}）下的记号："},
    "names_changed": {"en": "These names now stand for other values than at the previous state "
                            "({state}):",
                      "zh": "以下记号在本状态下代表的值与上一状态（{state}）不同："},
    "names_was": {"en": "was", "zh": "原为"},
    # ---- editable inputs ----
    "edit_title": {"en": "Edit Q, K, V", "zh": "修改 Q、K、V"},
    "edit_intro": {"en": "Change any entry (a decimal or a fraction, e.g. -0.5 or 3/4) and press "
                         "Enter: every value on the page is then computed here in float64 and "
                         "marked ≈. Type the entry's own value back, or reset, and the exact "
                         "values return.",
                   "zh": "修改任一元素（小数或分数，如 -0.5 或 3/4）后按回车：页面上的每个数都改由本页以 "
                         "float64 计算，标 ≈。输回原值或重置，精确值即恢复。"},
    "edit_projections": {"en": "This problem gives X and the projections W_Q, W_K, W_V: edit "
                               "their entries, and Q = XW_Q, K, V are computed from them in the "
                               "page too.",
                         "zh": "本题给出 X 与投影矩阵 W_Q、W_K、W_V：修改它们的元素，Q = XW_Q、K、V "
                               "也由本页据此计算。"},
    "edit_title_projections": {"en": "Edit X, W_Q, W_K, W_V", "zh": "修改 X、W_Q、W_K、W_V"},
    "edit_entry": {"en": "{name}, row {row} ({label}), column {col}",
                   "zh": "{name}，第 {row} 行（{label}），第 {col} 列"},
    "edit_invalid": {"en": "{entry}: give a number between -{limit} and {limit}, as a decimal or a "
                           "fraction (-0.5 or 3/4). Escape restores the entry.",
                     "zh": "{entry}：请输入 -{limit} 到 {limit} 之间的数，可写成小数或分数（-0.5 或 "
                           "3/4）。按 Esc 恢复原值。"},
    "edit_count": {"en": "Edited entries: {count}. Every value is computed in this page in "
                         "float64 (≈).",
                   "zh": "已修改 {count} 个元素：各值由本页以 float64 计算（≈）。"},
    "edit_none": {"en": "The problem's own inputs.", "zh": "题目原本的输入。"},
    "edit_undo": {"en": "Undo edits", "zh": "撤销修改"},
    "edit_skip": {"en": "Skip the editor", "zh": "跳过编辑器"},
    "heat_corner": {"en": "query row, key column", "zh": "行为 query，列为 key"},  # read aloud only
    "table_corner": {"en": "row, column", "zh": "行，列"},  # read aloud only
    "edit_note": {"en": "Edited entries: {count}. R, S, L, A and O are float64 values "
                        "computed in this page (marked ≈). The exact derivation and its checks are "
                        "for the problem's own inputs: undo the edits to see them.",
                  "zh": "你修改了 {count} 个元素：R、S、L、A、O 是本页以 float64 计算的值"
                        "（标 ≈）。精确推导及核对针对题目原本的输入：撤销修改即可查看。"},
    # ---- editable inputs on multi-head and symbolic-temperature pages ----
    "edit_title_heads": {"en": "Edit X, this head's W_Q, W_K, W_V, and W_O",
                         "zh": "修改 X、本头的 W_Q、W_K、W_V 及 W_O"},
    "edit_heads": {"en": "X and W_O are shared by the heads; W_Q, W_K, W_V are the chosen head's "
                         "(each head keeps its edits). C and MultiHead(X) then take every head at "
                         "its own temperature and mask, in float64.",
                   "zh": "X 与 W_O 为各头共用；W_Q、W_K、W_V 属于所选的头（各头的修改分别保留）。"
                         "此后 C 与 MultiHead(X) 按各头自己的温度与掩码以 float64 计算。"},
    "heads_edited": {"en": "Each head's output O (its last table above) becomes a block of columns "
                           "of C; C times W_O is the layer's output. With the edited entries, C and "
                           "MultiHead(X) are float64 values computed in this page (≈), at each "
                           "head's own temperature and mask as the file gives them; undo the edits "
                           "for the exact ones.",
                     "zh": "每个头的输出 O（上方该头的最后一张表）成为 C 的一组列；C 乘 W_O 即本层输出。"
                           "含修改的元素时，C 与 MultiHead(X) 为本页以 float64 计算的值（≈），各头取文件"
                           "给定的温度与掩码；撤销修改即恢复精确值。"},
    "edit_heads_symbolic": {"en": "No editor on this page: C and MultiHead(X) take every head at "
                                  "its own temperature, a symbol here, so edited inputs would give "
                                  "them no value to show. With numeric temperatures the page has "
                                  "the editor.",
                            "zh": "本页不提供修改：C 与 MultiHead(X) 按各头自己的温度计算，而此处温度是符号，"
                                  "修改后的输入无法给出它们的数值。温度为数值时页面即提供修改。"},
    "edit_symbolic": {"en": "At τ = {tau} the weights are functions of {tau}, known exactly only for "
                            "the problem's own inputs; edited entries are computed in float64 at a "
                            "numeric temperature: choose one on the slider or type it.",
                      "zh": "τ = {tau} 时权重是 {tau} 的函数，仅对题目原本的输入有精确值；修改后的元素须在"
                            "数值温度下以 float64 计算：请用滑块选择或直接输入一个温度。"},
    "edit_mistakes": {"en": "The classic mistakes are worked out for the problem's own Q, K, V: "
                            "undo the edits to see them.",
                      "zh": "经典错误按题目原本的 Q、K、V 算出：撤销修改即可查看。"},
    **HAND_PHRASES,
}
"""Key -> language -> text (or Same: the words of another table's key, written once); every key
in both languages with the same placeholders."""


# words only a multi-head page or a page with a symbolic temperature uses (its editor's): the
# other pages go without them (every byte of the page counts)
HEADS_ONLY = frozenset({"edit_title_heads", "edit_heads", "heads_edited", "edit_heads_symbolic"})
SYMBOLIC_ONLY = frozenset({"edit_symbolic"})


# the hand check's words that only symattn/page/handcheck.py says (the page script answers a
# float state's steps with the others): not in the page's data
GENERATED_ONLY = frozenset({
    "hand_columns", "hand_columns_answer", "hand_columns_plain", "hand_columns_plain_answer",
    "hand_scores", "hand_scaled", "hand_scaled_by", "hand_mask", "hand_mask_answer",
    "hand_mask_none_answer", "hand_mask_open_answer", "hand_softmax", "hand_softmax_exact_answer",
    "hand_outputs"})

# the words only the page's HTML (its template) says: written into it when the page is built, not
# in the data the page script reads
TEMPLATE_ONLY = frozenset({
    "intro", "intro_exact", "noscript", "old_browser", "query_row", "tau_typed", "heatmap_note",
    "mistakes_note", "state_error", "keys_hint", "reduced_motion", "before_lab",
    "predictions_note", "claim_title", "hand_title", "edit_title", "edit_intro",
    "edit_projections", "edit_undo", "edit_skip"})


def page_phrases(lang: str, heads: bool = False, symbolic: bool = False,
                 script: bool = False) -> dict[str, str]:
    """The page's words in one language (with those of its heads or its symbolic temperature;
    script: those the page's data carries for its script, without GENERATED_ONLY)."""
    skip = (frozenset() if heads else HEADS_ONLY) | (frozenset() if symbolic else SYMBOLIC_ONLY)
    skip |= GENERATED_ONLY if script else frozenset()
    return {key: (PHRASES[texts.key] if isinstance(texts, Same) else texts)[lang]
            for key, texts in PAGE_PHRASES.items() if key not in skip}
