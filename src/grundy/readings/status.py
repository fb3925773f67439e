"""The survey's classes of a code (docs/surveys.md): settled, growing, bounded unsettled.

A code is *settled* when its reading is certified; an unsettled code is
*growing* when its values still rise in the last third of the heaps computed,
*bounded* otherwise: a description, not a proof.
"""

from __future__ import annotations

import numpy as np

STATUSES = ("settled", "growing", "bounded_unsettled")
STATUS_WORDS = {"settled": "settled", "growing": "growing", "bounded_unsettled": "bounded, unsettled"}
"""Each status as a reader sees it written."""
MEANINGS = {
    "settled": "the period is certified (a theorem, the Guy–Smith window)",
    "growing": "the largest value still rose in the last third of the heaps read: a description at "
               "this depth, not a proof",
    "bounded_unsettled": "no period certified, and the largest value did not rise in the last third of "
                         "the heaps read: bounded is a description at this depth, not a proof",
}
"""What each status says, and what it does not."""


def classify(certified: bool, values: np.ndarray) -> str:
    """The class of a code whose reading at ``len(values)`` is ``certified`` or not."""
    if certified:
        return "settled"
    return "growing" if is_growing(values) else "bounded_unsettled"


def is_growing(values: np.ndarray) -> bool:
    """Whether the largest value over heaps ``[2N/3, N)`` exceeds the largest over ``[N/3, 2N/3)``.

    A description, not a proof: a code can look growing at one depth and
    bounded at a greater one.
    """
    n = int(values.size)
    lo, hi = n // 3, (2 * n) // 3
    if hi <= lo or n <= hi:
        return False
    return int(values[hi:n].max()) > int(values[lo:hi].max())
