"""Shared fixtures: the oracle folder and small helpers for the CLI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _oracle_dir() -> Path | None:
    for cand in (os.environ.get("GRUNDY_ORACLE"), ROOT.parent / "shared" / "oracle"):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


@pytest.fixture(scope="session")
def oracle_dir() -> Path:
    d = _oracle_dir()
    if d is None:
        pytest.skip("the shared oracle folder (../shared/oracle) is not beside this checkout")
    return d


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Keep the checkpoints of CLI runs out of the user's cache."""
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path_factory.mktemp("cache")))
