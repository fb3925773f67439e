"""Small SVG figures written as text: the bar charts of the tallies.

Every quantity drawn is a count, so axes carry integer ticks only.  The
trajectory of a code is drawn by ``site.js`` from the readings its page
carries as data (the same rules: integer ticks, a depth axis that ends at
the certificate depth or the heaps computed), so a page with hundreds of
false readings holds them once.
"""

from __future__ import annotations

import html
import math

from markupsafe import Markup

WIDTH = 720
LEFT, RIGHT = 64, 16
FONT = 'font-family="system-ui, sans-serif" font-size="11"'


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def ticks(lo: int, hi: int, most: int = 6) -> list[int]:
    """At most ``most`` round integer ticks from ``lo`` to ``hi``: the multiples in the range of the
    smallest step (1, 2 or 5 times a power of 10) that gives between one and ``most`` of them."""
    for power in range(19):
        for m in (1, 2, 5):
            step = m * 10**power
            first = -(-lo // step) * step
            count = (hi - first) // step + 1 if first <= hi else 0
            if 1 <= count <= most:
                return list(range(first, hi + 1, step))
    return [lo]


class _Scale:
    """A linear map from ``[lo, hi]`` to pixels ``[a, b]``, rounded to tenths."""

    def __init__(self, lo: float, hi: float, a: float, b: float):
        self.lo, self.span, self.a, self.b = lo, max(hi - lo, 1e-9), a, b

    def __call__(self, x: float) -> float:
        return round(self.a + (x - self.lo) / self.span * (self.b - self.a), 1)


def _num(x: float) -> str:
    return f"{x:g}"


def _x_axis(sx: _Scale, lo: int, hi: int, y: float, label: str) -> str:
    out = [f'<path d="M{LEFT} {_num(y)}H{WIDTH - RIGHT}" stroke="#afb8c1"/>']
    for t in ticks(lo, hi):
        out.append(f'<path d="M{_num(sx(t))} {_num(y)}v4" stroke="#6e7781"/>'
                   f'<text x="{_num(sx(t))}" y="{_num(y + 15)}" text-anchor="middle">{t:,}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) // 2}" y="{_num(y + 30)}" text-anchor="middle">{_e(label)}</text>')
    return "".join(out)


def _y_axis(sy: _Scale, lo: int, hi: int, label: str, top: float, bottom: float) -> str:
    out = [f'<path d="M{LEFT} {_num(top)}V{_num(bottom)}" stroke="#afb8c1"/>']
    for t in ticks(lo, hi, 4):
        out.append(f'<text x="{LEFT - 6}" y="{_num(sy(t) + 4)}" text-anchor="end">{t:,}</text>'
                   f'<path d="M{LEFT} {_num(sy(t))}H{WIDTH - RIGHT}" stroke="#eaeef2"/>')
    mid = (top + bottom) / 2
    out.append(f'<text transform="translate(12 {_num(mid)}) rotate(-90)" text-anchor="middle">{_e(label)}</text>')
    return "".join(out)


def _svg(height: float, body: str, title: str) -> Markup:
    """The figure as markup a template prints as is.

    Safe: every text and colour in it (titles, labels, names) passed through :func:`_e`, and every
    other value is a number this module formats.
    """
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {_num(height)}" role="img" '
            f'{FONT}><title>{_e(title)}</title>{body}</svg>')


def bars(labels: list[str], series: list[tuple[str, str, list[int]]], *, title: str, xlabel: str,
         ylabel: str) -> Markup:
    """A bar chart of counts, one bar per label, ``series`` (name, colour, counts) stacked (markup
    built from escaped parts: :func:`_svg`)."""
    totals = [sum(s[2][i] for s in series) for i in range(len(labels))]
    top = max(totals, default=0) or 1
    height = 230
    plot_top, plot_bottom = 34, height - 48
    sy = _Scale(0, top * 1.1, plot_bottom, plot_top)
    slot = (WIDTH - RIGHT - LEFT) / max(len(labels), 1)
    parts = [f'<text x="{LEFT}" y="16" font-weight="600">{_e(title)}</text>',
             _y_axis(sy, 0, math.ceil(top * 1.1), ylabel, plot_top, plot_bottom)]
    for i, label in enumerate(labels):
        x = LEFT + i * slot + slot * 0.15
        base = 0
        for _name, colour, counts in series:
            if counts[i]:
                parts.append(f'<rect x="{_num(round(x, 1))}" y="{_num(sy(base + counts[i]))}" '
                             f'width="{_num(round(slot * 0.7, 1))}" '
                             f'height="{_num(round(sy(base) - sy(base + counts[i]), 1))}" fill="{_e(colour)}"/>')
            base += counts[i]
        cx = _num(round(x + slot * 0.35, 1))
        parts.append(f'<text x="{cx}" y="{_num(sy(totals[i]) - 3)}" text-anchor="middle">{totals[i]:,}</text>'
                     f'<text x="{cx}" y="{plot_bottom + 15}" text-anchor="middle">{_e(label)}</text>')
    parts.append(f'<path d="M{LEFT} {plot_bottom}H{WIDTH - RIGHT}" stroke="#afb8c1"/>'
                 f'<text x="{(LEFT + WIDTH - RIGHT) // 2}" y="{plot_bottom + 34}" text-anchor="middle">'
                 f'{_e(xlabel)}</text>')
    if len(series) > 1:
        x = WIDTH - RIGHT - 200
        for k, (name, colour, _) in enumerate(series):
            parts.append(f'<rect x="{x}" y="{26 + 14 * k}" width="10" height="10" fill="{_e(colour)}"/>'
                         f'<text x="{x + 14}" y="{35 + 14 * k}">{_e(name)}</text>')
    return _svg(height, "".join(parts), title)
