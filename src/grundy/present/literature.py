"""What the published octal-game tables say about a code, beside what the catalogue found.

The tables are Tomek Czajka's verified extension of Achim Flammenkamp's
tables (github.com/tczajka/octal-games), transcribed with their commits and
column meanings in ``docs/findings/data/README.md``: every code of one to
three digits is mapped to a listed game that is the same game (its
*equivalent*), and each listed game is trivial (a period found below 1,000
heaps), solved (a period found further) or unsolved.  An equivalent game may
count heaps from another point, so a start is compared only where the source
is the code itself, or where the source's sequence is found among our values
(shifted by ``o`` heaps: its start is then heap ``prefix + o``).
"""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

MAX_SHIFT = 8
"""How many heaps an equivalent game's listing may be shifted against ours."""


@cache
def _published() -> tuple[dict[str, dict], dict[str, str], dict[str, tuple[str, str]]]:
    """The listed games by name, the lookup (code to its equivalent game) and the OEIS table.

    Temporary: reads the CSV files of ``docs/findings/data`` from the source
    tree until the published tables ship inside the package.  The OEIS
    entries are the sequences whose terms are the code's values from heap 0.
    """
    data = Path(__file__).resolve().parents[3] / "docs" / "findings" / "data"
    games, lookup = {}, {}
    if (data / "tczajka_games.csv").is_file():
        with open(data / "tczajka_games.csv", encoding="utf-8") as f:
            games = {r["game"]: r for r in csv.DictReader(f)}
        with open(data / "tczajka_lookup.csv", encoding="utf-8") as f:
            lookup = {r["code"]: r["equivalent"] for r in csv.DictReader(f)}
    oeis = {
        "·77": ("A002186", "Sprague-Grundy values for Kayles"),
        "·137": ("A002187", "Sprague-Grundy values for Dawson's Chess"),
    }
    return games, lookup, oeis


def source_name(code: str) -> str:
    """A code as the published tables write it: ``·137`` → ``.137``, ``4·3`` → ``4.3``, ``4·`` → ``4``."""
    return code.replace("·", ".").rstrip(".")


def our_name(game: str) -> str:
    """A published game name as this toolkit writes the code: ``.4`` → ``·4``, ``4`` → ``4·``."""
    return game.replace(".", "·") if "." in game else game + "·"


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


def _int(x: str) -> int | None:
    return int(x) if x else None


def _shift(values, listed: list[int]) -> int | None:
    """The ``o`` for which our ``G(o), G(o+1), …`` spell ``listed``, or None."""
    n = len(listed)
    return next((o for o in range(MAX_SHIFT) if len(values) >= o + n and [int(v) for v in values[o : o + n]]
                 == listed), None)


def literature(result: dict, values) -> Literature:
    """The published status of ``result``'s code and whether ``result`` (and its ``values``) agree."""
    games, lookup, oeis = _published()
    code = result["code"]
    name = source_name(code)
    game = lookup.get(name, name if name in games else None)
    entry = games.get(game) if game else None
    number, title = oeis.get(code, (None, None))
    if entry is None:
        note = ("not in the published tables (they list the codes of one to three digits)"
                if name not in lookup else f"the equivalent game {game} is in none of the published lists")
        return Literature(code, game, None, None, None, None, None, None, None, None, None, note, number, title)
    status = entry["status"]
    start, period = _int(entry["prefix"]), _int(entry["period"])
    shift = _shift(values, nimbers(entry["nimbers"])) if entry["nimbers"] else None
    agrees, note = _compare(result, game, name, status, start, period, shift)
    return Literature(
        code, game, status, start, period, entry["rare_mask"] or None, _int(entry["num_rare"]),
        _int(entry["last_rare"]), _int(entry["heaps"]), shift, agrees, note, number, title,
    )


def _compare(r: dict, game: str, name: str, status: str, start, period, shift) -> tuple[bool | None, str]:
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
    if game == name:
        ok = r["start"] == max(1, start)
        return ok, ("period and start agree" if ok
                    else f"start {r['start']:,} here, {start:,} published")
    return True, (f"the period agrees; the start is not compared (the equivalent game {game} may count "
                  f"heaps from another point)")


def published_status(code: str) -> str | None:
    """The published status of the code's equivalent game (``trivial``, ``solved``, ``unsolved``), or None."""
    games, lookup, _ = _published()
    name = source_name(code)
    entry = games.get(lookup.get(name, name))
    return entry["status"] if entry else None


def data_digest() -> str:
    """A fingerprint of the published tables (pages are redrawn when they change)."""
    import hashlib

    return hashlib.sha256(repr(_published()).encode()).hexdigest()[:16]


def equivalent(code: str) -> str | None:
    """The code (in this toolkit's notation) of the game the lookup table names as the same game, or None."""
    _, lookup, _ = _published()
    game = lookup.get(source_name(code))
    return our_name(game) if game else None
