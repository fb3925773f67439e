"""Shared fixtures: every test keeps the checkpoints of CLI runs in its own cache."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Keep the checkpoints of CLI runs out of the user's cache."""
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path_factory.mktemp("cache")))
