"""The survey record (one typed object from the survey through the catalogue to ``show``), the one
digest of the values, the two trajectories from two passes, and the survey's sparse statistics
being the engine's (those ``grundy values --json`` prints)."""

import hashlib
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy.readings.trajectory as T
from cli_inprocess import run as grundy
from grundy.catalogue.database import Catalogue, values_sha256
from grundy.catalogue.record import SurveyRecord
from grundy.catalogue.survey import analyse, survey
from grundy.codes import family
from grundy.engine import compute
from grundy.present.legend import KIND_CELLS
from grundy.sequence import digest

HEAPS = 600
CODES = [str(c) for c in family(2)] + ["·137", "·226", "·45", "0x·9", "4·07", "·4!", "4!·0"]


@pytest.fixture(scope="module")
def surveyed():
    return {c: analyse(c, HEAPS) for c in CODES}


def test_every_record_round_trips_through_its_dict_and_json(surveyed):
    for record, _ in surveyed.values():
        assert isinstance(record, SurveyRecord)
        d = record.to_dict()
        assert SurveyRecord.from_dict(d) == record
        assert SurveyRecord.from_dict(json.loads(json.dumps(d))) == record
        assert dict(record) == d and list(record) == list(d)  # the mapping view is the dict, in order
        assert all(record[k] == v for k, v in d.items())


def test_the_catalogue_gives_back_the_records_it_was_given(tmp_path, surveyed):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        for record, values in surveyed.values():
            cat.add(record, values)
        back = {r.code: r for r in cat.results()}
        assert back == {r.code: r for r, _ in surveyed.values()}
        assert cat.record("·137") == surveyed["·137"][0]


def test_a_record_reads_as_the_old_dict_and_refuses_unknown_keys(surveyed):
    r = surveyed["·226"][0]
    assert r["false_readings"] == [fr.to_dict() for fr in r.false_readings] and r.false_readings
    assert {**r}["period"] == r.period and r.get("nothing") is None and "mask" in r
    with pytest.raises(KeyError):
        r["reach"]
    with pytest.raises(TypeError, match="keys no survey record has"):
        SurveyRecord.from_dict(r.to_dict() | {"extra": 1})


def test_show_prints_the_record(tmp_path, surveyed):
    db = tmp_path / "c.sqlite"
    with Catalogue(db) as cat:
        for code in ("·226", "·6"):
            cat.add(*surveyed[code])
    for code in ("·226", "·6"):
        status, out, _ = grundy("show", code, "--db", str(db))
        assert status == 0 and out == str(surveyed[code][0]) + "\n"
        status, out, _ = grundy("show", code, "--db", str(db), "--json")
        assert status == 0 and json.loads(out) == surveyed[code][0].to_dict()
    text = str(surveyed["·6"][0])
    assert "growing" in text and "description" in text  # an unsettled code says what its class means
    r = surveyed["·226"][0]
    html = r._repr_html_()
    assert "<table>" in html and "·226" in html and KIND_CELLS[r.false_readings[0].kind] in html


def test_the_digest_is_one_function_whatever_type_the_values_are_in():
    values = compute("·6", 3000)
    assert values.dtype != np.uint32
    independent = hashlib.sha256(b"".join(int(v).to_bytes(4, "little") for v in values)).hexdigest()
    assert digest(values, np.uint32) == digest(values.astype(np.uint16), np.uint32) == independent
    assert values_sha256(values) == independent
    assert digest(values) == hashlib.sha256(values.tobytes()).hexdigest()
    assert analyse("·6", 3000)[0].values_sha256 == independent


def test_the_survey_keeps_the_engines_sparse_statistics(tmp_path):
    """The catalogue's mask, position and rare counts are those ``values --json`` prints, code by code."""
    codes = [str(c) for c in family(2)][::3] + ["·137", "·6", "·45", "·4!"]
    cat = survey(codes, 2000)
    checked = 0
    for r in cat.results():
        status, out, _ = grundy("values", r.code, "--heaps", "2000", "--json")
        assert status == 0
        printed = json.loads(out)
        assert (r.mask, r.position, r.rare_heaps, r.last_rare) == tuple(
            printed.get(k) for k in ("mask", "position", "rare_heaps", "last_rare"))
        checked += r.mask is not None
    assert checked >= 5


def _same(a, b) -> bool:
    return (a.to_dict() == b.to_dict() and a.heap0 == b.heap0 and a.last_depth == b.last_depth
            and a.first_depth == b.first_depth and np.array_equal(a.starts, b.starts)
            and np.array_equal(a.periods, b.periods))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([str(c) for c in family(3)]), st.integers(1, 3000))
def test_both_trajectories_from_two_passes_are_the_two_calls(code, heaps):
    values = compute(code, heaps)
    passes = []
    real = T.readings

    def counted(*args, **kw):
        passes.append(kw)
        return real(*args, **kw)

    T.readings = counted
    try:
        default, heap0 = T.trajectories(values, code)
    finally:
        T.readings = real
    assert len(passes) == 2
    assert _same(default, T.trajectory(values, code))
    assert _same(heap0, T.trajectory(values, code, heap0=True))
