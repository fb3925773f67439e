"""Rare classes and the codes that never settle (docs/rare-classes.md, docs/counts.md).

One subject a module: :mod:`grundy.value_classes` (what a class is), ``thinning``
(does a class thin), ``survey`` (every class of a family), ``arrivals``
(where a class's heaps arrive), ``counts`` (move and split counts of a
value), ``ledger`` (which rare heaps supply a value).  Sentences that read
the numbers for people live in :mod:`grundy.present.text`.
"""

from ..value_classes import (
    CONVENTIONS,
    RareClass,
    block_counts,
    fewest,
    histogram,
    odd_counts,
    parity,
    rare_heaps,
    table,
    value_counts,
    walsh_hadamard,
)
from .arrivals import (
    CUTOFF,
    MODULI,
    Arrivals,
    GapFit,
    Gaps,
    arrivals,
    cutoff,
    exponential_cdf,
    first_empty_modulus,
    gap_fit,
    gaps,
    residues,
    tail_period,
)
from .counts import Counts, Tally, counts, tally
from .ledger import TOP, Ledger, Supplier, ledger
from .survey import CodeSurvey, RareSurvey, ThinClass, rare_survey, survey_code
from .thinning import StretchCounts, Thinning, stretch_counts, thinning, thins, thirds

__all__ = [
    "CONVENTIONS",
    "CUTOFF",
    "MODULI",
    "TOP",
    "Arrivals",
    "CodeSurvey",
    "Counts",
    "GapFit",
    "Gaps",
    "Ledger",
    "RareClass",
    "RareSurvey",
    "StretchCounts",
    "Supplier",
    "Tally",
    "ThinClass",
    "Thinning",
    "arrivals",
    "block_counts",
    "counts",
    "cutoff",
    "exponential_cdf",
    "fewest",
    "first_empty_modulus",
    "gap_fit",
    "gaps",
    "histogram",
    "ledger",
    "odd_counts",
    "parity",
    "rare_heaps",
    "rare_survey",
    "residues",
    "stretch_counts",
    "survey_code",
    "table",
    "tail_period",
    "tally",
    "thinning",
    "thins",
    "thirds",
    "value_counts",
    "walsh_hadamard",
]
