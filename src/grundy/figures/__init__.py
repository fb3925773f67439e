"""matplotlib figures, drawn with the Agg backend (no screen needed).

One module per subject; import them lazily so that the rest of the toolkit
never pays for matplotlib.  :func:`save` writes PNG or SVG by the extension.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError

FORMATS = (".png", ".svg")


def pyplot():
    """matplotlib.pyplot on the Agg backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(fig, path) -> Path:
    """Write ``fig`` to ``path`` (``.png`` or ``.svg``), close it, and return the path."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise UsageError(f"a figure is written as .png or .svg, not {path.suffix or 'no extension'!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    pyplot().close(fig)
    return path
