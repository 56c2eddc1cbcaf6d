"""Sweeps over a parameter grid x seeds: explicit random generators, an on-disk cache of finished
cells, a parallel map whose backend is a setting, and a progress bar when interactive.

A *cell* is one (parameters, seed) pair.  The cell function is called as ``func(**params, seed=s)``
and returns a dict (one result row) or a list of dicts (several rows); it builds its random
generators from ``seed`` with :func:`rng_for`, so every number depends only on the parameters.

Each finished cell is pickled to ``results/<sweep name>/<key>.pkl`` through a temporary file and an
atomic rename: a run killed in the middle leaves only whole files, and the next run computes only
the missing cells.  The key hashes the sweep name, the ``version`` string, the parameters and the
seed; bump ``version`` when the cell function changes meaning.

Backends (``backend=`` or ``$SAFEGUARDED_BACKEND``):

``sequential``
    in-process, no parallelism (the default in CI and for debugging).
``loky`` / ``threading``
    joblib's local process / thread pools with ``n_jobs`` workers (``$SAFEGUARDED_N_JOBS``).
``dask``
    joblib's dask backend on a ``distributed.Client``: the client at ``$SAFEGUARDED_DASK_SCHEDULER``
    (e.g. the scheduler of a dask-jobqueue ``PBSCluster``/``SLURMCluster``), or an already created
    client, or a new ``LocalCluster``.  The sweep itself is unchanged.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from safeguarded.paths import RESULTS

__all__ = ["rng_for", "grid", "cell_key", "run_sweep", "BACKENDS"]

BACKENDS = ("sequential", "loky", "threading", "dask")


def rng_for(seed: int, *keys: int) -> np.random.Generator:
    """An independent generator for ``seed`` and optional integer sub-keys.

    ``rng_for(s)`` and ``rng_for(s, k)`` are statistically independent streams (NumPy
    ``SeedSequence`` entropy lists), which is how a cell draws e.g. an instance from ``rng_for(seed)``
    shared across a parameter axis and a sample from ``rng_for(seed, n)`` private to one value.
    """
    if int(seed) != seed or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got seed={seed!r}")
    if any(int(k) != k or k < 0 for k in keys):
        raise ValueError(f"keys must be non-negative integers, got keys={keys!r}")
    return np.random.default_rng(np.random.SeedSequence([int(seed), *map(int, keys)]))


def grid(**axes: Sequence[Any]) -> list[dict[str, Any]]:
    """The Cartesian product of named axes as a list of parameter dicts (first axis slowest)."""
    for name, values in axes.items():
        if isinstance(values, str | bytes) or not isinstance(values, Iterable):
            raise ValueError(f"grid axis {name!r} must be a sequence of values, got {values!r}")
    names = list(axes)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*axes.values())]


def _jsonable(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def cell_key(name: str, version: str, params: Mapping[str, Any], seed: int) -> str:
    """Stable hash of one cell (independent of dict order and of NumPy scalar types)."""
    payload = json.dumps([name, version, _jsonable(params), int(seed)], sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def _atomic_pickle(obj: Any, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pkl")
    try:
        with os.fdopen(fd, "wb") as f:
            pickle.dump(obj, f, protocol=pickle.HIGHEST_PROTOCOL)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _run_cell(func: Callable, params: dict, seed: int, path: Path | None) -> list[dict]:
    out = func(**params, seed=seed)
    rows = [out] if isinstance(out, Mapping) else list(out)
    rows = [{**params, "seed": seed, **row} for row in rows]
    if path is not None:
        _atomic_pickle({"params": params, "seed": seed, "rows": rows}, path)
    return rows


def _progress_default() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


def _dask_client():
    from distributed import Client, LocalCluster, default_client

    address = os.environ.get("SAFEGUARDED_DASK_SCHEDULER")
    if address:
        return Client(address), False
    try:
        return default_client(), False
    except ValueError:
        return Client(LocalCluster(processes=True, n_workers=2, threads_per_worker=1)), True


def run_sweep(
    func: Callable[..., Mapping | Iterable[Mapping]],
    params: Sequence[Mapping[str, Any]],
    seeds: Sequence[int],
    *,
    name: str,
    version: str = "1",
    cache: bool = True,
    cache_dir: str | os.PathLike | None = None,
    backend: str | None = None,
    n_jobs: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Run ``func`` on every (parameters, seed) cell and return all rows as a DataFrame.

    Parameters
    ----------
    func
        A module-level (picklable) function ``func(**params, seed=int) -> dict | list[dict]``.
    params
        The parameter dicts, e.g. from :func:`grid`.
    seeds
        The seeds; every parameter dict is run with every seed.
    name
        The sweep's name, used as its cache folder (``results/<name>``), e.g. ``"rldp/fig2cd"``.
    version
        Part of every cache key: change it to invalidate the cache when ``func`` changes meaning.
    cache, cache_dir
        Whether to read/write the on-disk cache, and where (default ``results/``).
    backend, n_jobs
        See the module docstring; default ``$SAFEGUARDED_BACKEND`` or ``loky``, and
        ``$SAFEGUARDED_N_JOBS`` or the number of CPUs.
    progress
        Show a tqdm bar; default only when stderr is a terminal and ``$CI`` is unset.

    Returns
    -------
    pandas.DataFrame
        One row per returned dict, with the parameters and the seed as columns, in grid order.
    """
    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must be a non-empty sequence of integers")
    backend = backend or os.environ.get("SAFEGUARDED_BACKEND", "loky")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got backend={backend!r}")
    n_jobs = int(n_jobs or os.environ.get("SAFEGUARDED_N_JOBS", 0) or os.cpu_count() or 1)
    progress = _progress_default() if progress is None else progress

    root = Path(cache_dir) if cache_dir is not None else RESULTS
    cells = [(dict(p), s) for p in params for s in seeds]
    paths = [root / name / f"{cell_key(name, version, p, s)}.pkl" if cache else None for p, s in cells]
    results: list[list[dict] | None] = [None] * len(cells)
    todo = []
    for i, path in enumerate(paths):
        if path is not None and path.is_file():
            with open(path, "rb") as f:
                results[i] = pickle.load(f)["rows"]
        else:
            todo.append(i)

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(cells), initial=len(cells) - len(todo), desc=name)

    if todo and (backend == "sequential" or n_jobs == 1 and backend != "dask"):
        for i in todo:
            results[i] = _run_cell(func, cells[i][0], cells[i][1], paths[i])
            if bar:
                bar.update()
    elif todo:
        import joblib

        jobs = (joblib.delayed(_run_cell)(func, cells[i][0], cells[i][1], paths[i]) for i in todo)
        client, owned = (None, False)
        if backend == "dask":
            client, owned = _dask_client()
            context = joblib.parallel_config(backend="dask")
            n_jobs = -1
        else:
            context = joblib.parallel_config(backend=backend, n_jobs=n_jobs)
        try:
            with context:
                for i, rows in zip(
                    todo, joblib.Parallel(n_jobs=n_jobs, return_as="generator")(jobs), strict=True
                ):
                    results[i] = rows
                    if bar:
                        bar.update()
        finally:
            if owned:
                cluster = client.cluster
                client.close()
                cluster.close()
    if bar:
        bar.close()
    return pd.DataFrame([row for rows in results for row in rows])
