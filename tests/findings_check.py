"""Checks shared by the findings tests: run a findings script, and every number on its page is the run's."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"(?<![\w.·,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?")
SKIP = re.compile(r"!\[[^\]]*\]\([^)]*\)|\([^)\s]*\.md\)|(?<!\d)[·.]\d+|§\d+|10\^\d+|`[^`]*`")


def script(name: str):
    """Import ``docs/findings/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(
        f"findings_{name}", ROOT / "docs/findings" / f"{name}.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def leaves(obj):
    """Every leaf of a JSON object, numeric dict keys included."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from leaves(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from leaves(v)
    else:
        yield obj


def renderings(x) -> set[str]:
    """The ways a page may print the number ``x``."""
    if isinstance(x, bool) or x is None:
        return set()
    if isinstance(x, str):
        return set(NUMBER.findall(x))
    out = set()
    if isinstance(x, int) or float(x).is_integer():
        out |= {str(int(x)), f"{int(x):,}"}
    for d in range(4):
        out |= {f"{x:,.{d}f}", f"{x:.{d}f}", f"{x:.{d}%}"}
    return out


def unexplained(page: str, result: dict, allowed=()) -> list[str]:
    """Numbers on ``page`` that are neither in ``result`` nor in ``allowed``.

    Text that ``result`` holds as a string (a summary sentence) is taken as it is.
    """
    ok = set()
    for leaf in leaves(result):
        ok |= renderings(leaf)
        if isinstance(leaf, str) and len(leaf) > 20:
            page = page.replace(leaf, "")
    for a in allowed:
        ok |= renderings(a)
    return [n for n in NUMBER.findall(SKIP.sub("", page)) if n not in ok]


def load(out: Path, name: str) -> tuple[str, dict]:
    """The page and the JSON a run wrote."""
    return (out / f"{name}.md").read_text(), json.loads((out / f"{name}.json").read_text())
