"""grundy: exact Grundy sequences of octal games, certified periods, surveys.

Start here (each result prints as text, and as a table in Jupyter):

- ``values(code, heaps)``: the values G(0..heaps-1), a ``Sequence`` with
  ``.reading()``, ``.trajectory()``, ``.rare()``, ``.counts()``, ``.ledger()``
- ``settle(code)``: compute deeper until the period is certified
- ``position(code, heaps)``: the nim-value of a position and every winning move
- ``survey(codes, heaps, db)``: a family into a ``Catalogue`` (``.table()``, ``.tallies()``)
- ``load(path)``: a sequence stored by ``grundy values --out`` or ``grundy settle --out``

The flow is ``code string -> Code -> Sequence -> analyses -> catalogue ->
figures and site`` (docs/README.md).  A notebook session::

    >>> import grundy
    >>> s = grundy.values("·137", 3000)
    >>> s.reading()
    <Reading: period 34 from heap 52, certified (window 175)>
    >>> grundy.settle("·156")
    <Settlement ·156: period 349 from heap 3,479, certified (window 7,659)>
    >>> p = grundy.position("·137", [3, 5, 7])
    >>> p.value, [m.after for m in p.winning_moves]
    (0, [])
    >>> cat = grundy.survey(2, 600)
    >>> cat.record("·77")["status"], len(cat.table())
    ('settled', 63)

Names are imported when first used, so ``import grundy`` (and the command
line's start-up) loads no compiler.
"""

from importlib import import_module

from ._version import __version__
from .catalogue.survey import survey
from .codes import Code, Move, family, parse
from .errors import CodeError, GrundyError, SequenceFileError, UsageError
from .readings.position import Position, position
from .readings.settle import Settlement, settle

_LAZY = {
    "compute": "engine",
    "Sequence": "sequence", "values": "sequence", "load": "sequence",
    "Reading": "readings.periods", "reading": "readings.periods", "arithmetic_reading": "readings.periods",
    "Trajectory": "readings.trajectory",
    "RareClass": "value_classes",
    "Catalogue": "catalogue.database",
}
"""Names whose modules load numba or sqlite: imported on first use.  ``settle``,
``position`` and ``survey`` are bound here at once because they share their
modules' names (an import of the module would otherwise shadow the function);
``from grundy.catalogue.survey import run`` still reaches the module."""

__all__ = [
    "Catalogue", "Code", "CodeError", "GrundyError", "Move", "Position", "RareClass", "Reading",
    "Sequence", "SequenceFileError", "Settlement", "Trajectory", "UsageError", "__version__",
    "arithmetic_reading", "compute", "family", "load", "parse", "position", "reading", "settle",
    "survey", "values",
]


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'grundy' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
