"""grundy: exact Grundy sequences of octal games, certified periods, surveys.

The flow is ``code string -> Code -> Sequence -> analyses``; see DESIGN.md.
"""

__version__ = "0.1.0"

# The module grundy.family (the family runner) is loaded first, so that the name
# grundy.family stays the function of codes.py that the next line binds.
from . import family as _runner  # noqa: F401
from .codes import Code, Move, family, parse
from .engine import compute
from .errors import CodeError, GrundyError, SequenceFileError, UsageError
from .sequence import Sequence, compute_sequence

__all__ = [
    "Code",
    "CodeError",
    "GrundyError",
    "Move",
    "Sequence",
    "SequenceFileError",
    "UsageError",
    "__version__",
    "compute",
    "compute_sequence",
    "family",
    "parse",
]
