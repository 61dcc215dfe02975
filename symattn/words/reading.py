"""Why an answer could not be read (verify, grade), English and Chinese: the parser's reasons
that help (a nearly-right entry) and the one sentence for text that is no answer at all."""

from __future__ import annotations

READING_PHRASES: dict[str, dict[str, str]] = {
    "read_unreadable": {"en": "could not read this as a number or matrix",
                        "zh": "无法将其读作数字或矩阵"},
    "read_implicit": {"en": "column {0}: implicit multiplication: write '{1}'",
                      "zh": "第 {0} 列：省略了乘号，请写成 '{1}'"},
    "read_parentheses": {"en": "column {0}: function '{1}' needs parentheses, e.g. '{2}'",
                         "zh": "第 {0} 列：函数 '{1}' 需要括号，例如 '{2}'"},
    "read_unknown_name": {"en": "column {0}: unknown name '{1}'", "zh": "第 {0} 列：未知的名称 '{1}'"},
    "read_character": {"en": "column {0}: character {1} is not allowed",
                       "zh": "第 {0} 列：不允许使用字符 {1}"},
    "read_division_by_zero": {"en": "column {0}: division by zero", "zh": "第 {0} 列：除以零"},
    "read_not_real": {"en": "column {0}: not a finite real number", "zh": "第 {0} 列：不是有限实数"},
    "read_shortened": {"en": "a shortened printout (with '...') lacks entries; print the whole array",
                       "zh": "打印结果被省略（含 '...'），缺少条目；请打印完整数组"},
    "read_batch": {"en": "the value holds {0} matrices of {1}x{2} (shape {3}); answer one matrix",
                   "zh": "该值含有 {0} 个 {1}x{2} 矩阵（形状 {3}）；请只回答一个矩阵"},
    "read_axes": {"en": "a value of more than {0} axes", "zh": "该值的维数超过 {0}"},
    "read_brackets": {"en": "unbalanced brackets", "zh": "括号不配对"},
    "read_shape": {"en": "a shape is written like 4x3 or [4, 3]", "zh": "形状应写成 4x3 或 [4, 3]"},
    "read_too_long": {"en": "the answer is {0} characters long (limit {1})",
                      "zh": "答案长 {0} 个字符（上限 {1}）"},
    "read_no_answer": {"en": "no answer", "zh": "未作答"},
    "read_failed": {"en": "the checker failed on this answer ({0}); please report it",
                    "zh": "检查程序在此答案上出错（{0}）；请报告此问题"},
    "read_row": {"en": "line {0}: {1}", "zh": "第 {0} 行：{1}"},
    "row_csv": {"en": "CSV: {0}", "zh": "CSV 格式错误：{0}"},
    "row_nul": {"en": "contains a NUL character", "zh": "含有 NUL 字符"},
    "row_not_utf8": {"en": "not UTF-8 text (the byte 0x{0})", "zh": "不是 UTF-8 文本（字节 0x{0}）"},
    "row_cells": {"en": "{0} cells but the header has {1}", "zh": "有 {0} 个单元格，但表头有 {1} 个"},
}
"""Reasons an answer is invalid: read_* (a cell or entry), row_* (a CSV row, after read_row)."""
