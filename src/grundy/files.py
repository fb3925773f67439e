"""Writing a file whole or not at all.

Every file a later run reads back (a store's chunks and metadata, a saved
sequence, a campaign's notes and archive, the findings' resume records) is
written by :func:`write_whole`: to a temporary file beside it, flushed to disk,
then renamed over it.  A rename within one folder is atomic, so a run killed
mid-write leaves the old file or the new one, never half of one that the next
run could not read.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def temporary(path: Path) -> Path:
    """Where :func:`write_whole` writes ``path`` first: a hidden name beside it, ending ``.tmp``
    and carrying this process's id, so that two processes never share one."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_whole(path: str | os.PathLike, data: bytes | str | Callable[[BinaryIO], None]) -> None:
    """Replace ``path`` by ``data`` (bytes, text written as UTF-8, or a function that writes to
    the open binary file), whole or not at all.

    A failure (``OSError`` from the disk, or any exception from the function) leaves ``path``
    as it was, removes the temporary file and is raised again.
    """
    path = Path(path)
    tmp = temporary(path)
    try:
        with open(tmp, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json(path: str | os.PathLike, content, **dumps) -> None:
    """:func:`write_whole` of ``content`` as JSON (``ensure_ascii=False`` unless ``dumps`` says
    otherwise; ``dumps`` goes to :func:`json.dumps`)."""
    write_whole(path, json.dumps(content, **{"ensure_ascii": False, **dumps}))
