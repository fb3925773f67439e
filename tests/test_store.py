"""Stores: values on disk in chunks, the checksum, the frontier statistics, streamed readings."""

import errno
import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
import grundy.sequence as sequence_module
from conftest import examples
from grundy.engine import compute, compute_with_stats, sparse
from grundy.engine import store as S
from grundy.errors import SequenceFileError, StoreError, UsageError
from grundy.readings.periods import arithmetic_reading, reading
from grundy.sequence import Sequence, StoredSequence, streamed_reading
from grundy.value_classes import rare_heaps
from naive import fletcher_loop, naive_reading

SMALL = 1000
"""A chunk size that makes every test store cross many chunks."""


def make(path, code, values, chunk=SMALL, blocks=(1,)):
    """A store of ``values`` appended in pieces cut at the fractions ``blocks``."""
    cuts = [0, *(int(f * len(values)) for f in blocks)]
    with S.Store.writer(path, code, chunk=chunk) as store:
        store.frontier.status(len(values), None, sparse=False)
        for a, b in itertools.pairwise(cuts):
            store.append(values[a:b])
    return S.Store.open(path)


# ---------------------------------------------------------------- the checksum


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
@pytest.mark.parametrize("n", [0, 1, 3, 65535, 65536, 65537, 200_001])
def test_fletcher32_is_the_published_loop(dtype, n):
    rng = np.random.default_rng(n)
    values = rng.integers(0, np.iinfo(dtype).max, n, endpoint=True).astype(dtype)
    assert S.fletcher32(values) == fletcher_loop(values)


def test_fletcher32_combines_block_by_block():
    values = np.random.default_rng(7).integers(0, 300, 150_000).astype(np.uint16)
    state = (0, 0)
    for a, b in [(0, 1), (1, 70_000), (70_000, 70_001), (70_001, 150_000)]:
        state = S.fletcher_step(state, values[a:b])
    assert (state[1] << 16) | state[0] == fletcher_loop(values)


@pytest.mark.parametrize("code, heaps, expected", [
    ("·354", 10**6, "EE75B6BA"),
    ("·16", 1 << 20, "8C8FE45D"),
    ("·6", 1 << 20, "B03F6294"),
])  # fmt: skip
def test_checksums_match_the_published_programs(code, heaps, expected):
    """Printed by Beling's ogs and Czajka's program on the same depths (outside truth)."""
    assert grundy.values(code, heaps).checksum == expected


@pytest.mark.slow
@pytest.mark.parametrize("code, heaps, expected", [
    ("·6", 1 << 22, "58FB02C6"),
    ("·16", 1 << 24, "A6D57EB7"),
])  # fmt: skip
def test_deep_checksums_match_the_published_programs(code, heaps, expected):
    assert grundy.values(code, heaps).checksum == expected


def test_hex_is_upper_case_without_leading_zeros():
    assert S.hex32(0x0BCDEF12) == "BCDEF12" and S.hex32(0) == "0"


# ---------------------------------------------------------------- the store


def test_a_store_reads_what_was_appended(tmp_path):
    values = compute("·354", 25_000)
    store = make(tmp_path / "s", "·354", values, blocks=(0.1, 0.1003, 0.5, 1))
    assert len(store) == 25_000 and store.dtype == np.uint8 and len(store.entries) == 25
    assert np.array_equal(store.read(0, 25_000), values)
    assert np.array_equal(store.read(999, 3001), values[999:3001])
    assert store[0] == 0 and store[12_345] == values[12_345] and store[-1] == values[-1]
    for index in [slice(10, 9000, 7), slice(None, None, -3), slice(24_990, None), slice(5, 5),
                  slice(-100, -10, 2), slice(20_000, 100, -13)]:  # fmt: skip
        assert np.array_equal(store[index], values[index]), index
    pieces = list(store.chunks(1500))
    assert pieces[0][0] == 1500 and all(len(v) <= SMALL for _, v in pieces)
    assert np.array_equal(np.concatenate([v for _, v in pieces]), values[1500:])
    names = sorted(p.name for p in (tmp_path / "s").iterdir())
    assert names == [f"{k:09d}.zst" for k in range(25)] + ["lock", "meta.json"]
    with pytest.raises(IndexError):
        store[25_000]
    with pytest.raises(UsageError):
        store.read(10, 25_001)


def test_a_partial_last_chunk_grows_under_a_new_name(tmp_path):
    values = compute("·137", 2500)
    make(tmp_path / "s", "·137", values[:1700])
    assert (tmp_path / "s" / "000000001-700.zst").exists()
    with S.Store.writer(tmp_path / "s", "·137") as store:
        store.append(values[1700:])
    names = {p.name for p in (tmp_path / "s").iterdir()}
    assert {"000000001.zst", "000000002-500.zst"} <= names and "000000001-700.zst" not in names
    assert np.array_equal(S.Store.open(tmp_path / "s").read(0, 2500), values)


def test_values_are_promoted_and_each_chunk_keeps_its_type(tmp_path):
    """·6 first reaches 256 at heap 10,344: the chunks before stay uint8."""
    values = compute("·6", 12_000)
    store = make(tmp_path / "s", "·6", values, blocks=(10_000 / 12_000, 1))
    meta = json.loads((tmp_path / "s" / "meta.json").read_text())
    assert meta["dtype"] == store.dtype.name == "uint16"
    kinds = [e.split(":")[0] for e in meta["chunks"]]
    assert kinds[:10] == ["u1"] * 10 and set(kinds[10:]) == {"u2"}
    assert np.array_equal(store.read(0, 12_000), values) and store.read(0, 10).dtype == np.uint16


def test_a_writer_killed_before_its_metadata_leaves_what_it_claimed(tmp_path, monkeypatch):
    values = compute("·354", 5000)
    make(tmp_path / "s", "·354", values[:2500])
    with S.Store.writer(tmp_path / "s", "·354") as store:
        def killed(*args, **kwargs):
            raise KeyboardInterrupt  # the process dies after writing its chunks

        monkeypatch.setattr(store, "_write_meta", killed)
        with pytest.raises(KeyboardInterrupt):
            store.append(values[2500:])
    monkeypatch.undo()
    back = S.Store.open(tmp_path / "s")
    assert len(back) == 2500 and np.array_equal(back.read(0, 2500), values[:2500])
    assert back.checksum == S.hex32(fletcher_loop(values[:2500]))
    with S.Store.writer(tmp_path / "s", "·354") as store:  # a new writer clears what was left
        names = {p.name for p in (tmp_path / "s").iterdir()}
        assert names == {f"{k:09d}.zst" for k in range(2)} | {"000000002-500.zst", "lock", "meta.json"}
        store.append(values[2500:])
    assert np.array_equal(S.Store.open(tmp_path / "s").read(0, 5000), values)


@pytest.mark.parametrize("when", ["chunk", "meta"])
def test_a_full_disk_is_one_error_and_loses_nothing(tmp_path, monkeypatch, when):
    values = compute("·354", 5000)
    make(tmp_path / "s", "·354", values[:2200])
    real = S.write_whole

    def full(target, data):
        if (target.name == "meta.json") == (when == "meta"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(target, data)

    with S.Store.writer(tmp_path / "s", "·354") as store:
        monkeypatch.setattr(S, "write_whole", full)
        with pytest.raises(StoreError, match=r"disk is full.*keeps its 2,200 heaps") as err:
            store.append(values[2200:])
        assert "\n" not in str(err.value)
        with pytest.raises(StoreError, match="failed to write"):
            store.append(values[2200:])
    monkeypatch.undo()
    back = S.Store.open(tmp_path / "s")
    assert len(back) == 2200 and np.array_equal(back.read(0, 2200), values[:2200])


def test_a_damaged_chunk_is_one_error(tmp_path):
    values = compute("·354", 5000)
    make(tmp_path / "s", "·354", values)
    chunk = tmp_path / "s" / "000000003.zst"
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 0x10
    chunk.write_bytes(bytes(data))
    store = S.Store.open(tmp_path / "s")
    assert np.array_equal(store.read(0, 3000), values[:3000])  # the chunks before are whole
    with pytest.raises(SequenceFileError, match=r"chunk 3 \(heaps 3,000..3,999\) is damaged") as err:
        store.read(2000, 4000)
    assert "\n" not in str(err.value)
    with pytest.raises(SequenceFileError, match="damaged"):
        store.verify()
    chunk.unlink()
    with pytest.raises(SequenceFileError, match="missing"):
        S.Store.open(tmp_path / "s")[3500]


def test_a_reader_follows_a_store_that_grows_under_it(tmp_path):
    values = compute("·354", 4000)
    make(tmp_path / "s", "·354", values[:2500])
    reader = S.Store.open(tmp_path / "s")
    with S.Store.writer(tmp_path / "s", "·354") as store:
        store.append(values[2500:])  # chunk 2 (heaps 2,000..2,499) is renamed as it fills
    assert np.array_equal(reader.read(1500, 2500), values[1500:2500])
    assert len(reader) == 4000


def test_a_store_of_another_code_is_refused(tmp_path):
    make(tmp_path / "s", "·354", compute("·354", 100))
    with pytest.raises(SequenceFileError, match="holds ·354, not ·77"):
        S.Store.writer(tmp_path / "s", "·77")
    with pytest.raises(SequenceFileError, match="holds ·354, not ·77"):
        S.Store.open(tmp_path / "s", "·77")


def test_two_writers_never_share_a_store(tmp_path):
    with S.Store.writer(tmp_path / "s", "·137") as first:
        first.append(compute("·137", 100))
        with pytest.raises(StoreError, match="another run is writing"):
            S.Store.writer(tmp_path / "s", "·137")
        assert len(S.Store.open(tmp_path / "s")) == 100  # readers need no lock
    with S.Store.writer(tmp_path / "s", "·137") as again:
        assert len(again) == 100


def test_a_folder_or_file_that_holds_no_store_is_refused(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine")
    with pytest.raises(SequenceFileError, match="holds no store"):
        S.Store.writer(tmp_path / "notes", "·137")
    (tmp_path / "afile").write_text("")
    with pytest.raises(StoreError, match="is a file"):
        S.Store.writer(tmp_path / "afile", "·137")
    with pytest.raises(StoreError, match="cannot make"):
        S.Store.writer(tmp_path / "afile" / "s", "·137")
    (tmp_path / "empty").mkdir()
    with S.Store.writer(tmp_path / "empty", "·137") as store:
        assert len(store) == 0


def test_an_old_sequence_file_is_migrated_and_left_as_it_was(tmp_path):
    old = grundy.values("·354", 3000)
    npy = old.save(tmp_path / "s")
    before = npy.read_bytes()
    said = []
    with S.Store.writer(tmp_path / "s", "·354", on_warning=said.append) as store:
        assert len(store) == 3000 and np.array_equal(store.read(0, 3000), old.values)
    assert len(said) == 1 and "migrated" in said[0] and "left as they were" in said[0]
    assert npy.read_bytes() == before
    assert isinstance(grundy.load(tmp_path / "s"), StoredSequence)
    assert type(grundy.load(tmp_path / "s.npy")) is Sequence  # the file itself, by its name
    npy.unlink()
    (tmp_path / "t.json").write_text("{}")  # a file of the user's beside the store, no old sequence
    with S.Store.writer(tmp_path / "t", "·354") as store:
        assert len(store) == 0
    assert (tmp_path / "t.json").read_text() == "{}"


# ---------------------------------------------------------------- frontier statistics


def _status_spy():
    seen = []
    return seen, seen.append


@pytest.mark.parametrize("code, heaps", [("·16", 300_000), ("·137", 70_000), ("·6", 40_000),
                                         ("·354", 200_000), ("·33", 5000)])  # fmt: skip
def test_frontier_records_are_the_statistics_of_each_prefix(tmp_path, code, heaps):
    """Every record against its definition: the values of the prefix, the engine's own statuses
    for the mask (the best mask where it ran dense), classes.rare_heaps for the rare heaps."""
    statuses, spy = _status_spy()
    values, stats = compute_with_stats(code, heaps, on_status=spy)
    name = grundy.engine.choose(grundy.parse(code))
    rec = S.Recorder(code, None, sparse=name == "sparse")
    widths = []
    rec.frontier.read = lambda a, b: widths.append(b - a) or rec.read(a, b)
    rec.block(0, values[:1000])
    for s in statuses:
        rec.status(s)
    rec.block(1000, values[1000:])
    records = rec.frontier.history()
    depths = [1 << k for k in range(heaps.bit_length()) if 1 << k <= heaps]
    assert [r.heaps for r in records] == depths + ([heaps] if heaps not in depths else [])
    for r in records:
        g = values[: r.heaps]
        assert (r.max, r.argmax) == (int(g.max()), int(np.argmax(g)))
        assert list(r.histogram) == np.bincount(g).tolist()
        if r.heaps <= 1 << 16:
            assert r.checksum == S.hex32(fletcher_loop(g))
        if name != "sparse" or not sparse.applies(grundy.parse(code)):
            assert r.mask is r.rare_heaps is r.last_rare is None
            continue
        made = next(s for s in statuses if s.heaps >= r.heaps).mask
        cls = made or sparse.best_mask(grundy.parse(code), g)[0]
        assert (r.mask, r.position) == (cls.mask, cls.position)
        rare = rare_heaps(g, cls, 1, sparse.split_parity(grundy.parse(code)))
        assert r.rare_heaps == rare.size and r.last_rare == (int(rare[-1]) if rare.size else None)
    assert max(widths, default=0) <= S.SUB  # a last rare heap costs one block read back
    if stats is not None:
        end = records[-1]
        assert (end.mask, end.position, end.rare_heaps, end.last_rare) == \
            (stats.mask, stats.position, stats.rare_heaps, stats.last_rare)  # fmt: skip


def test_frontier_state_resumes_exactly(tmp_path):
    """Statistics fed in pieces, saved and loaded between them, equal those fed at once."""
    values = compute("·16", 150_000)
    whole = S.Frontier.of("·16", values)
    f = S.Frontier("·16")
    f.status(len(values), None, sparse=False)
    for a, b in [(0, 5), (5, 65_536), (65_536, 65_541), (65_541, 150_000)]:
        f = S.Frontier.from_state("·16", json.loads(json.dumps(f.state())))
        f.feed(a, values[a:b])
    assert f.history() == whole.history()
    assert f.state() == whole.state()


def test_a_store_keeps_its_statistics_and_recounts_them_when_lost(tmp_path):
    values = compute("·354", 9000)
    store = make(tmp_path / "s", "·354", values, blocks=(0.3, 1))
    assert store.frontier.history() == S.Frontier.of("·354", values).history()
    meta = json.loads((tmp_path / "s" / "meta.json").read_text())
    assert meta["checksum"] == S.hex32(fletcher_loop(values)) and meta["statistics"]["heaps"] == 9000
    del meta["statistics"]
    (tmp_path / "s" / "meta.json").write_text(json.dumps(meta))
    assert S.Store.open(tmp_path / "s").frontier.history() == store.frontier.history()
    part = store.frontier_at(5000).history()
    assert part == S.Frontier.of("·354", values[:5000]).history()


# ---------------------------------------------------------------- stored sequences


@pytest.fixture
def small_blocks(monkeypatch):
    """Streamed readings in tiny blocks, so that every path of the algorithm is taken."""
    monkeypatch.setattr(sequence_module, "PERIODS", 37)
    monkeypatch.setattr(sequence_module, "FAST", 5)


@pytest.mark.parametrize("code, heaps", [("·137", 3000), ("·156", 8000), ("·77", 500), ("·6", 5000),
                                         ("·16", 120_000), ("·4", 200), ("·7", 60)])  # fmt: skip
def test_a_stored_sequence_reads_like_the_values(tmp_path, small_blocks, code, heaps):
    values = compute(code, heaps)
    stored = grundy.load(make(tmp_path / "s", code, values).path)
    assert isinstance(stored, StoredSequence) and len(stored) == heaps
    mem = Sequence(grundy.parse(code), values)
    assert (stored.max, stored.argmax, stored.checksum) == (mem.max, mem.argmax, mem.checksum)
    assert stored[7] == values[7] and np.array_equal(stored[100:200], values[100:200])
    assert list(stored)[:50] == values[:50].tolist()
    for depth in sorted({1, 2, 7, heaps // 3 + 1, heaps - 1, heaps}):
        for heap0 in (False, True):
            assert stored.reading(depth, heap0=heap0) == reading(values, mem.code, depth, heap0=heap0)
        assert stored.arithmetic_reading(depth) == arithmetic_reading(values, mem.code, depth)
    assert repr(stored) == repr(mem)
    assert stored.trajectory().certificate_depth == mem.trajectory().certificate_depth


def test_a_reading_never_reads_the_store_whole(tmp_path, monkeypatch):
    values = compute("·16", 200_000)
    store = make(tmp_path / "s", "·16", values, chunk=4096)
    widest = []
    real = S.Store.read
    monkeypatch.setattr(S.Store, "read", lambda self, a, b: widest.append(b - a) or real(self, a, b))
    stored = grundy.load(store.path)
    assert stored.reading() == reading(values, stored.code)
    assert stored.max == values.max() and stored.checksum == Sequence(stored.code, values).checksum
    assert max(widest) <= sequence_module.PERIODS + sequence_module.FAST


values_arrays = st.lists(st.integers(0, 3), min_size=2, max_size=60).map(
    lambda v: np.array(v, dtype=np.uint8))


@settings(max_examples=examples(300), deadline=None)
@given(values_arrays, st.integers(1, 40), st.booleans(), st.integers(0, 1))
def test_streamed_reading_is_the_reading_by_its_definition(g, tail, arithmetic, lo):
    """Random values, many ending in a repeated tail: the streamed reading against the naive one."""
    if tail < g.size:
        g = np.concatenate([g, np.resize(g[-tail:], 2 * g.size)])
    old = sequence_module.PERIODS, sequence_module.FAST
    sequence_module.PERIODS, sequence_module.FAST = 11, 3
    try:
        got = streamed_reading(lambda a, b: g[a:b], g.size, lo, arithmetic)
    finally:
        sequence_module.PERIODS, sequence_module.FAST = old
    want = naive_reading(g.astype(np.int64).tolist(), g.size, lo, arithmetic)
    assert got == (want if want is not None else (-1, -1))


# ---------------------------------------------------------------- runs


def test_grow_computes_only_what_the_store_lacks(tmp_path, monkeypatch):
    values = compute("·354", 30_000)
    make(tmp_path / "s", "·354", values[:12_345])
    asked = []
    real = compute_with_stats
    monkeypatch.setattr(grundy.engine, "compute_with_stats",
                        lambda *a, **k: asked.append(k["prefix"].size) or real(*a, **k))  # fmt: skip
    with S.Store.writer(tmp_path / "s", "·354") as store:
        run = S.grow(store, "·354", 30_000, every=0.0)
        assert run.reused == 12_345 and asked == [12_345]
        assert np.array_equal(store.read(0, 30_000), values)
        again = S.grow(store, "·354", 20_000)
        assert again.values is None and asked == [12_345]


def test_a_run_appends_once_enough_heaps_wait(tmp_path, monkeypatch):
    """Between checkpoints a run holds at most WAITING heaps for its store."""
    monkeypatch.setattr(S, "WAITING", 5000)
    depths = []
    real = S.Store.extend
    monkeypatch.setattr(S.Store, "extend", lambda self, blocks: real(self, blocks) or
                        depths.append(len(self)))  # fmt: skip
    with S.Store.writer(tmp_path / "s", "·354", chunk=SMALL) as store:
        S.grow(store, "·354", 200_000, engine="dense", every=3600)
    assert len(depths) >= 3 and depths[-1] == 200_000
    assert all(b - a >= 5000 for a, b in itertools.pairwise([0, *depths[:-1]]))


def test_an_interrupted_run_stores_what_it_computed(tmp_path):
    """Ctrl-C before the first timed checkpoint: the values computed so far are stored."""
    calls = []

    def stop(values):
        calls.append(values.size)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with S.Store.writer(tmp_path / "s", "·354", chunk=SMALL) as store:
        with pytest.raises(KeyboardInterrupt):
            S.grow(store, "·354", 400_000, engine="dense", every=3600, on_chunk=stop)
        assert len(store) == calls[-1] > 0
    back = S.Store.open(tmp_path / "s")
    assert np.array_equal(back.read(0, len(back)), compute("·354", len(back)))
    assert back.frontier.history() == S.Frontier.of("·354", back.read(0, len(back))).history()


def test_a_disposable_store_that_fails_is_given_up_once(tmp_path, monkeypatch):
    said = []
    with S.Store.writer(tmp_path / "s", "·354", chunk=SMALL) as store:
        real = S.write_whole
        fail = [False]

        def flaky(target, data):
            if fail[0]:
                raise OSError(errno.EACCES, "Permission denied")
            real(target, data)

        def on_chunk(values):
            fail[0] = values.size > 5000

        monkeypatch.setattr(S, "write_whole", flaky)
        run = S.grow(store, "·354", 60_000, every=0.0, on_chunk=on_chunk, disposable=True,
                     on_warning=said.append)  # fmt: skip
    assert len(said) == 1 and "no more checkpoints" in said[0]
    assert np.array_equal(run.values, compute("·354", 60_000))
    assert run.frontier.n == 60_000 and run.frontier.checksum == S.hex32(fletcher_loop(run.values))
    kept = S.Store.open(tmp_path / "s")
    assert 0 < len(kept) < 60_000 and np.array_equal(kept.read(0, len(kept)), run.values[: len(kept)])


def test_values_and_settle_checkpoint_through_the_one_recorder(tmp_path, monkeypatch):
    """``grundy values`` (grow) and ``settle`` give their values to the store through one method."""
    from grundy.engine.checkpoint import compute_resumable
    from grundy.engine.store import Recorder
    from grundy.readings.settle import settle

    seen, real = [], Recorder.follow

    def follow(self, values):
        seen.append(values.size)
        real(self, values)

    monkeypatch.setattr(Recorder, "follow", follow)
    compute_resumable("·6", 3000, tmp_path / "values")
    grown = len(seen)
    settle("·6", 3000, out=tmp_path / "settle")
    assert grown and len(seen) > grown
    for name in ("values", "settle"):
        assert len(S.Store.open(tmp_path / name, grundy.parse("·6"))) == 3000


@pytest.mark.parametrize("code", ["·6", "·07", "·137", "·354", "·16", "4·07", "0x·9", "·4!"])
@pytest.mark.parametrize("heaps", [1, 2, 1000, 2400, 5000])
def test_statistics_at_the_end_only_are_those_at_the_end(code, heaps):
    """A survey's frontier (no records at the powers of two) ends as a full one does."""
    full = S.grow(None, code, heaps).frontier
    end = S.grow(None, code, heaps, powers=False).frontier
    assert end.summary() == full.summary() == full.history()[-1]
    assert end.history() == [end.summary()]


def test_statistics_at_the_end_only_take_their_blocks_in_any_cut():
    values = compute("·6", 3000)
    whole, cut = S.Frontier("·6", powers=False), S.Frontier("·6", powers=False)
    whole.feed(0, values)
    for a, b in ((0, 7), (7, 1024), (1024, 1025), (1025, 3000)):
        cut.feed(a, values[a:b])
    assert cut.summary() == whole.summary() == _fed("·6", values).summary()


def _fed(code, values):
    f = S.Frontier(code)
    f.feed(0, values)
    return f
