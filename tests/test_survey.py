"""Surveys: identical catalogues through every executor, resumed runs, tallies by hand,
damaged rows, analysis versions, killed parallel surveys."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grundy.catalogue.database import Catalogue
from grundy.catalogue.executors import ProcessPool, SerialExecutor, default_executor
from grundy.catalogue.survey import ANALYSIS_VERSION, run, survey_code
from grundy.codes import parse
from grundy.engine import compute, sparse
from grundy.engine.reference import grundy_values
from grundy.readings.tallies import tallies
from naive import naive_trajectory

SMALL = ["·137", "·226", "·07", "·6", "·45", "·2", "·3"]


def stored(path):
    with Catalogue(path) as cat:
        return {r["code"]: (r, cat.values(r["code"], r["heaps"]).tolist()) for r in cat.results()}


def grundy(*args, **kw):
    return subprocess.run([sys.executable, "-m", "grundy", *args], check=False, capture_output=True, text=True,
                          timeout=300, **kw)


def test_statuses_and_anchors():
    r = survey_code("·137", 2400)
    assert (r["status"], r["start"], r["period"], r["window"]) == ("settled", 52, 34, 175)
    naive = naive_trajectory(grundy_values(parse("·137"), 200), 3)
    assert (r["right_from"], r["changes"]) == (naive["right_from"], naive["changes"])
    assert survey_code("·6", 2400)["status"] == "growing"
    r = survey_code("·226", 2400)
    assert any((fr["start"], fr["period"], fr["held_to"], fr["window"]) == (7, 5, 20, 27)
               for fr in r["false_readings"])


def test_serial_process_pool_and_dask_give_identical_catalogues(tmp_path):
    distributed = pytest.importorskip("distributed")
    with Catalogue(tmp_path / "serial.sqlite") as cat:
        run(SMALL, cat, executor=SerialExecutor())
    with Catalogue(tmp_path / "pool.sqlite") as cat, default_executor(2) as pool:
        run(SMALL, cat, executor=pool, batch=2)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
        Catalogue(tmp_path / "dask.sqlite") as cat,
    ):
        run(SMALL, cat, executor=client.get_executor(), batch=2)
    serial = stored(tmp_path / "serial.sqlite")
    assert set(serial) == set(SMALL)
    assert stored(tmp_path / "pool.sqlite") == serial
    assert stored(tmp_path / "dask.sqlite") == serial


def test_rerun_recomputes_nothing(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        first = run(SMALL[:4], cat)
        again = run(SMALL, cat)
    assert (first.computed, first.stored_before) == (4, 0)
    assert (again.computed, again.stored_before, again.codes) == (len(SMALL) - 4, 4, len(SMALL))


def test_serial_survey_stores_each_code_before_computing_the_next(tmp_path):
    # The serial executor computes at submission: submitting every batch up front would store
    # nothing until the whole survey had run, and a kill would lose it all.
    seen = []

    class Watching(SerialExecutor):
        def submit(self, fn, /, *args, **kwargs):
            seen.append(len(cat.stored_codes(2400, {})))
            return super().submit(fn, *args, **kwargs)

    with Catalogue(tmp_path / "s.sqlite") as cat:
        run(SMALL, cat, executor=Watching())
    assert seen == list(range(len(SMALL)))


def test_killed_survey_resumes_without_duplicates_or_recomputation(tmp_path):
    db = tmp_path / "k.sqlite"
    # 20,000 heaps make the survey last a few seconds; with one worker each code is stored as
    # it finishes, so the kill lands with a part stored.
    cmd = [sys.executable, "-m", "grundy", "survey", "--digits", "2", "--heaps", "20000",
           "--db", str(db), "--workers", "1", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    count = 0
    while count < 5:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
        if db.exists():
            try:
                count = sqlite3.connect(db).execute("SELECT count(*) FROM results").fetchone()[0]
            except sqlite3.DatabaseError:  # the file is still being created
                count = 0
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = sqlite3.connect(db).execute("SELECT count(*) FROM results").fetchone()[0]
    assert 5 <= before < 63
    out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["codes"] == 63
    assert summary["survey"]["stored_before"] == before
    assert summary["survey"]["computed"] == 63 - before
    db_rows = sqlite3.connect(db).execute("SELECT code, count(*) FROM results GROUP BY code").fetchall()
    assert len(db_rows) == 63 and all(n == 1 for _, n in db_rows)


def test_tallies_by_hand():
    results = [survey_code(c, 2400) for c in ("·137", "·6", "·2", "·3", "·226")]
    t = tallies(results)
    by = {r["code"]: r for r in results}
    assert t["codes"] == 5
    assert (t["settled"], t["growing"], t["bounded_unsettled"]) == (4, 1, 0)
    assert t["distinct_sequences_growing"] == 1
    # ·2 (take one, leave one: 0,1,0,1,...) and ·3 read right from the first reading.
    assert by["·2"]["changes"] == 0 and by["·3"]["changes"] == 0
    assert t["right_first"] == sum(by[c]["changes"] == 0 for c in ("·137", "·2", "·3", "·226"))
    n_false = sum(len(by[c]["false_readings"]) for c in ("·137", "·2", "·3", "·226"))
    assert t["false_readings"] == n_false and sum(t["false_by_period"].values()) == n_false
    assert t["reached_window"] == 0
    assert t["max_reach"] < 1
    assert t["most_convincing"][0]["reach"] == t["max_reach"]
    assert t["repetitions_needed"]["max"] == max(
        by[c]["repetitions_needed"] for c in ("·137", "·2", "·3", "·226")
    )
    assert t["believed"][2] >= t["believed"][6]
    keys = {"codes", "settled", "growing", "bounded_unsettled", "distinct_sequences_growing",
            "right_first", "changes_once", "changes_5_to_100", "changes_over_150", "false_readings",
            "false_by_period", "false_before_start", "periodic_from_1", "periodic_from_1_right_first",
            "periodic_later", "periodic_later_right_first", "kinds", "believed", "reached_window",
            "median_reach", "max_reach", "most_convincing", "repetitions_needed",
            "right_to_window_gap", "heap0"}
    assert keys <= set(t)


def test_heap0_variant_finds_the_four():
    # A period must not include heap 0: with heap 0 allowed, ·4's period 1 from heap 0 reaches its window 3 and is false.
    r = survey_code("·4", 2400)
    assert {"start": 0, "period": 1, "window": 3} in r["heap0_reached"]


def test_family_survey_json_via_cli(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "grundy", "survey", "--codes", "·137,·6", "--db", str(tmp_path / "c"),
         "--workers", "1", "--json"],
        check=False, capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["codes"] == 2 and summary["settled"] == 1 and summary["growing"] == 1
    show = subprocess.run([sys.executable, "-m", "grundy", "show", "·137", "--db", str(tmp_path / "c"),
                           "--json"], check=False, capture_output=True, text=True)
    assert json.loads(show.stdout)["period"] == 34
    bad = subprocess.run([sys.executable, "-m", "grundy", "survey", "--codes", "·137,·9", "--db",
                          str(tmp_path / "c")], check=False, capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    missing = subprocess.run([sys.executable, "-m", "grundy", "show", "·77", "--db", str(tmp_path / "c")],
                             check=False, capture_output=True, text=True)
    assert missing.returncode == 2 and "not in" in missing.stderr



def test_d0_and_hexadecimal_families_via_cli(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "grundy", "survey", "--digits", "1", "--d0", "--hex", "--heaps", "300",
         "--db", str(tmp_path / "h"), "--workers", "1", "--json"],
        check=False, capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["codes"] == 30 and summary["reached_window"] == 0
    with Catalogue(tmp_path / "h") as cat:
        codes = {r["code"] for r in cat.results()}
    assert {"·4", "4·4", "0x·8", "0x4·f"} <= codes


def test_sparse_statistics_of_each_result():
    for name in ("·137", "·6", "·45", "0x·9", "·3"):
        code = parse(name)
        r = survey_code(code, 2400)
        keys = ("mask", "position", "rare_heaps", "last_rare")
        if sparse.applies(code):
            stats = sparse.statistics(code, compute(code, 2400))
            assert tuple(r[k] for k in keys) == (stats.mask, stats.position, stats.rare_heaps, stats.last_rare)
        else:
            assert all(r[k] is None for k in keys)
        assert r["analysis"] == ANALYSIS_VERSION


def test_rows_of_another_analysis_version_are_recomputed(tmp_path):
    path = tmp_path / "c.sqlite"
    with Catalogue(path) as cat:
        run(SMALL[:3], cat)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET analysis=?, status='made up' WHERE code=?",
                   (ANALYSIS_VERSION - 1, SMALL[0]))
    db.close()
    with Catalogue(path) as cat:
        again = run(SMALL[:3], cat)
        assert (again.stored_before, again.computed) == (2, 1)
        rows = list(cat.results())
    assert len(rows) == 3 and {r["analysis"] for r in rows} == {ANALYSIS_VERSION}
    assert {r["status"] for r in rows} <= {"settled", "growing", "bounded_unsettled"}


def test_a_deleted_row_is_surveyed_again(tmp_path):
    db = tmp_path / "c.sqlite"
    args = ["survey", "--codes", "·226,·137", "--db", str(db), "--workers", "1", "--json"]
    assert grundy(*args).returncode == 0
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM results WHERE code='·226'")
    con.close()
    out = grundy(*args)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["survey"]["computed"] == 1
    assert stored(db)["·226"][0] == survey_code("·226", 2400)


def test_a_damaged_row_is_refused_by_show_and_recomputed_by_the_survey(tmp_path):
    db = tmp_path / "c.sqlite"
    args = ["survey", "--codes", "·226,·137", "--db", str(db), "--workers", "1", "--json"]
    assert grundy(*args).returncode == 0
    with sqlite3.connect(db) as con:
        con.execute("UPDATE results SET extra='{\"believed\": ' WHERE code='·226'")
        con.execute("UPDATE sequences SET zlib=x'00' WHERE code='·137'")
    con.close()
    show = grundy("show", "·226", "--db", str(db))
    assert show.returncode == 2 and show.stderr.count("\n") == 1
    assert "·226" in show.stderr and str(db) in show.stderr and "Traceback" not in show.stderr
    out = grundy(*args)
    assert out.returncode == 0, out.stderr
    warnings = out.stderr.splitlines()
    assert len(warnings) == 2 and all("warning" in w and "computing it again" in w for w in warnings)
    assert json.loads(out.stdout)["survey"]["computed"] == 2
    got = stored(db)
    assert got["·226"][0] == survey_code("·226", 2400)
    assert got["·137"][1] == compute("·137", 2400).tolist()
    assert grundy("show", "·226", "--db", str(db)).returncode == 0


def test_recompute_option(tmp_path):
    db = tmp_path / "c.sqlite"
    first = grundy("survey", "--codes", "·137,·6", "--db", str(db), "--workers", "1", "--json")
    assert json.loads(first.stdout)["survey"]["computed"] == 2
    outside = grundy("survey", "--codes", "·137,·6", "--recompute", "·6,·45", "--db", str(db),
                     "--workers", "1", "--json")
    assert outside.returncode == 2 and "--recompute ·45: not in the family surveyed" in outside.stderr
    again = grundy("survey", "--codes", "·137,·6", "--recompute", "·6", "--db", str(db),
                   "--workers", "1", "--json")
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert summary["codes"] == 2 and summary["survey"]["computed"] == 1
    assert summary["survey"]["stored_before"] == 1
    with Catalogue(db) as cat:
        assert cat.stored_codes(2400, {}) == {"·137", "·6"}


@pytest.mark.parametrize("option", ["--codes", "--recompute"])
@pytest.mark.parametrize("value", ["", ",", " , "])
def test_an_empty_code_list_is_a_usage_error(tmp_path, option, value):
    out = grundy("survey", option, value, "--db", str(tmp_path / "c.sqlite"), "--workers", "1")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and option in out.stderr
    assert not (tmp_path / "c.sqlite").exists()


def test_the_default_catalogue_is_shared_by_survey_and_show(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    assert grundy("survey", "--codes", "·137", "--workers", "1", cwd=tmp_path, env=env).returncode == 0
    assert (tmp_path / "catalogue.sqlite").exists()
    show = grundy("show", "·137", "--json", cwd=tmp_path, env=env)
    assert show.returncode == 0 and json.loads(show.stdout)["period"] == 34


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (read from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_killing_a_parallel_survey_leaves_no_worker(tmp_path, how):
    db = tmp_path / "k.sqlite"
    cmd = [sys.executable, "-m", "grundy", "survey", "--digits", "2", "--heaps", "20000",
           "--db", str(db), "--workers", "2", "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    count, workers = 0, set()
    while count < 2 or len(workers) < 2:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
        workers = descendants(proc.pid)
        try:
            count = sqlite3.connect(db).execute("SELECT count(*) FROM results").fetchone()[0]
        except sqlite3.DatabaseError:  # not created yet
            count = 0
    proc.send_signal(how)
    _, err = proc.communicate(timeout=60)
    if how == signal.SIGTERM:
        assert proc.returncode == 130 and "stopped by SIGTERM" in err and "Traceback" not in err
    deadline = time.monotonic() + 30
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(workers)
    with Catalogue(db) as cat:
        stored_now = cat.stored_codes(20000, {})
        assert len(stored_now) >= 2 and not cat.damaged(20000, {})


def test_terminating_a_pool_waits_for_its_manager_thread(monkeypatch):
    """At exit the interpreter wakes each pool's manager thread through a pipe that thread
    closes as it ends; were it still ending then, the wake-up could meet the closed pipe
    (a traceback at exit, as a SIGTERM'd survey once printed).  Slowing the manager's
    last steps makes the window wide: terminate must wait it out."""
    from concurrent.futures import process

    ending = process._ExecutorManagerThread.join_executor_internals

    def slow_ending(self):
        time.sleep(0.5)
        ending(self)

    monkeypatch.setattr(process._ExecutorManagerThread, "join_executor_internals", slow_ending)
    pool = ProcessPool(2)
    fut = pool.submit(time.sleep, 60)
    deadline = time.monotonic() + 60
    while not fut.running():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    manager = pool._executor_manager_thread
    pool.terminate()
    assert not manager.is_alive() and manager.thread_wakeup._closed
