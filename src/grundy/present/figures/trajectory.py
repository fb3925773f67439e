"""The trajectory of readings (docs/readings.md): what a sweep would have read at each depth.

Three panels share the depth axis: the start and the period of the reading
at each depth, and every false reading as a bar from its start to the depth
it held to (where it broke), thick over the depths that reported it, with
its window marked.  The final window is a vertical line on every panel.  A kind
is coloured and named as on the site (:mod:`grundy.present.legend`).
"""

from __future__ import annotations

import numpy as np

from ...readings.trajectory import Trajectory
from ..legend import KIND_COLOURS, KIND_WORDS
from . import subplots


def plot(tr: Trajectory):
    """The figure of ``tr``; save it with :func:`grundy.present.figures.save`."""
    fig, (ax_s, ax_p, ax_f) = subplots(
        3, 1, figsize=(10, 7.5), sharex=True, gridspec_kw={"height_ratios": (1, 1, 1.6)}
    )
    lo = tr.first_depth or 0
    depths = np.arange(lo, tr.last_depth + 1)
    has = tr.periods[depths] >= 0
    panels = ((ax_s, tr.starts, "start of reading"), (ax_p, tr.periods, "period of reading"))
    for ax, ys, label in panels:
        ax.plot(depths[has], ys[depths][has], ".", markersize=2.5, color="tab:blue")
        ax.set_ylabel(label)
    false = tr.false_readings
    rows = np.arange(len(false))
    if false:
        colours = [KIND_COLOURS[f.kind] for f in false]
        held = ([f.start for f in false], [f.held_to for f in false])
        read = ([f.first_depth - 0.4 for f in false], [f.last_depth + 0.4 for f in false])
        ax_f.hlines(rows, *held, colors=colours, linewidth=0.8)
        ax_f.hlines(rows, *read, colors=colours, linewidth=3.5)
        ax_f.scatter([f.window for f in false], rows, marker="|", s=60, c=colours, zorder=3)
        for kind, colour in KIND_COLOURS.items():
            ax_f.plot([], [], color=colour, linewidth=2, label=KIND_WORDS[kind])
        ax_f.plot([], [], color="grey", linewidth=0.8, label="start → held to")
        ax_f.plot([], [], color="grey", linewidth=3.5, label="depths that read it")
        ax_f.plot([], [], "|", color="grey", markersize=9, label="its window")
        ax_f.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    ax_f.set_ylabel("false readings")
    ax_f.set_xlabel("depth")
    ax_f.invert_yaxis()
    state = "certified" if tr.certified else f"not certified by depth {tr.heaps}"
    if tr.final is not None:
        what = f"period {tr.final.period} from heap {tr.final.start}, window {tr.final.window}"
        for ax in (ax_s, ax_p, ax_f):
            ax.axvline(tr.final.window, color="black", linestyle="--", linewidth=1)
    else:
        what = "no reading"
    heap0 = ", heap 0 allowed" if tr.heap0 else ""
    ax_s.set_title(f"{tr.code}: readings by depth{heap0}\nfinal {what} ({state})")
    return fig
