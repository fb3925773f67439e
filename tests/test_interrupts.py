"""Interrupts are delivered between calls to an executor, never inside one (grundy.interrupts)."""

import os
import signal
import threading
import time
from concurrent.futures import Executor, Future

import pytest

from grundy.catalogue.executors import batch_results
from grundy.interrupts import POLL_SECONDS, held_interrupts, wait_first


class Stop(Exception):
    pass


@pytest.fixture
def sigint_raises_stop():
    def stop(signum, frame):
        raise Stop

    before = signal.signal(signal.SIGINT, stop)
    yield
    signal.signal(signal.SIGINT, before)


class TrippingLock:
    """A future's lock that sends this process SIGINT the first time it is taken, and fails
    loudly where a lock left held would block for ever."""

    def __init__(self):
        self.lock = threading.Lock()
        self.armed = True

    def acquire(self, blocking=True, timeout=-1):
        if blocking and self.lock.locked():
            raise RuntimeError("a future's lock was left held")
        got = self.lock.acquire(blocking, timeout)
        if self.armed:
            self.armed = False
            os.kill(os.getpid(), signal.SIGINT)
        return got

    def release(self):
        self.lock.release()

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


class NeverDone(Executor):
    """Futures that never finish, each guarded by a :class:`TrippingLock`."""

    def __init__(self):
        self.locks = []

    def submit(self, fn, /, *args, **kwargs):
        fut = Future()
        self.locks.append(TrippingLock())
        fut._condition = threading.Condition(self.locks[-1])
        return fut


def test_an_interrupt_while_waiting_leaves_no_future_locked(sigint_raises_stop):
    executor = NeverDone()
    with pytest.raises(Stop):
        list(batch_results(executor, len, list(range(40)), 4))
    assert len(executor.locks) == 10
    assert not any(lock.lock.locked() for lock in executor.locks)


def test_an_interrupt_is_held_to_the_end_of_the_block(sigint_raises_stop):
    reached = []
    with pytest.raises(Stop), held_interrupts():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        reached.append("end of block")
    assert reached == ["end of block"]
    assert signal.getsignal(signal.SIGINT) is not None
    with held_interrupts():
        pass  # nothing held, nothing raised


def test_an_interrupt_held_in_an_inner_block_waits_for_the_outer_one(sigint_raises_stop):
    reached = []
    with pytest.raises(Stop), held_interrupts():
        with held_interrupts():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        reached.append("after the inner block")
    assert reached == ["after the inner block"]


def test_wait_first_returns_what_is_done_or_nothing_after_the_timeout():
    done, waiting = Future(), Future()
    done.set_result(1)
    assert wait_first([done, waiting]) == {done}
    start = time.monotonic()
    assert wait_first([waiting], timeout=0.3) == set()
    assert time.monotonic() - start >= 0.3
    threading.Timer(2 * POLL_SECONDS, waiting.set_result, (2,)).start()
    assert wait_first([waiting]) == {waiting}
