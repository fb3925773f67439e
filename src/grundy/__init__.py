"""grundy: exact Grundy sequences of octal games, certified periods, surveys.

The flow is ``code string -> Code -> Sequence -> analyses``; see docs/.
Names are imported on first use (PEP 562), so ``import grundy`` and
``grundy --help`` load neither numpy nor numba.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_WHERE = {
    "Code": "codes",
    "Move": "codes",
    "family": "codes",
    "parse": "codes",
    "compute": "engine",
    "CodeError": "errors",
    "GrundyError": "errors",
    "SequenceFileError": "errors",
    "UsageError": "errors",
    "Sequence": "sequence",
    "compute_sequence": "sequence",
}

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


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'grundy' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
