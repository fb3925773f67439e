"""Sequences on disk: save, load, digests, extension and checkpointed runs."""

import json

import numpy as np
import pytest

from grundy.engine import compute
from grundy.engine import store as S
from grundy.engine.checkpoint import compute_resumable
from grundy.engine.store import Store
from grundy.errors import SequenceFileError
from grundy.sequence import Sequence, StoredSequence, paths
from grundy.sequence import values as sequence_of


def test_save_load_round_trip(tmp_path):
    seq = sequence_of("·137", 1000)
    npy = seq.save(tmp_path / "s")
    assert npy.name == "s.npy" and (tmp_path / "s.json").exists()
    back = Sequence.load(tmp_path / "s.npy")
    assert back.code == seq.code and back.values.dtype == seq.values.dtype
    assert np.array_equal(back.values, seq.values)
    meta = json.loads((tmp_path / "s.json").read_text())
    assert meta["code"] == "·137" and meta["depth"] == 1000 and meta["dtype"] == "uint8"
    assert len(meta["sha256"]) == 64 and meta["version"]


def test_corrupt_file_is_refused(tmp_path):
    sequence_of("·137", 500).save(tmp_path / "s")
    values = np.load(tmp_path / "s.npy")
    values[123] ^= 1
    np.save(tmp_path / "s.npy", values)
    with pytest.raises(SequenceFileError, match="corrupt"):
        Sequence.load(tmp_path / "s")


def test_truncated_or_missing_file_is_refused(tmp_path):
    sequence_of("·137", 500).save(tmp_path / "s")
    np.save(tmp_path / "s.npy", np.load(tmp_path / "s.npy")[:100])
    with pytest.raises(SequenceFileError):
        Sequence.load(tmp_path / "s")
    (tmp_path / "s.npy").write_bytes(b"not numpy")
    with pytest.raises(SequenceFileError, match="not a readable"):
        Sequence.load(tmp_path / "s")
    with pytest.raises(SequenceFileError, match="no sequence"):
        Sequence.load(tmp_path / "nothing")


def test_kill_between_the_two_renames_keeps_the_recorded_prefix(tmp_path):
    sequence_of("·6", 3000).save(tmp_path / "s")
    side = (tmp_path / "s.json").read_text()
    sequence_of("·6", 11_000).save(tmp_path / "s")  # uint16 now, values newer than...
    (tmp_path / "s.json").write_text(side)  # ...the sidecar of the older checkpoint
    back = Sequence.load(tmp_path / "s")
    assert back.depth == 3000 and np.array_equal(back.values, compute("·6", 3000))


def test_extend_computes_only_what_is_missing():
    short = sequence_of("·354", 2000)
    poisoned = Sequence(short.code, short.values.copy())
    poisoned.values[1500] ^= 2
    longer = poisoned.extend(3000)
    assert longer.depth == 3000 and longer.values[1500] == poisoned.values[1500]
    assert np.array_equal(short.extend(3000).values, compute("·354", 3000))
    assert short.extend(1000).depth == 2000


def test_resumable_run_reuses_and_extends(tmp_path):
    seq, reused, _ = compute_resumable("·137", 800, tmp_path / "r")
    assert reused == 0 and seq.depth == 800
    seq, reused, _ = compute_resumable("·137", 1200, tmp_path / "r")
    assert reused == 800 and np.array_equal(seq.values, compute("·137", 1200))
    assert Sequence.load(tmp_path / "r").depth == 1200
    with pytest.raises(SequenceFileError, match="holds ·137"):
        compute_resumable("·77", 100, tmp_path / "r")


def test_checkpoints_are_written_during_a_run(tmp_path, monkeypatch):
    depths = []
    orig = Store.extend

    def spy(self, blocks):
        orig(self, blocks)
        depths.append(S.stored_heaps(self.path))

    monkeypatch.setattr(Store, "extend", spy)
    compute_resumable("·354", 60_000, tmp_path / "c", every=0.0)
    assert len(depths) >= 2 and depths[-1] == 60_000 and depths == sorted(depths)


def test_a_run_reads_back_a_store_as_deep_without_loading_it(tmp_path):
    first, _, _ = compute_resumable("·137", 5000, tmp_path / "r")
    again, reused, stats = compute_resumable("·137", 3000, tmp_path / "r")
    assert isinstance(again, StoredSequence) and reused == 3000 and stats is None
    assert len(again) == 5000 and again.checksum == first.checksum


def test_paths_accept_either_suffix(tmp_path):
    assert paths(tmp_path / "a.npy") == paths(tmp_path / "a") == paths(tmp_path / "a.json")


def _savez(path, values):
    with open(path, "wb") as f:
        np.savez(f, values)


def _bad_npy(tmp_path, name, write):
    """·137 saved at ``name``, then its ``.npy`` replaced by ``write(path, values)``."""
    seq = sequence_of("·137", 300)
    npy = seq.save(tmp_path / name)
    write(npy, seq.values)
    return tmp_path / name


@pytest.mark.parametrize(
    "name, write, message",
    [
        ("empty", lambda p, v: p.write_bytes(b""), "not a readable"),
        ("header", lambda p, v: p.write_bytes(p.read_bytes()[:60]), "not a readable"),
        ("floats", lambda p, v: np.save(p, v.astype(np.float64)), "float64"),
        ("signed", lambda p, v: np.save(p, v.astype(np.int64) - 1), "int64"),
        ("square", lambda p, v: np.save(p, v[:289].reshape(17, 17)), "2-D"),
        ("archive", lambda p, v: _savez(p, v), "archive"),
    ],
)
def test_bad_npy_is_a_bad_file_never_cast(tmp_path, name, write, message):
    """Empty, truncated, float, signed, 2-D files are refused as bad files, not read or cast."""
    path = _bad_npy(tmp_path, name, write)
    with pytest.raises(SequenceFileError, match=message) as err:
        Sequence.load(path)
    assert "\n" not in str(err.value)


def test_floats_that_match_the_checksum_are_still_refused(tmp_path):
    """Floats equal to the values pass a checksum taken after a cast: the type itself is refused."""
    path = _bad_npy(tmp_path, "f", lambda p, v: np.save(p, v.astype(np.float32)))
    with pytest.raises(SequenceFileError, match="float32"):
        Sequence.load(path)


def test_a_sidecar_with_a_float_dtype_is_refused(tmp_path):
    sequence_of("·137", 300).save(tmp_path / "s")
    meta = json.loads((tmp_path / "s.json").read_text())
    (tmp_path / "s.json").write_text(json.dumps(dict(meta, dtype="float64")))
    with pytest.raises(SequenceFileError, match="describes no sequence"):
        Sequence.load(tmp_path / "s")
