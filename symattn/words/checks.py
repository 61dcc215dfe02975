"""The words of `symattn check`: each check's name and each detail it reports, English and Chinese."""

from __future__ import annotations

CHECK_PHRASES: dict[str, dict[str, str]] = {
    "check_name_shapes": {"en": "shapes", "zh": "形状"},
    "check_name_row_sums": {"en": "rows of A sum to 1", "zh": "A 的每行之和为 1"},
    "check_name_masked_zero": {"en": "masked weights are 0", "zh": "被掩码的权重为 0"},
    "check_name_nonnegative": {"en": "weights are non-negative", "zh": "权重非负"},
    "check_name_output_bounds": {"en": "outputs within the readable values",
                                 "zh": "输出位于可读取的 value 之间"},
    "check_name_numeric": {"en": "exact = numeric", "zh": "精确值 = 数值计算"},
    "check_name_permutation": {"en": "permutation equivariance", "zh": "置换等变"},
    "detail_shapes_ok": {"en": "R, S, M, L, A are {n_q}x{n_k}; O is {n_q}x{d_v}",
                         "zh": "R、S、M、L、A 为 {n_q}x{n_k}；O 为 {n_q}x{d_v}"},
    "detail_shapes_wrong": {"en": "{items}", "zh": "{items}"},
    "detail_shape_item": {"en": "{name} is {got}, expected {want}",
                          "zh": "{name} 为 {got}，应为 {want}"},
    "detail_not_run": {"en": "not run: a stage has the wrong shape",
                       "zh": "未运行：有一个阶段的形状不对"},
    "detail_rows_bad": {"en": "row(s) {rows} do not", "zh": "第 {rows} 行之和不为 1"},
    "detail_rows_undecided": {"en": "not decided for row(s) {rows}", "zh": "第 {rows} 行无法判定"},
    "detail_rows_ok": {"en": "all {count} row(s), exactly", "zh": "全部 {count} 行，精确成立"},
    "detail_rows_ok_zero": {
        "en": "all {count} row(s), exactly (fully masked rows {rows} sum to 0 by policy)",
        "zh": "全部 {count} 行，精确成立（完全被掩码的第 {rows} 行按策略之和为 0）"},
    "detail_masked_bad": {"en": "{entries} not exactly 0", "zh": "{entries} 不精确为 0"},
    "detail_masked_ok": {"en": "{count} masked entries, exactly 0",
                         "zh": "{count} 个被掩码的位置，精确为 0"},
    "detail_nonnegative_bad": {"en": "{entries} negative", "zh": "{entries} 为负"},
    "detail_exactly": {"en": "exactly", "zh": "精确成立"},
    "detail_nonnegative_numeric": {"en": "exactly, {count} numerically ({digits} digits{at})",
                                   "zh": "精确成立，其中 {count} 个为数值判定（{digits} 位{at}）"},
    "detail_bounds_bad": {"en": "{entries} outside", "zh": "{entries} 超出范围"},
    "detail_bounds_numeric": {
        "en": "{count} entries numerically ({digits} digits{at}), the rest exactly",
        "zh": "{count} 个条目为数值判定（{digits} 位{at}），其余精确成立"},
    "detail_numeric": {
        "en": "largest difference {difference}{where} (limit 1e-{limit}; mpmath, {digits} digits{at})",
        "zh": "最大差 {difference}{where}（上限 1e-{limit}；mpmath，{digits} 位{at}）"},
    "detail_numeric_unresolved": {
        "en": "not decided: to compare to {digits} digits the values need about {needed} "
              "working digits, more than the {limit} the numerics may use{at}",
        "zh": "未判定：要比较到 {digits} 位，这些值需要约 {needed} 位工作精度（超过数值计算"
              "可用的 {limit} 位）{at}"},
    "detail_where": {"en": " at {entry}", "zh": "，位于 {entry}"},
    "detail_at": {"en": " at {values}", "zh": "，取 {values}"},
    "detail_permutation_ok": {
        "en": "reversing the queries reverses the rows of O; reversing keys with values leaves "
              "O unchanged; exactly",
        "zh": "倒转 query 的顺序，O 的行随之倒转；key 与 value 一起倒转，O 不变；精确成立"},
    "detail_permutation_bad": {"en": "O did not follow: {orders}", "zh": "O 没有随之改变：{orders}"},
    "order_query_order": {"en": "query order", "zh": "query 的顺序"},
    "order_key_order": {"en": "key order", "zh": "key 的顺序"},
    "mark_ok": {"en": "ok", "zh": "通过"},
    "mark_failed": {"en": "FAIL", "zh": "未通过"},
    "mark_undecided": {"en": "undecided", "zh": "未定"},
    "checks_passed": {"en": "all checks passed", "zh": "全部检查通过"},
    "checks_failed": {"en": "some checks did not pass", "zh": "有检查未通过"},
    "head_mark": {"en": "head {k}", "zh": "头 {k}"},
    "heads_output": {"en": "output = Concat(heads) W_O: largest difference from mpmath {difference}",
                     "zh": "输出 = Concat(heads) W_O：与 mpmath 的最大差 {difference}"},
    "check_line": {"en": "[{mark}] {name}: {detail}", "zh": "[{mark}] {name}：{detail}"},
    "shapes_check_d_k": {"en": "Q and K share d_k = {d_k}, so Q K^T is {n_q}x{n_k}",
                         "zh": "Q 与 K 的 d_k 都是 {d_k}，所以 Q K^T 为 {n_q}x{n_k}"},
    "shapes_check_n_k": {"en": "K and V share n_k = {n_k}, so O = A V is {n_q}x{d_v}",
                         "zh": "K 与 V 的 n_k 都是 {n_k}，所以 O = A V 为 {n_q}x{d_v}"},
    "list_separator": {"en": ", ", "zh": "、"},
    "item_separator": {"en": "; ", "zh": "；"},
}
