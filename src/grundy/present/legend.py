"""The colours and words of the kinds of false readings: one table for the site, its script and the
figures.

A false reading of a settled code has one of :data:`grundy.readings.trajectory.KINDS` (the rule is there);
the site's bar chart, its trajectory drawn by ``site.js`` and the matplotlib trajectory
(:mod:`grundy.present.figures.trajectory`) all colour and name a kind from here, and the site hands the
script what it needs as JSON (:func:`script_constants`), so that no word or colour is written twice.
"""

from __future__ import annotations

from ..readings.trajectory import KINDS

KIND_COLOURS = dict(zip(KINDS, ("#1f77b4", "#ff7f0e", "#7f7f7f"), strict=True))
"""The colour of each kind, in the site and in the figures."""
KIND_WORDS = dict(zip(KINDS, ("right period, wrong start", "period dividing the final one", "unrelated period"), strict=True))
"""The name of each kind in a legend."""
KIND_CELLS = dict(zip(KINDS, ("right period, wrong start", "dividing", "unrelated"), strict=True))
"""The name of each kind in a table's cell (the column says it is a kind of period)."""
OPEN_COLOUR = "#8250df"
"""The colour of a reading of an unsettled code (no final reading to give it a kind)."""
FINAL_COLOUR = "#1d1d1f"
"""The colour of the final, certified reading."""

