"""A campaign: every open code of a family driven deep, with a budget that follows the mathematics.

The codes come in three layers:

* **Games.**  Codes whose rules prove them the same game (:func:`same_game`: a bit of a digit
  that can never change a value) are computed once, as the code with those bits cleared (the
  *canonical* code, often shorter); the others follow it, and a follower's certificate is its
  game's, by proof.  Games whose values are another game's moved by a heap or more (chains of
  :func:`shifted`) are computed once too: the others follow their chain's *leader*
  (:meth:`_Driver.view`), and a certificate one of them gets from it is checked on its own values.
* **Classes.**  Games with the same values to ``plan.seed`` heaps form a class; its
  *representative* is its first game in code order (the fewest digits, so the smallest window).
* **Steps.**  Every game is settled (:func:`grundy.readings.settle.settle`) to ``plan.floor`` heaps, a
  power of two at a time; a step stops early at a certificate.  A representative still open
  there goes deeper, a power of two at a time to ``plan.depth``, for as long as its rare heaps
  have stopped arriving (:meth:`Plan.quiet`: the last rare heap below ``depth / plan.quiet``).
  When a representative settles, every member is settled from its own values to its own window;
  a member whose values part from its representative's (the digests of its first ``m`` values
  differ at some mark ``m``, or the outcomes cannot both hold) is a finding: the exact heap is
  computed (:func:`parting`) and the member becomes the representative of a class of its own.
  Every certificate the campaign finds is checked by a second engine or a second mask
  (:func:`check`).

Each step, check and parting is a task on any ``concurrent.futures.Executor`` (serial, a
process pool, a Dask client's executor); its outcome is stored in the catalogue as soon as it
returns (records of kind ``settlement``, ``certificate_check`` and ``parting``), so a
campaign killed at any moment and run again computes only what is missing: a step in flight
resumes from the values it checkpointed in ``store``.  A game's values stay in ``store`` while it
has steps to go and are deleted when it has none (its records keep their digests), so the disk
holds about one game's values per worker.  Followers get records too, derived from their game's,
written when a run starts and ends, so that ``grundy report`` shows every code's deepest state
(:meth:`Catalogue.settlements`).

Before a campaign, :func:`settle_many` settles a family within a CPU budget a code (the findings
pages' first pass): resumable, a larger budget later spending only the difference.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from ..codes import Code, parse
from ..engine.checkpoint import code_path, load_existing
from ..engine.store import stored_heaps
from ..errors import CertificateError, SequenceFileError, UsageError
from ..files import write_json
from ..interrupts import held_interrupts, wait_first
from ..sequence import digest as sequence_digest
from ..sequence import digest_blocks
from ..value_classes import RareClass
from .database import Catalogue
from .executors import ProcessPool, SerialExecutor
from .runner import FamilyRun, Records
from .runner import run as run_family
from .same_games import SameGame, same_game, shifted

KIND = "settlement"
CHECK_KIND = "certificate_check"
PARTING_KIND = "parting"
ANALYSIS = 1
"""The meaning of the campaign's records: bump it when that changes."""
CHECKPOINT_SECONDS = 60.0
"""How often a step in flight saves its values (a killed step loses at most this much)."""
GRACE_SECONDS = CHECKPOINT_SECONDS
"""Past a campaign's time, how long the tasks in flight may still finish before they are ended
(a step or a deep check then resumes from its last checkpoint)."""
DENSE_LIMIT = 400_000
"""Twice a window up to this many heaps is checked with the dense kernel (quadratic, a few
seconds at this depth); a deeper one by the sparse engine under a forced mask (:func:`check`)."""
COST = (3e-7, 2e-9)
"""CPU seconds a heap, and a heap per rare heap, that order the work until the campaign's own
steps give a fit (:meth:`Campaign.coefficients`)."""
REFIT = 64
MEMBER_WEIGHT = 3.0
"""A member's step waits behind representatives' steps that cost up to this many times more."""
CROWDED = 0.1
"""A game is *crowded* where its rare heaps are at least this share of its heaps: no mask makes its
values sparse, so each step costs about the square of its depth (the cost stated apart)."""
MAX_HEAPS = 10**8
"""The depth :func:`settle_many` stops at when the budget has not stopped it first."""
SETTLEMENT_ANALYSIS = 1
"""The meaning of :func:`settle_within`'s record: bump it when that changes."""


# ---------------------------------------------------------------- the plan


def _power_of_two(n: int) -> bool:
    return isinstance(n, int) and n >= 1 and n & (n - 1) == 0


def next_power(depth: int) -> int:
    """The least power of two above ``depth``."""
    return 1 << max(0, int(depth)).bit_length()


@dataclass(frozen=True)
class Plan:
    """The depths of a campaign: every game to ``floor`` heaps; a representative whose rare heaps
    have stopped arriving (:meth:`quiet`) on to ``depth``; steps from ``first`` heaps, a power of
    two at a time; classes of games with the same values to ``seed`` heaps."""

    floor: int = 1 << 22
    depth: int = 1 << 29
    quiet_ratio: int = 20
    first: int = 1 << 14
    seed: int = 10_000

    def __post_init__(self) -> None:
        if not all(_power_of_two(x) for x in (self.first, self.floor, self.depth)):
            raise UsageError("a campaign's first, floor and depth are powers of two")
        if not self.first <= self.floor <= self.depth:
            raise UsageError("a campaign's depths need first <= floor <= depth")
        if not (isinstance(self.quiet_ratio, int) and self.quiet_ratio >= 1 and self.seed >= 1):
            raise UsageError("a campaign's quiet ratio and seed depth are whole numbers of at least 1")

    def quiet(self, record: dict) -> bool:
        """Whether a settlement's rare heaps have stopped arriving: under the mask the engine used
        or under the mask that makes the fewest heaps rare (``best``, where the step found one),
        the last rare heap lies below ``heaps / quiet_ratio``."""
        classes = [record, record.get("best") or {}]
        return any(c.get("mask") is not None and (c.get("last_rare") is None
                                                   or c["last_rare"] * self.quiet_ratio < record["heaps"])
                   for c in classes)

    def marks(self) -> tuple[int, ...]:
        """The depths at which a step keeps the digest of the values: ``seed`` and every power of
        two from ``first`` to ``depth``."""
        powers = [1 << k for k in range(self.first.bit_length() - 1, self.depth.bit_length())]
        return tuple(sorted({self.seed, *powers}))

    def to_dict(self) -> dict:
        return asdict(self)


CLASS_FIELDS = ("mask", "position", "rare_heaps", "last_rare")
"""The sparse statistics of a class of values, as a step records them."""


def digest(values: np.ndarray, n: int) -> str:
    """The survey's digest (:func:`grundy.sequence.digest` in ``uint32``) of the first ``n`` values."""
    return sequence_digest(values[:n], np.uint32)


# ---------------------------------------------------------------- tasks (run in workers)


_WARM: list[bool] = []


def _warm() -> None:
    """Load the engine's kernels in this process once, so that no code's CPU time pays for it."""
    if not _WARM:
        from ..readings.settle import settle

        settle("·137", 2048)
        _WARM.append(True)


def drive(code: Code | str, max_heaps: int, out: str | os.PathLike, *, seconds: float | None = None):
    """Settle ``code`` to at most ``max_heaps`` heaps (and ``seconds`` CPU seconds), resuming
    from and keeping its values at ``out``: the one place a campaign, and the findings pages
    that settle many codes, call the engine (:func:`grundy.readings.settle.settle`).  Switching them to
    another engine (bounded memory, threads, a compressed store) changes this function only.

    ``out`` is the caller's own folder (a campaign's, a findings page's cache), so an earlier
    version's ``OUT.npy`` + ``OUT.json``, which the store takes in when it is made, is deleted
    then rather than kept beside it."""
    from ..engine.store import is_store
    from ..readings.settle import settle
    from ..sequence import paths

    st = settle(code, max_heaps, out=out, seconds=seconds, checkpoint_seconds=CHECKPOINT_SECONDS,
                on_warning=lambda _: None)  # fmt: skip
    if is_store(out):
        for old in paths(out):
            old.unlink(missing_ok=True)
    return st


# ---------------------------------------------------------------- a family within a budget


def _note(store: str | os.PathLike, code: Code) -> Path:
    """Where :func:`settle_within` keeps a code's record beside its values in ``store``."""
    return code_path(store, code, ".settle.json")


CPU_DIGITS = 3
"""Decimals of the CPU seconds a settlement record keeps."""
CPU_ROUNDING = 10.0**-CPU_DIGITS


def settle_within(code: Code | str, seconds: float | None = None, store: str | os.PathLike | None = None,
                  *, max_heaps: int = MAX_HEAPS) -> dict:
    """Settle ``code`` until certified, ``max_heaps`` heaps, or ``seconds`` CPU seconds in all.

    :meth:`Settlement.to_dict` with ``cpu_seconds`` (spent on the code over every call) and
    ``limit``: None when settled, else ``"max_heaps"`` or ``"seconds"``, the limit that stopped
    it.  With a ``store`` the values are kept at ``store/STEM`` (a store, or an earlier
    version's ``STEM.npy``, seeded by the caller if it likes) and the record at
    ``store/STEM.settle.json``, so that a larger budget later resumes from the values and
    spends only the difference; a code already settled, or already given at least ``seconds``
    (or ``max_heaps``), answers from that record at once (a smaller budget after a larger one
    reports the larger one's outcome).  Without a store nothing is kept and the budget starts
    from nothing.  The budget is checked between the engine's chunks (about a quarter of a
    second each), so a run may pass it by up to one chunk.  One thread a code.
    """
    code = parse(code)
    note = None if store is None else _note(store, code)
    before = json.loads(note.read_text()) if note is not None and note.exists() else None
    if before is not None and _spent(before, seconds, max_heaps):
        return before
    spent = before["cpu_seconds"] if before is not None else 0.0
    _warm()
    t0 = time.process_time()
    left = None if seconds is None else seconds - spent
    if store is None:
        from ..readings.settle import settle

        st = settle(code, max_heaps, seconds=left)
    else:
        st = drive(code, max_heaps, code_path(store, code), seconds=left)
    out = st.to_dict()
    out["limit"] = None if st.settled else ("max_heaps" if st.heaps >= max_heaps else "seconds")
    out["cpu_seconds"] = round(spent + time.process_time() - t0, CPU_DIGITS)
    if note is not None:
        write_json(note, out)
    return out


def _spent(record: dict, seconds: float | None, max_heaps: int) -> bool:
    """Whether ``record`` answers a budget of ``seconds`` and ``max_heaps``: settled, or stopped
    by a limit no larger than these.  ``cpu_seconds`` is kept to the millisecond, so a record
    within half of one of ``seconds`` had them (a budget under a millisecond is spent at once)."""
    return bool(record["settled"] or (record.get("heaps") or 0) >= max_heaps
                or (seconds is not None and record["cpu_seconds"] >= seconds - CPU_ROUNDING / 2))


@dataclass(frozen=True)
class Budget(Records):
    """Settlements stored as records of ``kind`` for ``params``, current where they answer a
    budget of ``seconds`` and ``max_heaps`` (:func:`_spent`)."""

    seconds: float | None = None
    max_heaps: int = MAX_HEAPS

    def stored(self, catalogue: Catalogue) -> set[str]:
        return {r["code"] for r in catalogue.records(self.kind, self.params, analysis=self.analysis)
                if _spent(r, self.seconds, self.max_heaps)}


def settlement_entry(seconds: float | None = None, max_heaps: int = MAX_HEAPS,
                     params: dict | None = None) -> Budget:
    """Where :func:`settle_many` stores settlements: ``kind = "settlement"`` for ``params``
    (default: the limits, ``{"max_heaps": ..., "seconds": ...}``)."""
    params = {"max_heaps": max_heaps, "seconds": seconds} if params is None else params
    return Budget(KIND, params, SETTLEMENT_ANALYSIS, seconds, max_heaps)


def settle_many(
    codes: Iterable[Code | str],
    catalogue: Catalogue,
    *,
    seconds: float | None = None,
    max_heaps: int = MAX_HEAPS,
    store: str | os.PathLike | None = None,
    params: dict | None = None,
    executor: Executor | None = None,
    recompute: Iterable[Code | str] = (),
    on_result: Callable[[dict], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> FamilyRun:
    """Settle each code within ``seconds`` CPU seconds and ``max_heaps`` heaps
    (:func:`settle_within`) on any executor, and store each settlement in ``catalogue`` as it
    returns (:func:`grundy.catalogue.runner.run`).

    Resumable: a code whose stored record (:func:`settlement_entry` of ``params``) is settled
    or already had this budget is not computed again; with a ``store`` (which every worker must
    see), a code given more budget resumes from its kept values and spends only the difference.
    Read the settlements back with ``catalogue.records("settlement", params)``.
    """
    if seconds is not None and not seconds > 0:
        raise UsageError(f"seconds must be positive, not {seconds!r}")
    if store is not None:
        Path(store).mkdir(parents=True, exist_ok=True)
    return run_family(
        partial(settle_within, seconds=seconds, store=None if store is None else str(store),
                max_heaps=max_heaps),
        codes,
        catalogue,
        settlement_entry(seconds, max_heaps, params),
        executor=executor,
        recompute=recompute,
        warm_up=_warm,
        on_result=on_result,
        on_progress=on_progress,
    )


def step(code: str, heaps: int, store: str, since: int, marks: tuple[int, ...]) -> dict:
    """Settle ``code`` to ``heaps`` (stopping at a certificate), resuming from its values in
    ``store``: :meth:`Settlement.to_dict` with the step's target and CPU seconds, the digests of
    the first ``m`` values for every mark ``since < m <= heaps`` reached, when settled the digest
    of the values to the window (``window_sha256``), and the sparse statistics under the mask
    that makes the fewest heaps rare (``best``; the engine's own mask may lag behind it)."""
    from ..engine import sparse

    _warm()
    c = parse(code)
    path = code_path(store, c)
    t0 = time.process_time()
    try:
        st = drive(code, heaps, path)
    except SequenceFileError:
        _forget(path)
        st = drive(code, heaps, path)
    cpu = time.process_time() - t0
    values = load_existing(path, c).values
    out = st.to_dict()
    out.update(target=heaps, cpu_seconds=round(cpu, 3),
               digests={str(m): digest(values, m) for m in marks if since < m <= st.heaps})  # fmt: skip
    if st.settled:
        out["window_sha256"] = digest(values, st.reading.window)
    if sparse.applies(c):
        best = sparse.statistics(c, values)
        out["best"] = {k: getattr(best, k) for k in CLASS_FIELDS}
    return out


def _forget(path: Path) -> None:
    """Delete the values kept at ``path`` (a store, or an earlier version's two files) and what a
    killed save left beside them: values that fail their checks are computed again rather than
    trusted."""
    if path.is_dir():
        shutil.rmtree(path)
    for f in path.parent.glob(f"*{path.name}.*"):
        if f.name in (path.name + ".npy", path.name + ".json") or f.name.endswith(".tmp"):
            f.unlink(missing_ok=True)


def other_mask(code, values: np.ndarray, used: RareClass | None) -> RareClass | None:
    """The plain mask that makes the fewest of ``values`` rare among those that split them
    otherwise than ``used`` (a mask differing from it only in bits above every value splits
    them the same way); None where there is none."""
    from ..engine import sparse

    bits = (1 << max(1, int(values.max())).bit_length()) - 1
    same = None if used is None or used.position else used.mask & bits
    masks = [sparse.even_class(m) for m in range(1, bits + 1) if m != same]
    return min(masks, key=lambda m: sparse.rare_heaps(code, values, m).size, default=None)


def check(row: dict, kept: np.ndarray | None = None, window_sha256: str | None = None,
          store: str | os.PathLike | None = None) -> dict:
    """Compute ``row``'s code to twice its window with an engine other than the one that found
    the period, and check that the period holds there and that the values agree with those it
    was read on: ``kept`` (compared as far as both go) or the digest of the first ``window``.

    Codes the sparse method covers were computed by it (dense where no mask paid): they are
    checked with the dense kernel, or beyond :data:`DENSE_LIMIT` by the sparse engine under a
    forced mask (:func:`_deep_check`).  Codes without two-heap moves were computed by the dense
    kernel: they are checked with the plain-Python reference engine.
    """
    from ..engine import compute_with_stats, sparse

    code = parse(row["code"])
    depth = 2 * row["window"]
    if sparse.applies(code) and depth > DENSE_LIMIT:
        return _deep_check(code, row, kept, window_sha256, store)
    t0 = time.process_time()
    engine = "dense" if sparse.applies(code) else "reference"
    values = compute_with_stats(code, depth, engine=engine)[0]
    holds = _holds(_chunked(values, depth), lambda a, b: values[a:b], row["start"], row["period"])
    agrees, n = _agrees(_read_on(_chunked(values, depth), row), row.get("lead_window", row["window"]), kept,
                        window_sha256)
    return {"code": row["code"], "engine": engine, "depth": depth, "holds": holds, "agrees": agrees,
            "compared": n, "cpu_seconds": round(time.process_time() - t0, 3)}  # fmt: skip


PROBE = 1 << 18
"""Heaps on which a deep check measures how many heaps another mask makes rare."""
PROBE_QUIET = 4
"""Rare heaps of the probe that stop before ``1 / PROBE_QUIET`` of it have stopped arriving."""
OTHER_WORK = 5e10
"""The most work (heaps times rare heaps, about 10^9 a CPU second) a deep check spends to use
another mask than the run's (:func:`check_work`)."""


def _chunked(values: np.ndarray, depth: int, block: int = 1 << 22):
    """``(start, values)`` blocks of the first ``depth`` of ``values``, as a store's chunks are."""
    for a in range(0, min(depth, len(values)), block):
        yield a, values[a : min(depth, a + block)]


def _holds(blocks, read: Callable[[int, int], np.ndarray], start: int, period: int) -> bool:
    """Whether ``G(n) = G(n - period)`` for every heap ``n >= start + period`` of ``blocks``
    (``read(a, b)`` gives heaps ``a..b-1``, as :meth:`Store.read` does)."""
    for a, b in blocks:
        lo = max(a, start + period)
        if lo < a + b.size and not np.array_equal(b[lo - a :], read(lo - period, a + b.size - period)):
            return False
    return True


def _read_on(blocks, row: dict):
    """The blocks ``(first heap, values)`` of the values ``row``'s period was read on: the code's
    own, or for a code that follows another moved by ``row["shift"]`` heaps (``G(n) =
    G_lead(n + shift)``) its leader's, heap ``m`` of the leader being heap ``m - shift`` here and
    worth 0 where that is below 0."""
    shift = row.get("shift", 0)
    if shift > 0:
        yield 0, np.zeros(shift, dtype=np.int64)
    for a, b in blocks:
        m = a + shift
        if m + len(b) > 0:
            yield max(m, 0), b[max(0, -m):]


def _agrees(blocks, window: int, kept, window_sha256: str | None) -> tuple[bool, int]:
    """Whether ``blocks`` agree with the values the period was read on, and on how many heaps:
    the digest of the first ``window`` values, or ``kept`` as far as both go."""
    if window_sha256 is not None:
        firsts = (b[: window - a] for a, b in blocks if a < window)
        return digest_blocks(firsts, np.uint32) == window_sha256, window
    if kept is None:
        return False, 0
    n = 0
    for a, b in blocks:
        if a >= kept.size:
            break
        b = b[: kept.size - a]
        if not np.array_equal(b, kept[a : a + b.size]):
            return False, a + b.size
        n = a + b.size
    return True, n


def check_work(rare: np.ndarray, probe: int, depth: int) -> float:
    """The sparse engine's work to ``depth`` heaps (heaps times rare heaps, summed) under a mask
    that makes ``rare`` of the first ``probe`` heaps rare: their count where they have stopped
    arriving (:data:`PROBE_QUIET`), else arriving at the probe's rate to the end."""
    if rare.size == 0 or int(rare[-1]) < probe // PROBE_QUIET:
        return float(rare.size) * depth
    return rare.size / probe * depth * depth / 2


def _deep_plan(code: Code, row: dict, kept: np.ndarray | None) -> dict:
    """How a deep certificate is checked: the mask and the driver of the sparse engine.

    Another mask is used where its work (:func:`check_work`, measured on the first
    :data:`PROBE` heaps) stays within :data:`OTHER_WORK`: a second computation sharing no rare
    list with the first.  Deeper, another mask that makes a share of all heaps rare makes the
    check quadratic (``·054``'s second-best mask makes one heap in a thousand rare: 10^14 at its
    window), so the run's own mask is forced from the first heap (the run
    chose its masks as it went, and ran dense where none paid), through the other of the
    engine's two drivers: in memory where the window was computed by the bounded one
    (:mod:`grundy.engine.bounded`, beyond :data:`grundy.engine.store.MEMORY`), bounded elsewhere.
    """
    from ..engine import compute, sparse
    from ..engine import store as engine_store
    from ..engine.store import in_memory
    from ..memory import BYTES_PER_HEAP, available_bytes

    used = sparse.even_class(row["mask"], bool(row["position"])) if row["mask"] else None
    n = min(row["window"], PROBE)
    probe = np.asarray(kept[:n]) if kept is not None and kept.size >= n else compute(code, n)
    other = other_mask(code, probe, used)
    rare = sparse.rare_heaps(code, probe, other) if other is not None else np.zeros(0, np.int64)
    depth = 2 * row["window"]
    pays = other is not None and (used is None or check_work(rare, n, depth) <= OTHER_WORK)
    mask = other if pays else used
    fits = depth * BYTES_PER_HEAP * 2 <= available_bytes()
    driver = "in memory" if fits and not in_memory(code, row["window"], engine_store.MEMORY) else "bounded"
    return {"mask": mask.mask, "position": mask.position, "other": pays, "driver": driver}


def _deep_check(code: Code, row: dict, kept, window_sha256: str | None, store) -> dict:
    """:func:`check` past :data:`DENSE_LIMIT`: the sparse engine (:func:`_deep_plan`) grows a
    store of its own to twice the window, beside the campaign's (``store``; a temporary folder
    when None), checkpointed as a step is, so that a check longer than a sitting resumes where
    it stopped; the period and the values are then compared chunk by chunk, never all in
    memory.  A note beside the store keeps the plan, the CPU seconds spent over every sitting
    and, once done, the outcome (returned at once when the same certificate is checked against
    the same values again)."""
    import tempfile

    from ..engine.store import MEMORY, Store, grow

    if store is None:
        with tempfile.TemporaryDirectory() as tmp:
            return _deep_check(code, row, kept, window_sha256, tmp)
    s, p, window = row["start"], row["period"], row["window"]
    depth = 2 * window
    Path(store).mkdir(parents=True, exist_ok=True)
    path, note_path = code_path(store, code, ".check"), code_path(store, code, ".check-note.json")
    against = window_sha256 if kept is None else sequence_digest(kept, np.uint32)
    key = {**{k: row[k] for k in ("start", "period", "window")}, "against": against}
    note = json.loads(note_path.read_text()) if note_path.exists() else None
    if note is not None and note.get("for") != key:
        note = None
        _forget(path)
    if note is not None and "result" in note:
        return note["result"]
    if note is None:
        note = {"code": row["code"], "for": key, **_deep_plan(code, row, kept), "cpu_seconds": 0.0}
    mask = RareClass(note["mask"], 0, note["position"])
    spent, t0, saved = note["cpu_seconds"], time.process_time(), [time.monotonic()]

    def save(**result) -> None:
        note["cpu_seconds"] = round(spent + time.process_time() - t0, 3)
        if result:
            note["result"] = dict(result, cpu_seconds=note["cpu_seconds"])
        write_json(note_path, note)
        saved[0] = time.monotonic()

    def on_status(_) -> None:
        if time.monotonic() - saved[0] >= CHECKPOINT_SECONDS:
            save()

    save()
    memory = 2 * depth if note["driver"] == "in memory" else min(MEMORY, depth)
    try:
        writer = Store.writer(path, code)
    except SequenceFileError:
        _forget(path)
        writer = Store.writer(path, code)
    with writer:
        grow(writer, code, depth, engine="sparse", mask=mask, memory=memory, every=CHECKPOINT_SECONDS,
             on_status=on_status)  # fmt: skip
    values = Store.open(path, code)
    holds = _holds(values.chunks(0, depth), values.read, s, p)
    agrees, n = _agrees(_read_on(values.chunks(0, depth), row), row.get("lead_window", window), kept, window_sha256)
    label = f"sparse, {note['driver']}, mask {mask.label}" + ("" if note["other"] else " (the run's own, forced)")
    save(code=row["code"], engine=label, depth=depth, holds=holds, agrees=agrees, compared=n,
         other_mask=note["other"], driver=note["driver"])  # fmt: skip
    _forget(path)
    return note["result"]


def forget_check(store: str | os.PathLike, code: Code | str) -> None:
    """Delete what :func:`check` kept of ``code`` in ``store`` (once its outcome is stored)."""
    _forget(code_path(store, code, ".check"))
    code_path(store, code, ".check-note.json").unlink(missing_ok=True)


def parting(code: str, other: str, heaps: int) -> dict:
    """The first heap below ``heaps`` where the values of ``code`` and ``other`` differ (None
    when they agree)."""
    from ..engine import compute

    t0 = time.process_time()
    a, b = (compute(c, heaps).astype(np.int64) for c in (code, other))
    diff = np.flatnonzero(a != b)
    return {"code": code, "other": other, "heaps": heaps,
            "first": int(diff[0]) if diff.size else None,
            "cpu_seconds": round(time.process_time() - t0, 3)}  # fmt: skip


# ---------------------------------------------------------------- the campaign's state


@dataclass
class _Game:
    code: str
    t: int
    seed_digest: str
    seed_stats: dict | None
    followers: list[SameGame] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    check: dict | None = None
    partings: dict[str, dict] = field(default_factory=dict)
    rep: str = ""

    @property
    def last(self) -> dict | None:
        return self.steps[-1] if self.steps else None

    @property
    def heaps(self) -> int:
        return self.last["heaps"] if self.steps else 0

    @property
    def settled(self) -> bool:
        return bool(self.steps) and self.last["settled"]

    def digests(self) -> dict[int, str]:
        return {int(m): h for s in self.steps for m, h in s["digests"].items()}


@dataclass
class Campaign:
    """Where a campaign stands (:func:`run`): a row per code asked for, and the totals.

    ``rows`` hold each code's deepest state (``games`` the same for each game computed, which
    may be a code not asked for: the canonical code of one that was): its game and the proof,
    the game whose values its values are, moved, with that proof (``shift``; None for most),
    its class representative, its settlement (start, period, window, or the depth reached) with
    the sparse statistics there (under the class that makes the fewest heaps rare,
    :func:`fewest_rare`), its CPU seconds (a follower's are its game's), why it stopped
    (``frontier``) or the depth its next step goes to (``next``), how its certificate was checked,
    and the ``grundy settle`` command that computes it again.  ``steps`` gives each game's
    statistics at every step: ``[heaps, mask, position, rare heaps, last rare heap, largest
    value, CPU seconds]``.
    """

    name: str
    plan: Plan
    rows: list[dict]
    games: list[dict]
    steps: dict[str, list[list]]
    partings: list[dict]
    totals: dict
    computed: int

    def to_dict(self) -> dict:
        return {"name": self.name, "plan": self.plan.to_dict(), "totals": self.totals,
                "computed": self.computed, "partings": self.partings, "rows": self.rows,
                "games": self.games, "steps": self.steps}  # fmt: skip

    def summary(self) -> str:
        t = self.totals
        return (f"{self.name}: {t['codes']:,} codes ({t['games']:,} games, {t['classes']:,} "
                f"classes): {t['settled']:,} settled, {t['open']:,} open; {t['done']:,} done, "
                f"{t['remaining']:,} with steps to go; {t['cpu_seconds']:,.1f} CPU s spent")

    def __repr__(self) -> str:
        return f"<Campaign {self.summary()}>"

    def _repr_html_(self) -> str:
        import html

        t = self.totals
        rows = [("codes", f"{t['codes']:,} ({t['games']:,} games, {t['classes']:,} classes)"),
                ("settled / open", f"{t['settled']:,} / {t['open']:,}"),
                ("done / with steps to go", f"{t['done']:,} / {t['remaining']:,}"),
                ("CPU seconds", f"{t['cpu_seconds']:,.1f} ({t['heaps_per_second'] or 0:,} heaps a second)"),
                ("estimated CPU seconds to go", f"{t['pending_cost']:,.0f}"),
                ("every open game to the floor", f"{t['to_floor_cost']:,.0f} CPU s "
                 f"({t['to_floor_crowded_cost']:,.0f} in {t['to_floor_crowded_games']:,} crowded games)")]
        body = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{v}</td></tr>" for k, v in rows)
        return f"<p><b>campaign {html.escape(self.name)}</b></p><table>{body}</table>"


class _Driver:
    """The campaign's state, read from the catalogue, and the choice of the next tasks."""

    def __init__(self, codes, catalogue: Catalogue, store: Path, plan: Plan, name: str):
        self.cat, self.store, self.plan, self.name = catalogue, store, plan, name
        self.codes = list(dict.fromkeys(str(parse(c)) for c in codes))
        self.same = {c: same_game(c) for c in self.codes}
        names = list(dict.fromkeys(str(s.canonical) for s in self.same.values()))
        surveyed = {r["code"]: r for r in catalogue.results(heaps=plan.seed, codes=set(names) | set(self.codes))}
        self.games: dict[str, _Game] = {}
        self.rule_checked = 0
        seeds: dict[str, np.ndarray] = {}
        for g in names:
            values = catalogue.values(g, plan.seed) if g in surveyed else None
            if values is None:
                from ..engine import compute

                values = compute(g, plan.seed)
            seeds[g] = values
            stats = surveyed.get(g)
            self.games[g] = _Game(g, parse(g).t, digest(values, plan.seed),
                                  None if stats is None else {k: stats[k] for k in ("mask", "rare_heaps", "last_rare")})  # fmt: skip
        for c, s in self.same.items():
            if s.proven:
                game = self.games[str(s.canonical)]
                game.followers.append(s)
                if c in surveyed:
                    if surveyed[c]["values_sha256"] != game.seed_digest:
                        raise CertificateError(f"{c} and {game.code} differ within {plan.seed:,} heaps, "
                                               "though the rules make them the same game: a bug")
                    self.rule_checked += 1
        for r in catalogue.records(KIND, codes=set(self.games)):
            if r.get("campaign") == name and "same_game_as" not in r:
                self.games[r["code"]].steps.append(r)
        for g in self.games.values():
            g.steps.sort(key=lambda r: r["heaps"])
        for r in catalogue.records(CHECK_KIND, {"campaign": name}, codes=set(self.games)):
            self.games[r["code"]].check = r
        for r in catalogue.records(PARTING_KIND, {"campaign": name}, codes=set(self.games)):
            self.games[r["code"]].partings[r["other"]] = r
        order = sorted(self.games, key=lambda c: (self.games[c].t, c))
        self.classes: dict[str, list[str]] = {}
        for c in order:
            self.classes.setdefault(self.games[c].seed_digest, []).append(c)
        for members in self.classes.values():
            for c in members:
                self.games[c].rep = members[0]
        self.leads = self._leads(seeds)
        self._parted: dict[str, tuple] = {}
        self.moved: set[str] = set()
        self._fit: tuple[int, tuple[float, float]] | None = None
        self._stored = {c: stored_heaps(code_path(store, c)) for c in self.games}

    # ------------------------------------------------------------ shifted games

    def _leads(self, seeds: dict[str, np.ndarray]) -> dict[str, tuple[str, int]]:
        """``{follower: (leader, shift)}``: games whose values are another game's moved by
        ``shift`` heaps (``G(n) = G_leader(n + shift)``, by chains of :func:`shifted`), so that
        only the leader is computed.  Only a game alone in its class takes part (a class's
        members are compared with their representative instead).  Of each chain the leader is a
        settled game, else the deepest past the floor, else the one the others are behind (so
        that theirs reach at least its depth); a settled game follows no one.  Each shift is
        checked on the seed values (a disagreement is a bug)."""
        alone = {c for c, g in self.games.items() if len(self.classes[g.seed_digest]) == 1}
        ahead = {}
        for c in alone:
            s = shifted(c)
            other = None if s is None else str(same_game(s).canonical)
            if other in alone and other != c:
                ahead[c] = other
        chains: dict[str, dict[str, int]] = {}
        for c in alone:
            seen, x = [c], c
            while x in ahead and ahead[x] not in seen:
                x = ahead[x]
                seen.append(x)
            if x not in ahead:
                chains.setdefault(x, {})[c] = 1 - len(seen)
        floor = self.plan.floor
        leads = {}
        for chain in chains.values():
            if len(chain) < 2:
                continue
            games = [self.games[c] for c in chain]
            lead = max(games, key=lambda g: (g.settled, g.heaps if g.heaps > floor else 0, chain[g.code]))
            for g in games:
                if g is not lead and not g.settled:
                    shift = chain[g.code] - chain[lead.code]
                    a, b = seeds[g.code], seeds[lead.code]
                    n = np.arange(max(0, -shift), min(len(a), len(b) - shift))
                    if not np.array_equal(a[n], b[n + shift]):
                        raise CertificateError(f"{g.code} is not {lead.code} moved by {shift} heaps within "
                                               f"{self.plan.seed:,} heaps, though the rules say so: a bug")
                    leads[g.code] = (lead.code, shift)
        return leads

    def leader(self, g: _Game) -> tuple[_Game, int] | None:
        """The game whose values ``g``'s are, moved, and by how many heaps; None where ``g``
        follows no one, or its start would not follow from its leader's (a leader settled from
        heap 1 and ``g`` behind it: ``g``'s start is 1 or 2, by a value the record does not keep)."""
        if g.code not in self.leads:
            return None
        code, shift = self.leads[g.code]
        lead = self.games[code]
        if lead.settled and not start_moves(lead.last, shift):
            return None
        return lead, shift

    def view(self, g: _Game) -> _Game:
        """``g`` as its deepest state says: its leader's last step moved onto it, where it follows
        one that has got at least as far, else ``g`` itself."""
        lead = self.leader(g)
        if lead is None or not lead[0].steps:
            return g
        record = shifted_record(lead[0].last, g.code, lead[1])
        if not record["settled"] and record["heaps"] < g.heaps:
            return g
        return _Game(g.code, g.t, g.seed_digest, g.seed_stats, g.followers, [record], g.check, {}, g.rep)

    # ------------------------------------------------------------ roles

    def parted(self, g: _Game) -> dict | None:
        """How member ``g`` parts from its representative, or None while they agree: the first
        mark whose digests differ (with the last that agreed), or outcomes that cannot both hold."""
        if g.rep == g.code:
            return None
        r = self.games[g.rep]
        key = (len(g.steps), len(r.steps), g.heaps, r.heaps)
        if self._parted.get(g.code, (None,))[0] != key:
            self._parted[g.code] = (key, self._parts(g, r))
        return self._parted[g.code][1]

    def _parts(self, g: _Game, r: _Game) -> dict | None:
        mine, theirs = g.digests(), r.digests()
        common = sorted(set(mine) & set(theirs))
        agreed = self.plan.seed
        for m in common:
            if mine[m] != theirs[m]:
                return {"from": r.code, "agreed_to": agreed, "differs_by": m}
            agreed = m
        for a, b in ((g, r), (r, g)):
            if a.settled and not b.settled and b.heaps >= a.last["window"] - a.t + b.t:
                return {"from": r.code, "agreed_to": agreed, "outcome": f"{a.code} settles, {b.code} does not"}
        if g.settled and r.settled and (g.last["start"], g.last["period"]) != (r.last["start"], r.last["period"]):
            return {"from": r.code, "agreed_to": agreed, "outcome": "different periods"}
        return None

    def is_rep(self, g: _Game) -> bool:
        return g.rep == g.code or self.parted(g) is not None

    def target(self, g: _Game) -> int | None:
        """The depth ``g``'s next step goes to, or None when it has none."""
        if g.settled or self.leader(g) is not None:
            return None
        depth, plan = g.heaps, self.plan
        if depth < plan.floor:
            return max(plan.first, min(plan.floor, next_power(depth)))
        if self.is_rep(g):
            return min(plan.depth, next_power(depth)) if plan.quiet(g.last) and depth < plan.depth else None
        r = self.games[g.rep]
        if r.settled:
            need = r.last["window"] - r.t + g.t
            return need if depth < need else None
        return None

    def frontier(self, g: _Game) -> str | None:
        """Why an open game with no step to go stopped (None while it has one, or settled)."""
        if g.settled or self.target(g) is not None:
            return None
        lead = self.leader(g)
        if lead is not None:
            return f"follows {lead[0].code}: heap n is worth {lead[0].code}'s heap {_heap_n(lead[1])}"
        if not self.is_rep(g):
            return "member: its representative goes deeper"
        if g.heaps >= self.plan.depth:
            return "reached the campaign's depth"
        return "rare heaps still arriving"

    # ------------------------------------------------------------ cost

    def coefficients(self) -> tuple[float, float]:
        """CPU seconds a heap and a heap per rare heap, fitted to the campaign's steps (least
        squares over steps of at least a tenth of a second), or :data:`COST` before there are a
        dozen such steps; fitted again after every :data:`REFIT` steps."""
        steps = sum(len(g.steps) for g in self.games.values())
        if self._fit is None or steps >= self._fit[0] + REFIT:
            self._fit = (steps, self._coefficients())
        return self._fit[1]

    def _coefficients(self) -> tuple[float, float]:
        rows = []
        for g in self.games.values():
            before = {"heaps": 0, "rare_heaps": 0}
            for s in g.steps:
                n = s["heaps"] - s["reused"]
                if n > 0 and s["cpu_seconds"] >= 0.1:
                    rare = (_rare(before) + _rare(s)) / 2
                    rows.append((n, n * rare, s["cpu_seconds"]))
                before = s
        if len(rows) < 12:
            return COST
        a = np.array(rows, dtype=float)
        coef = np.linalg.lstsq(a[:, :2], a[:, 2], rcond=None)[0]
        return float(max(coef[0], 1e-9)), float(max(coef[1], 1e-13))

    def stats(self, g: _Game) -> dict | None:
        """The statistics ``g``'s next step starts from: its last step's, else the survey's."""
        if g.steps:
            return g.last
        return None if g.seed_stats is None else dict(g.seed_stats, heaps=self.plan.seed)

    def kept(self, g: _Game) -> int:
        """The heap ``g``'s next step starts from: its depth where its values are kept, fewer
        where they are not (its records restored from an archive on another machine): read from
        the store once, then followed as the steps return."""
        return min(g.heaps, self._stored[g.code])

    def crowded(self, g: _Game) -> bool:
        """Whether ``g`` is crowded (:data:`CROWDED`), by the statistics its next step starts from."""
        st = self.stats(g)
        return st is not None and _rare(st) >= CROWDED * st["heaps"]

    def cost(self, start: int, target: int, stats: dict | None, coef: tuple[float, float]) -> float:
        """Estimated CPU seconds from heap ``start`` to ``target``: each heap costs ``a`` and ``b``
        per rare heap; the rare heaps stay as many as ``stats`` saw where they have stopped
        arriving, else grow in proportion to the depth (a tenth of the heaps without ``stats``)."""
        a, b = coef
        if stats is None:
            rare, quiet, at = 0.1 * self.plan.seed, False, self.plan.seed
        else:
            rare, quiet, at = _rare(stats), self.plan.quiet(stats), stats["heaps"]
        mean = rare if quiet else rare * (start + target) / (2 * max(at, 1))
        return max(0, target - start) * (a + b * mean)

    # ------------------------------------------------------------ tasks

    def tasks(self, busy: set[str], chains: int = 1) -> list[tuple]:
        """Every task that can run now, best first: ``(key, kind, game, fn, args)``.

        Checks of new certificates and partings come first (each is one computation, and the
        outcome is a finding), then the steps of games past the floor, the deepest first, so that
        a deep run, once started, goes on to its end (and the disk holds few deep games' values at
        a time); then every other step by the estimated cost of taking its game from the heaps
        kept here to the floor, a member's weighted by :data:`MEMBER_WEIGHT`.  So the games
        nearest the floor go first, and a game once begun goes on to the floor before another
        begins: its values are kept while it goes, whereas steps taken by turns leave every game
        short of the floor with its values to compute again on another machine (a crowded game's
        step from the empty heap costs 4/3 of the step from its kept values).  A new deep run
        starts only while fewer than ``chains`` are under way, so that the other workers keep
        bringing games to the floor.
        """
        coef = self.coefficients()
        floor = self.plan.floor
        starts = chains - sum(self.target(g) is not None and (g.heaps > floor or (g.heaps == floor and g.code in busy))
                              for g in self.games.values())
        out = []
        for g in self.games.values():
            if g.code in busy:
                continue
            goal = self.target(g)
            if goal is not None and g.heaps == floor and goal > floor:
                starts -= 1
                if starts < 0:
                    goal = None
            if goal is not None:
                weight = 1.0 if self.is_rep(g) else MEMBER_WEIGHT
                key = ((1, -g.heaps) if g.heaps > self.plan.floor
                       else (2, weight * self.cost(self.kept(g), floor, self.stats(g), coef)))
                out.append((key, "step", g.code, step,
                            (g.code, goal, str(self.store), g.heaps, self.plan.marks())))  # fmt: skip
            v = self.view(g)
            if v.settled and g.check is None:
                row = {k: v.last[k] for k in ("code", "start", "period", "window", "mask", "position")}
                digest = v.last["window_sha256"]
                if v is not g:
                    lead, shift = self.leader(g)
                    row.update(shift=shift, lead_window=lead.last["window"])
                    digest = lead.last["window_sha256"]
                    if row["position"] and row["shift"] % 2:
                        row.update(mask=None, position=None)
                key = (0, 2 * self.cost(0, 2 * v.last["window"], v.last, coef))
                out.append((key, "check", g.code, check, (row, None, digest, str(self.store))))
            p = self.parted(g)
            if p and "differs_by" in p and p["from"] not in g.partings and p["differs_by"] <= self.plan.floor:
                key = (0, MEMBER_WEIGHT * self.cost(0, p["differs_by"], self.stats(g), coef))
                out.append((key, "parting", g.code, parting, (g.code, p["from"], p["differs_by"])))
        return sorted(out, key=lambda x: x[0])

    def store_output(self, kind: str, code: str, out: dict) -> None:
        """Store a task's output in the catalogue (and in this state); a game with nothing left
        to do loses its values file."""
        g = self.games[code]
        if kind == "step":
            out = dict(out, campaign=self.name)
            self.cat.add_record(KIND, code, {"campaign": self.name, "heaps": out["target"]}, ANALYSIS, out)
            g.steps = sorted([s for s in g.steps if s["target"] != out["target"]] + [out],
                             key=lambda r: r["heaps"])  # fmt: skip
            self.moved.add(code)
            self._stored[code] = out["heaps"]
        elif kind == "check":
            self.cat.add_record(CHECK_KIND, code, {"campaign": self.name}, ANALYSIS, out)
            g.check = out
        else:
            self.cat.add_record(PARTING_KIND, code, {"campaign": self.name, "other": out["other"]}, ANALYSIS, out)
            g.partings[out["other"]] = out
        self.tidy(g)

    def publish(self, codes: Iterable[str] | None = None) -> None:
        """Give the followers of the games ``codes`` (default: every game) a record of their
        game's deepest step, where theirs is missing or stale, and so the games that follow one of
        them moved (:meth:`view`) and their followers: one record a code, so that
        :meth:`Catalogue.settlements` finds it; the campaign itself never reads them."""
        wanted = set(self.games if codes is None else codes)
        wanted |= {c for c, (lead, _) in self.leads.items() if lead in wanted}
        games = [self.games[c] for c in wanted]
        records = {}
        for g in games:
            v = self.view(g)
            if v is not g:
                records[g.code] = (v.last["same_game_as"], v.last)
            if v.steps:
                for f in g.followers:
                    records[str(f.code)] = (g.code, follower_record(v.last, f))
        stored = {(r["code"], r["same_game_as"]): r for r in self.cat.records(KIND, codes=set(records))
                  if r.get("campaign") == self.name and "same_game_as" in r}
        for code, (game, record) in records.items():
            if stored.get((code, game)) != record:
                self.cat.add_record(KIND, code, {"campaign": self.name, "same_game_as": game}, ANALYSIS, record)
        self.moved.clear()

    def tidy(self, g: _Game) -> None:
        """Delete ``g``'s values once it has no step to go, and its check's once it is stored."""
        if self.target(g) is None:
            _forget(code_path(self.store, g.code))
        if g.check is not None:
            forget_check(self.store, g.code)

    # ------------------------------------------------------------ the result

    def result(self, computed: int) -> Campaign:
        coef = self._coefficients()
        rows, steps, parts = [], {}, []
        state = {}
        for g in self.games.values():
            p = self.parted(g)
            if p is not None:
                p = dict(p, code=g.code, first=(g.partings.get(p["from"]) or {}).get("first"))
                parts.append(p)
            state[g.code] = {"rep": g.code if self.is_rep(g) else g.rep, "parted": p,
                             "target": self.target(g), "frontier": self.frontier(g)}  # fmt: skip
            steps[g.code] = [[s["heaps"], s["mask"], s["position"], s["rare_heaps"], s["last_rare"],
                              s["max"], s["cpu_seconds"]] for s in g.steps]  # fmt: skip
        views = {c: self.view(g) for c, g in self.games.items()}
        for c in self.codes:
            s = self.same[c]
            g = views[str(s.canonical)]
            rows.append(self._row(c, s, g, state[g.code]))
        game_rows = [self._row(g.code, SameGame(parse(g.code), parse(g.code), ()), g, state[g.code])
                     for g in views.values()]
        games = list(self.games.values())
        computed_open = [g for g in views.values() if not g.settled and self.leader(self.games[g.code]) is None]
        open_games = [g for g in views.values() if not g.settled]
        cpu_steps = sum(s["cpu_seconds"] for g in games for s in g.steps)
        heaps = sum(s["heaps"] - s["reused"] for g in games for s in g.steps)
        cpu_checks = sum(g.check["cpu_seconds"] for g in games if g.check)
        cpu_parts = sum(p["cpu_seconds"] for g in games for p in g.partings.values())
        pending = [g for g in games if state[g.code]["target"] is not None]
        floor = {g.code: self.cost(g.heaps, self.plan.floor, self.stats(g), coef)
                 for g in computed_open if g.heaps < self.plan.floor}
        crowded = [c for c in floor if self.crowded(self.games[c])]
        totals = {
            "codes": len(rows),
            "games": len(games),
            "followers": sum(len(g.followers) for g in games),
            "rule_checked": self.rule_checked,
            "classes": len({state[g.code]["rep"] for g in games}),
            "settled": sum(r["settled"] for r in rows),
            "open": sum(not r["settled"] for r in rows),
            "settled_games": len(games) - len(open_games),
            "shift_checked": len(self.leads),
            "done": sum(r["next"] is None and (not r["settled"] or r["checked"] is not None) for r in rows),
            "remaining": sum(r["next"] is not None for r in rows),
            "awaiting_check": sum(r["settled"] and r["checked"] is None for r in rows),
            "remaining_games": len(pending),
            "unchecked": sum(g.settled and g.check is None for g in views.values()),
            "shifted": sum(self.leader(g) is not None for g in games),
            "steps": sum(len(g.steps) for g in games),
            "cpu_seconds": round(cpu_steps + cpu_checks + cpu_parts, 1),
            "cpu_steps": round(cpu_steps, 1),
            "cpu_checks": round(cpu_checks, 1),
            "cpu_partings": round(cpu_parts, 1),
            "heaps_computed": heaps,
            "heaps_per_second": round(heaps / cpu_steps) if cpu_steps else None,
            "coefficients": list(coef),
            "pending_cost": round(sum(self.cost(g.heaps, state[g.code]["target"], self.stats(g), coef)
                                      for g in pending), 1),
            "to_floor_cost": round(sum(floor.values()), 1),
            "to_floor_crowded_games": len(crowded),
            "to_floor_crowded_cost": round(sum(floor[c] for c in crowded), 1),
            "next_power_cost": round(sum(self.cost(g.heaps, max(self.plan.first, next_power(g.heaps)),
                                                   self.stats(g), coef) for g in computed_open), 1),
        }
        return Campaign(self.name, self.plan, rows, game_rows, steps, parts, totals, computed)

    def _row(self, code: str, same: SameGame, g: _Game, state: dict) -> dict:
        last = g.last or {}
        settled = g.settled
        t = parse(code).t
        window = last["window"] - g.t + t if settled else None
        rep = self.games[state["rep"]]
        agree = None
        if state["rep"] != g.code:
            common = sorted(set(g.digests()) & set(rep.digests()))
            agree = common[-1] if common else self.plan.seed
        heaps = last.get("heaps", 0)
        command = f"grundy settle {code} --max-heaps {window if settled else max(heaps, 1)}"
        return {
            "code": code,
            "game": g.code,
            "proof": [c[2] for c in same.cleared],
            "shift": ({"of": last["same_game_as"], "by": last["shift"], "proof": last["proof"]}
                      if "shift" in last else None),
            "rep": state["rep"],
            "settled": settled,
            "start": last.get("start") if settled else None,
            "period": last.get("period") if settled else None,
            "window": window,
            "heaps": heaps,
            **fewest_rare(last),
            "max": last.get("max"),
            "cpu_seconds": round(sum(s["cpu_seconds"] for s in g.steps), 3),
            "steps": len(g.steps),
            "next": state["target"],
            "frontier": state["frontier"],
            "quiet": None if g.last is None else self.plan.quiet(g.last),
            "agrees_with_rep_to": agree,
            "parted": state["parted"],
            "checked": None if not settled or g.check is None else
            {k: g.check[k] for k in ("engine", "depth", "holds", "agrees")},
            "command": command,
        }


def fewest_rare(record: dict) -> dict:
    """A record's sparse statistics (:data:`CLASS_FIELDS`) under the class that makes the fewest
    heaps rare: the engine's own, or ``best`` where that makes fewer.  The engine keeps the mask
    it chose while another becomes better: ``·0444``'s first value past 122, 128 at heap
    269,862,696, is rare under its mask 123 and common under 251, under which the last rare heap
    is still 1,876.  A step that ran dense keeps no mask (the cost model reads it so)."""
    best = record.get("best")
    own = record.get("mask") is not None
    use = best if own and best and best["rare_heaps"] < (record.get("rare_heaps") or 0) else record
    return {k: use.get(k) for k in CLASS_FIELDS}


def _rare(record: dict) -> float:
    """The rare heaps a record's engine worked with: every heap where it ran dense."""
    return record["heaps"] if record.get("mask") is None else record.get("rare_heaps") or 0


def follower_record(record: dict, same: SameGame) -> dict:
    """A step's record restated for a code that the rules prove the same game: the values, the
    start and the period are the game's; the window is the follower's own (``2s + 2p + t``)."""
    out = dict(record, code=str(same.code), t=same.code.t, cpu_seconds=0.0, digests={},
               same_game_as=str(same.canonical), proof=[c[2] for c in same.cleared])  # fmt: skip
    out.pop("shift", None)
    if record["settled"]:
        out["window"] = record["window"] - same.canonical.t + same.code.t
    return out


def _heap_n(shift: int) -> str:
    """``heap n + shift`` as a page writes it: ``n + 1``, ``n - 2``."""
    return f"n {'+' if shift > 0 else '-'} {abs(shift)}"


def start_moves(record: dict, shift: int) -> bool:
    """Whether a settled record's start gives the start of a code whose heap ``n`` is worth its
    heap ``n + shift``: always for ``shift > 0``; for ``shift < 0`` only from a start of 2 or
    more (a period from heap 1 may begin at heap 0, and the moved code's then at heap 1)."""
    return shift > 0 or record["start"] >= 2


def shifted_record(record: dict, code: str, shift: int) -> dict:
    """A step's record restated for ``code``, whose heap ``n`` is worth heap ``n + shift`` of the
    record's game (:func:`shifted`): ``shift`` fewer heaps, the last rare heap ``shift`` lower,
    and where settled the same period from ``max(1, s - shift)`` (for ``shift < 0`` a start
    ``s >= 2``, where no earlier heap can begin the period, else its minimality is unknown), with
    ``code``'s own window; the checksum and the digests are the game's, so they are left out."""
    from ..readings.periods import window

    c = parse(code)
    times = "once" if abs(shift) == 1 else f"{abs(shift)} times"
    proof = (f"heap n of {code} is worth heap {_heap_n(shift)} of {record['code']}: "
             f"counting the heaps one lower ({times}) turns the moves of one code into the other's")
    out = dict(record, code=code, t=c.t, heaps=record["heaps"] - shift, cpu_seconds=0.0, seconds=0.0,
               digests={}, checksum=None, window_sha256=None, same_game_as=record["code"], shift=shift,
               proof=[proof])  # fmt: skip
    if out.get("best"):
        out["best"] = dict(out["best"])
    for stats in (out, out.get("best")):
        if stats and stats.get("last_rare") is not None:
            stats["last_rare"] = max(0, stats["last_rare"] - shift)
    if record["settled"]:
        if not start_moves(record, shift):
            raise CertificateError(f"{code}'s start does not follow from {record['code']}'s (period from heap 1)")
        out["start"] = max(1, record["start"] - shift)
        out["window"] = int(window(out["start"], record["period"], c))
    return out


def _slots(executor: Executor) -> int:
    if isinstance(executor, SerialExecutor):
        return 1
    return getattr(executor, "_max_workers", None) or os.cpu_count() or 1


def run(
    codes: Iterable[Code | str],
    catalogue: Catalogue,
    store: str | os.PathLike,
    *,
    plan: Plan | None = None,
    executor: Executor | None = None,
    slots: int | None = None,
    name: str = "campaign",
    seconds: float | None = None,
    on_progress: Callable[[str, dict], None] | None = None,
) -> Campaign:
    """Drive every code of ``codes`` as the module docstring says, and return where it stands.

    Parameters
    ----------
    codes : the open codes (a code already settled simply settles at its first step).
    catalogue : where each task's outcome is stored as it returns; its survey at ``plan.seed``
        heaps, where there is one, gives the values the classes are made from (else they are
        computed) and the rare heaps that order the first steps.
    store : the folder of the values of the games in progress (shared by every worker).
    executor : serial when None; a :class:`~grundy.catalogue.executors.ProcessPool`, a Dask client's
        executor, ...  ``slots`` tasks are kept in flight (default: the pool's workers), at most
        ``slots - 1`` of them deep runs past the floor (at least one).
    name : the campaign's name in its records: another name is another campaign.
    seconds : stop after this much wall time: no task is started after it, and the tasks still
        in flight :data:`GRACE_SECONDS` later are ended on a process pool (a step or a deep check
        resumes from its checkpoint when run again).
    on_progress : ``on_progress(kind, output)`` as each task's output is stored (``kind`` is
        ``step``, ``check`` or ``parting``; :func:`describe` says it in a sentence).

    Run again with the same arguments, it computes only what is missing.
    """
    plan = plan or Plan()
    if seconds is not None and not seconds > 0:
        raise UsageError(f"seconds must be positive, not {seconds!r}")
    store = Path(store)
    store.mkdir(parents=True, exist_ok=True)
    executor = executor or SerialExecutor()
    slots = slots or _slots(executor)
    chains = max(1, slots - 1)
    driver = _Driver(codes, catalogue, store, plan, name)
    for g in driver.games.values():
        driver.tidy(g)
    if not isinstance(executor, SerialExecutor):
        _warm()
    deadline = None if seconds is None else time.monotonic() + seconds
    driver.publish()
    try:
        computed = _drive(driver, executor, slots, chains, deadline, on_progress)
    finally:
        driver.publish(driver.moved)
    return driver.result(computed)


def _drive(driver: _Driver, executor: Executor, slots: int, chains: int, deadline: float | None,
           on_progress) -> int:
    """The loop of :func:`run`: keep ``slots`` tasks in flight, store each as it returns; the
    number of tasks stored."""
    pending: dict = {}
    computed = 0
    end = None if deadline is None else deadline + GRACE_SECONDS
    while True:
        if deadline is None or time.monotonic() < deadline:
            busy = {game for _, game in pending.values()}
            for _, kind, game, fn, args in driver.tasks(busy, chains):
                if len(pending) >= slots or (deadline is not None and time.monotonic() >= deadline):
                    break
                if game in busy:
                    continue
                with held_interrupts():
                    pending[executor.submit(fn, *args)] = (kind, game)
                busy.add(game)
        if not pending:
            break
        left = None if end is None else max(0.0, end - time.monotonic())
        done = wait_first(pending, timeout=left)
        for fut in done:
            kind, game = pending.pop(fut)
            out = fut.result()
            driver.store_output(kind, game, out)
            computed += 1
            if on_progress is not None:
                on_progress(kind, out)
        if not done:
            _stop(executor, pending)
            break
    return computed


def describe(kind: str, out: dict) -> str:
    """A task's output (:func:`step`, :func:`check`, :func:`parting`) in one sentence."""
    if kind == "step":
        how = (f"period {out['period']:,} from heap {out['start']:,}" if out["settled"]
               else f"open, {out['rare_heaps']} rare heaps, the last at {out['last_rare']}")
        return f"{out['code']} to {out['heaps']:,} heaps in {out['cpu_seconds']:g} CPU s: {how}"
    if kind == "check":
        return f"{out['code']} checked ({out['engine']}, {out['depth']:,} heaps): holds {out['holds']}, agrees {out['agrees']}"
    return f"{out['code']} parts from {out['other']} at heap {out['first']}"


def _stop(executor: Executor, pending: dict) -> None:
    """End the tasks in flight: a process pool's workers at once, elsewhere as far as the
    executor can (a running Dask task finishes on its own)."""
    if isinstance(executor, ProcessPool):
        executor.terminate()
    for fut in pending:
        fut.cancel()


def state(codes: Iterable[Code | str], catalogue: Catalogue, store: str | os.PathLike, *,
          plan: Plan | None = None, name: str = "campaign") -> Campaign:
    """Where a campaign stands, from its stored records, computing nothing."""
    driver = _Driver(codes, catalogue, Path(store), plan or Plan(), name)
    return driver.result(0)
