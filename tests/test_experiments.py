import json
import logging
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
               backend="sequential")
print(json.dumps({**df.attrs, "values": df["value"].tolist()}))
"""


def _small_package(root: Path) -> Path:
    """A temporary copy of a small `safeguarded`: the real foundation files, two toy works."""
    pkg = root / "src" / "safeguarded"
    (pkg / "worka").mkdir(parents=True)
    (pkg / "workb").mkdir()
    for name in ("__init__.py", "experiments.py", "paths.py"):
        shutil.copy(SRC / name, pkg / name)
    (pkg / "common.py").write_text("def scale(k):\n    return 10 * k\n")
    (pkg / "worka" / "__init__.py").write_text("")
    (pkg / "worka" / "core.py").write_text(WORK_A)
    (pkg / "workb" / "__init__.py").write_text("")
    (pkg / "workb" / "core.py").write_text(WORK_B)
    (root / "run.py").write_text(RUNNER)
    return pkg


def _run_copy(root: Path) -> dict:
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(root / "src")
    out = subprocess.run(
        [sys.executable, str(root / "run.py"), str(root / "results")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
    )
    report = json.loads(out.stdout.strip().splitlines()[-1])
    report["stderr"] = out.stderr
    return report


def test_editing_a_work_recomputes_its_cells_and_only_its_cells(tmp_path):
    pkg = _small_package(tmp_path)
    first = _run_copy(tmp_path)  # a fresh process per run, as after restarting a kernel
    assert (first["computed"], first["cached"]) == (6, 0)
    assert first["values"][:2] == [float(v) for v in first["values"][:2]]

    (pkg / "workb" / "core.py").write_text(WORK_B.replace("x + 1", "x + 2"))  # an unrelated work
    second = _run_copy(tmp_path)
    assert (second["computed"], second["cached"], second["stale"]) == (0, 6, 0)
    assert second["values"] == first["values"]

    (pkg / "worka" / "core.py").write_text(WORK_A.replace("scale(k) +", "scale(k) + 1 +"))  # the work
    third = _run_copy(tmp_path)
    assert (third["computed"], third["cached"], third["stale"]) == (6, 0, 6)
    assert third["values"] == [v + 1 for v in first["values"]]  # the new code's numbers, not the old
    assert "6 stale cells of worka/item kept; remove with make clean-stale" in third["stderr"]

    (pkg / "common.py").write_text("def scale(k):\n    return 100 * k\n")  # a foundation module it imports
    fourth = _run_copy(tmp_path)
    assert (fourth["computed"], fourth["cached"]) == (6, 0)
    assert fourth["values"] == [v + 90 * (i // 2) for i, v in enumerate(third["values"])]

    removed = experiments.clean_stale(tmp_path / "results")
    assert len(removed) == 12  # the cells of the first and the third code, not the current ones
    assert len(list((tmp_path / "results" / "worka" / "item").glob("*.pkl"))) == 6
    assert _run_copy(tmp_path)["computed"] == 0


def test_code_closure_follows_safeguarded_imports_only():
    from safeguarded.rldp.experiment import fig2_cell

    modules = experiments.code_modules(fig2_cell)
    assert {"safeguarded.rldp.experiment", "safeguarded.rldp.problems", "safeguarded.experiments"} <= set(
        modules
    )
    assert not any(m.startswith(("safeguarded.atr", "safeguarded.routing")) for m in modules)
    assert "sweep_cells" in experiments.code_modules(sweep_cells.noisy_mean)  # a module outside the package
    assert "safeguarded.experiments" in experiments.code_modules(sweep_cells.noisy_mean)


def test_key_depends_on_versions_and_salt(monkeypatch):
    base = experiments.sweep_context(sweep_cells.noisy_mean)
    assert experiments.sweep_context(sweep_cells.noisy_mean, "x") != base
    assert experiments.sweep_context(sweep_cells.logged_slow) != base
    versions = dict(experiments.installed_versions())
    versions["clarabel"] = "0.0.0-other"
    monkeypatch.setattr(experiments, "installed_versions", lambda: versions)
    assert experiments.sweep_context(sweep_cells.noisy_mean) != base
    key = experiments.cell_key("n", {"a": 1, "b": 2.0}, 0, base)
    assert key == experiments.cell_key("n", {"b": __import__("numpy").float64(2.0), "a": 1}, 0, base)
    assert key != experiments.cell_key("n", {"a": 1, "b": 2.0}, 1, base)


def test_stale_cells_are_reported_never_reused(tmp_path, caplog):
    log = tmp_path / "log.txt"
    params = [{"k": k, "log": str(log)} for k in range(2)]
    run_sweep(sweep_cells.logged_slow, params, [0], name="s", cache_dir=tmp_path, backend="sequential")
    (tmp_path / "s" / "0123456789abcdef-00000000000000000000old0.pkl").write_bytes(b"from old code")
    with caplog.at_level(logging.WARNING, logger="safeguarded.experiments"):
        df = run_sweep(
            sweep_cells.logged_slow, params, [0], name="s", cache_dir=tmp_path, backend="sequential"
        )
    assert df.attrs["stale"] == 1 and df.attrs["computed"] == 0
    assert "1 stale cells of s kept; remove with make clean-stale" in caplog.text
    assert experiments.main(["clean-stale", "--results", str(tmp_path)]) == 0
    assert len(list((tmp_path / "s").glob("*.pkl"))) == 2


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
