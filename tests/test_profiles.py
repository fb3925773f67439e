"""The hypothesis profiles of tests/conftest.py: ``ci`` derandomised, ``dev`` randomised with more."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from conftest import CI_EXAMPLES, examples


def test_ci_runs_the_same_examples_and_dev_draws_new_ones_and_more():
    ci, dev = settings.get_profile("ci"), settings.get_profile("dev")
    assert ci.derandomize and ci.max_examples == CI_EXAMPLES
    assert not dev.derandomize and dev.max_examples > ci.max_examples


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci", reason="another profile asked for")
def test_the_default_profile_is_ci_and_keeps_each_tests_count():
    if settings.default.derandomize is False:
        pytest.skip("--hypothesis-profile chose another profile")
    assert settings.default.max_examples == CI_EXAMPLES
    assert examples(40) == 40


def test_a_tests_count_scales_with_the_profile():
    with_dev = settings.get_profile("dev").max_examples // CI_EXAMPLES
    settings.load_profile("dev")
    try:
        assert examples(40) == 40 * with_dev > 40
    finally:
        settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
