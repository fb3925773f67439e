"""The ledger of a rare value: which rare heaps supply it, and how concentrated the supply is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..checks import whole
from ..codes import Code, parse
from ..errors import UsageError
from .counts import check_range, supply

TOP = (1, 5, 10, 50)
"""The numbers of top suppliers whose share of the supplies the ledger reports."""


@dataclass(frozen=True)
class Supplier:
    """A rare heap and the heaps it supplies ``v`` to (``sole``: as the only way to reach ``v``)."""

    heap: int
    value: int
    supplies: int
    sole: int


@dataclass(repr=False)
class Ledger:
    """Which rare heaps supply a rare value ``v``, and how concentrated the supply is (docs/counts.md).

    A rare heap ``r`` supplies ``v`` to heap ``n`` when some split ``(r, b)``
    of ``n`` is worth ``v``; it is the sole supplier when every move from
    ``n`` worth ``v`` is such a split.  Suppliers are the rare heaps below
    ``below``, read over heaps ``1..heaps-1``, largest first; ``shares[k]``
    is the share of their supplies made by the top ``k``.
    """

    code: str
    value: int
    heaps: int
    below: int
    mask: int
    suppliers: list[Supplier]
    rare_total: int
    reached: int
    single: int
    supplies_all: int
    shares: dict[int, float]

    def __repr__(self) -> str:
        shares = ", ".join(f"top {k} {v:.1%}" for k, v in self.shares.items())
        return (f"<Ledger {self.code} of value {self.value} over {self.heaps:,} heaps (mask {self.mask}): "
                f"{len(self.suppliers):,} suppliers below {self.below:,}; {shares}>")

    def _repr_html_(self) -> str:
        from ..present.notebook import ledger_html

        return ledger_html(self)

    @property
    def supplies_below(self) -> int:
        """Supplies made by the rare heaps below the bound."""
        return sum(s.supplies for s in self.suppliers)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "value": self.value,
            "heaps": self.heaps,
            "below": self.below,
            "mask": self.mask,
            "parity": 1,
            "rare_total": self.rare_total,
            "reached": self.reached,
            "single": self.single,
            "supplies_all": self.supplies_all,
            "supplies_below": self.supplies_below,
            "shares": self.shares,
            "suppliers": [[s.heap, s.value, s.supplies, s.sole] for s in self.suppliers],
        }


def ledger(
    code: Code | str,
    values: np.ndarray,
    v: int,
    *,
    below: int = 5_000,
    mask: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Ledger:
    """The ledger of ``v`` over every heap of ``values``, for the rare heaps below ``below``."""
    code = parse(code)
    check_range(values, v, 1, values.size)
    if v == 0:
        raise UsageError(
            "0 lies in no parity-1 class, so it has no ledger: choose a value of at least 1"
        )
    below = whole(below, "the bound on suppliers", 2)
    if code.hexadecimal:
        raise UsageError(
            f"{code} has moves that leave three heaps, whose rare parts a ledger cannot name"
        )
    s = supply(code, values, int(v), 1, values.size, mask, on_progress)
    order = sorted(np.flatnonzero(s.rare < below), key=lambda i: (-s.supplies[i], s.rare[i]))
    suppliers = [
        Supplier(int(s.rare[i]), int(values[s.rare[i]]), int(s.supplies[i]), int(s.sole[i]))
        for i in order
    ]
    made = np.cumsum([x.supplies for x in suppliers]) if suppliers else np.zeros(0)
    total = int(made[-1]) if made.size else 0
    shares = {k: float(made[min(k, made.size) - 1] / total) if total else 0.0 for k in TOP}
    return Ledger(
        code=str(code),
        value=int(v),
        heaps=int(values.size),
        below=int(below),
        mask=s.mask,
        suppliers=suppliers,
        rare_total=int(s.rare.size),
        reached=int(((s.splits + s.other) > 0).sum()),
        single=int(s.sole.sum()),
        supplies_all=int(s.supplies.sum()),
        shares=shares,
    )
