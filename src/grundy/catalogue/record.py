"""The survey record: what a survey keeps of one code (all but its values), one typed object.

:func:`grundy.catalogue.survey.survey_code` makes one, the catalogue stores it (its
columns, packed false readings and JSON extras) and gives it back, the
tallies and ``grundy show`` read it.  :meth:`SurveyRecord.to_dict` is the
JSON form the catalogue and ``show --json`` have always written, and
:meth:`SurveyRecord.from_dict` reads it back.

The record is also a read-only mapping of that JSON form (``r["period"]``,
``r.get("mask")``, ``{**r}``), field by field, for the code that still reads
survey results as dicts (the site); new code reads the attributes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields

from ..readings.status import MEANINGS, STATUS_WORDS
from ..readings.trajectory import FalseReading


@dataclass(frozen=True)
class SurveyRecord(Mapping):
    """One surveyed code at ``heaps`` heaps (docs/surveys.md).

    ``status`` is one of :data:`grundy.readings.status.STATUSES`; ``start``,
    ``period`` and ``window`` are the certified reading (None unless
    settled); ``mask``, ``position``, ``rare_heaps`` and ``last_rare`` the
    sparse engine's statistics (None where it did not run); ``believed``
    counts the false readings a reader asking for ``r`` repetitions
    believes (keys ``"2"``..``"6"``); ``heap0_reached`` the heap-0 readings
    that held to their windows (``start``, ``period``, ``window``);
    ``arithmetic`` the arithmetic reading's JSON form, or None.
    """

    code: str
    t: int
    heaps: int
    status: str
    start: int | None
    period: int | None
    window: int | None
    certificate_depth: int | None
    right_from: int | None
    changes: int
    repetitions_needed: float | None
    max_value: int
    argmax: int
    mask: int | None
    position: bool | None
    rare_heaps: int | None
    last_rare: int | None
    values_sha256: str
    version: str
    analysis: int
    false_readings: tuple[FalseReading, ...]
    believed: dict[str, int]
    heap0_reached: tuple[dict, ...]
    arithmetic: dict | None

    @classmethod
    def from_dict(cls, d: Mapping) -> SurveyRecord:
        """The record whose :meth:`to_dict` is ``d``; ``TypeError`` for a missing or unknown key,
        or a false reading without its fields."""
        names = [f.name for f in fields(cls)]
        unknown = set(d) - set(names)
        if unknown:
            raise TypeError(f"keys no survey record has: {', '.join(sorted(unknown))}")
        kw = {name: d[name] for name in names if name in d}
        kw["false_readings"] = tuple(
            FalseReading(**{k: v for k, v in fr.items() if k != "reach"}) for fr in d.get("false_readings", ())
        )
        kw["heap0_reached"] = tuple(d.get("heap0_reached", ()))
        return cls(**kw)

    def _json(self, name: str):
        x = getattr(self, name)
        if name == "false_readings":
            return [fr.to_dict() for fr in x]
        if name == "heap0_reached":
            return [dict(h) for h in x]
        if name in ("believed", "arithmetic") and x is not None:
            return dict(x)
        return x

    def to_dict(self) -> dict:
        """The JSON form: the keys in the order of the fields, false readings as dicts."""
        return {f.name: self._json(f.name) for f in fields(self)}

    def __getitem__(self, key: str):
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return self._json(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.__dataclass_fields__)

    def __len__(self) -> int:
        return len(self.__dataclass_fields__)

    def __str__(self) -> str:
        """What ``grundy show`` prints: the class (and what it means, when unsettled), the
        reading, the largest value, the sparse statistics and every false reading."""
        from ..value_classes import RareClass

        lines = [f"{self.code}  (t = {self.t}), {self.heaps:,} heaps: {STATUS_WORDS[self.status]}"]
        if self.status != "settled":
            lines.append(f"  {MEANINGS[self.status]}")
        else:
            lines.append(f"  period {self.period} from heap {self.start}, window {self.window}, "
                         f"right from depth {self.right_from}, {self.changes} changes, "
                         f"repetitions needed {self.repetitions_needed:.2f}")
        lines.append(f"  largest value {self.max_value} first at heap {self.argmax}")
        if self.mask is not None:
            last = "none" if self.last_rare is None else f"the last at heap {self.last_rare:,}"
            lines.append(f"  sparse: mask {RareClass(self.mask, 0, bool(self.position)).label}, "
                         f"{self.rare_heaps:,} rare heaps, {last}")
        lines.append(f"  {len(self.false_readings)} false readings")
        lines += [f"    period {fr.period} from {fr.start}: depths {fr.first_depth}..{fr.last_depth}, "
                  f"held to {fr.held_to} of window {fr.window} ({fr.kind})" for fr in self.false_readings]
        return "\n".join(lines)

    def __repr__(self) -> str:
        reading = (f"period {self.period:,} from heap {self.start:,}" if self.status == "settled"
                   else STATUS_WORDS[self.status])
        return (f"<SurveyRecord {self.code} at {self.heaps:,} heaps: {reading}, "
                f"{len(self.false_readings):,} false readings>")

    def _repr_html_(self) -> str:
        from ..present.notebook import record_html

        return record_html(self)
