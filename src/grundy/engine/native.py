"""The kernels compiled ahead of time, so that a command never waits for numba.

A kernel declared with a ``native`` signature (:func:`._jit.kernel`) is also
compiled at install, by ``setup.py`` through numba's ahead-of-time compiler
(``numba.pycc``, :mod:`.build`), into one of two extension modules:
``grundy.engine._native`` holds the lean kernels, built without numba's
reference counting, and ``grundy.engine._native_nrt`` the few that create
arrays, with numba's runtime (:func:`._jit.kernel` says why).  Each has one
function per value type (named by :func:`export_name`), for the CPU it is
built on, and ``source_digest()``, the hash of the kernel sources it was
built from.

At run time :func:`load` imports both (a few milliseconds; numba is not
imported) only when each one's hash is the hash of the sources now, so an
edited kernel never runs from an old build.  A :class:`Native` takes the
kernel's place and calls the function whose argument types match exactly
(:func:`specs` reads them from the signature).  The compiled code checks
nothing (a ``uint16`` array passed where ``uint8`` is built is misread), so
anything else (another value type, a strided view, a read-only array the
kernel writes to) goes to numba's just-in-time dispatcher, which compiles
it as it always did.

Without a C compiler, or with ``GRUNDY_NATIVE=0`` at install, there is no
build and every kernel is compiled by numba on first use (and cached).
``GRUNDY_NATIVE=0`` at run time leaves a build aside.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
from pathlib import Path

import numpy as np

NAMES = ("_native", "_native_nrt")
"""The extension modules' names in this package: lean kernels, then those that allocate."""
PACKAGE = Path(__file__).resolve().parent.parent
KERNEL_FILES = (
    "engine/_jit.py",
    "engine/native.py",
    "engine/build.py",
    "engine/moves.py",
    "engine/dense.py",
    "engine/sparse.py",
    "engine/bounded.py",
    "readings/periods.py",
    "readings/trajectory.py",
    "rare/arrivals.py",
    "rare/counts.py",
)
"""Every file that declares kernels or shapes their build, relative to the package: read
through :func:`kernel_sources` (a test checks that every module declaring a kernel is here)."""


def kernel_sources() -> tuple[Path, ...]:
    """The kernel sources: the files of :data:`KERNEL_FILES`.  The one list both keys hash (the
    native build's :func:`digest`, numba's cache entries' :data:`._jit.SOURCE_DIGEST`) and the
    build imports, so that neither depends on which modules a process happened to import."""
    return tuple(PACKAGE / name for name in KERNEL_FILES)


def sources_sha256() -> str:
    """SHA-256 of :func:`kernel_sources`, each file's name (relative to the package) then its
    bytes."""
    h = hashlib.sha256()
    for path in kernel_sources():
        h.update(path.relative_to(PACKAGE).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def digest() -> int:
    """:func:`sources_sha256` in 60 bits, what the build stores."""
    return int(sources_sha256()[:15], 16)


def enabled() -> bool:
    """Whether a native build may be used: not with ``GRUNDY_NATIVE=0`` or ``NUMBA_DISABLE_JIT=1``."""
    return os.environ.get("GRUNDY_NATIVE", "1") != "0" and os.environ.get(
        "NUMBA_DISABLE_JIT", "0"
    ) in ("", "0")


def module_name(stub) -> str:
    """The module of :data:`NAMES` that holds a kernel's native functions."""
    return NAMES[bool(stub.allocates)]


def load() -> dict | None:
    """The native modules by name, or None when one is missing, was built from other sources,
    cannot be imported, or is disabled (:func:`enabled`)."""
    if not enabled():
        return None
    modules = {}
    want = digest()
    for name in NAMES:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
            if module.source_digest() != want:
                return None
        except (ImportError, AttributeError, OSError):
            return None
        modules[name] = module
    return modules


def export_name(kernel_name: str, value: str) -> str:
    """The native function of kernel ``grundy.readings.periods._held_to`` for value type ``i8``."""
    return f"{kernel_name.replace('.', '_')}_{value}"


def functions(modules: dict | None, stub) -> list:
    """``(function, specs)`` for each value type the native build (:func:`load`) has ``stub`` for."""
    if modules is None or not stub.native:
        return []
    module = modules[module_name(stub)]
    out = []
    for value in stub.values:
        function = getattr(module, export_name(stub.name, value), None)
        if function is not None:
            out.append((function, specs(stub.native, value)))
    return out


_ARRAY = re.compile(r"([a-z]\d)\[::1\]")


def specs(template: str, value: str) -> tuple:
    """The argument types of a ``native`` signature for value type ``value``, as :func:`matches`
    takes them: ``(dtype, read_only)`` for an array, ``"int"`` or ``"bool"``.

    The arguments are the last parenthesised list: ``V`` (a writable array of
    the value type), ``R`` (one the kernel only reads), ``u1[::1]``-style
    arrays, ``i8``, ``b1``.  :mod:`.build` checks this reading against numba's.
    """
    args = template[template.rindex("(") + 1 : template.rindex(")")]
    out = []
    for token in (t.strip() for t in args.split(",")):
        if token in ("V", "R"):
            out.append((np.dtype(value), token == "R"))
        elif (m := _ARRAY.fullmatch(token)) is not None:
            out.append((np.dtype(m[1]), False))
        elif token in ("i8", "b1"):
            out.append("int" if token == "i8" else "bool")
        else:
            raise ValueError(f"a native signature cannot take {token!r}")
    return tuple(out)


INT64 = (-(1 << 63), 1 << 63)


def matches(args: tuple, specs: tuple) -> bool:
    """Whether ``args`` have exactly the types ``specs`` (:func:`specs`) were built for.

    An array spec is ``(dtype, read_only)``: the argument must be a 1-D,
    C-contiguous, aligned ndarray of that dtype, writable unless the kernel
    only reads it.  ``"int"`` takes a Python or numpy integer in int64's
    range, ``"bool"`` a Python or numpy bool.
    """
    if len(args) != len(specs):
        return False
    for a, spec in zip(args, specs, strict=True):
        if spec == "int":
            if not isinstance(a, (int, np.integer)) or isinstance(a, (bool, np.bool_)):
                return False
            if not INT64[0] <= a < INT64[1]:
                return False
        elif spec == "bool":
            if not isinstance(a, (bool, np.bool_)):
                return False
        else:
            dtype, read_only = spec
            if type(a) is not np.ndarray or a.dtype != dtype or a.ndim != 1:
                return False
            flags = a.flags
            if not (flags.c_contiguous and flags.aligned and (read_only or flags.writeable)):
                return False
    return True


class Native:
    """A kernel's native functions, tried by argument types; numba's dispatcher for the rest."""

    def __init__(self, stub, found: list):
        self.stub = stub
        self.functions = found
        self.__doc__ = stub.py_func.__doc__
        self.__name__ = stub.py_func.__name__
        self.py_func = stub.py_func

    def __call__(self, *args):
        for function, specs in self.functions:
            if matches(args, specs):
                return function(*args)
        from ._jit import jit

        return jit(self.stub)(*args)

    def __repr__(self) -> str:
        return f"<native kernel {self.stub.name}: {len(self.functions)} signatures>"
