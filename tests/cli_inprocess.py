"""Run ``grundy`` in this process (fast, no interpreter start) and check its one-line errors."""

from __future__ import annotations

import contextlib
import io

from grundy.cli import main


def run(*argv: str) -> tuple[int, str, str]:
    """``grundy ARGV`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(argv))
            status = 0
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return status, out.getvalue(), err.getvalue()


def one_line_error(status: int, out: str, err: str) -> str:
    """Assert a usage error (exit 2, no output, one line on stderr, no traceback); return it."""
    assert status == 2, (status, out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("grundy: error: "), err
    return lines[0]
