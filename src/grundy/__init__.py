"""grundy: exact Grundy sequences of octal games, certified periods, surveys.

The flow is ``code string -> Code -> Sequence -> analyses``; see DESIGN.md.
"""

__version__ = "0.1.0"

from .codes import Code, Move, family, parse  # noqa: E402
from .engine import compute  # noqa: E402
from .errors import CodeError, GrundyError, SequenceFileError, UsageError  # noqa: E402
from .sequence import Sequence, compute_sequence  # noqa: E402

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
