"""The outputs a refactor must leave as they were: a small site and the ``--json`` of each command.

``build(folder)`` writes them (run in ``folder``, so the catalogue's name in the site is the same
every time); ``tests/test_unchanged.py`` compares them with ``tests/data/before/``, written by
``python tests/golden.py tests/data/before`` before the refactor began.  Wall-clock fields are
blanked, since they differ from run to run.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from cli_inprocess import run

CATALOGUE = "catalogue.sqlite"
COMMANDS = {
    "values.json": ["values", "·6", "--heaps", "2000", "--json"],
    "values_small.json": ["values", "0.137", "--heaps", "500", "--json"],
    "period.json": ["period", "·16", "--heaps", "5000", "--json"],
    "readings.json": ["readings", "·07", "--heaps", "1000", "--json"],
    "settle.json": ["settle", "·16", "--json"],
    "show.json": ["show", "0.07", "--db", CATALOGUE, "--json"],
    "rare.json": ["rare", "·6", "--heaps", "20000", "--json"],
    "counts.json": ["counts", "·6", "--heaps", "3000", "--value", "3", "--json"],
    "ledger.json": ["ledger", "·6", "--heaps", "20000", "--value", "3", "--json"],
    "nim.json": ["nim", "·6", "5", "7", "9", "--json"],
}
CLOCKS = ("seconds", "reused")


def blank_clocks(data):
    """``data`` with every wall-clock field set to ``None``."""
    if isinstance(data, dict):
        return {k: (None if k in CLOCKS else blank_clocks(v)) for k, v in data.items()}
    if isinstance(data, list):
        return [blank_clocks(v) for v in data]
    return data


def build(folder: Path) -> None:
    """Survey the 2-digit codes into a catalogue, write its site, and every command's JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    here = Path.cwd()
    os.chdir(folder)
    try:
        for argv in (["survey", "--digits", "2", "--heaps", "1000", "--db", CATALOGUE],
                     ["report", "--db", CATALOGUE, "--out", "site"]):
            status, out, err = run(*argv)
            assert status == 0, (argv, out, err)
        for name, argv in COMMANDS.items():
            status, out, err = run(*argv)
            assert status == 0, (argv, out, err)
            data = blank_clocks(json.loads(out))
            Path(name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        Path(CATALOGUE).unlink()
    finally:
        os.chdir(here)


if __name__ == "__main__":
    build(Path(sys.argv[1]).resolve())
