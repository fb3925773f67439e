"""Shared fixtures (every test keeps the checkpoints of CLI runs in its own cache) and the
hypothesis profiles.

``ci``, the default: derandomised, the same examples on every run.  ``dev``: randomised, five
times the examples, for looking for new failures (``HYPOTHESIS_PROFILE=dev python -m pytest`` or
``python -m pytest --hypothesis-profile=dev``).  Tests give their example counts through
:func:`examples`, so that ``dev`` scales them too.
"""

from __future__ import annotations

import os
import signal

import pytest
from hypothesis import settings

CI_EXAMPLES = 100
settings.register_profile("ci", derandomize=True, max_examples=CI_EXAMPLES)
settings.register_profile("dev", derandomize=False, max_examples=5 * CI_EXAMPLES)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    # A shell starts a background job with Ctrl-C ignored, and every command the tests start
    # would inherit it: the tests that interrupt a run with SIGINT need it to arrive.
    signal.signal(signal.SIGINT, signal.default_int_handler)


def examples(n: int) -> int:
    """``n`` examples under the ``ci`` profile, as many times more as the profile loaded asks."""
    return n * settings.default.max_examples // CI_EXAMPLES


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Keep the checkpoints of CLI runs out of the user's cache."""
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path_factory.mktemp("cache")))
