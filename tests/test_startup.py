"""Start-up: what ``grundy --help``, ``import grundy`` and small work load, and the lazy command table."""

import inspect
import subprocess
import sys

import click

from grundy.cli import cli
from grundy.cli.lazy import COMMANDS


def _modules_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        check=False, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return set(out.stdout.split())


def test_import_grundy_loads_neither_numpy_nor_numba():
    loaded = _modules_after("import grundy")
    assert "numpy" not in loaded and "numba" not in loaded
    assert "concurrent.futures" not in loaded  # and logging: a survey's executor, 8 ms
    assert "numba" not in _modules_after("from grundy import compute, Code, Sequence")


def test_every_kernel_goes_through_the_jit_layer():
    """The analyses' kernels are declared with engine._jit.kernel: importing them loads no
    numba, and their sources key the cache with the engine's."""
    loaded = _modules_after(
        "import grundy.readings.periods, grundy.readings.trajectory, grundy.rare\n"
        "from grundy.engine import native\n"
        "files = [p.name for p in native.kernel_sources()]\n"
        "assert 'periods.py' in files, files\n"
        "assert 'counts.py' in files, files"
    )
    assert "numba" not in loaded


def test_help_loads_no_command_module():
    loaded = _modules_after(
        "from grundy.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    )
    assert "numpy" not in loaded and "numba" not in loaded and "matplotlib" not in loaded
    assert "zstandard" not in loaded
    assert not {f"grundy.cli.{module}" for module, _ in COMMANDS.values()} & loaded


def test_small_values_command_loads_no_numba():
    loaded = _modules_after(
        "from grundy.cli import main\n"
        "try:\n    main(['values', '·137', '--heaps', '1000', '--json'])\nexcept SystemExit:\n    pass"
    )
    assert "numba" not in loaded and "grundy.cli.values" in loaded
    assert "zstandard" not in loaded  # its checkpoint in the cache never wrote a chunk


def test_lazy_table_matches_what_the_modules_register():
    ctx = click.Context(cli)
    for name, (module, summary) in COMMANDS.items():
        cmd = cli.get_command(ctx, name)
        assert cmd is not None and cmd.callback.__module__ == f"grundy.cli.{module}", name
        first = " ".join(inspect.cleandoc(cmd.help).split("\n\n")[0].split())
        assert first == summary, name
    assert set(cli.commands) == set(COMMANDS)


def test_help_lists_every_command():
    out = subprocess.run(
        [sys.executable, "-m", "grundy", "--help"], check=False, capture_output=True, text=True,
        timeout=120,
    )
    assert out.returncode == 0
    listed = [line.split()[0] for line in out.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == sorted(COMMANDS)
