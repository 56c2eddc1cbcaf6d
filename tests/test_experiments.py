import json
import os
import shutil
import subprocess
import sys
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


# --- cache keys follow the code -------------------------------------------------------------------

SRC = Path(experiments.__file__).parent

WORK_A = """\
from safeguarded.experiments import rng_for
from safeguarded.common import scale


def cell(k, seed):
    return {"value": scale(k) + float(rng_for(seed).integers(10))}
"""
WORK_B = """\
def other(x):
    return x + 1
"""
RUNNER = """\
import json, sys
from safeguarded.experiments import run_sweep
from safeguarded.worka.core import cell
df = run_sweep(cell, [{"k": k} for k in range(3)], [0, 1], name="worka/item", cache_dir=sys.argv[1],
               backend="sequential", version=sys.argv[2])
print(json.dumps({**df.attrs, "values": df["value"].tolist()}))
"""


def _small_package(root: Path) -> Path:
    """A temporary copy of a small `safeguarded`: the real foundation files, two toy works."""
    pkg = root / "src" / "safeguarded"
    (pkg / "worka").mkdir(parents=True)
    (pkg / "workb").mkdir()
    for name in ("__init__.py", "experiments.py", "paths.py", "results.py"):
        shutil.copy(SRC / name, pkg / name)
    (pkg / "common.py").write_text("def scale(k):\n    return 10 * k\n")
    (pkg / "worka" / "__init__.py").write_text("")
    (pkg / "worka" / "core.py").write_text(WORK_A)
    (pkg / "workb" / "__init__.py").write_text("")
    (pkg / "workb" / "core.py").write_text(WORK_B)
    (root / "run.py").write_text(RUNNER)
    return pkg


def _in_copy(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """A fresh interpreter on the copy (as after restarting a kernel, or a new machine)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(root / "src")
    return subprocess.run(
        [sys.executable, *args], env=env, capture_output=True, text=True, check=check, cwd=root
    )


def _run_copy(root: Path, version: str = "1") -> dict:
    out = _in_copy(root, str(root / "run.py"), str(root / "results"), version)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _verify_copy(root: Path) -> subprocess.CompletedProcess:
    return _in_copy(
        root, "-m", "safeguarded.results", "--root", str(root / "results"), "verify", "--n", "6", check=False
    )


def test_keys_survive_refactors_and_verify_catches_a_forgotten_version_bump(tmp_path):
    pkg = _small_package(tmp_path)
    first = _run_copy(tmp_path)
    assert (first["computed"], first["cached"]) == (6, 0)

    # refactors that change no number: a docstring of the work, another work, a foundation module
    (pkg / "worka" / "core.py").write_text('"""A toy work."""\n' + WORK_A)
    (pkg / "workb" / "core.py").write_text(WORK_B.replace("x + 1", "x + 2"))
    (pkg / "common.py").write_text("def scale(k):\n    return 10 * k  # unchanged\n")
    second = _run_copy(tmp_path)
    assert (second["computed"], second["cached"]) == (0, 6) and second["values"] == first["values"]
    ok = _verify_copy(tmp_path)
    assert ok.returncode == 0 and "ok     worka/item v1: 6 of 6 stored cells recomputed" in ok.stdout

    # a number-changing edit without a version bump: the store still answers with the old numbers ...
    (pkg / "common.py").write_text("def scale(k):\n    return 100 * k\n")
    third = _run_copy(tmp_path)
    assert third["computed"] == 0 and third["values"] == first["values"]
    # ... and verify fails, naming the sweep, the cells and the differences
    caught = _verify_copy(tmp_path)
    assert caught.returncode == 1, caught.stdout + caught.stderr
    assert "FAILED worka/item v1: 6 of 6 stored cells recomputed" in caught.stdout
    assert caught.stdout.count("cell params={'k': 1}") == 2  # both seeds of k = 1 ...
    assert "cell params={'k': 0}" not in caught.stdout  # ... while k = 0 is unchanged (scale(0) = 0)
    value = first["values"][2]
    assert f"row 0 value: stored {value!r}, now {value + 90.0!r}" in caught.stdout
    assert "1 failed: worka/item" in caught.stdout

    # the bump: new keys, the new code's numbers, verify clean again (the old version stays stored)
    fourth = _run_copy(tmp_path, version="2")
    assert fourth["computed"] == 6 and fourth["values"] == [
        v + 90 * (i // 2) for i, v in enumerate(first["values"])
    ]
    shards = {
        p.parent.name: json.loads(p.read_text().splitlines()[0])
        for p in (tmp_path / "results").rglob("*.jsonl")
    }
    assert shards["v1"]["code"] != shards["v2"]["code"]  # the fingerprint is recorded, not keyed
    after = _in_copy(
        tmp_path,
        "-m",
        "safeguarded.results",
        "--root",
        str(tmp_path / "results"),
        "verify",
        "--n",
        "6",
        "--sweep",
        "worka/item",
        check=False,
    )
    assert "ok     worka/item v2" in after.stdout and "FAILED worka/item v1" in after.stdout


def test_code_closure_follows_safeguarded_imports_only():
    from safeguarded.rldp.experiment import fig2_cell

    modules = experiments.code_modules(fig2_cell)
    assert {"safeguarded.rldp.experiment", "safeguarded.rldp.problems", "safeguarded.experiments"} <= set(
        modules
    )
    assert not any(m.startswith(("safeguarded.atr", "safeguarded.routing")) for m in modules)
    assert "sweep_cells" in experiments.code_modules(sweep_cells.noisy_mean)  # a module outside the package
    assert "safeguarded.experiments" in experiments.code_modules(sweep_cells.noisy_mean)


def test_key_is_sweep_parameters_seed_and_version_only():
    key = experiments.store_key("n", {"a": 1, "b": 2.0}, 0, "1")
    assert key == experiments.store_key("n", {"b": np.float64(2.0), "a": np.int64(1)}, 0, "1")
    others = [
        experiments.store_key("n", {"a": 1, "b": 2.0}, 1, "1"),
        experiments.store_key("n", {"a": 1, "b": 2.0}, 0, "2"),
        experiments.store_key("m", {"a": 1, "b": 2.0}, 0, "1"),
        experiments.store_key("n", {"a": 1, "b": 2.5}, 0, "1"),
        experiments.store_key("n", {"a": 1, "b": (2.0,)}, 0, "1"),
        experiments.store_key("n", {"a": 1, "b": [2.0]}, 0, "1"),
    ]
    assert len({key, *others}) == 7


def test_clean_scratch_removes_the_old_pickle_cache_never_store_data(tmp_path):
    log = tmp_path / "log.txt"
    params = [{"k": k, "log": str(log)} for k in range(2)]
    run_sweep(sweep_cells.logged_slow, params, [0], name="s", cache_dir=tmp_path, backend="sequential")
    old = [
        tmp_path / "s" / "0123456789abcdef-00000000000000000000old0.pkl",
        tmp_path / "s" / ".current-abc",
        tmp_path / "s" / "x.pkl.partial-host-1-abcd",
    ]
    for path in old:
        path.write_bytes(b"from the old cache")
    assert experiments.main(["clean-scratch", "--results", str(tmp_path)]) == 0
    assert not any(p.exists() for p in old)
    df = run_sweep(sweep_cells.logged_slow, params, [0], name="s", cache_dir=tmp_path, backend="sequential")
    assert df.attrs["computed"] == 0 and len(log.read_text().splitlines()) == 2


# --- memory ---------------------------------------------------------------------------------------


def test_cells_declaring_more_memory_than_free_run_with_fewer_workers(tmp_path, monkeypatch):
    params = [{"mb": 1, "k": k} for k in range(6)]

    def sweep(name, cell_memory_mb, n_jobs=4):
        return run_sweep(
            sweep_cells.memory_cell,
            params,
            [0],
            name=name,
            cache_dir=tmp_path,
            backend="loky",
            n_jobs=n_jobs,
            cell_memory_mb=cell_memory_mb,
        )

    monkeypatch.setattr(experiments, "available_memory_mb", lambda: 1000.0)
    two = sweep("two", 400)  # 1000 MiB free, 400 MiB per cell: 2 workers of the 4 asked for
    assert two.attrs["n_jobs"] == 2 and two["pid"].nunique() <= 2
    assert sweep("all", 100).attrs["n_jobs"] == 4  # room for all
    assert sweep("none", None).attrs["n_jobs"] == 4  # nothing declared: nothing capped
    monkeypatch.undo()

    free = experiments.available_memory_mb()
    assert free is not None and free > 0
    with pytest.warns(RuntimeWarning, match="only .* MiB are available; running one cell at a time"):
        one = sweep("one", 10 * free)  # a cell larger than the machine's free memory
    assert one.attrs["n_jobs"] == 1 and len(one) == 6 and one["pid"].nunique() == 1
    assert (one["total"] == 2**20 / 8).all()
    with pytest.raises(ValueError, match="cell_memory_mb must be > 0"):
        sweep("bad", -5)
    assert experiments.memory_capped_n_jobs(8, 3000, 10_000) == 3
    assert experiments.memory_capped_n_jobs(8, 3000, None) == 8


def test_peak_rss_of_a_cell_is_measured_in_a_fresh_process():
    small = experiments.peak_rss_mb(sweep_cells.memory_cell, {"mb": 1})
    big = experiments.peak_rss_mb(sweep_cells.memory_cell, {"mb": 400})
    # ru_maxrss is a high-water mark: the baseline may include a transient of the imports (438 MiB on a
    # fresh clone, where every module is compiled), so only the cell's 400 MiB array is asserted
    assert 0 < small["baseline"] <= small["peak"]
    assert big["peak"] >= max(400, small["peak"])  # the 400 MiB array, resident at once
