"""Plot blocks -> one standalone SVG (no plotting library): a panel per plot, stacked."""

from __future__ import annotations

from html import escape

from ..documents.blocks import DASHES, Plot
from ..printing.plain import plain

WIDTH, PANEL, LEFT, RIGHT, TOP, BOTTOM = 760, 400, 64, 230, 40, 64
HEX = ("#1f4fd1", "#d12a2a", "#1c7c1c", "#e08a00", "#7b3fb8", "#8b5a2b", "#008080", "#707070")
DASH_ARRAYS = {"solid": "", "dashed": "7 4", "dotted": "2 3", "dashdotted": "7 3 2 3",
               "densely dashed": "4 2", "loosely dotted": "2 7"}
FONT = "font-family=\"DejaVu Sans, Noto Sans CJK SC, sans-serif\""


def render_svg(plots: list[Plot]) -> str:
    """A complete SVG document with one panel per plot."""
    height = PANEL * len(plots)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}">',
             f'<rect width="{WIDTH}" height="{height}" fill="white"/>']
    for k, plot in enumerate(plots):
        parts += _panel(plot, k * PANEL)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _panel(plot: Plot, top: int) -> list[str]:
    xs = [float(x) for curve in plot.curves for x, _ in curve.points]
    lo, hi = min(xs), max(xs)
    span = hi - lo or 1.0
    inner_w, inner_h = WIDTH - LEFT - RIGHT, PANEL - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - lo) / span * inner_w

    def py(y: float) -> float:
        return top + TOP + (1 - y) * inner_h

    out = [f'<rect x="{LEFT}" y="{top + TOP}" width="{inner_w}" height="{inner_h}" '
           'fill="none" stroke="#444"/>']
    for k in range(5):
        y = k / 4
        out.append(f'<line x1="{LEFT}" y1="{py(y):.1f}" x2="{LEFT + inner_w}" y2="{py(y):.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 8}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="12" '
                   f'{FONT}>{y:g}</text>')
    ticks = plot.xticks or tuple((f"{lo + span * k / 4:.4g}", "", f"{lo + span * k / 4:.4g}")
                                 for k in range(5))
    for x, _, label in ticks:
        out.append(f'<line x1="{px(float(x)):.1f}" y1="{top + TOP + inner_h}" x2="{px(float(x)):.1f}" '
                   f'y2="{top + TOP + inner_h + 5}" stroke="#444"/>')
        out.append(f'<text x="{px(float(x)):.1f}" y="{top + TOP + inner_h + 19}" text-anchor="middle" '
                   f'font-size="12" {FONT}>{escape(label)}</text>')
    out.append(f'<text x="{LEFT + inner_w / 2:.1f}" y="{top + PANEL - 28}" text-anchor="middle" '
               f'font-size="14" {FONT}>{escape(plot.xlabel_text)}</text>')
    ylabel = escape("".join(c for _, c in plot.ylabel))
    out.append(f'<text x="16" y="{top + TOP + inner_h / 2:.1f}" text-anchor="middle" font-size="14" '
               f'transform="rotate(-90 16 {top + TOP + inner_h / 2:.1f})" {FONT}>{ylabel}</text>')
    caption = "".join(plain(c) if kind == "math" else c for kind, c in plot.caption)
    out.append(f'<text x="{LEFT}" y="{top + 24}" font-size="14" {FONT}>{escape(caption)}</text>')
    for n, curve in enumerate(plot.curves):
        color = HEX[curve.color % len(HEX)]
        dash = DASH_ARRAYS[DASHES[curve.dash % len(DASHES)]]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        points = " ".join(f"{px(float(x)):.1f},{py(float(y)):.1f}" for x, y in curve.points)
        out.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="2"'
                   f'{dashes}/>')
        legend_y = top + TOP + 12 + 20 * n
        out.append(f'<line x1="{WIDTH - RIGHT + 16}" y1="{legend_y}" x2="{WIDTH - RIGHT + 44}" '
                   f'y2="{legend_y}" stroke="{color}" stroke-width="2"{dashes}/>')
        out.append(f'<text x="{WIDTH - RIGHT + 50}" y="{legend_y + 4}" font-size="12" {FONT}>'
                   f'{escape(curve.legend_text)}</text>')
    return out
