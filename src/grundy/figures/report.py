"""Figures of the HTML report: one code's sequence, and the reading study over a survey.

The reading-study figures count settled codes only, each read up to its own
certificate depth (SPEC.md §6): an unsettled code has no truth to score a
reading against.  Each figure is small (the report holds two per code), so
the sequence is drawn as points without anti-aliasing.
"""

from __future__ import annotations

import numpy as np

from . import subplots

CHANGE_BINS = ((0, 0), (1, 1), (2, 2), (3, 4), (5, 9), (10, 19), (20, 49), (50, 99), (100, 150), (151, None))
"""Ranges of the number of reading changes per code, matching the survey tallies (5–100, over 150)."""
KIND_COLOURS = {"right_period_wrong_start": "tab:blue", "dividing": "tab:orange", "unrelated": "tab:grey"}


def sequence(values: np.ndarray, code: str, *, start: int | None = None, window: int | None = None):
    """``G(n)`` against ``n``, with the certified period's start and window marked when known."""
    fig, ax = subplots(figsize=(7, 2.6))
    n = np.arange(values.size)
    ax.plot(n, values, ".", markersize=1.5, color="tab:blue", antialiased=False)
    if start is not None:
        ax.axvline(start, color="tab:green", linestyle="--", linewidth=1, label=f"period from heap {start}")
    if window is not None and window < values.size:
        ax.axvline(window, color="tab:red", linestyle=":", linewidth=1, label=f"window {window}")
    if start is not None:
        ax.legend(frameon=False, fontsize="small", loc="upper left")
    ax.set_xlim(0, max(values.size - 1, 1))
    ax.set_xlabel("heap n")
    ax.set_ylabel("G(n)")
    ax.set_title(f"{code}: {values.size:,} values (largest {int(values.max()) if values.size else 0})",
                 fontsize="medium")
    return fig


def _change_label(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"> {lo - 1}"
    return str(lo) if lo == hi else f"{lo}–{hi}"


def changes(settled: list[dict]):
    """How many settled codes changed their reading 0, 1, 2, … times before it was certified."""
    counts = np.array([r["changes"] for r in settled], dtype=np.int64)
    tally = [int(np.count_nonzero((counts >= lo) & (counts <= (np.inf if hi is None else hi))))
             for lo, hi in CHANGE_BINS]
    fig, ax = subplots(figsize=(8, 3.2))
    labels = [_change_label(lo, hi) for lo, hi in CHANGE_BINS]
    bars = ax.bar(labels, tally, color="tab:blue")
    ax.bar_label(bars, fontsize="small")
    ax.margins(y=0.12)
    ax.tick_params(axis="x", labelsize="small")
    ax.set_xlabel("reading changes before the certificate")
    ax.set_ylabel("settled codes")
    ax.set_title(f"Changes of reading per code ({len(settled)} settled codes)", fontsize="medium")
    return fig


def reach(settled: list[dict]):
    """How far each false reading got towards its window (``held_to / window``).

    Period-1 readings (a value repeated once) outnumber the rest by far, so
    they get a panel of their own; the longer periods are split by kind.
    """
    fig, (short, longer) = subplots(1, 2, figsize=(10, 3.2), sharex=True)
    bins = np.linspace(0, 1, 21)
    false = [fr for r in settled for fr in r["false_readings"]]
    ones = [fr["reach"] for fr in false if fr["period"] == 1]
    short.hist(ones, bins=bins, color="tab:grey")
    short.set_title(f"{len(ones):,} of period 1", fontsize="medium")
    stacks = [[fr["reach"] for fr in false if fr["period"] > 1 and fr["kind"] == k] for k in KIND_COLOURS]
    longer.hist(stacks, bins=bins, stacked=True, color=list(KIND_COLOURS.values()),
                label=[k.replace("_", " ") for k in KIND_COLOURS])
    longer.set_title(f"{sum(map(len, stacks)):,} of period 2 or more, by kind", fontsize="medium")
    longer.legend(frameon=False, fontsize="small", loc="upper left")
    for ax in (short, longer):
        ax.axvline(1, color="tab:red", linewidth=1)
        ax.set_xlim(0, 1.02)
        ax.set_xlabel("reach = held to / window")
    short.set_ylabel("false readings")
    fig.suptitle(f"How far the false readings of {len(settled)} settled codes got (1 would be a certificate)",
                 fontsize="medium")
    fig.tight_layout()
    return fig


def repetitions(settled: list[dict], believed: dict):
    """Repetitions each certified reading needed, beside the false readings a stricter reader still believes."""
    fig, (left, right) = subplots(1, 2, figsize=(9, 3.2), gridspec_kw={"width_ratios": [3, 2]})
    needed = [r["repetitions_needed"] for r in settled]
    if needed:
        left.hist(needed, bins=np.arange(2, max(needed) + 1.5, 0.5), color="tab:blue")
    left.set_xlabel("repetitions needed, (W* - s*) / p*")
    left.set_ylabel("settled codes")
    left.set_title("Repetitions the certificate needs", fontsize="medium")
    rs = sorted(believed, key=int)
    bars = right.bar([str(r) for r in rs], [believed[r] for r in rs], color="tab:orange")
    right.bar_label(bars, fontsize="small")
    right.margins(y=0.12)
    right.set_xlabel("repetitions r asked for")
    right.set_ylabel("false readings believed")
    right.set_title("False readings a reader asking r still believes", fontsize="medium")
    fig.tight_layout()
    return fig
