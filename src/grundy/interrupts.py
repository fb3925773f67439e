"""Ctrl-C and SIGTERM held back while a block runs, and delivered at its end.

Python raises an interrupt between any two bytecodes of the main thread.  Two
places must not be cut that way: a store's append (its memory would fall
behind its metadata), and ``concurrent.futures.wait``, whose ordered acquire
of every future's lock is not undone when it is cut, so the pool's manager
thread later blocks on a lock nobody releases and the process never exits.
:func:`held_interrupts` guards such a block; :func:`wait_first` waits for a
pool in short guarded slices, so an interrupt lands between them.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from contextlib import contextmanager

KINDS = (signal.SIGINT, signal.SIGTERM)
POLL_SECONDS = 0.25
"""The longest an interrupt waits in :func:`wait_first` before it is delivered."""


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Within the block, Ctrl-C and SIGTERM are noted, not acted on; the first one noted is
    handed to the handler that was in place when the block ends (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    before: dict[int, object] = {}
    try:
        for kind in KINDS:
            before[kind] = signal.getsignal(kind)
            signal.signal(kind, lambda signum, frame: held.append(signum))
        yield
    finally:
        for kind, handler in before.items():
            signal.signal(kind, handler)
        for signum in held[:1]:
            handler = before[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), signum)


def wait_first(futures: Iterable[Future], timeout: float | None = None) -> set[Future]:
    """The futures done once the first of ``futures`` is (empty after ``timeout`` seconds;
    None waits as long as it takes), with interrupts delivered only between waits."""
    futures = set(futures)
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        left = POLL_SECONDS if end is None else max(0.0, min(POLL_SECONDS, end - time.monotonic()))
        with held_interrupts():
            done, _ = wait(futures, timeout=left, return_when=FIRST_COMPLETED)
        if done or (end is not None and time.monotonic() >= end):
            return done
