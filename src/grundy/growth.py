"""Growth of a sequence, the survey's description of an unsettled code.

An unsettled code is *growing* when its values still rise in the last third of
the heaps computed, *bounded* otherwise; a description, not a proof.
"""

from __future__ import annotations

import numpy as np


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
