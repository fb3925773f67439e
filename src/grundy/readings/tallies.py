"""Survey tallies: how often a sweep that believed what it saw would have been wrong.

Readings are scored on settled codes only, each read up to its own
certificate depth: an unsettled code has no known truth to score against.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping

from .status import STATUSES
from .trajectory import KINDS

MOST_CONVINCING = 5
REPETITIONS = range(2, 7)


def _spread(xs: list[float]) -> dict:
    if not xs:
        return {"min": None, "median": None, "max": None}
    return {"min": min(xs), "median": statistics.median(xs), "max": max(xs)}


def tallies(results: Iterable[Mapping]) -> dict:
    """The survey's tallies over per-code records (:class:`grundy.catalogue.record.SurveyRecord`, or
    their ``to_dict()``, as stored in the catalogue).

    ``results`` may be a stream (``Catalogue.results``): the false readings of
    unsettled codes, most of a large survey's and never scored, are not kept.
    """
    results = [
        r if r["status"] == "settled" else {k: v for k, v in r.items() if k != "false_readings"}
        for r in results
    ]
    status = Counter(r["status"] for r in results)
    settled = [r for r in results if r["status"] == "settled"]
    false = [dict(fr, code=r["code"]) for r in settled for fr in r["false_readings"]]
    reaches = [fr["reach"] for fr in false]
    from_1 = [r for r in settled if r["start"] == 1]
    later = [r for r in settled if r["start"] > 1]
    right_first = [r for r in settled if r["changes"] == 0]
    kinds = Counter(fr["kind"] for fr in false if fr["period"] > 1)
    convincing = sorted(false, key=lambda fr: (-fr["reach"], fr["code"], fr["start"]))
    return {
        "codes": len(results),
        **{s: status.get(s, 0) for s in STATUSES},
        "distinct_sequences_growing": len(
            {r["values_sha256"] for r in results if r["status"] == "growing"}
        ),
        "right_first": len(right_first),
        "changes_once": sum(r["changes"] == 1 for r in settled),
        "changes_5_to_100": sum(5 <= r["changes"] <= 100 for r in settled),
        "changes_over_150": sum(r["changes"] > 150 for r in settled),
        "false_readings": len(false),
        "false_by_period": dict(sorted(Counter(fr["period"] for fr in false).items())),
        "false_before_start": sum(bool(fr["before_start"]) for fr in false),
        "periodic_from_1": len(from_1),
        "periodic_from_1_right_first": sum(r["changes"] == 0 for r in from_1),
        "periodic_later": len(later),
        "periodic_later_right_first": sum(r["changes"] == 0 for r in later),
        "kinds": {k: kinds.get(k, 0) for k in KINDS},
        "believed": {r: sum(c["believed"].get(str(r), 0) for c in settled) for r in REPETITIONS},
        "reached_window": sum(fr["held_to"] >= fr["window"] for fr in false),
        "median_reach": statistics.median(reaches) if reaches else None,
        "max_reach": max(reaches) if reaches else None,
        "most_convincing": [
            {k: fr[k] for k in ("code", "start", "period", "held_to", "window", "reach")}
            for fr in convincing[:MOST_CONVINCING]
        ],
        "repetitions_needed": _spread([r["repetitions_needed"] for r in settled]),
        "right_to_window_gap": _spread([r["certificate_depth"] - r["right_from"] for r in settled]),
        "heap0": [dict(h, code=r["code"]) for r in results for h in r["heap0_reached"]],
    }
