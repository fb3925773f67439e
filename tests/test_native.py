"""The native build: the same results as numba's kernels, never run on arguments it misreads,
never run from other sources than today's, and numba's JIT for whatever it does not cover."""

import importlib
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
import grundy.engine.dense
import grundy.readings.periods
from conftest import examples
from grundy.codes import parse
from grundy.engine import _jit, compute, dense, native, sparse
from grundy.engine.native import Native, matches, specs

MODULE = native.load()


def numba_disabled() -> bool:
    return os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

built = pytest.mark.skipif(
    MODULE is None, reason="no native build here (no C compiler at install, or GRUNDY_NATIVE=0)"
)


def _stubs():
    from grundy.engine import build

    build._import_kernels()
    return [stub for stub in _jit._DECLARED if stub.native]


def test_specs_read_every_argument_as_numba_does():
    # build.exports raises when our reading of a signature differs from numba's.
    from grundy.engine import build

    names = [name for name, _, _ in build.exports()]
    assert len(names) == len(set(names)) and len(names) >= 20


def test_specs_of_a_template():
    got = specs("UniTuple(i8, 2)(V, R, u1[::1], i8[::1], i8, b1)", "u2")
    assert got == (
        (np.dtype("u2"), False),
        (np.dtype("u2"), True),
        (np.dtype("u1"), False),
        (np.dtype("i8"), False),
        "int",
        "bool",
    )
    with pytest.raises(ValueError):
        specs("i8(f8)", "u1")


def test_matches_takes_exactly_the_types_built():
    spec = specs("i8(V, R, i8, b1)", "u1")
    g = np.zeros(8, np.uint8)
    ro = np.zeros(8, np.uint8)
    ro.flags.writeable = False
    assert matches((g, g, 3, True), spec)
    assert matches((g, ro, np.int64(3), np.bool_(False)), spec)  # read-only where only read
    assert not matches((ro, g, 3, True), spec)  # read-only where written
    assert not matches((g.astype(np.uint16), g, 3, True), spec)  # another value type
    assert not matches((np.zeros(16, np.uint8)[::2], g, 3, True), spec)  # strided
    assert not matches((g.reshape(2, 4), g, 3, True), spec)
    assert not matches((g, g, 1 << 63, True), spec)  # beyond int64
    assert not matches((g, g, 3.0, True), spec)
    assert not matches((g, g, True, True), spec)  # a bool is not an int64 to numba
    assert not matches((g, g, 3, 1), spec)
    assert not matches((g, g, 3), spec)


def test_no_kernel_calls_an_exported_kernel():
    # An exported kernel's name may hold a Native, which numba cannot call from a kernel.
    stubs = _stubs()
    exported = {stub.py_func.__name__ for stub in stubs}
    for stub in _jit._DECLARED:
        called = set(stub.py_func.__code__.co_names) & exported
        assert not called - {stub.py_func.__name__}, (stub.name, called)


def test_kernel_files_hold_every_kernel():
    _stubs()
    declared = {stub.py_func.__code__.co_filename for stub in _jit._DECLARED}
    listed = {str(path) for path in native.kernel_sources()}
    assert declared <= listed


def test_every_module_that_declares_a_kernel_is_a_kernel_source():
    # Every module of the package imported, not only the listed ones: a kernel declared in a
    # module missing from the list would key neither the native build nor numba's cache.
    for module in pkgutil.walk_packages(grundy.__path__, "grundy."):
        if module.name != "grundy.__main__":
            importlib.import_module(module.name)
    declared = {Path(stub.py_func.__code__.co_filename) for stub in _jit._DECLARED}
    assert {Path(grundy.engine.dense.__file__), Path(grundy.readings.periods.__file__)} <= declared
    assert declared <= set(native.kernel_sources())
    uses_numba = {p for p in native.PACKAGE.rglob("*.py")
                  if re.search(r"^\s*(import numba|from numba)", p.read_text(), re.MULTILINE)}  # fmt: skip
    assert uses_numba <= set(native.kernel_sources()), uses_numba


def test_numba_cache_key_is_the_hash_of_the_kernel_sources_whatever_was_imported():
    # The key was the hash of the kernel modules imported when numba was bound: a process that
    # had imported only the engine keyed its cache entries unlike one that had read periods.
    script = "from grundy.engine import _jit, dense\n_jit._jit_all()\nprint(_jit.SOURCE_DIGEST)"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                         env={**os.environ, "GRUNDY_NATIVE": "0"})
    assert run.stdout.strip() == native.sources_sha256()
    assert native.digest() == int(native.sources_sha256()[:15], 16)


@built
def test_lean_kernels_count_no_references():
    # The lean module is built without numba's runtime: no reference counting in its code.
    lean, counted = (Path(MODULE[name].__file__).read_bytes() for name in native.NAMES)
    assert b"NRT_incref" not in lean
    assert b"NRT_incref" in counted
    for stub in _stubs():
        assert (native.module_name(stub) == native.NAMES[1]) == stub.allocates, stub.name


def test_a_lean_kernel_may_not_allocate():
    # numba refuses an array created in a kernel not declared allocates=True.
    def grows(n):
        return np.zeros(n, np.int64).size

    def grows_too(n):  # another function: numba's cache keys an entry by the function
        return np.zeros(n, np.int64).size

    if numba_disabled():
        pytest.skip("kernels run as Python (NUMBA_DISABLE_JIT)")
    _jit.bind()  # the package's kernels first, as a command binds them
    declared = len(_jit._DECLARED)
    # Once numba is bound, declaring gives the dispatcher itself; before, a stub.
    lean, counted = (
        k if not isinstance(k, _jit._Kernel) else _jit.jit(k)
        for k in (_jit.kernel(grows), _jit.kernel(grows_too, allocates=True))
    )
    assert counted(3) == 3
    with pytest.raises(Exception, match="Only accept returning of array passed"):
        lean(3)
    del _jit._DECLARED[declared:]


def test_a_build_from_other_sources_is_ignored(monkeypatch):
    monkeypatch.setattr(native, "digest", lambda: -1)
    assert native.load() is None


def test_disabled_by_the_environment(monkeypatch):
    monkeypatch.setenv("GRUNDY_NATIVE", "0")
    assert native.load() is None
    monkeypatch.setenv("GRUNDY_NATIVE", "1")
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert native.load() is None


@built
def test_every_native_kernel_is_bound():
    compute("·354", 5000, engine="sparse")
    for stub in _stubs():
        bound = getattr(sys.modules[stub.py_func.__module__], stub.py_func.__name__)
        assert isinstance(bound, Native), stub.name
        assert len(bound.functions) == len(stub.values), stub.name


def _native_and_jit(kernel):
    """The native functions of a bound kernel and its numba dispatcher."""
    assert isinstance(kernel, Native)
    return kernel, _jit.jit(kernel.stub)


VALUE_TYPES = [np.uint8, np.uint16, np.uint32]


@built
@settings(max_examples=examples(40), deadline=None)
@given(
    st.sampled_from(["·6", "·16", "·354", "·137", "·45", "4·07", "·52", "·3"]),
    st.integers(2, 3000),
    st.sampled_from(VALUE_TYPES),
)
def test_dense_fill_native_equals_jit(code, heaps, dtype):
    c = parse(code)
    take_all, leave_one, split, _ = dense._as_kernel_arrays(c)
    kernels = _native_and_jit(dense._fill)
    out = []
    for kern in kernels:
        g = np.zeros(heaps, dtype)
        r = np.zeros(heaps, dtype)
        seen = dense.new_table(255)
        cbox = np.array([0, np.iinfo(dtype).max], dtype)
        scratch = (np.zeros(split.size, np.int64), np.zeros(3, np.uint64), dense.new_work())
        stop = kern(g, r, 1, heaps, take_all, leave_one, split, seen, 255, cbox, 128, 4096, *scratch)
        out.append((stop, g.copy(), r.copy()))
    assert out[0][0] == out[1][0]
    assert np.array_equal(out[0][1], out[1][1]) and np.array_equal(out[0][2], out[1][2])


@built
@settings(max_examples=examples(30), deadline=None)
@given(
    st.sampled_from(["·7246", "·77", "·0644", "·4!4", "·7722", "4·4", "·1464"]),
    st.integers(2, 3000),
    st.integers(1, 200),
    st.sampled_from(VALUE_TYPES),
)
def test_dense_fill_shared_native_equals_jit(code, heaps, start, dtype):
    c = parse(code)
    take_all, leave_one, split, _ = dense._as_kernel_arrays(c)
    _jit.bind()
    known = dense.run(c, min(start, heaps), np.zeros(0, np.uint8))
    cap = min(int(np.iinfo(dtype).max), dense.MAX_VALUE)
    out = []
    for kern in _native_and_jit(dense._fill_shared):
        g, r = np.zeros(heaps, dtype), np.zeros(heaps, dtype)
        g[: known.size] = known
        r[heaps - 1 - np.arange(known.size)] = known
        sets = dense._SharedSets(split)
        sets.reset(cap)
        top = 1 << int(known.max()).bit_length()
        stop = kern(g, r, known.size, heaps, take_all, leave_one, split, dense.new_table(cap), sets.ring,
                    sets.held, sets.bases, top, cap, dense.STAMPS)  # fmt: skip
        out.append((stop, g.copy()))
    assert out[0][0] == out[1][0] and np.array_equal(out[0][1], out[1][1])


@built
@settings(max_examples=examples(20), deadline=None)
@given(st.sampled_from(["0x·9", "0x·f", "0x·b", "0x·8"]), st.integers(2, 120))
def test_dense_fill_hex_native_equals_jit(code, heaps):
    c = parse(code)
    take_all, leave_one, split, split3 = dense._as_kernel_arrays(c)
    results = []
    for kern in _native_and_jit(dense._fill_hex):
        g = np.zeros(heaps, np.uint8)
        seen = dense.new_table(255)
        stop = kern(g, 1, heaps, take_all, leave_one, split, split3, seen, 255, dense.STAMPS)
        results.append((stop, g))
    assert results[0][0] == results[1][0] and np.array_equal(results[0][1], results[1][1])


@built
@settings(max_examples=examples(30), deadline=None)
@given(
    st.sampled_from(["·6", "·16", "·354", "·137", "·45", "·56", "·127"]),
    st.integers(500, 20_000),
    st.sampled_from(sparse.ORDERS),
)
def test_sparse_run_native_equals_jit(code, heaps, order):
    # The whole sparse driver, once on the native kernel and once on numba's.
    want = sparse.SparseRun(parse(code), heaps, order=order).extend(heaps)
    native_fill = sparse._fill
    try:
        sparse._fill = _jit.jit(native_fill.stub)
        got = sparse.SparseRun(parse(code), heaps, order=order).extend(heaps)
    finally:
        sparse._fill = native_fill
    assert np.array_equal(got, want)


values_arrays = st.builds(
    lambda body, period, reps, dtype: np.concatenate(
        [np.array(body, np.int64), np.tile(np.array(period, np.int64), reps)]
    ).astype(dtype),
    st.lists(st.integers(0, 9), max_size=30),
    st.lists(st.integers(0, 9), min_size=1, max_size=8),
    st.integers(1, 6),
    st.sampled_from([np.uint8, np.uint16, np.uint32, np.int64]),
)


@built
@settings(max_examples=examples(80), deadline=None)
@given(values_arrays, st.booleans(), st.integers(0, 2))
def test_reading_kernels_native_equal_jit(g, arithmetic, lo):
    from grundy.readings import periods, trajectory

    arrivals = importlib.import_module("grundy.rare.arrivals")  # grundy.rare.arrivals is also a function

    lo = min(lo, g.size - 1)
    for kern, args in (
        (periods._reading_at, (g, lo, g.size, arithmetic)),
        (periods._held_to, (g.astype(np.int64), 0, 1 + lo, 0)),
        (trajectory._readings, (g.astype(np.int64), arithmetic)),
        (arrivals._tail_period, (g, g.size // 2, g.size, g.size // 2 - 1)),
    ):
        a, b = (k(*args) for k in _native_and_jit(kern))
        assert type(a) is type(b)
        if isinstance(a, tuple):
            assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
        else:
            assert a == b


@built
@settings(max_examples=examples(20), deadline=None)
@given(st.sampled_from(["·354", "·6", "·16", "·137"]), st.integers(1, 7), st.sampled_from(VALUE_TYPES))
def test_count_kernels_native_equal_jit(code, v, dtype):
    from grundy.value_classes import rare_heaps

    counts = importlib.import_module("grundy.rare.counts")

    g = compute(code, 3000).astype(dtype)
    split = np.asarray(parse(code).split_two, np.int64)
    none = np.zeros(0, np.int64)
    results = []
    for kern in _native_and_jit(counts._tally_dense):
        c, t = np.zeros(500, np.int64), np.zeros(500, np.int64)
        kern(g, v, split, none, 2500, 3000, c, t)
        results.append(c)
    assert np.array_equal(*results)
    rare = rare_heaps(g, sparse.even_class(1)).astype(np.int64)
    target = g[rare].astype(np.int64) ^ v
    results = []
    for kern in _native_and_jit(counts._tally):
        out = [np.zeros(500, np.int64), np.zeros(rare.size, np.int64), np.zeros(rare.size, np.int64)]
        kern(g, rare, target, split, np.zeros(500, np.int64), 2500, 3000, out[0], out[1], out[2],
             np.full(rare.size, -1, np.int64))  # fmt: skip
        results.append(out)
    assert all(np.array_equal(x, y) for x, y in zip(*results, strict=True))


@built
def test_types_not_built_go_to_numba():
    from grundy.readings import periods

    g = compute("·137", 400)
    want = periods._reading_at(g.astype(np.int64), 1, g.size, False)
    assert periods._reading_at(g.astype(np.int32), 1, g.size, False) == want  # not built: JIT
    assert periods._reading_at(g.astype(np.uint16)[::1], 1, g.size, False) == want
    strided = np.repeat(g, 2)[::2]
    assert not strided.flags.c_contiguous
    assert periods._reading_at(strided, 1, g.size, False) == want


@built
def test_a_command_on_the_native_build_loads_no_numba():
    script = (
        "from grundy.cli import main\n"
        "try:\n    main(['settle', '·16', '--json'])\nexcept SystemExit:\n    pass\n"
        "import sys\nprint('numba' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "False"
    assert '"settled": true' in out.stdout
