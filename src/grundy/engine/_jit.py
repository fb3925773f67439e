"""The one kernel layer: every kernel of the engine is declared with :func:`kernel`.

Why a layer of our own rather than ``@njit(cache=True)`` in each module:

- **Pay for numba only when a kernel runs, and usually not at all.**
  Importing numba takes about 0.3 s and loading its first kernel about as
  long again.  A kernel declared with a ``native`` signature is also
  compiled ahead of time at install (:mod:`.native`): when that build
  matches the sources, the first call imports it (a few milliseconds) and
  numba is never imported.  Otherwise, or for argument types the build does
  not cover, numba compiles the kernel just in time, as below.
  :func:`kernel` returns a stand-in; the first call of any kernel binds
  every declared kernel at once (kernels call each other by their module
  names, so they are bound together).
- **Compile only what a run uses.**  A numba dispatcher compiles one
  signature (one value type) the first time it sees it; :func:`warm_up`
  compiles every signature, for callers that must not compile later (a
  survey's workers).
- **A cache that cannot serve stale code.**  numba's on-disk cache keys an
  entry by the function's bytecode and the content of *its own* file.  A
  kernel that calls or inlines a kernel of another file (``moves.py``) keeps
  that callee's machine code in its cache entry, and numba does not notice
  when the other file changes: after an upgrade it would run the old code.
  Our cache entries are also keyed by :data:`SOURCE_DIGEST`, a hash of the
  kernel sources (:func:`.native.kernel_sources`), so any change to any of
  them recompiles everything.  The native build is keyed the same way.
- **Several processes.**  numba's cache index is one file per function that
  each process reads, updates and rewrites (numba issue #4807): two
  processes compiling the same function at once can drop each other's
  entries, and a process may load an entry while another replaces it.  So
  nothing compiles in parallel: a survey calls :func:`warm_up` in the
  parent before any worker starts, and workers only read the cache.
  ``parallel=True`` is never combined with ``cache=True``.
- **No globals in kernels.**  numba freezes a module global into the
  machine code at compile time (and the cache keeps it), so a kernel reads
  no module constant: limits and sizes are arguments.
- **An exported kernel is called from Python only.**  Its module name may
  hold the native function, which numba cannot call from another kernel.

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (slow;
coverage sees the kernels), ``GRUNDY_NATIVE=0`` to leave the native build
aside and compile with numba.
"""

from __future__ import annotations

import functools
import sys
import threading

_DECLARED: list[_Kernel] = []
"""Every kernel declared so far (kept: numba may be bound after the native build)."""
_native = False
"""The native module once looked for (None when there is none); False before."""
_bound = False
_jitted = False
_lock = threading.RLock()


class _Kernel:
    """A kernel not yet bound: the first call binds every kernel, then runs.

    ``native`` is the signature template of the kernel's native build (see
    :mod:`.native`) and ``values`` the value types it is built for; ``native``
    is None for a kernel that only other kernels call.  ``allocates`` says
    whether it creates arrays (:func:`kernel`).
    """

    def __init__(self, fn, options: dict, native: str | None, values: tuple[str, ...], allocates: bool):
        self.py_func = fn
        self.options = options if allocates else {"_nrt": False, **options}
        self.native = native
        self.values = values
        self.allocates = allocates
        self.name = f"{fn.__module__}.{fn.__name__}"
        self.dispatcher = None
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        bind()
        target = getattr(sys.modules[self.py_func.__module__], self.py_func.__name__)
        if target is self:  # not in the native build: numba compiles it
            target = jit(self)
        return target(*args)


def kernel(fn=None, *, native: str | None = None, values=("u1", "u2", "u4"), allocates=False, **options):
    """Declare a kernel (numba ``nopython``, cached); ``options`` go to ``numba.njit``.

    Use as ``@kernel`` or ``@kernel(native="i8(V, i8)")``: a ``native``
    signature has the kernel compiled ahead of time at install, once per
    value type in ``values``, ``V`` standing for a writable array of that
    type and ``R`` for one the kernel only reads (:mod:`.native`).  The
    module's global name is replaced by the native function or the numba
    dispatcher when kernels are first used.

    **Lean unless it allocates.**  A kernel that creates no array (its
    scratch comes from the caller) is compiled without numba's reference
    counting (``_nrt=False``): every array it sees belongs to its caller, so
    the counts would only cost.  They cost a lot: numba counts the arrays
    passed to every call atomically and LLVM keeps most of those counts,
    36% of ``·16``'s time before this.  A kernel that creates arrays says
    ``allocates=True`` (numba refuses to compile an allocation in a lean
    one); a lean kernel calls only lean kernels.
    """
    if fn is None:
        return lambda f: kernel(f, native=native, values=values, allocates=allocates, **options)
    stub = _Kernel(fn, options, native, tuple(values), allocates)
    with _lock:
        _DECLARED.append(stub)
        if not (_bound or _jitted):
            return stub
        target = stub  # a module imported after binding: bound now, as its name is not set yet
        if _native:
            target = _bind_native(stub) or target
        if _jitted:
            _bind_jit(stub)
            if target is stub:
                target = stub.dispatcher
    return target


SOURCE_DIGEST = ""
"""The hash of the kernel sources (:func:`.native.sources_sha256`); filled in when numba is bound."""


def _cache_class():
    from numba.core.caching import FunctionCache

    class KernelCache(FunctionCache):
        """numba's function cache, with :data:`SOURCE_DIGEST` in every entry's key."""

        def _index_key(self, sig, codegen):
            return (*super()._index_key(sig, codegen), SOURCE_DIGEST)

    return KernelCache


_KernelCache = None


def _publish(stub: _Kernel, target) -> None:
    """Put ``target`` in the place of ``stub``: in its module and wherever it was imported by name.

    numba resolves a kernel's callees through its module's globals, so a
    module that did ``from .moves import _split_sizes`` must see the
    dispatcher too.
    """
    for module in list(sys.modules.values()):
        names = getattr(module, "__dict__", None) or {}
        for name, value in list(names.items()):
            if value is stub:
                names[name] = target


def _bind_native(stub: _Kernel):
    """Put the kernel's native functions in its place, if the build has any; returns them."""
    from .native import Native, functions

    found = functions(_native, stub)
    if not found:
        return None
    target = Native(stub, found)
    _publish(stub, target)
    return target


def _bind_jit(stub: _Kernel) -> None:
    """Give ``stub`` its numba dispatcher; it takes the kernel's place unless a native one has."""
    import numba

    stub.dispatcher = numba.njit(**stub.options)(stub.py_func)
    if not numba.config.DISABLE_JIT:
        stub.dispatcher._cache = _KernelCache(stub.py_func)
    _publish(stub, stub.dispatcher)


def _load_native():
    global _native
    if _native is False:
        from . import native

        _native = native.load()
    return _native


def bind() -> None:
    """Bind every declared kernel (once): to the native build if it is there and current, else
    to numba."""
    global _bound
    if _bound:
        return
    with _lock:
        if _bound:
            return
        if _load_native() is not None:
            for stub in _DECLARED:
                _bind_native(stub)
        else:
            _jit_all()
        _bound = True


def _jit_all() -> None:
    """Import numba and give every declared kernel its dispatcher (once)."""
    global _jitted, SOURCE_DIGEST, _KernelCache
    with _lock:
        if _jitted:
            return
        from .native import sources_sha256

        SOURCE_DIGEST = sources_sha256()
        import numba

        if not numba.config.DISABLE_JIT:
            _KernelCache = _cache_class()
            _start_target()
        for stub in _DECLARED:
            _bind_jit(stub)
        _jitted = True


def jit(stub: _Kernel):
    """The numba dispatcher of a declared kernel (binding numba first if need be)."""
    _jit_all()
    return stub.dispatcher


def _start_target() -> None:
    """Load numba's CPU target (the cost of its first call) without importing scipy.

    On its first call numba imports ``scipy.linalg`` (about 0.3 s, half its
    start-up) only to learn whether BLAS is there for ``np.dot`` and kin;
    without it those fall back to plain loops.  No kernel here uses them, so
    ``scipy.linalg`` is hidden while the target loads (it imports as usual
    afterwards).
    """
    from numba.core.registry import cpu_target

    hide = "scipy.linalg" not in sys.modules
    if hide:
        sys.modules["scipy.linalg"] = None
    try:
        cpu_target.target_context.refresh()
    finally:
        if hide and sys.modules.get("scipy.linalg", 0) is None:
            del sys.modules["scipy.linalg"]


def ready() -> bool:
    """Whether a kernel call costs no start-up: the native build is current, or numba is loaded."""
    return _load_native() is not None or _jitted or "numba" in sys.modules
