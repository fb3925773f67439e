"""Where batches of work run: in this process, a process pool, or any ``Executor``.

Surveys and reports hand batches to an executor and store each result in the
driver as it returns; :func:`batch_results` is that loop, shared by both.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from itertools import islice


class SerialExecutor(Executor):
    """Runs each task at once in this process: the executor for small surveys and tests."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future
            fut.set_exception(exc)
        return fut


def default_executor(workers: int | None = None) -> Executor:
    """A process pool of ``workers`` (default: one per core), or serial for one worker."""
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return SerialExecutor()
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


def batch_results(executor: Executor, fn: Callable, items: Sequence, batch: int, *args) -> Iterator:
    """Yield ``fn(chunk, *args)`` for each chunk of ``batch`` items, in the order they finish.

    Every chunk is submitted at once, except to the serial executor: it
    computes at submission, so it gets one chunk at a time, and each result
    reaches the caller before the next chunk starts.  Chunks not yet started
    when the caller stops are cancelled.
    """
    chunks = iter([items[i : i + batch] for i in range(0, len(items), batch)])
    window = 1 if isinstance(executor, SerialExecutor) else max(1, len(items))
    pending: set[Future] = set()
    try:
        while True:
            for chunk in islice(chunks, window - len(pending)):
                pending.add(executor.submit(fn, chunk, *args))
            if not pending:
                return
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
    finally:
        for fut in pending:
            fut.cancel()
