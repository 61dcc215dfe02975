"""The words of `symattn verify` and `grade`: statuses, rules and notes, English and Chinese."""

from __future__ import annotations

ANSWER_PHRASES: dict[str, dict[str, str]] = {
    "verification": {"en": "Verification", "zh": "答案核对"},
    "status_correct": {"en": "correct", "zh": "正确"},
    "status_wrong": {"en": "wrong", "zh": "错误"},
    "status_undecided": {"en": "undecided", "zh": "未能判定"},
    "status_invalid": {"en": "invalid", "zh": "无效"},
    "status_time_limit": {"en": "time limit", "zh": "超时"},
    "status_not_graded": {"en": "not graded", "zh": "未评分"},
    "note_not_graded": {"en": "not graded: the grading worker crashed on this answer twice ({0}), "
                              "not the student's fault; rerun grade or review it by hand",
                        "zh": "未评分：评分进程两次在此答案上崩溃（{0}），并非学生的错；"
                              "请重新运行 grade 或人工复核"},
    "note_time_limit": {"en": "took more than {0:g} s of CPU time, twice; review it by hand",
                        "zh": "两次都用了超过 {0:g} 秒的 CPU 时间；请人工复核"},
    "expected_given": {"en": "expected {expected}, given {given}",
                       "zh": "应为 {expected}，给出 {given}"},
    "entries_wrong": {"en": "{count} of {total} entries not correct",
                      "zh": "{total} 个条目中有 {count} 个不正确"},
    "rule_exact": {"en": "exact comparison", "zh": "精确比较"},
    "rule_places": {"en": "a decimal with {n} {places} must be the exact value rounded to {n} {places}",
                    "zh": "{n} 位小数须等于精确值四舍五入到 {n} 位"},
    "rule_tie": {"en": "the exact value lies halfway at {n} {places}: either rounding is accepted",
                 "zh": "精确值在第 {n} 位恰为一半：两种舍入都接受"},
    "rule_tolerance": {"en": "within ±{t} of the exact value", "zh": "与精确值之差不超过 {t}"},
    "rule_relative": {"en": "within a relative error of {t}", "zh": "相对误差不超过 {t}"},
    "rule_sigfigs": {"en": "the exact value rounded to {n} significant figures",
                     "zh": "精确值保留 {n} 位有效数字"},
    "rule_float": {"en": "within {0} precision of the exact value", "zh": "与精确值在 {0} 精度内一致"},
    "rule_float_off": {"en": "beyond {0} precision of the exact value ({1})",
                       "zh": "超出精确值的 {0} 精度（{1}）"},
    "rule_allclose": {"en": "|given − exact| ≤ atol + rtol·|exact| (rtol = {rtol}, atol = {atol})",
                      "zh": "|给出 − 精确| ≤ atol + rtol·|精确|（rtol = {rtol}，atol = {atol}）"},
    "hint_float": {"en": "agrees with the exact value to {0} precision ({1}); set rule = \"{0}\" "
                         "in [grading] to accept",
                   "zh": "与精确值在 {0} 精度内一致（{1}）；在 [grading] 中设 rule = \"{0}\" 即可接受"},
    "hint_float_all": {"en": "the {0} entries marked wrong all agree with the exact values to {1} "
                             "precision; set rule = \"{1}\" in [grading] to accept",
                       "zh": "判为错误的 {0} 个条目都与精确值在 {1} 精度内一致；在 [grading] 中设 "
                             "rule = \"{1}\" 即可接受"},
    "off_relative": {"en": "{0} relative", "zh": "相对误差 {0}"},
    "off_absolute": {"en": "{0} off", "zh": "相差 {0}"},
    "rule_shape": {"en": "shape", "zh": "形状"},
    "rule_numeric": {"en": "equal to {n} digits but not proved equal",
                     "zh": "在 {n} 位精度下相等，但未能证明"},
    "rule_parse": {"en": "could not be read: {error}", "zh": "无法解析：{error}"},
    "note_unreadable": {"en": "could not be read: {0}", "zh": "无法解析：{0}"},
    "note_shapes_only": {"en": "this problem gives only shapes; values cannot be checked",
                         "zh": "本题只给出形状，无法核对数值"},
    "note_out_of_range": {"en": "no such entry: the stage is {2}x{3}",
                          "zh": "没有这个位置：该矩阵为 {2}x{3}"},
    "note_size": {"en": "expected {0}x{1} entries, given {2}x{3}",
                  "zh": "应有 {0}x{1} 个条目，给出 {2}x{3}"},
    "note_not_given": {"en": "{0} is not given by this problem", "zh": "本题未给出 {0}"},
    "summary_all": {"en": "all {total} claims correct", "zh": "全部 {total} 项正确"},
    "summary_not_graded_one": {
        "en": "1 answer could not be graded: the grading worker crashed (memory or a crash); rerun "
              "grade, or review it by hand (it counts as neither correct nor wrong)",
        "zh": "有 1 个答案未能评分：评分进程崩溃（内存不足或崩溃）；请重新运行 grade 或人工复核"
              "（它既不算正确也不算错误）"},
    "summary_not_graded": {
        "en": "{count} answers could not be graded: the grading worker crashed (memory or a "
              "crash); rerun grade, or review them by hand (they count as neither correct nor "
              "wrong)",
        "zh": "有 {count} 个答案未能评分：评分进程崩溃（内存不足或崩溃）；请重新运行 grade 或人工"
              "复核（它们既不算正确也不算错误）"},
    "summary_some": {"en": "{correct} of {total} claims correct", "zh": "{total} 项中 {correct} 项正确"},
}
"""Verification feedback (symattn verify, grade), English and Chinese."""
