"""The rare-class survey: every class of every code of a family, and those that thin."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from functools import partial

import numpy as np

from ..checks import whole
from ..codes import Code, parse
from ..engine import compute
from ..readings.status import is_growing
from ..value_classes import RareClass
from .thinning import stretch_counts, thirds


@dataclass(frozen=True)
class ThinClass:
    """A class that thins on one code: its counts per stretch and the values it still holds last."""

    code: str
    mask: int
    parity: int
    thirds: tuple[int, int, int]
    length: int
    last_values: tuple[int, ...]

    @property
    def rank_key(self) -> tuple:
        """Rarest in the last stretch first, then the steepest first fall."""
        c1, c2, c3 = self.thirds
        return (c3 / self.length, c2 / c1, self.code, self.mask, self.parity)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "mask": self.mask,
            "parity": self.parity,
            "thirds": list(self.thirds),
            "length": self.length,
            "last_values": list(self.last_values),
        }

    @classmethod
    def from_dict(cls, d: dict) -> ThinClass:
        """The class :meth:`to_dict` wrote; ``ValueError``, ``KeyError`` or ``TypeError`` for a
        dict that no survey writes (a thinning class has heaps in its first stretch)."""
        thirds = tuple(whole(c, "a count") for c in d["thirds"])
        if len(thirds) != 3 or thirds[0] < 1 or d["parity"] not in (0, 1):
            raise ValueError(f"not a thinning class: {d!r}")
        return cls(str(parse(d["code"])), whole(d["mask"], "a mask", 1), d["parity"], thirds,
                   whole(d["length"], "a stretch", 1), tuple(whole(v, "a value") for v in d["last_values"]))


@dataclass(frozen=True)
class CodeSurvey:
    """One code of a rare-class survey: how many classes thin, and the best few."""

    code: str
    heaps: int
    max: int
    growing: bool
    classes_tried: int
    thinning: int
    best: tuple[ThinClass, ...]

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "heaps": self.heaps,
            "max": self.max,
            "growing": self.growing,
            "classes_tried": self.classes_tried,
            "thinning": self.thinning,
            "best": [c.to_dict() for c in self.best],
        }

    @classmethod
    def from_dict(cls, d: dict) -> CodeSurvey:
        """The outcome :meth:`to_dict` wrote (errors as :meth:`ThinClass.from_dict`)."""
        if not isinstance(d["growing"], bool):
            raise TypeError(f"growing is {d['growing']!r}")
        return cls(str(parse(d["code"])), whole(d["heaps"], "heaps", 1), whole(d["max"], "a value"),
                   d["growing"], whole(d["classes_tried"], "a count"), whole(d["thinning"], "a count"),
                   tuple(ThinClass.from_dict(c) for c in d["best"]))


def survey_code(
    code: Code | str, heaps: int, *, sigmas: float = 2.0, keep: int = 3, growing_only: bool = True
) -> CodeSurvey:
    """Try every class on one code: each mask below ``2**bits`` of the largest value, each parity.

    With ``growing_only`` a code that is not growing (docs/surveys.md) is computed
    but not searched.
    """
    code = parse(code)
    values = compute(code, heaps)
    top = int(values.max())
    growing = is_growing(values)
    bits = top.bit_length()
    if (growing_only and not growing) or thirds(values.size)[1] == 0 or bits == 0:
        return CodeSurvey(str(code), values.size, top, growing, 0, 0, ())
    sc = stretch_counts(values)
    classes = [
        ThinClass(str(code), m, q, sc.counts(m, q), sc.length, ())
        for m, q in sorted(sc.thinning(sigmas), key=lambda k: (k[1] == 0, k[0]))
    ]
    last = values[values.size - sc.length :]
    best = tuple(
        replace(
            c,
            last_values=tuple(
                int(v) for v in np.unique(last[RareClass(c.mask, c.parity).contains(last)])
            ),
        )
        for c in sorted(classes, key=lambda c: c.rank_key)[:keep]
    )
    return CodeSurvey(
        str(code), values.size, top, growing, 2 * ((1 << bits) - 1), len(classes), best
    )


@dataclass
class RareSurvey:
    """A rare-class survey over a family: every code read, and the thinning classes ranked."""

    heaps: int
    sigmas: float
    growing_only: bool
    codes: list[CodeSurvey]

    @property
    def ranked(self) -> list[ThinClass]:
        """The best classes of every code, rarest in the last stretch first."""
        return sorted((c for s in self.codes for c in s.best), key=lambda c: c.rank_key)

    def to_dict(self) -> dict:
        searched = [s for s in self.codes if s.classes_tried]
        return {
            "heaps": self.heaps,
            "sigmas": self.sigmas,
            "growing_only": self.growing_only,
            "codes_read": len(self.codes),
            "codes_searched": len(searched),
            "codes_with_thinning": sum(1 for s in searched if s.thinning),
            "classes": [c.to_dict() for c in self.ranked],
            "codes": [s.to_dict() for s in searched],
        }


def _survey_record(code: str, **options) -> dict:
    return survey_code(code, **options).to_dict()


def rare_survey(
    codes: Iterable[Code | str],
    heaps: int,
    *,
    sigmas: float = 2.0,
    keep: int = 3,
    growing_only: bool = True,
    executor: Executor | None = None,
    catalogue=None,
    on_code: Callable[[int], None] | None = None,
) -> RareSurvey:
    """Run :func:`survey_code` over ``codes``, serially or on any ``concurrent.futures.Executor``.

    With ``catalogue`` (a :class:`~grundy.catalogue.database.Catalogue`) each code's
    outcome is stored as it finishes (records of kind ``rare-survey``), so an
    interrupted survey resumes and a repeated one computes nothing.
    ``on_code(done)`` is called after each code.
    """
    from ..catalogue.database import Catalogue, CatalogueError
    from ..catalogue.runner import Records, run

    options = {"heaps": heaps, "sigmas": float(sigmas), "keep": keep, "growing_only": growing_only}
    names = list(dict.fromkeys(str(parse(c)) for c in codes))
    own = catalogue is None
    catalogue = Catalogue(":memory:") if own else catalogue
    try:
        run(
            partial(_survey_record, **options),
            names,
            catalogue,
            Records("rare-survey", options),
            executor=executor,
            on_progress=None if on_code is None else lambda done, total: on_code(done),
        )
        found = {}
        for r in catalogue.records("rare-survey", options, codes=names):
            try:
                found[r["code"]] = CodeSurvey.from_dict(r)
            except (KeyError, TypeError, ValueError) as exc:
                raise CatalogueError(
                    f"{catalogue.path}: a stored rare-survey record is corrupt ({exc!r}): delete the "
                    "file, or store the survey in another one"
                ) from None
    finally:
        if own:
            catalogue.close()
    return RareSurvey(heaps, float(sigmas), growing_only, [found[c] for c in names])
