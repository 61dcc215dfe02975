"""Each row's sum of exponentials Z_i: which rows name it, their definitions, and A, O and the row
checks written over it (2/Z_4, (14 + 100 e^{10})/Z_4, (2 + 1 + 3 + e^{10})/Z_4 = 1)."""

from __future__ import annotations

from ..derivation import Derivation, Name
from ..derivation.keys import key_order
from ..printing.fit import Fit
from ..printing.matrices import Factored, cells, sum_lines, terms
from ..printing.printer import approx, math

INLINE_NAME = 160.0  # a name wider than this (points) is displayed, not written in the text
# (written with slashes, e^{a}/(e^{a} + 1), a name is about a sixth wider than stacked)
REPEATS = 3  # a row sum the entries of A and O would repeat this often is named once


def wide_sums(d: Derivation) -> set[int]:
    """The rows whose Z_i is too wide to be written in the text (a name for it helps)."""
    return {i for i, z in enumerate(d.sums)
            if z is not None and not Fit(INLINE_NAME).fits(math(z, inline=True))}


def repeated_sums(d: Derivation) -> set[int]:
    """The rows whose irrational Z_i the entries of A and O would write REPEATS times or more
    (2/(6 + e^{10}) four times in a row): a rational sum cancels into each weight (1/3)."""
    if "E" in d.rounded or "A" in d.rounded:
        return set()
    A, O = d.display["A"], d.display["O"]
    weights = [n.symbol for n in d.names if n.kind == "weight"]  # p, q stand for the fractions
    def repeats(x) -> bool:
        return not x.is_Rational and not any(x.has(w) for w in weights)
    return {i for i, z in enumerate(d.sums) if z is not None and not z.is_Rational and
            sum(repeats(x) for x in [*A.row(i), *O.row(i)]) >= REPEATS}


def named_sums(d: Derivation) -> set[int]:
    """The rows whose A and O are written over their Z_i: a long sum or a repeated one."""
    return wide_sums(d) | repeated_sums(d)


def over_sums(d: Derivation, numerators: str) -> Factored:
    """Each row as Z_i^{-1} times its numerators (E for A, EV for O, whose terms go in the keys'
    order), one line high where a stacked 1/Z_i doubles it; a row with no readable key as it is."""
    shown = d.display[numerators]
    return [(rf"Z_{{{i + 1}}}^{{-1}}", [terms(x, key_order(d, i, x)) for x in shown.row(i)])
            if d.sums[i] is not None else
            ("", [terms(x) for x in d.display["A" if numerators == "E" else "O"].row(i)])
            for i in range(shown.rows)]


def over_name(numerator: list[str], i: int) -> str:
    """One entry over row i's name: 0, 2/Z_4, e^{10}/Z_4, (14 + 100 e^{10})/Z_4."""
    if numerator == ["0"]:
        return "0"
    top = " ".join(numerator)
    return f"{f'({top})' if len(numerator) > 1 else top}/Z_{{{i + 1}}}"


def named_cells(d: Derivation, stage: str) -> list[list[str]]:
    """A or O as shown, the rows whose sum is named written over it (2/Z_4 beside 1/3), the
    others then with slashes too (−e/(1 + 2e), not a stacked fraction beside t^{-4}/Z_1)."""
    named, grid = named_sums(d), cells(d.display[stage])
    factored = over_sums(d, "E" if stage == "A" else "N")
    shown = d.display[stage]
    if named:
        grid = [[math(shown[i, j], inline=True) if r"\frac" in text else text
                 for j, text in enumerate(row)] for i, row in enumerate(grid)]
    return [[text if shown[i, j].is_Rational else over_name(t, i)  # an exact 1 is 1, not Z_1/Z_1
             for j, (t, text) in enumerate(zip(factored[i][1], row))] if i in named else row
            for i, row in enumerate(grid)]


def keyed_sum(d: Derivation, i: int) -> str:
    """Row i's Z_i with its terms in the keys' order where key_order finds one, else as printed."""
    order = key_order(d, i, d.sums[i])
    return " ".join(terms(d.sums[i], order)) if order else math(d.sums[i], slash=True)


def sum_definitions(d: Derivation, rows: list[int], fit: Fit) -> list[str]:
    """Z_i = a + b + … for the rows given, aligned at their equals signs, broken at plus signs."""
    return [line for i in rows for line in sum_lines(f"Z_{{{i + 1}}}", d.sums[i], fit,
                                                     order=key_order(d, i, d.sums[i]))]


def named_check(d: Derivation, i: int) -> str:
    """Row i's check over its name: (2 + 1 + 3 + e^{10})/Z_4 = 1."""
    readable = d.trace.readable[i]
    parts = [math(x, slash=True) for j, x in enumerate(d.display["E"].row(i)) if readable[j]]
    return rf"({' + '.join(parts)})/Z_{{{i + 1}}} = 1"


def name_text(n: Name, inline: bool = True) -> str:
    """a = 1/\\sqrt{2} ≈ 0.7071 in a sentence (inline), a = \\frac{1}{\\sqrt{2}} in a display."""
    parts = [math(n.symbol)] + ([math(n.formula, inline=inline)] if n.formula is not None else [])
    parts.append(math(n.value, slash=True, inline=inline))
    text = " = ".join(dict.fromkeys(parts))
    return text + (rf" \approx {approx(n.decimal)}" if n.decimal and not n.decimal.exact else "")


def name_lines(names: list[Name]) -> tuple[str, ...]:
    """a &= \\frac{1}{\\sqrt{2}} ≈ 0.7071, one aligned display line a name."""
    return tuple(f"{math(n.symbol)} &= " + name_text(n, inline=False).split(" = ", 1)[1]
                 for n in names)
