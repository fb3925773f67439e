"""The one numba layer: every kernel of the engine is declared with :func:`kernel`.

Why a layer of our own rather than ``@njit(cache=True)`` in each module:

- **Pay for numba only when a kernel runs.**  Importing numba takes about
  0.4 s and its first call about as long again; ``grundy --help`` and small
  work (see :mod:`.small`) must not pay that, and the first call skips the
  part that only concerns BLAS (:func:`_start_target`).  :func:`kernel` returns a
  stand-in; the first call of any kernel imports numba and turns every
  declared kernel into a numba dispatcher at once (kernels call each other
  by their module names, so they are bound together).
- **Compile only what a run uses.**  A dispatcher compiles one signature
  (one value type) the first time it sees it; :func:`warm_up` compiles
  every signature, for callers that must not compile later (a survey's
  workers).
- **A cache that cannot serve stale code.**  numba's on-disk cache keys an
  entry by the function's bytecode and the content of *its own* file.  A
  kernel that calls or inlines a kernel of another file (``moves.py``) keeps
  that callee's machine code in its cache entry, and numba does not notice
  when the other file changes: after an upgrade it would run the old code.
  Our cache entries are also keyed by :data:`SOURCE_DIGEST`, a hash of the
  source of every module that declares kernels, so any change to any of
  them recompiles everything.
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

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python (slow;
coverage sees the kernels).
"""

from __future__ import annotations

import functools
import hashlib
import sys
import threading
from pathlib import Path

_DECLARED: list[_Kernel] = []
_SOURCES: set[str] = {__file__}
_bound = False
_lock = threading.Lock()


class _Kernel:
    """A kernel not yet handed to numba: the first call binds every kernel, then runs."""

    def __init__(self, fn, options: dict):
        self.py_func = fn
        self.options = options
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        bind()
        return getattr(sys.modules[self.py_func.__module__], self.py_func.__name__)(*args)


def kernel(fn=None, **options):
    """Declare a numba kernel (``nopython``, cached); ``options`` go to ``numba.njit``.

    Use as ``@kernel`` or ``@kernel(fastmath=True)``.  The module's global
    name is replaced by the numba dispatcher when kernels are first used.
    numba's own ``inline="always"`` is best left out: it re-types the callee
    in every caller (about 40% of the engine's compile time here) and LLVM
    inlines small callees anyway, at no measurable cost in speed.
    """
    if fn is None:
        return lambda f: kernel(f, **options)
    stub = _Kernel(fn, options)
    if _bound:  # a module imported after the first kernel ran: numba's own file stamp covers it
        return _bind_one(stub)
    _SOURCES.add(sys.modules[fn.__module__].__file__)
    _DECLARED.append(stub)
    return stub


def _digest() -> str:
    h = hashlib.sha256()
    for path in sorted(_SOURCES):
        h.update(Path(path).read_bytes())
    return h.hexdigest()


SOURCE_DIGEST = ""
"""Hash of every kernel module's source; filled in when kernels are bound."""


def _cache_class():
    from numba.core.caching import FunctionCache

    class KernelCache(FunctionCache):
        """numba's function cache, with :data:`SOURCE_DIGEST` in every entry's key."""

        def _index_key(self, sig, codegen):
            return (*super()._index_key(sig, codegen), SOURCE_DIGEST)

    return KernelCache


_KernelCache = None


def _bind_one(stub: _Kernel):
    import numba

    dispatcher = numba.njit(**stub.options)(stub.py_func)
    if not numba.config.DISABLE_JIT:
        dispatcher._cache = _KernelCache(stub.py_func)
    setattr(sys.modules[stub.py_func.__module__], stub.py_func.__name__, dispatcher)
    return dispatcher


def bind() -> None:
    """Import numba and replace every declared kernel by its dispatcher (once).

    Every module that imported a kernel by name (``from .moves import
    _split_sizes``) gets the dispatcher too: numba resolves a kernel's
    callees through its module's globals.
    """
    global _bound, SOURCE_DIGEST, _KernelCache
    with _lock:
        if _bound:
            return
        SOURCE_DIGEST = _digest()
        import numba

        if not numba.config.DISABLE_JIT:
            _KernelCache = _cache_class()
            _start_target()
        bound = {id(stub): _bind_one(stub) for stub in _DECLARED}
        for module in list(sys.modules.values()):
            names = getattr(module, "__dict__", None) or {}
            for name, value in list(names.items()):
                if type(value) is _Kernel and id(value) in bound:
                    names[name] = bound[id(value)]
        _DECLARED.clear()
        _bound = True


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


def loaded() -> bool:
    """Whether numba is already imported in this process (so kernels cost no start-up)."""
    return _bound or "numba" in sys.modules
