"""A small SVG plot of time against n, one panel per d_k, log scales (no plotting library).

One polyline per method through the runs that finished; a run past the cap is an open
triangle on the dashed cap line.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

STYLE = {  # method -> (label, colour, dash)
    "symattn": ("symattn (A, O)", "#1b7837", ""),
    "symattn_all": ("symattn, every stage", "#7fbf7b", "5 3"),
    "naive_simplify": ("naive SymPy + simplify", "#d73027", ""),
    "naive_plain": ("naive SymPy, no simplify", "#f46d43", "5 3"),
    "mpmath": ("mpmath, 50 digits", "#4575b4", ""),
}
PANEL_W, PANEL_H = 270, 260
LEFT, TOP, GAP, BOTTOM = 62, 44, 28, 110
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def _range(results: dict[str, Any]) -> tuple[int, int]:
    times = [e["median"] for r in results["grid"] for e in r["methods"].values()
             if e.get("status") == "ok" and e.get("median")] + [results["cap"]]
    return math.floor(math.log10(min(times))), math.ceil(math.log10(max(times) * 1.01))


def _text(x: float, y: float, s: str, size: int = 11, anchor: str = "middle",
          extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" {FONT} '
            f'{extra}>{escape(s)}</text>')


class Panel:
    """Coordinates of one panel: x = log2 n, y = log10 seconds."""

    def __init__(self, index: int, ns: list[int], decades: tuple[int, int]) -> None:
        self.x0 = LEFT + index * (PANEL_W + GAP)
        self.ns, (self.lo, self.hi) = ns, decades

    def x(self, n: int) -> float:
        a, b = math.log2(self.ns[0]), math.log2(self.ns[-1])
        return self.x0 + 12 + (PANEL_W - 24) * ((math.log2(n) - a) / (b - a) if b > a else 0.5)

    def y(self, seconds: float) -> float:
        return TOP + PANEL_H * (self.hi - math.log10(seconds)) / (self.hi - self.lo)


def _axes(p: Panel, d_k: int, first: bool) -> list[str]:
    out = [f'<rect x="{p.x0}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="white" '
           f'stroke="#444"/>', _text(p.x0 + PANEL_W / 2, TOP - 10, f"d_k = {d_k}", 13,
                                      extra='font-weight="bold"')]
    for k in range(p.lo, p.hi + 1):
        y = p.y(10.0 ** k)
        out.append(f'<line x1="{p.x0}" y1="{y:.1f}" x2="{p.x0 + PANEL_W}" y2="{y:.1f}" '
                   f'stroke="#ddd"/>')
        if first:
            label = f"{10.0 ** k:g}"
            out.append(_text(p.x0 - 6, y + 4, label, 10, "end"))
    for n in p.ns:
        out += [f'<line x1="{p.x(n):.1f}" y1="{TOP + PANEL_H}" x2="{p.x(n):.1f}" '
                f'y2="{TOP + PANEL_H + 4}" stroke="#444"/>',
                _text(p.x(n), TOP + PANEL_H + 16, str(n), 10)]
    out.append(_text(p.x0 + PANEL_W / 2, TOP + PANEL_H + 32, "n (positions)", 11))
    return out


def _series(p: Panel, rows: list[dict[str, Any]], key: str, cap: float) -> list[str]:
    label, colour, dash = STYLE[key]
    done = [(r["n"], r["methods"][key]["median"]) for r in rows
            if r["methods"].get(key, {}).get("status") == "ok"]
    over = [r["n"] for r in rows
            if r["methods"].get(key, {}).get("status") in ("timeout", "skipped")]
    out = []
    if len(done) > 1:
        points = " ".join(f"{p.x(n):.1f},{p.y(t):.1f}" for n, t in done)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                   f'stroke-width="2"{dashed}><title>{escape(label)}</title></polyline>')
    out += [f'<circle cx="{p.x(n):.1f}" cy="{p.y(t):.1f}" r="3" fill="{colour}"/>' for n, t in done]
    for n in over:
        x, y = p.x(n), p.y(cap)
        out.append(f'<path d="M{x - 5:.1f},{y + 4:.1f} L{x:.1f},{y - 5:.1f} L{x + 5:.1f},'
                   f'{y + 4:.1f} Z" fill="white" stroke="{colour}" stroke-width="1.5">'
                   f'<title>{escape(label)}: &gt; {cap:g} s</title></path>')
    return out


def _legend(width: float, y0: float, label_cap: str) -> list[str]:
    out, x = [], LEFT
    for label, colour, dash in STYLE.values():
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out += [f'<line x1="{x}" y1="{y0}" x2="{x + 24}" y2="{y0}" stroke="{colour}" '
                f'stroke-width="2"{dashed}/>', _text(x + 30, y0 + 4, label, 11, "start")]
        x += 40 + 7 * len(label)
        if x > width - 160:
            x, y0 = LEFT, y0 + 18
    out += [f'<path d="M{x + 7},{y0 + 4} L{x + 12},{y0 - 5} L{x + 17},{y0 + 4} Z" fill="white" '
            f'stroke="#555" stroke-width="1.5"/>', _text(x + 30, y0 + 4, label_cap, 11, "start")]
    return out


def plot(results: dict[str, Any]) -> str:
    """The SVG document for a run's main grid."""
    d_ks = sorted({r["d_k"] for r in results["grid"]})
    ns = sorted({r["n"] for r in results["grid"]})
    cap, decades = results["cap"], _range(results)
    width = LEFT + len(d_ks) * (PANEL_W + GAP) - GAP + 16
    height = TOP + PANEL_H + BOTTOM
    body = [_text(16, TOP + PANEL_H / 2, "median seconds (log scale)", 11,
                  extra=f'transform="rotate(-90 16 {TOP + PANEL_H / 2})"')]
    for index, d_k in enumerate(d_ks):
        p = Panel(index, ns, decades)
        body += _axes(p, d_k, index == 0)
        y = p.y(cap)
        body += [f'<line x1="{p.x0}" y1="{y:.1f}" x2="{p.x0 + PANEL_W}" y2="{y:.1f}" '
                 f'stroke="#999" stroke-dasharray="2 3"/>',
                 _text(p.x0 + PANEL_W - 4, y - 4, f"cap {cap:g} s", 9, "end", 'fill="#666"')]
        rows = [r for r in results["grid"] if r["d_k"] == d_k]
        for key in STYLE:
            body += _series(p, rows, key, cap)
    body += _legend(width, TOP + PANEL_H + 56, f"passed the {cap:g} s cap")
    title = "symattn against naive SymPy and mpmath: causal attention, time against n"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img">\n<title>{escape(title)}</title>\n'
            f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n")
