"""The colour grid of a sequence: one pixel per heap, in rows of a chosen width, as a small PNG.

In rows as wide as the period (or a multiple of it) a periodic sequence is
a stack of identical rows, so periodicity, and where it sets in, shows at a
glance; a growing sequence shows as a gradient.  The image is a palette PNG,
one byte per heap, written by Pillow: for 10,000 heaps it is a few kilobytes,
where an SVG with a rectangle per heap would be hundreds.
"""

from __future__ import annotations

import io
from functools import cache

import numpy as np
from PIL import Image

CATEGORICAL = (
    "1f77b4", "ff7f0e", "2ca02c", "d62728", "9467bd", "8c564b", "e377c2", "7f7f7f",
    "bcbd22", "17becf", "aec7e8", "ffbb78", "98df8a", "ff9896", "c5b0d5", "c49c94",
)
"""Distinct colours for sequences whose values stay below 16 (value 0 is the first)."""
RAMP = ("440154", "3b528b", "21918c", "5ec962", "fde725")
"""Anchors of a dark-to-light ramp for larger values (viridis-like)."""
EMPTY = 255
"""The palette index of a cell with no heap (before heap 0 or past the last one)."""
MIN_WIDTH = 24
"""A period narrower than this is drawn in rows of a multiple of it."""


def grid_width(period: int | None, fallback: int = 100) -> int:
    """The row width for a period: the smallest multiple of it that is at least :data:`MIN_WIDTH`."""
    if period is None:
        return fallback
    return period * -(-MIN_WIDTH // period)


def layout(heaps: int, width: int, start: int | None) -> tuple[int, int]:
    """``(first, rows)``: the heaps of the first row (right-aligned) and the number of rows.

    Rows begin at heaps congruent to ``start`` modulo ``width``, so that,
    as in the compact notation, a column holds one residue of the period.
    """
    first = start % width if start is not None else 0
    rows = (1 if first else 0) + -(-(heaps - first) // width)
    return first, rows


@cache
def _palette(categorical: bool) -> bytes:
    if categorical:
        colours = [bytes.fromhex(c) for c in CATEGORICAL]
    else:
        anchors = np.array([list(bytes.fromhex(c)) for c in RAMP], dtype=float)
        x = np.linspace(0, len(RAMP) - 1, EMPTY)
        colours = [bytes(round(np.interp(xi, range(len(RAMP)), anchors[:, ch])) for ch in range(3))
                   for xi in x]
    colours += [b"\xff\xff\xff"] * (EMPTY + 1 - len(colours))
    colours[EMPTY] = bytes.fromhex("f6f8fa")
    return b"".join(colours)


def indices(values: np.ndarray) -> np.ndarray:
    """The palette index of every value: the value itself below 16, else its share of the largest."""
    v = np.asarray(values, dtype=np.int64)
    top = int(v.max()) if v.size else 0
    if top < len(CATEGORICAL):
        return v.astype(np.uint8)
    return (v * (EMPTY - 1) // top).astype(np.uint8)


def cells(values: np.ndarray, width: int, start: int | None = None) -> np.ndarray:
    """The grid of palette indices, ``rows × width`` (:data:`EMPTY` where there is no heap)."""
    first, rows = layout(len(values), width, start)
    flat = np.full(rows * width, EMPTY, dtype=np.uint8)
    offset = (width - first) % width
    flat[offset : offset + len(values)] = indices(values)
    return flat.reshape(rows, width)


def png(values: np.ndarray, width: int, start: int | None = None) -> bytes:
    """The grid of ``values`` in rows of ``width`` as PNG bytes (palette colour, 8 bits a pixel)."""
    grid = cells(values, width, start)
    rows, cols = grid.shape
    image = Image.frombytes("P", (cols, rows), grid.tobytes())
    top = int(np.max(values)) if len(values) else 0
    image.putpalette(_palette(top < len(CATEGORICAL)))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=9)
    return out.getvalue()
