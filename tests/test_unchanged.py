"""A refactor leaves what users see as it was: the site and the ``--json`` of every command.

``tests/data/before/`` was written by ``tests/golden.py`` at the commit before the refactor
(issue 23).  Every file is compared byte for byte, except pictures, compared pixel for pixel (a
PNG encoder may pack the same pixels differently).  A difference made on purpose is listed in
``ON_PURPOSE`` with its reason, so that the comparison says what changed and why; a file whose
only change is the added kinds of its readings (``KINDS_ADDED``) is compared without that line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest

from golden import build

BEFORE = Path(__file__).parent / "data" / "before"
ON_PURPOSE: dict[str, str] = {
    "site/assets/site.js": "the script reads the kinds' words and colours the site writes before it, and "
                           "each reading's kind from the page's data, instead of restating them (issue 23)",
    "site/manifest.json": "each page's fingerprint hashes the files that draw it, which the refactor "
                          "(issue 23) changed: the pages themselves are compared, and the "
                          "manifest's list of pages below",
}
KINDS_LINE = re.compile(rb"var grundyKinds=\[[0-9,]*\];\n")
"""A settled code's readings carry their kinds for ``site.js`` (issue 23): one line added."""
KINDS_ADDED = {
    f"site/{name}" for name in (
        "readings/2fcdfa9f833bb0f7-2.js",
        *(f"codes/0.{c}.html" for c in ("02", "03", "07", "11", "12", "13", "15", "17", "34", "4", "41",
                                        "42", "43", "52", "53", "54", "57")),
    )
}


@pytest.fixture(scope="module")
def after(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("after")
    build(folder)
    return folder


def files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


def test_the_same_files_are_written(after):
    assert files(after) == files(BEFORE)


@pytest.mark.parametrize("name", sorted(files(BEFORE)))
def test_each_file_is_as_it_was(after, name):
    if name in ON_PURPOSE:
        pytest.skip(f"changed on purpose: {ON_PURPOSE[name]}")
    old, new = BEFORE / name, after / name
    if name.endswith(".png"):
        assert np.array_equal(matplotlib.image.imread(old), matplotlib.image.imread(new))
    elif name in KINDS_ADDED:
        assert KINDS_LINE.search(new.read_bytes())
        assert KINDS_LINE.sub(b"", new.read_bytes()) == old.read_bytes()
    else:
        assert new.read_bytes() == old.read_bytes()


def test_the_manifest_lists_the_same_pages(after):
    def pages(folder):
        return sorted(json.loads((folder / "site" / "manifest.json").read_text())["pages"])

    assert pages(after) == pages(BEFORE)
