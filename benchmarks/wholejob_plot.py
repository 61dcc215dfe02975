"""The whole-job plot: output bytes of `solve --format json` against n, one line per family, with
n² and n³ guides (log-log), written as plain SVG."""

from __future__ import annotations

import math
from typing import Any

from .jobs import FAMILIES, FAMILY_NAMES

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 560, 360, 70, 150, 20, 45
COLOURS = {"integers": "#1b6ca8", "logs": "#c0392b", "roots": "#2e8b57", "symbolic": "#8e44ad"}


def plot(results: dict[str, Any], command: str = "solve-json") -> str:
    """SVG of output bytes against n for `command` on every family (finished jobs only)."""
    series = {f: sorted((r["n"], r["bytes"]) for r in results["jobs"] if r["family"] == f
                        and r["command"] == command and r.get("status") == "ok" and r.get("bytes"))
              for f in FAMILIES}
    points = [p for s in series.values() for p in s]
    if not points:
        return ""
    ns = [n for n, _ in points]
    lo_n, hi_n = math.log10(min(ns)), math.log10(max(ns))
    lo_b = math.floor(math.log10(min(b for _, b in points)))
    hi_b = math.ceil(math.log10(max(b for _, b in points)))
    span_n = max(hi_n - lo_n, 1e-9)

    def xy(n: float, b: float) -> tuple[float, float]:
        x = LEFT + (math.log10(n) - lo_n) / span_n * (WIDTH - LEFT - RIGHT)
        y = HEIGHT - BOTTOM - (math.log10(b) - lo_b) / (hi_b - lo_b) * (HEIGHT - TOP - BOTTOM)
        return x, y

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           'font-family="sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    for e in range(lo_b, hi_b + 1):
        _, y = xy(min(ns), 10 ** e)
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">10^{e}</text>')
    for n in sorted(set(ns)):
        x, _ = xy(n, 10 ** lo_b)
        out.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 8}" text-anchor="middle">'
               f'n (tokens); y: bytes of `symattn {command.replace("-", " --format ")}`</text>')
    labels = []
    for family, s in series.items():
        if not s:
            continue
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(n, b) for n, b in s))
        out.append(f'<polyline points="{coords}" fill="none" stroke="{COLOURS[family]}" '
                   'stroke-width="2"/>')
        labels.append((*xy(*s[-1]), family))
    last = -1e9
    for x, y, family in sorted(labels, key=lambda t: t[1]):  # 13 px apart, top to bottom
        last = max(y, last + 13)
        out.append(f'<text x="{x + 6:.1f}" y="{last + 4:.1f}" fill="{COLOURS[family]}">'
                   f'{FAMILY_NAMES[family]}</text>')
    top = max(points, key=lambda p: p[1])
    for power in (2, 3):  # guides through the largest point
        a = xy(min(ns), top[1] * (min(ns) / top[0]) ** power)
        b = xy(*top)
        out.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" '
                   'stroke="#999" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{a[0] + 4:.1f}" y="{a[1] - 4:.1f}" fill="#777">n^{power}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
