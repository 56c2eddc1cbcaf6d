"""Fault injection for the sweep cache: kills, corrupt files, concurrent runs, dying workers, failed
solves.  Deterministic: processes synchronise on files and on waitpid, never on sleeps or timings."""

import json
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from safeguarded import experiments
from safeguarded.experiments import SweepError, run_sweep, split_failures

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))
import sweep_cells  # noqa: E402

N_CELLS = len(sweep_cells.FAULT_PARAMS) * len(sweep_cells.FAULT_SEEDS)

# Fault points in the order a fresh sweep passes them: the folder's manifest is written first
# (partial/written/replaced #1), then cell j passes cell #j+1 and partial/written/replaced #j+2.
SCENARIOS = [(point, occ) for point in ("cell", "partial", "written", "replaced") for occ in range(1, 6)]


def _finished_before(point: str, occurrence: int) -> int:
    """Cells whose file is complete when the process is killed at this point."""
    if point in ("cell", "replaced"):
        return occurrence - 1
    return max(occurrence - 2, 0)


def _sweep(folder, log, **kwargs):
    params = [{**p, "log": str(log)} for p in sweep_cells.FAULT_PARAMS]
    return run_sweep(
        sweep_cells.fault_cell, params, sweep_cells.FAULT_SEEDS, name="f", cache_dir=folder, **kwargs
    )


def _private(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".partial-" in p.name or ".running-" in p.name)


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
def test_sigkill_then_resume_gives_the_uninterrupted_results(killed, reference, index):
    root, report = killed
    case = report[index]
    point, occurrence = SCENARIOS[index]
    assert case["signal"] == signal.SIGKILL, f"the run was not killed at {point} #{occurrence}"
    finished = _finished_before(point, occurrence)
    pkl = [f for f in case["files"] if f.endswith(".pkl")]
    assert len(pkl) == finished  # a half-written cell never carries a reader's suffix
    partial = [f for f in case["files"] if ".partial-" in f]
    assert len(partial) == (point in ("partial", "written"))
    assert all(".pkl.partial-" in f or f.startswith(".current-") for f in partial)
    assert len(case["computed_before"]) == occurrence - 1  # cells whose function ran

    folder = root / str(index)
    df = _sweep(folder, root / f"log-{index}.txt", backend="sequential")
    assert df.attrs["computed"] == N_CELLS - finished and df.attrs["corrupt"] == 0
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)
    assert _private(folder / "f") == []  # the dead run's temporaries and markers are gone
    again = _sweep(folder, root / f"log-{index}.txt", backend="sequential")
    assert again.attrs["computed"] == 0 and again.equals(df)


# --- atomic writes --------------------------------------------------------------------------------


def test_temporary_is_private_and_fsynced_before_the_rename(tmp_path, monkeypatch):
    seen = []

    def hook(point, path):
        if point == "written" and path.suffix == ".pkl":
            temps = [p.name for p in path.parent.iterdir() if ".partial-" in p.name]
            seen.append((temps, sorted(p.name for p in path.parent.glob("*.pkl")), path.name))

    monkeypatch.setattr(experiments, "_fault_hook", hook)
    _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert len(seen) == N_CELLS
    for i, (temps, globbed, target) in enumerate(seen):
        assert len(temps) == 1 and temps[0].startswith(target + ".partial-")
        assert temps[0].split(".partial-")[1].split("-")[-2] == str(os.getpid())
        assert len(globbed) == i and target not in globbed  # *.pkl readers see only finished cells


def test_dead_temporaries_are_removed_live_ones_kept(tmp_path):
    _sweep(tmp_path, tmp_path / "log", backend="sequential")
    folder = tmp_path / "f"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True)
    dead_pid = int(dead.stdout)  # exited and reaped
    host = experiments._HOST
    names = {
        f"abc.pkl.partial-{host}-{dead_pid}-0000": False,
        f"abc.pkl.running-{host}-{dead_pid}-0001": False,
        ".tmp-old-format.pkl": False,
        f"abc.pkl.partial-{host}-{os.getpid()}-0002": True,  # a live run's (this process) temporary
        f"abc.pkl.partial-otherhost-{dead_pid}-0003": True,  # another machine's: not ours to judge
    }
    for name in names:
        (folder / name).write_bytes(b"half")
    df = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert df.attrs["computed"] == 0
    for name, kept in names.items():
        assert (folder / name).exists() == kept, name


# --- corrupted files ------------------------------------------------------------------------------


CORRUPTIONS = {
    "truncated": lambda b, other: b[: len(b) // 2],
    "empty": lambda b, other: b"",
    "garbage": lambda b, other: b"\x00not a pickle" * 10,
    "missing class": lambda b, other: b"\x80\x04cno_such_module\nThing\n)\x81.",
    "wrong structure": lambda b, other: pickle.dumps([1, 2, 3]),
    "other cell": lambda b, other: pickle.dumps({**pickle.loads(b), "key": other}),
    "other params": lambda b, other: pickle.dumps({**pickle.loads(b), "params": {"k": 99, "log": "x"}}),
    "rows not dicts": lambda b, other: pickle.dumps({**pickle.loads(b), "rows": [1.0, 2.0]}),
}


@pytest.mark.parametrize("label", list(CORRUPTIONS))
def test_corrupt_cell_is_reported_and_recomputed_never_used(tmp_path, reference, label):
    _sweep(tmp_path, tmp_path / "log", backend="sequential")
    files = sorted((tmp_path / "f").glob("*.pkl"))
    path = files[0]
    path.write_bytes(CORRUPTIONS[label](path.read_bytes(), files[-1].stem))
    with pytest.warns(RuntimeWarning, match=f"cache file {path} .*; recomputing the cell") as record:
        df = _sweep(tmp_path, tmp_path / "log", backend="sequential")
    assert len(record) == 1
    assert df.attrs["corrupt"] == 1 and df.attrs["computed"] == 1
    pd.testing.assert_frame_equal(df.drop(columns="log"), reference)
    clean = _sweep(tmp_path, tmp_path / "log", backend="sequential")  # the file was rewritten whole
    assert clean.attrs["corrupt"] == 0 and clean.attrs["computed"] == 0


# --- concurrent runs ------------------------------------------------------------------------------


def test_two_concurrent_runs_of_one_sweep(tmp_path):
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import sweep_cells\n"
        "from safeguarded.experiments import run_sweep\n"
        "df = run_sweep(sweep_cells.rendezvous_cell, [{'k': k, 'sync': sys.argv[3]} for k in range(4)],"
        " [0, 1], name='c', cache_dir=sys.argv[2], backend='sequential')\n"
        "print(json.dumps({'computed': df.attrs['computed'], 'values': df['value'].tolist()}))\n"
    )
    args = [sys.executable, "-c", script, str(TESTS), str(tmp_path / "cache"), str(tmp_path / "sync")]
    procs = [subprocess.Popen(args, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [json.loads(p.communicate(timeout=300)[0]) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert outs[0]["computed"] == outs[1]["computed"] == 8  # both really computed every cell at once
    assert outs[0]["values"] == outs[1]["values"]
    assert len(list((tmp_path / "sync").iterdir())) == 16
    folder = tmp_path / "cache" / "c"
    assert _private(folder) == []
    params = [{"k": k, "sync": str(tmp_path / "sync")} for k in range(4)]
    df = run_sweep(sweep_cells.rendezvous_cell, params, [0, 1], name="c", cache_dir=tmp_path / "cache")
    assert df.attrs["computed"] == 0 and df.attrs["corrupt"] == 0  # 8 whole files, none corrupt
    assert df["value"].tolist() == outs[0]["values"]
    assert len(list(folder.glob("*.pkl"))) == 8


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
    _wait_until_no_cell_runs(tmp_path / "w")  # a surviving worker may still finish its cell
    kept = len(list((tmp_path / "w").glob("*.pkl")))
    reported = int(re.search(r"\((\d+) files\)", str(info.value)).group(1))
    assert 1 <= reported <= kept < 6
    flag.unlink()
    df = _dying(tmp_path, flag, **kwargs)  # resumes: only the unfinished cells run
    assert df.attrs["computed"] == 6 - kept and df.attrs["corrupt"] == 0
    ref = _dying(tmp_path / "ref", flag, backend="sequential")
    assert df.drop(columns="parent_pid").equals(ref.drop(columns="parent_pid"))
    assert _private(tmp_path / "w") == []


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
    assert again.attrs["computed"] == 0 and again.equals(df)  # failures are cached like results
    with pytest.raises(experiments_solver_error(), match="infeasible") as info:
        run_sweep(sweep_cells.solver_cell, params, [0], name="s", cache_dir=tmp_path, backend="sequential")
    assert "in sweep cell params={'bound': 2.0} seed=0" in info.value.__notes__
    with pytest.raises(ValueError, match="on_error must be one of"):
        run_sweep(sweep_cells.solver_cell, params, [0], name="s", cache=False, on_error="ignore")


def experiments_solver_error():
    from safeguarded.solvers import SolverError

    return SolverError
