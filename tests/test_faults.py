"""Fault injection for the results store: kills, corrupted and truncated shards, concurrent runs,
dying workers, failed solves, budgets.  Deterministic: processes synchronise on files and on waitpid,
never on sleeps or timings."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from safeguarded import experiments, results
from safeguarded.experiments import BudgetExhausted, SweepError, run_sweep, split_failures
from safeguarded.results import SweepStore

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))
import sweep_cells  # noqa: E402

N_CELLS = len(sweep_cells.FAULT_PARAMS) * len(sweep_cells.FAULT_SEEDS)

# Fault points in the order a cell passes them: its function runs ("cell"), its line is about to be
# appended ("before-write"), appended ("written"), fsynced ("synced").
SCENARIOS = [(point, occ) for point in ("cell", "before-write", "written", "synced") for occ in range(1, 6)]


def _finished_before(point: str, occurrence: int) -> int:
    """Cells stored when the process is killed at this point (a written line survives a SIGKILL: it is
    in the page cache; only a machine crash before the fsync could lose it)."""
    return occurrence if point in ("written", "synced") else occurrence - 1


def _sweep(folder, log, params=None, **kwargs):
    params = [{**p, "log": str(log)} for p in (params or sweep_cells.FAULT_PARAMS)]
    return run_sweep(
        sweep_cells.fault_cell, params, sweep_cells.FAULT_SEEDS, name="f", cache_dir=folder, **kwargs
    )


def _markers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".running-" in p.name) if folder.is_dir() else []


def _stored(folder: Path, name: str = "f") -> SweepStore:
    return SweepStore(name, "1", folder).refresh()


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ref")
    out = _sweep(folder, folder / "log", backend="sequential")  # the log is not read: keep it in tmp
    return out.drop(columns="log")


@pytest.fixture(scope="module")
def killed(tmp_path_factory):
    """Runs all 20 kill scenarios in one fresh interpreter (fork per scenario); returns (root, report)."""
    root = tmp_path_factory.mktemp("kills")
    script = "import sys, json; sys.path.insert(0, sys.argv[1]); import sweep_cells; "
    script += "sweep_cells.kill_driver(sys.argv[2], json.loads(sys.argv[3]))"
    subprocess.run(
        [sys.executable, "-c", script, str(TESTS), str(root), json.dumps(SCENARIOS)],
        check=True,
        env={**os.environ, "SAFEGUARDED_BACKEND": "sequential"},
    )
    return root, json.loads((root / "report.json").read_text())


@pytest.mark.parametrize("index", range(len(SCENARIOS)), ids=[f"{p}-{o}" for p, o in SCENARIOS])
def test_sigkill_loses_at_most_the_cell_in_flight_and_resume_gives_the_uninterrupted_results(
    killed, reference, index
):
    root, report = killed
    case = report[index]
    point, occurrence = SCENARIOS[index]
    assert case["signal"] == signal.SIGKILL, f"the run was not killed at {point} #{occurrence}"
    finished = _finished_before(point, occurrence)
    folder = root / str(index)
    store = _stored(folder)
    assert len(store.cells) == finished and not store.corrupt  # whole lines only: nothing refused
    assert len([f for f in case["files"] if f.endswith(".jsonl")]) <= 1  # one shard per process
    assert len(case["computed_before"]) == occurrence - (point == "cell")  # cells whose function ran

    df = _sweep(folder, root / f"log-{index}.txt", backend="sequential")
    assert df.attrs["computed"] == N_CELLS - finished and df.attrs["corrupt"] == 0
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)
    assert _markers(folder / "f" / "v1") == []  # the dead run's marker is gone
    again = _sweep(folder, root / f"log-{index}.txt", backend="sequential")
    assert again.attrs["computed"] == 0 and again.equals(df)
    assert len(_stored(folder).cells) == N_CELLS and _stored(folder).duplicates == 0


def test_dead_markers_are_removed_live_and_foreign_ones_kept(tmp_path):
    _sweep(tmp_path, tmp_path / "log", backend="sequential")
    folder = tmp_path / "f" / "v1"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead_pid = int(dead.stdout)  # exited and reaped
    host = experiments._HOST
    names = {
        f"cell.running-{host}-{dead_pid}-0001": False,
        f"cell.running-{host}-{os.getpid()}-0002": True,  # a live run's (this process) marker
        f"cell.running-otherhost-{dead_pid}-0003": True,  # another machine's: not ours to judge
    }
    for name in names:
        (folder / name).write_text("{}")
    df = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert df.attrs["computed"] == 0
    for name, kept in names.items():
        assert (folder / name).exists() == kept, name


# --- truncated and corrupted shards ---------------------------------------------------------------


def _rewrite_line(data: bytes, index: int, change) -> bytes:
    """Line ``index`` of a shard changed by ``change(record)`` and re-checksummed (a consistent edit)."""
    lines = data.split(b"\n")
    record = json.loads(lines[index])
    record.pop("sha256")
    lines[index] = results._line(change(record)).rstrip(b"\n")
    return b"\n".join(lines)


CORRUPTIONS = {
    "truncated": (lambda b: b[:-17], "truncated"),
    "garbage line": (lambda b: b.replace(b"\n", b"\n\x00not json\n", 1), "not JSON"),
    "a changed digit": (
        lambda b: re.sub(
            rb'("value":-?\d\.\d)(\d)',
            lambda m: m.group(1) + (b"1" if m.group(2) != b"1" else b"2"),
            b,
            count=1,
        ),
        "checksum mismatch",
    ),
    "no checksum": (lambda b: b.replace(b',"sha256":', b',"sha256_":', 1), "no checksum"),
    "other params": (
        lambda b: _rewrite_line(b, 1, lambda r: {**r, "params": {**r["params"], "k": 99}}),
        "its parameters and seed give key",
    ),
    "other seed": (lambda b: _rewrite_line(b, 1, lambda r: {**r, "seed": r["seed"] + 7}), "give key"),
    "rows not records": (
        lambda b: _rewrite_line(b, 1, lambda r: {**r, "rows": [1.0, 2.0]}),
        "not a list of records",
    ),
    "another sweep's header": (
        lambda b: _rewrite_line(b, 0, lambda r: {**r, "sweep": "g"}),
        "the header is of sweep",
    ),
    "no header": (lambda b: b[b.index(b"\n") + 1 :], "not a shard header"),
    "shard of a newer format": (lambda b: _rewrite_line(b, 0, lambda r: {**r, "format": 99}), "format 99"),
}


@pytest.mark.parametrize("label", list(CORRUPTIONS))
def test_bad_shard_is_refused_naming_the_file_the_rest_of_the_store_used(tmp_path, reference, label):
    _sweep(tmp_path, tmp_path / "log", params=sweep_cells.FAULT_PARAMS[:2], backend="sequential")  # shard A
    _sweep(tmp_path, tmp_path / "log", backend="sequential")  # shard B: the 2 cells A lacks
    shards = sorted((tmp_path / "f" / "v1").glob("*.jsonl"))
    assert len(shards) == 2
    bad = max(shards, key=lambda p: p.read_bytes().count(b"\n") < 4)  # B: a header and 2 cells
    change, reason = CORRUPTIONS[label]
    bad.write_bytes(change(bad.read_bytes()))
    with pytest.warns(
        RuntimeWarning, match=rf"shard .*{bad.name} refused at line \d+: .*{re.escape(reason)}"
    ):
        df = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert (
        df.attrs["corrupt"] == 1 and df.attrs["cached"] == 4 and df.attrs["computed"] == 2
    )  # only B's cells
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)
    with pytest.warns(
        RuntimeWarning, match="refused"
    ):  # still refused, never read; its cells are in a new shard
        again = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert again.attrs["computed"] == 0 and again.equals(df)
    rows = results.status(tmp_path)  # counted there, not warned
    assert rows[0]["corrupt"] == 1 and rows[0]["stored"] == N_CELLS


def test_salvage_keeps_the_valid_lines_of_a_refused_shard(tmp_path, reference):
    _sweep(tmp_path, tmp_path / "log", backend="sequential")
    (shard,) = (tmp_path / "f" / "v1").glob("*.jsonl")
    lines = shard.read_bytes().split(b"\n")
    lines[3] = lines[3][:-5]  # one damaged cell line among six
    shard.write_bytes(b"\n".join(lines))
    with pytest.warns(RuntimeWarning, match="checksum mismatch|not JSON"):
        assert _stored(tmp_path).cells == {}
    kept, new = results.salvage(shard)
    assert kept == N_CELLS - 1 and not shard.exists() and new.is_file()
    df = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert df.attrs["computed"] == 1 and df.attrs["corrupt"] == 0
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)


# --- concurrent runs ------------------------------------------------------------------------------


def test_two_concurrent_runs_of_one_sweep_store_each_cell_once(tmp_path):
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import sweep_cells\n"
        "from safeguarded.experiments import run_sweep\n"
        "df = run_sweep(sweep_cells.rendezvous_cell, [{'k': k, 'sync': sys.argv[3]} for k in range(4)],"
        " [0, 1], name='c', cache_dir=sys.argv[2], backend='sequential')\n"
        "print(json.dumps({'computed': df.attrs['computed'], 'values': df['value'].tolist()}))\n"
    )
    args = [sys.executable, "-c", script, str(TESTS), str(tmp_path / "store"), str(tmp_path / "sync")]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [json.loads(p.communicate(timeout=300)[0]) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs[0]["computed"] == outs[1]["computed"] == 8  # both really computed every cell at once
    assert outs[0]["values"] == outs[1]["values"]
    assert len(list((tmp_path / "sync").iterdir())) == 16
    store = _stored(tmp_path / "store", "c")
    lines = sum(p.read_bytes().count(b"\n") - 1 for p in store.folder.glob("*.jsonl"))
    assert len(store.cells) == 8 and lines == 8 and store.duplicates == 0  # each cell stored once
    assert _markers(store.folder) == []
    params = [{"k": k, "sync": str(tmp_path / "sync")} for k in range(4)]
    df = run_sweep(sweep_cells.rendezvous_cell, params, [0, 1], name="c", cache_dir=tmp_path / "store")
    assert df.attrs["computed"] == 0 and df.attrs["corrupt"] == 0
    assert df["value"].tolist() == outs[0]["values"]


def test_copies_merged_by_git_keep_one_of_each_cell_and_flag_disagreements(tmp_path, reference):
    for copy in ("a", "b"):
        _sweep(tmp_path / copy, tmp_path / "log", backend="sequential")
    merged = tmp_path / "merged" / "f" / "v1"
    merged.mkdir(parents=True)
    for copy in ("a", "b"):
        for shard in (tmp_path / copy / "f" / "v1").glob("*.jsonl"):
            (merged / shard.name).write_bytes(shard.read_bytes())
    store = _stored(tmp_path / "merged")
    assert len(store.cells) == N_CELLS and store.duplicates == N_CELLS and store.conflicts == []
    df = _sweep(tmp_path / "merged", tmp_path / "log", backend="sequential")
    assert df.attrs["computed"] == 0
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)
    # a copy computed by other code under the same version: the duplicates disagree, status says so
    later = max(merged.glob("*.jsonl"))
    later.write_bytes(
        _rewrite_line(later.read_bytes(), 1, lambda r: {**r, "rows": [{"row": 0, "value": 1.5}]})
    )
    (row,) = results.status(tmp_path / "merged")
    assert row["conflicts"] == 1 and row["corrupt"] == 0


# --- budgets --------------------------------------------------------------------------------------


def test_a_budget_stops_starting_cells_and_the_next_run_continues(tmp_path, reference, monkeypatch):
    calls = []

    def hook(point, path):
        if point == "cell":
            calls.append(path)
            if len(calls) == 2:  # the budget ends while the second cell runs
                monkeypatch.setenv("SAFEGUARDED_DEADLINE", str(time.time() - 1))

    monkeypatch.setattr(experiments, "_fault_hook", hook)
    with pytest.raises(BudgetExhausted, match=r"'f' v1: the time budget ended with 2 of 6 cells stored"):
        _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert len(_stored(tmp_path).cells) == 2  # the cell in flight finished and was stored
    partial = _sweep(tmp_path, tmp_path / "log", backend="sequential", allow_partial=True)
    assert (partial.attrs["present"], partial.attrs["needed"], partial.attrs["computed"]) == (2, 6, 0)
    pd.testing.assert_frame_equal(partial.drop(columns="log"), reference.iloc[:4])
    monkeypatch.delenv("SAFEGUARDED_DEADLINE")
    df = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert (df.attrs["computed"], df.attrs["cached"]) == (4, 2)
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)


# --- a worker process dies ------------------------------------------------------------------------


def _dying(tmp_path, flag, **kwargs):
    params = [{"k": k, "die_at": 3, "flag": str(flag), "parent_pid": os.getpid()} for k in range(6)]
    return run_sweep(sweep_cells.dying_cell, params, [0], name="w", cache_dir=tmp_path, **kwargs)


def _wait_until_no_cell_runs(folder: Path, limit_s: float = 120) -> None:
    """Synchronise on the files: wait until no live process holds a ``.running-`` marker."""
    deadline = time.monotonic() + limit_s
    while any(
        (owner := experiments._owner(p, ".running-")) and experiments._pid_alive(owner[1])
        for p in folder.iterdir()
    ):
        assert time.monotonic() < deadline, "a cell is still running"
        time.sleep(0.01)


def _check_worker_death(tmp_path, **kwargs):
    flag = tmp_path / "die"
    flag.touch()
    with pytest.raises(SweepError, match=r"worker process died .*'k': 3, ") as info:
        _dying(tmp_path, flag, **kwargs)
    _wait_until_no_cell_runs(tmp_path / "w" / "v1")  # a surviving worker may still finish its cell
    kept = len(_stored(tmp_path, "w").cells)
    reported = int(re.search(r"\((\d+) cells of w v1\)", str(info.value)).group(1))
    assert reported <= kept < 6  # what finished is stored (a surviving worker may add its cell after)
    flag.unlink()
    df = _dying(tmp_path, flag, **kwargs)  # resumes: only the unfinished cells run
    assert df.attrs["computed"] == 6 - kept and df.attrs["corrupt"] == 0
    ref = _dying(tmp_path / "ref", flag, backend="sequential")
    assert df.drop(columns="parent_pid").equals(ref.drop(columns="parent_pid"))
    assert _markers(tmp_path / "w" / "v1") == []


def test_worker_death_on_loky_names_the_cell_and_keeps_finished(tmp_path):
    _check_worker_death(tmp_path, backend="loky", n_jobs=2)


def test_worker_death_on_dask_names_the_cell_and_keeps_finished(tmp_path):
    distributed = pytest.importorskip("distributed")
    import dask

    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        _check_worker_death(tmp_path, backend="dask")


# --- failed solves are recorded, never averaged in ------------------------------------------------


def test_solver_failures_are_recorded_as_failure_rows(tmp_path):
    pytest.importorskip("highspy")
    params = [{"bound": b} for b in (0.0, 0.5, 2.0)] + [{"bound": 0.0, "solver": "SCS"}]
    df = run_sweep(
        sweep_cells.solver_cell,
        params,
        [0],
        name="s",
        cache_dir=tmp_path,
        backend="sequential",
        on_error="record",
    )
    assert df["status"].tolist() == ["ok", "ok", "infeasible", "optimal_inaccurate"]
    assert "InfeasibleError" in df["error"].iloc[2] and "InaccurateError" in df["error"].iloc[3]
    ok, failed = split_failures(df)
    assert len(ok) == 2 and len(failed) == 2 and failed["objective"].isna().all()
    assert ok["objective"].mean() == pytest.approx(0.25, abs=1e-7)  # the failures are not averaged in
    again = run_sweep(
        sweep_cells.solver_cell,
        params,
        [0],
        name="s",
        cache_dir=tmp_path,
        backend="sequential",
        on_error="record",
    )
    assert again.attrs["computed"] == 0 and again.equals(df)  # failures are stored like results
    with pytest.raises(experiments_solver_error(), match="infeasible") as info:
        run_sweep(sweep_cells.solver_cell, params, [0], name="s", cache_dir=tmp_path, backend="sequential")
    assert "in sweep cell params={'bound': 2.0} seed=0" in info.value.__notes__
    with pytest.raises(ValueError, match="on_error must be one of"):
        run_sweep(sweep_cells.solver_cell, params, [0], name="s", cache=False, on_error="ignore")


def experiments_solver_error():
    from safeguarded.solvers import SolverError

    return SolverError
