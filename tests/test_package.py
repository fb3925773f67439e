"""The package as installed: its version in one module, modules that import alone, ``py.typed``."""

from __future__ import annotations

import ast
import importlib.resources
import pkgutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import grundy
from grundy import _version

PACKAGE = Path(grundy.__file__).parent
MODULES = sorted(m.name for m in pkgutil.walk_packages(grundy.__path__, "grundy.")
                 if m.name != "grundy.__main__")  # fmt: skip
"""Every module of the package (``__main__`` runs the command line when imported)."""


def _import_alone(module: str) -> tuple[str, int, str]:
    run = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                         check=False)
    return module, run.returncode, run.stderr[-2000:]


@pytest.mark.slow
def test_every_module_imports_alone_in_a_fresh_interpreter():
    # Each module first (after the package): an import cycle that holds only when another
    # module happens to be imported before fails here.  Sixty interpreters, about 20 s: slow;
    # the next test finds the cycle through the package's __init__ without running any.
    with ThreadPoolExecutor(4) as pool:
        failed = [r for r in pool.map(_import_alone, MODULES) if r[1] != 0]
    assert len(MODULES) > 50
    assert not failed, failed


def _imported_from_package(path: Path) -> list[str]:
    """The names ``path`` imports from the package ``grundy`` itself (``from grundy import x``,
    ``from .. import x`` reaching it), other than its modules."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    here = parts if path.name == "__init__.py" else parts[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else ()
            target = ".".join((*base, *(node.module.split(".") if node.module else ())))
            if target == "grundy":
                out += [a.name for a in node.names
                        if not (PACKAGE / a.name).is_dir() and not (PACKAGE / f"{a.name}.py").exists()]
    return out


def test_no_module_imports_a_name_from_the_package_init():
    # The package's __init__ imports modules; a module that imports a name back from it holds
    # only while that name is bound before the import that reaches the module.
    found = {str(p.relative_to(PACKAGE)): names for p in sorted(PACKAGE.rglob("*.py"))
             if p.name != "__init__.py" or p.parent != PACKAGE
             if (names := _imported_from_package(p))}  # fmt: skip
    assert not found, found


def test_the_version_lives_in_version_py_and_pyproject_reads_it():
    pyproject = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "grundy._version.__version__"}
    assert grundy.__version__ is _version.__version__
    assert "__version__ =" not in (PACKAGE / "__init__.py").read_text()



def test_the_installed_package_is_typed():
    # PEP 561: py.typed in the package, and declared as package data so that a wheel ships it.
    assert (importlib.resources.files("grundy") / "py.typed").is_file()
    pyproject = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text())
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["grundy"]
