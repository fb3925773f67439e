"""One file name for a code (``grundy.codes.file_name``), and what was named otherwise before it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from grundy.codes import Code, family, file_name, parse
from grundy.engine import compute
from grundy.engine.checkpoint import (
    code_path,
    compute_resumable,
    legacy_file_name,
    load_existing,
    scratch_path,
)
from grundy.errors import SequenceFileError
from grundy.sequence import Sequence

BEFORE = Path(__file__).parent / "data" / "before" / "site" / "codes"


def test_the_pages_written_before_have_the_names_the_rule_gives():
    """The snapshot's page names were made by the site's own rule before there was one rule."""
    pages = sorted(p.stem for p in BEFORE.glob("*.html"))
    assert pages and pages == sorted(file_name(c) for c in family(2))


@pytest.mark.parametrize("text, name", [("·137", "0.137"), ("4·07", "4.07"), ("0x·9", "0x0.9"),
                                        ("4!·", "4u"), ("·4!", "0.4u"), ("4·", "4")])
def test_file_names(text, name):
    assert file_name(parse(text)) == name


def test_names_stay_distinct():
    codes = [Code((0, 4, d), u) for d in (4, 5) for u in ((), (1,), (2,), (1, 2))]
    codes += list(family(3)) + [parse(t) for t in ("4·", "4·0", "0x·9", "4!·", "·4!")]
    names = [file_name(c) for c in set(codes)]
    assert len(set(names)) == len(names)
    assert all("!" not in n and "·" not in n and n.isascii() for n in names)


def test_a_store_named_by_the_earlier_rule_is_found_and_resumed(tmp_path):
    code = parse("·16")
    compute_resumable(code, 3000, tmp_path / legacy_file_name(code))
    path = code_path(tmp_path, code)
    assert path.name == "0.16" and not (tmp_path / "16").exists()
    seq, reused, _ = compute_resumable(code, 5000, path)
    assert reused == 3000 and np.array_equal(seq.values, compute(code, 5000))


def test_an_old_pair_of_files_is_renamed_with_its_store_name(tmp_path):
    code = parse("·07")
    Sequence(code, compute(code, 400), "dense").save(tmp_path / "07")
    path = code_path(tmp_path, code)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.07.json", "0.07.npy"]
    assert np.array_equal(load_existing(path, code).values, compute(code, 400))


def test_an_old_name_that_is_another_codes_new_name_goes_to_its_own_code(tmp_path):
    """``·4`` was stored as ``4``, the name ``4·`` has now: asking for ``4·`` takes nothing."""
    four, split = parse("·4"), parse("4·")
    compute_resumable(four, 200, tmp_path / legacy_file_name(four))
    path = code_path(tmp_path, split)
    assert path == tmp_path / "4"
    with pytest.raises(SequenceFileError, match="holds ·4"):
        load_existing(path, split)
    assert code_path(tmp_path, four) == tmp_path / "0.4"
    assert load_existing(tmp_path / "0.4", four).code == four
    assert load_existing(code_path(tmp_path, split), split) is None


def test_a_record_beside_the_values_is_renamed_when_it_names_the_code(tmp_path):
    (tmp_path / "137.settle.json").write_text('{"code": "·137"}')
    (tmp_path / "77.settle.json").write_text('{"code": "·16"}')
    assert code_path(tmp_path, "·137", ".settle.json").exists()
    assert not code_path(tmp_path, "·77", ".settle.json").exists()
    assert (tmp_path / "77.settle.json").exists()


def test_an_interrupted_run_in_the_cache_is_found_under_its_old_name(tmp_path, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    code = parse("·16")
    new = scratch_path(code)
    old = new.with_name(new.name.replace(file_name(code), legacy_file_name(code), 1))
    compute_resumable(code, 1000, old)
    assert scratch_path(code) == new and new.exists() and not old.exists()
