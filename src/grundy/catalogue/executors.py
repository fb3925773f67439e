"""Where batches of work run: in this process, a process pool, or any ``Executor``.

Surveys and reports hand batches to an executor and store each result in the
driver as it returns; :func:`batch_results` is that loop, shared by both.  The
process pool's workers end with the process that started them, so a killed
survey leaves nothing running.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from itertools import islice

from ..interrupts import held_interrupts, wait_first


class SerialExecutor(Executor):
    """Runs each task at once in this process: the executor for small surveys and tests."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller through the future
            fut.set_exception(exc)
        return fut


PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process receives when its parent ends."""
WATCH_SECONDS = 1.0
MANAGER_SECONDS = 30.0
"""The longest :meth:`ProcessPool.terminate` waits for the pool's manager thread to end."""


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _bind_to_parent(parent: int) -> None:
    """Worker initializer: end this worker when ``parent`` ends, however it ends.

    On Linux the kernel sends SIGTERM at the parent's death (``PR_SET_PDEATHSIG``,
    which also covers SIGKILL); elsewhere, and should that call fail, a daemon
    thread polls the parent's id.  Ctrl-C is ignored here: the parent handles it
    and ends the workers (:meth:`ProcessPool.terminate`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


class ProcessPool(ProcessPoolExecutor):
    """A process pool (spawn start method) whose workers never outlive this process.

    Each worker ends with its parent (:func:`_bind_to_parent`), and leaving a
    ``with`` block by an exception (Ctrl-C, a SIGTERM turned into an
    exception, an error) ends the workers at once instead of waiting for the
    codes they are computing.  Submit from the main thread: on Linux a worker
    ends when the thread that started it ends.
    """

    def __init__(self, workers: int):
        import multiprocessing

        super().__init__(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                         initializer=_bind_to_parent, initargs=(os.getpid(),))

    def terminate(self) -> None:
        """End every worker now and drop the work not yet started.

        It returns once the pool's manager thread has ended too: that thread closes
        the pool's wake-up pipe as it ends, and were it still doing so at exit, the
        interpreter's own farewell to the pool could write to the closed pipe and
        print a traceback (``OSError: Bad file descriptor``).
        """
        processes = list((self._processes or {}).values())
        manager = self._executor_manager_thread
        self.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            proc.terminate()
        for proc in processes:
            proc.join()
        if manager is not None:
            manager.join(MANAGER_SECONDS)

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.terminate()
            return False
        return super().__exit__(exc_type, exc, tb)


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else every core)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:
        return os.cpu_count() or 1


def default_executor(workers: int | None = None) -> Executor:
    """A :class:`ProcessPool` of ``workers`` (default: one per core), or serial for one worker."""
    workers = workers or cores()
    if workers == 1:
        return SerialExecutor()
    return ProcessPool(workers)


def batch_results(executor: Executor, fn: Callable, items: Sequence, batch: int, *args) -> Iterator:
    """Yield ``fn(chunk, *args)`` for each chunk of ``batch`` items, in the order they finish.

    Every chunk is submitted at once, except to the serial executor: it
    computes at submission, so it gets one chunk at a time, and each result
    reaches the caller before the next chunk starts.  Chunks not yet started
    when the caller stops are cancelled.  Ctrl-C and SIGTERM reach the caller between calls
    to the executor, never inside one (:mod:`grundy.interrupts`).
    """
    chunks = iter([items[i : i + batch] for i in range(0, len(items), batch)])
    window = 1 if isinstance(executor, SerialExecutor) else max(1, len(items))
    pending: set[Future] = set()
    try:
        while True:
            with held_interrupts():
                for chunk in islice(chunks, window - len(pending)):
                    pending.add(executor.submit(fn, chunk, *args))
            if not pending:
                return
            done = wait_first(pending)
            pending -= done
            for fut in done:
                yield fut.result()
    finally:
        for fut in pending:
            fut.cancel()
