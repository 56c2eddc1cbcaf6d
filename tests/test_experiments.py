import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from safeguarded import experiments
from safeguarded.experiments import grid, rng_for, run_sweep

sys.path.insert(0, str(Path(__file__).parent))
import sweep_cells  # noqa: E402

TESTS = Path(__file__).parent


def test_rng_for_is_explicit_and_independent():
    a = rng_for(7).normal(size=5)
    np.testing.assert_array_equal(a, rng_for(7).normal(size=5))
    assert not np.allclose(a, rng_for(7, 1).normal(size=5))
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        rng_for(-1)


def test_grid_order_and_validation():
    assert grid(a=[1, 2], b=["x"]) == [{"a": 1, "b": "x"}, {"a": 2, "b": "x"}]
    with pytest.raises(ValueError, match="grid axis 'a' must be a sequence"):
        grid(a="abc")


def test_same_parameters_same_numbers_any_backend(tmp_path):
    params = grid(mu=[0.0, 1.0], n=[10, 100])
    seq = run_sweep(
        sweep_cells.noisy_mean, params, [0, 1], name="t", cache_dir=tmp_path / "a", backend="sequential"
    )
    par = run_sweep(
        sweep_cells.noisy_mean, params, [0, 1], name="t", cache_dir=tmp_path / "b", backend="loky", n_jobs=2
    )
    assert len(seq) == 8
    assert seq.equals(par)
    assert list(seq.columns) == ["mu", "n", "seed", "mean"]


def test_cache_is_used(tmp_path):
    log = tmp_path / "log.txt"
    params = [{"k": k, "log": str(log)} for k in range(3)]
    run_sweep(sweep_cells.logged_slow, params, [0, 1], name="c", cache_dir=tmp_path, backend="sequential")
    df = run_sweep(
        sweep_cells.logged_slow, params, [0, 1], name="c", cache_dir=tmp_path, backend="sequential"
    )
    assert len(log.read_text().splitlines()) == 6  # nothing recomputed
    assert len(df) == 12
    run_sweep(
        sweep_cells.logged_slow,
        params,
        [0, 1],
        name="c",
        version="2",
        cache_dir=tmp_path,
        backend="sequential",
    )
    assert len(log.read_text().splitlines()) == 12  # a new version recomputes


def test_killed_sweep_resumes_without_recomputing(tmp_path):
    log = tmp_path / "log.txt"
    script = (
        "import sys; sys.path.insert(0, %r)\n"
        "import sweep_cells\n"
        "from safeguarded.experiments import run_sweep\n"
        "params = [{'k': k, 'delay': 0.3} for k in range(20)]\n"
        "run_sweep(sweep_cells.logged_slow, params, [0], name='kill', cache_dir=%r, backend='sequential')\n"
    ) % (str(TESTS), str(tmp_path))
    env = {**os.environ, "SWEEP_LOG": str(log)}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env)
    cache = tmp_path / "kill"
    deadline = time.time() + 60
    while time.time() < deadline and len(list(cache.glob("*.pkl"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = {tuple(line.split(",")) for line in log.read_text().splitlines()}
    cached = len(list(cache.glob("*.pkl")))
    assert 3 <= cached < 20, "the sweep must have been killed in the middle"
    log2 = tmp_path / "log2.txt"
    os.environ["SWEEP_LOG"] = str(log2)
    try:
        df = run_sweep(
            sweep_cells.logged_slow,
            [{"k": k, "delay": 0.3} for k in range(20)],
            [0],
            name="kill",
            cache_dir=tmp_path,
            backend="sequential",
        )
    finally:
        del os.environ["SWEEP_LOG"]
    recomputed = {tuple(line.split(",")) for line in log2.read_text().splitlines()}
    cached_cells = done_before - recomputed
    assert len(recomputed) == 20 - cached  # only the missing cells ran again
    assert len(cached_cells) >= cached  # every cached cell was computed by the killed run only
    assert len(df) == 40
    assert sorted(df["k"].unique()) == list(range(20))


def test_dask_local_cluster_backend(tmp_path):
    distributed = pytest.importorskip("distributed")
    params = grid(mu=[0.0, 2.0], n=[50])
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        df = run_sweep(
            sweep_cells.noisy_mean, params, [0, 1, 2], name="d", cache_dir=tmp_path, backend="dask"
        )
    ref = run_sweep(sweep_cells.noisy_mean, params, [0, 1, 2], name="d", cache=False, backend="sequential")
    assert df.equals(ref)


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="backend must be one of"):
        run_sweep(sweep_cells.noisy_mean, [{"mu": 0, "n": 1}], [0], name="x", backend="mpi")
    with pytest.raises(ValueError, match="seeds must be a non-empty"):
        run_sweep(sweep_cells.noisy_mean, [{"mu": 0, "n": 1}], [], name="x")
    assert experiments.BACKENDS[0] == "sequential"
