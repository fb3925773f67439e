"""Compile the native build (:mod:`.native`): every kernel with a ``native`` signature, ahead
of time, with numba's ahead-of-time compiler, into two modules (:data:`.native.NAMES`).

``setup.py`` calls :func:`build` at install; ``python -m grundy.engine.build`` rebuilds it
in the package (after editing a kernel in an editable install, say).  Needs numba and a C
compiler; takes about half a minute.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

from . import _jit, native

HOST = "host"
"""The CPU the code is compiled for: the one it is built on, as numba's JIT does."""


def _value_namespace(value: str) -> dict:
    from numba.core import types

    dtype = getattr(types, value)
    return {
        **vars(types),
        "V": types.Array(dtype, 1, "C"),
        "R": types.Array(dtype, 1, "C", readonly=True),
    }


def signature(template: str, value: str):
    """The numba signature of ``template`` for value type ``value`` (``V``, ``R`` its arrays)."""
    return eval(template, {"__builtins__": {}}, _value_namespace(value))


def _spec(t):
    import numpy as np
    from numba.core import types

    if isinstance(t, types.Array) and t.ndim == 1 and t.layout == "C":
        return (np.dtype(str(t.dtype)), not t.mutable)
    if t == types.int64:
        return "int"
    if t == types.boolean:
        return "bool"
    raise TypeError(f"a native kernel cannot take {t}: use 1-D C arrays, int64 or bool")


def _import_kernels() -> None:
    for path in native.kernel_sources():
        importlib.import_module(".".join(("grundy", *path.relative_to(native.PACKAGE).with_suffix("").parts)))


def exports() -> list[tuple[str, object, object]]:
    """``(name, kernel, signature)`` for every native function: each kernel with a ``native``
    signature, once per value type.  Raises if :func:`.native.specs` reads a signature other
    than numba does (the run-time check would then pass arguments the code misreads)."""
    _import_kernels()
    out = []
    for stub in _jit._DECLARED:
        if stub.native:
            for value in stub.values:
                sig = signature(stub.native, value)
                ours = native.specs(stub.native, value)
                theirs = tuple(_spec(t) for t in sig.args)
                if ours != theirs:
                    raise TypeError(f"{stub.name}: {stub.native!r} reads as {ours}, not {theirs}")
                out.append((native.export_name(stub.name, value), stub, sig))
    return out


def compiler(name: str):
    """numba's ahead-of-time compiler for module ``name`` of :data:`.native.NAMES`, loaded with
    its native functions and the source hash; numba's runtime only where kernels allocate."""
    os.environ["GRUNDY_NATIVE"] = "0"
    _import_kernels()
    _jit._jit_all()
    from numba.pycc import CC

    cc = CC(name, source_module=native.__name__)
    cc.target_cpu = HOST
    cc.use_nrt = name != native.NAMES[0]
    for export, stub, sig in exports():
        if native.module_name(stub) == name:
            cc.export(export, sig)(stub.py_func)
    cc.export("source_digest", "i8()")(eval(f"lambda: {native.digest()}"))
    return cc


def build(directory: Path = native.PACKAGE / "engine", names=native.NAMES) -> list[Path]:
    """Compile the modules ``names`` into ``directory``; returns their paths."""
    paths = []
    for name in names:
        cc = compiler(name)
        cc.output_dir = str(directory)
        cc.compile()
        paths.append(Path(directory) / cc.output_file)
    return paths


if __name__ == "__main__":
    for path in build(*(Path(a) for a in sys.argv[1:2])):
        print(path)
