"""The published tables shipped with the package (``grundy/data``), with their sources.

Outside truth, computed by other people with other programs: the tests check
the engines and the reading rule against it, the findings compare with it;
nothing here is ever used to produce a result.  Where each file comes from,
and how it was made, is in ``grundy/data/README.md``.

Heap numbering.  Every ``start`` and every sequence (:attr:`Game.values`,
:attr:`Oeis.terms`) counts the code's own heaps (heap ``n`` holds ``n``
counters).  The tczajka/octal-games tables print a game that cannot move on
its smallest heaps from a later heap, so their ``prefix`` and ``nimbers``
(kept as published, for the comparisons of the findings) may be shifted; the
trivial games carry their sequence in our numbering too.  A published
``periodic_from`` counts heap 0; the reading rule never starts before heap 1,
so our start is ``max(periodic_from, 1)``.  The lookup table's equivalent
games may likewise be shifted by a heap or more (:func:`equivalent`).
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from importlib import resources

from ..codes import Code, parse
from ..engine.sparse import even_class
from ..errors import GrundyError, UsageError
from ..readings.periods import window
from ..value_classes import RareClass

PUBLISHED_STATUSES = ("trivial", "solved", "unsolved")
"""What the literature says of a code (not a survey's statuses, :data:`grundy.readings.status.STATUSES`)."""
SOURCE_NAMES = {"Grundy's": "grundy"}
"""Games the tczajka/octal-games lists name instead of writing a code."""
FLAMMENKAMP_GRUNDY = "http://wwwhomes.uni-bielefeld.de/achim/grundy.html"
FLAMMENKAMP_GRUNDY_KNOWN = 1287
"""How many sparse values of Grundy's game Flammenkamp's page says are known (its introduction)."""


class PublishedDataError(GrundyError):
    """A published table missing from the installed package, or unreadable."""


def _rows(name: str) -> list[dict]:
    """The rows of ``grundy/data/<name>``; a missing file is an error, never an empty table."""
    path = resources.files("grundy") / "data" / name
    try:
        with path.open(encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f))
    except (FileNotFoundError, NotADirectoryError):
        raise PublishedDataError(
            f"the published table {name} is missing from the grundy package (grundy/data/); "
            "reinstall grundy"
        ) from None


def expand(values: str, heaps: int) -> list[int]:
    """``pre(block)`` notation, one base-36 character a value, to its first ``heaps`` values."""
    pre, _, block = values.rstrip(")").partition("(")
    out = [int(ch, 36) for ch in pre]
    cycle = [int(ch, 36) for ch in block]
    while len(out) < heaps and cycle:
        out.extend(cycle)
    return out[:heaps]


def _int(text: str) -> int | None:
    return int(text) if text else None


@dataclass(frozen=True)
class Game:
    """One game of the tczajka/octal-games lists.

    ``name`` is the code as the source writes it (``.354``, ``4.3``);
    ``prefix`` and ``period`` are as published (``prefix`` counts the source's
    heap 0) and ``nimbers`` the sequence as the source prints it (trivial
    octal games only).  ``start`` is the first heap of the period in this
    toolkit's sense and numbering, ``values`` the sequence from the code's own
    heap 0 in ``pre(block)`` notation (trivial games).  ``rare_mask``,
    ``rare_heaps``, ``last_rare`` are the sparse-space statistics the source
    gives (its rare counts include heap 0) and ``heaps`` the depth they were
    computed to (unsolved games), ``largest`` the largest value to that depth
    and ``largest_heap`` where it is (the source's "largest idx").  ``source``
    names the file and commit.
    """

    code: Code
    name: str
    status: str
    prefix: int | None
    period: int | None
    start: int | None
    values: str | None
    nimbers: str | None
    rare_mask: str | None
    rare_heaps: int | None
    last_rare: int | None
    heaps: int | None
    largest: int | None
    largest_heap: int | None
    source: str

    @property
    def window(self) -> int | None:
        """The Guy–Smith window of the published period (:func:`grundy.readings.periods.window`; None
        when unsolved)."""
        if self.start is None:
            return None
        return window(self.start, self.period, self.code)

    @property
    def mask(self) -> RareClass | None:
        """The published sparse-space class (an even class, with the heap's parity for a
        ``+pos`` mask)."""
        if not self.rare_mask:
            return None
        bits, _, pos = self.rare_mask.partition("+")
        return even_class(int(bits, 16), bool(pos))

    def sequence(self, heaps: int) -> list[int]:
        """``G(0..heaps-1)`` as published (trivial games only)."""
        if self.values is None:
            raise PublishedDataError(f"no published sequence for {self.name} ({self.status})")
        return expand(self.values, heaps)


@dataclass(frozen=True)
class Oeis:
    """An OEIS entry holding a code's Grundy values: ``terms`` are ``G(offset), G(offset+1), …``."""

    code: Code
    a_number: str
    name: str
    offset: int
    terms: tuple[int, ...]
    source: str


@functools.cache
def _games() -> dict[Code, Game]:
    ours = {parse(r["code"]): r for r in _rows("trivial_games.csv")}
    out = {}
    for r in _rows("tczajka_games.csv"):
        if r["status"] not in PUBLISHED_STATUSES:
            raise PublishedDataError(
                f"unknown status {r['status']!r} of {r['game']} in tczajka_games.csv"
            )
        code = parse(SOURCE_NAMES.get(r["game"], r["game"]))
        prefix = _int(r["prefix"])
        mine = ours.pop(code, None)
        if r["status"] == "trivial":
            if mine is None:
                raise PublishedDataError(f"trivial game {r['game']} is not in trivial_games.csv")
            start, values = max(int(mine["periodic_from"]), 1), mine["values"]
        else:
            start, values = (None if prefix is None else max(prefix, 1)), None
        out[code] = Game(
            code=code, name=r["game"], status=r["status"], prefix=prefix, period=_int(r["period"]),
            start=start, values=values, nimbers=r["nimbers"] or None, rare_mask=r["rare_mask"] or None,
            rare_heaps=_int(r["num_rare"]), last_rare=_int(r["last_rare"]), heaps=_int(r["heaps"]),
            largest=_int(r["largest"]), largest_heap=_int(r["largest_heap"]), source=r["source"],
        )  # fmt: skip
    if ours:
        raise PublishedDataError(f"trivial_games.csv has games of no list: {sorted(map(str, ours))}")
    return out


def games(status: str | None = None) -> list[Game]:
    """Every published game (or those of one ``status``), in the order of the source lists."""
    if status is not None and status not in PUBLISHED_STATUSES:
        raise UsageError(f"status is one of {', '.join(PUBLISHED_STATUSES)}, not {status!r}")
    return [g for g in _games().values() if status is None or g.status == status]


def game(code: Code | str) -> Game | None:
    """The published entry of ``code`` itself, or None when no list names it."""
    return _games().get(parse(code))


@functools.cache
def _lookup() -> dict[Code, Code]:
    return {parse(r["code"]): parse(r["equivalent"]) for r in _rows("tczajka_lookup.csv")}


def equivalent(code: Code | str) -> Code | None:
    """The listed game the lookup table names for an octal code of 1..3 digits (the code itself
    where the table gives none); None outside the table.

    The source counts a game that may not take a heap of one counter as its
    equivalent with every heap one smaller, so the two sequences (and starts)
    can differ by a shift: compare periods, and starts only after finding the
    shift.
    """
    return _lookup().get(parse(code))


def lookup() -> dict[Code, Code]:
    """The whole lookup table: every octal code of 1..3 digits to its equivalent listed game."""
    return dict(_lookup())


@functools.cache
def _oeis() -> dict[Code, Oeis]:
    out = {}
    for r in _rows("oeis.csv"):
        code = parse(r["code"])
        out[code] = Oeis(
            code=code, a_number=r["a_number"], name=r["name"], offset=int(r["offset"]),
            terms=tuple(int(x) for x in r["terms"].split()), source=r["source"],
        )  # fmt: skip
    return out


def oeis(code: Code | str) -> Oeis | None:
    """The OEIS entry of ``code``'s Grundy values, or None when the table has none."""
    return _oeis().get(parse(code))


def oeis_entries() -> list[Oeis]:
    """Every entry of the OEIS table."""
    return list(_oeis().values())


@dataclass(frozen=True)
class SparseList:
    """The start of Flammenkamp's list of the sparse values of Grundy's game, as his page shows it.

    ``values`` are the pairs ``(heap, G(heap))`` in the sparse set (every bit
    of the value but the lowest, an even count: the even class of the mask
    ``0111…``), heap 0 included, in order; the page lists
    :data:`FLAMMENKAMP_GRUNDY_KNOWN` in all, and the pairs shipped are those
    the stored copy of the page holds, so the list is complete through heap
    ``through`` (its last heap).
    """

    code: Code
    values: tuple[tuple[int, int], ...]
    known: int
    source: str

    @property
    def through(self) -> int:
        """The last heap of the shipped list: every sparse heap up to it is listed."""
        return self.values[-1][0]


@functools.cache
def flammenkamp_grundy() -> SparseList:
    """The sparse values of Grundy's game listed on Flammenkamp's page (``flammenkamp_grundy.csv``)."""
    pairs = tuple((int(r["heap"]), int(r["value"])) for r in _rows("flammenkamp_grundy.csv"))
    return SparseList(parse("grundy"), pairs, FLAMMENKAMP_GRUNDY_KNOWN, FLAMMENKAMP_GRUNDY)


@functools.cache
def rogalski_histograms() -> dict[tuple[Code, int], dict[int, int]]:
    """Rogalski's value histograms (``rogalski_histograms.csv``): ``(code, N)`` to how many of the
    heaps ``1..N`` hold each value.  His counts cover heaps 1 to ``N`` (heap ``N`` in, heap 0
    out), where a run of ``N`` heaps holds heaps ``0..N-1``."""
    out: dict[tuple[Code, int], dict[int, int]] = {}
    for r in _rows("rogalski_histograms.csv"):
        out.setdefault((parse(r["code"]), int(r["heaps"])), {})[int(r["value"])] = int(r["count"])
    return out
