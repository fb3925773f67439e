"""Build the native kernels at install (grundy.engine.native); everything else is in pyproject.toml.

The extension is optional: without numba's ahead-of-time compiler or a C
compiler the install goes on, and numba compiles the kernels on first use.
``GRUNDY_NATIVE=0 pip install ...`` skips it.
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildNative(build_ext):
    """Compile ``grundy.engine._native`` and ``_native_nrt`` with :func:`grundy.engine.build.build`.

    Both are built at once; when they are not (``GRUNDY_NATIVE=0``, no compiler), the
    extensions are dropped from the build so that the install goes on without them.
    """

    def build_extensions(self):
        target = Path(self.get_ext_fullpath(self.extensions[0].name)).parent
        target.mkdir(parents=True, exist_ok=True)
        if os.environ.get("GRUNDY_NATIVE", "1") == "0":
            print("grundy: GRUNDY_NATIVE=0, the native kernels are not built", file=sys.stderr)
            self.extensions = []
            return
        sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))
        try:
            from grundy.engine.build import build

            for path in build(target):
                print(f"grundy: compiled native kernels into {path}", file=sys.stderr)
        except Exception as error:  # noqa: BLE001 (any failure leaves the work to numba's JIT)
            print(
                f"grundy: the native kernels were not built ({type(error).__name__}: {error}); "
                "numba will compile them on first use",
                file=sys.stderr,
            )
            self.extensions = []


setup(
    ext_modules=[Extension(f"grundy.engine.{name}", sources=[]) for name in ("_native", "_native_nrt")],
    cmdclass={"build_ext": BuildNative},
)
