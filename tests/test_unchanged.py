"""A refactor leaves what users see as it was: the site and the ``--json`` of every command.

``tests/data/before/`` was written by ``tests/golden.py`` at the commit before the refactor
(issue 23).  Every file is compared byte for byte, except pictures, compared pixel for pixel (a
PNG encoder may pack the same pixels differently).  A difference made on purpose is listed in
``ON_PURPOSE`` with its reason, so that the comparison says what changed and why.
"""

from __future__ import annotations

import json
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest

from golden import build

BEFORE = Path(__file__).parent / "data" / "before"
ON_PURPOSE: dict[str, str] = {
    "site/manifest.json": "each page's fingerprint hashes the source of the files that draw it "
    "(present/site.py DRAWN_BY), which the refactor edits (issue 23): the pages themselves are "
    "compared one by one, and the manifest's list of pages below",
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
    else:
        assert new.read_bytes() == old.read_bytes()


def test_the_manifest_lists_the_same_pages(after):
    def pages(folder):
        return sorted(json.loads((folder / "site" / "manifest.json").read_text())["pages"])

    assert pages(after) == pages(BEFORE)
