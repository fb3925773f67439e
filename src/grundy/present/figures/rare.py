"""Figures of rare classes: where rare heaps arrive, per block, their gaps, and the ledger.

Every title names the class and its parity convention (``RareClass.convention``),
so a reader knows which heaps a figure counts.
"""

from __future__ import annotations

import numpy as np
from matplotlib import colormaps
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize

from ...rare import Arrivals, GapFit, Ledger, exponential_cdf
from . import subplots


def _title(arr: Arrivals, what: str) -> str:
    return f"{arr.code}: {what}\nclass mask {arr.cls.mask}, {arr.cls.convention}"


def strip(arr: Arrivals):
    """A tick at every rare heap past the cut-off, coloured by its value."""
    fig, ax = subplots(figsize=(10, 2.6))
    if arr.rare.size:
        vals = np.unique(arr.rare_values)
        if vals.size <= 20:
            cmap = colormaps.get_cmap("tab10" if vals.size <= 10 else "tab20")
            colours = [cmap(i) for i in range(vals.size)]
        else:
            colours = colormaps.get_cmap("viridis")(np.linspace(0, 1, vals.size))
        for v, c in zip(vals, colours, strict=True):
            ax.vlines(arr.rare[arr.rare_values == v], 0, 1, colors=[c], linewidth=0.8, label=str(v))
        if vals.size <= 20:
            ax.legend(
                title="value",
                ncols=min(vals.size, 10),
                fontsize="small",
                loc="upper center",
                bbox_to_anchor=(0.5, -0.35),
                frameon=False,
            )
        else:
            norm = Normalize(vals.min(), vals.max())
            fig.colorbar(ScalarMappable(norm=norm, cmap="viridis"), ax=ax, label="value")
    ax.set_xlim(arr.after, arr.heaps)
    ax.set_yticks([])
    ax.set_xlabel("heap")
    ax.set_title(_title(arr, f"{arr.rare.size:,} rare heaps from heap {arr.after:,}"))
    return fig


def blocks(arr: Arrivals):
    """Rare heaps per block of ``arr.block`` heaps, from heap 0 (the last block may be short)."""
    fig, ax = subplots(figsize=(8, 3.5))
    starts = np.arange(arr.blocks.size) * arr.block
    ax.bar(starts, arr.blocks, width=arr.block, align="edge", color="tab:blue", edgecolor="white")
    ax.axvline(arr.after, color="grey", linestyle=":", label=f"cut-off {arr.after:,}")
    ax.set_xlabel("heap (block start)")
    ax.set_ylabel(f"rare heaps per {arr.block:,}")
    ax.legend(frameon=False)
    ax.set_title(_title(arr, "rare heaps per block"))
    return fig


def gap_histogram(arr: Arrivals, fit: GapFit):
    """The gaps between rare heaps past the cut-off, with the exponential of the same mean."""
    fig, ax = subplots(figsize=(8, 3.5))
    d = arr.gap_array
    if d.size:
        edges = np.histogram_bin_edges(d, bins=min(40, max(5, d.size // 5)))
        width = np.diff(edges)
        counts, _ = np.histogram(d, bins=edges)
        ax.bar(
            edges[:-1],
            counts,
            width=width,
            align="edge",
            color="tab:blue",
            edgecolor="white",
            label="gaps",
        )
        expected = d.size * np.diff(exponential_cdf(edges, fit.mean))
        ax.plot(
            edges[:-1] + width / 2,
            expected,
            "o-",
            color="tab:red",
            markersize=3,
            label=f"exponential, mean {fit.mean:,.1f}",
        )
        test = (
            f"chi-square p = {fit.pvalue:.3g} ({fit.dof} dof)"
            if fit.pvalue is not None
            else "too few gaps to test"
        )
        ax.legend(frameon=False, title=test)
    ax.set_xlabel("gap between successive rare heaps")
    ax.set_ylabel("count")
    ax.set_title(_title(arr, f"gaps past heap {arr.after:,}"))
    return fig


def concentration(led: Ledger):
    """The share of the supplies of ``v`` made by the top ``k`` suppliers, against ``k``."""
    fig, ax = subplots(figsize=(6, 4))
    made = np.array([s.supplies for s in led.suppliers if s.supplies], dtype=np.float64)
    if made.size:
        k = np.arange(1, made.size + 1)
        ax.step(k, np.cumsum(made) / made.sum(), where="post", label="top k suppliers")
        ax.plot(k, k / made.size, color="grey", linestyle=":", label="even spread")
        ax.set_xscale("log")
        ax.legend(frameon=False, loc="lower right")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("k (suppliers, largest first)")
    ax.set_ylabel(f"share of the supplies of {led.value}")
    ax.set_title(
        f"{led.code}: ledger of value {led.value} (rare heaps below {led.below:,})\n"
        f"parity-1 class of mask {led.mask} (XOR-respecting)"
    )
    return fig
