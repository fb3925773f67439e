"""matplotlib figures, made as ``matplotlib.figure.Figure`` objects without pyplot.

Figures never touch pyplot's global state or the caller's backend, so they
show inline in a notebook (a Figure displays itself) and save from scripts
alike.  One module per subject; import them lazily so that the rest of the
toolkit never pays for matplotlib.  :func:`save` writes PNG or SVG by the
extension.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import UsageError

FORMATS = (".png", ".svg")


def subplots(nrows: int = 1, ncols: int = 1, *, figsize=None, **kwargs):
    """A new Figure and its axes (``Figure.subplots`` arguments), made without pyplot."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def save(fig, path) -> Path:
    """Write ``fig`` to ``path`` (``.png`` or ``.svg``) and return the path."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise UsageError(f"a figure is written as .png or .svg, not {path.suffix or 'no extension'!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    return path
