"""What the published octal-game tables say about a code, beside what the catalogue found.

The tables are Tomek Czajka's verified extension of Achim Flammenkamp's
tables (github.com/tczajka/octal-games), shipped with the package and read by
:mod:`grundy.catalogue.published` (sources and columns in ``src/grundy/data/README.md``): every code of one to
three digits is mapped to a listed game that is the same game (its
*equivalent*), and each listed game is trivial (a period found below 1,000
heaps), solved (a period found further) or unsolved.  An equivalent game may
count heaps from another point, so a start is compared only where the source
is the code itself, or where the source's sequence is found among our values
(shifted by ``o`` heaps: its start is then heap ``prefix + o``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache

MAX_SHIFT = 8
"""How many heaps an equivalent game's listing may be shifted against ours."""


@cache
def _published() -> tuple[dict, dict[str, str], dict[str, tuple[str, str]]]:
    """The listed games by code, the lookup (code to its equivalent game) and the OEIS table,
    each keyed by the code as this toolkit writes it."""
    from ..catalogue import published

    games = {str(g.code): g for g in published.games()}
    lookup = {str(c): str(e) for c, e in published.lookup().items()}
    oeis = {str(o.code): (o.a_number, o.name) for o in published.oeis_entries()}
    return games, lookup, oeis


def nimbers(text: str) -> list[int]:
    """The values a published listing spells (base-36 digits; the period is in parentheses)."""
    return [int(c, 36) for c in text if c not in "()"]


@dataclass(frozen=True)
class Literature:
    """The published entry of a code's equivalent game and how our result compares with it.

    ``status`` is ``trivial``, ``solved``, ``unsolved`` or None (not listed);
    ``agrees`` is True or False where a comparison could be made, None where
    it could not, and ``note`` says what was compared in a sentence.
    """

    code: str
    game: str | None
    status: str | None
    start: int | None
    period: int | None
    mask: str | None
    rare_heaps: int | None
    last_rare: int | None
    depth: int | None
    shift: int | None
    agrees: bool | None
    note: str
    oeis: str | None
    oeis_title: str | None

    def to_dict(self) -> dict:
        return asdict(self)


def _shift(values, listed: list[int]) -> int | None:
    """The ``o`` for which our ``G(o), G(o+1), …`` spell ``listed``, or None."""
    n = len(listed)
    return next((o for o in range(MAX_SHIFT) if len(values) >= o + n and [int(v) for v in values[o : o + n]]
                 == listed), None)


def literature(result: dict, values) -> Literature:
    """The published status of ``result``'s code and whether ``result`` (and its ``values``) agree."""
    games, lookup, oeis = _published()
    code = result["code"]
    game = lookup.get(code, code if code in games else None)
    entry = games.get(game) if game else None
    number, title = oeis.get(code, (None, None))
    if entry is None:
        note = ("not in the published tables (they list the codes of one to three digits)"
                if code not in lookup else f"the equivalent game {game} is in none of the published lists")
        return Literature(code, game, None, None, None, None, None, None, None, None, None, note, number, title)
    shift = _shift(values, nimbers(entry.nimbers)) if entry.nimbers else None
    agrees, note = _compare(result, entry.name, game == code, entry.status, entry.prefix,
                            entry.period, shift)
    return Literature(
        code, game, entry.status, entry.prefix, entry.period, entry.rare_mask, entry.rare_heaps,
        entry.last_rare, entry.heaps, shift, agrees, note, number, title,
    )


def went_deeper(result: dict, settlement: dict | None) -> bool:
    """Whether a stored settlement (grundy settle, a campaign) reached more heaps than ``result``."""
    return settlement is not None and settlement["heaps"] > result["heaps"]


def deepest(result: dict, settlement: dict | None) -> dict:
    """``result`` as its code's deepest state: where a stored settlement went further, its depth,
    and, once it is certified, its period and start in place of the survey's, so that the
    published entry is compared with the most that is known."""
    if not went_deeper(result, settlement):
        return result
    if settlement["settled"]:
        return {**result, "status": "settled", "start": settlement["start"], "period": settlement["period"],
                "heaps": settlement["heaps"]}
    return {**result, "heaps": settlement["heaps"]} if result["status"] != "settled" else result


def _compare(r: dict, game: str, itself: bool, status: str, start, period, shift) -> tuple[bool | None, str]:
    settled = r["status"] == "settled"
    if status == "unsolved":
        if settled:
            return False, f"settled here (period {r['period']:,} from heap {r['start']:,}) but listed unsolved"
        return True, "open here and in the literature"
    if not settled:
        return None, (f"not settled within {r['heaps']:,} heaps here; published period {period:,} "
                      f"from heap {start:,}")
    if r["period"] != period:
        return False, f"period {r['period']:,} here, {period:,} published for {game}"
    if shift is not None:
        at = max(1, start + shift)
        ok = r["start"] == at or (start == 0 and r["start"] <= shift)
        return ok, (f"the published sequence of {game} is ours from heap {shift}, so its period {period:,} "
                    f"starts at our heap {at:,}" + ("" if ok else f"; ours starts at heap {r['start']:,}"))
    if itself:
        ok = r["start"] == max(1, start)
        return ok, ("period and start agree" if ok
                    else f"start {r['start']:,} here, {start:,} published")
    return True, (f"the period agrees; the start is not compared (the equivalent game {game} may count "
                  f"heaps from another point)")


def published_status(code: str) -> str | None:
    """The published status of the code's equivalent game (``trivial``, ``solved``, ``unsolved``), or None."""
    games, lookup, _ = _published()
    entry = games.get(lookup.get(code, code))
    return entry.status if entry else None


def data_digest() -> str:
    """A fingerprint of the published tables (pages are redrawn when they change)."""
    import hashlib

    return hashlib.sha256(repr(_published()).encode()).hexdigest()[:16]


def equivalent(code: str) -> str | None:
    """The code (in this toolkit's notation) of the game the lookup table names as the same game, or None."""
    _, lookup, _ = _published()
    return lookup.get(code)
