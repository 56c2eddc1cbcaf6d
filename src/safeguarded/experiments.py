"""Sweeps over a parameter grid x seeds: explicit random generators, finished cells kept in the
results store (:mod:`safeguarded.results`), a parallel map whose backend is a setting, a time budget,
and a progress bar when interactive.

A *cell* is one (parameters, seed) pair.  The cell function is called as ``func(**params, seed=s)``
and returns a dict (one result row) or a list of dicts (several rows) of plain values (numbers, text,
None, lists, tuples, dicts, numpy arrays); it builds its random generators from ``seed`` with
:func:`rng_for`, so every number depends only on the parameters.

The store
---------
Each finished cell is appended to ``results/<name>/v<version>/`` (``$SAFEGUARDED_RESULTS`` moves the
root: smoke runs and tests use a build folder, paper runs the committed ``results/``).  A cell is
identified by (name, parameters, seed, ``version``), never by the code: the code's fingerprint
(:func:`code_hash`, the sources of the function's ``safeguarded`` import closure), the commit, the
versions of :data:`VERSIONED_PACKAGES`, the array backend, wall and CPU seconds and peak memory are
recorded beside it.  Whether stored numbers are still what the code computes is measured by
``make verify`` (:func:`safeguarded.results.verify`); bump ``version`` when a change is meant to
change a sweep's numbers.  ``docs/results.md`` has the schema.

A killed run loses at most the cells in flight (each finished cell is one fsynced line); a refused
shard (truncated, corrupted) is reported with a warning naming the file and its cells are computed
again; two runs at once never store a cell twice.

Budgets
-------
``$SAFEGUARDED_DEADLINE`` (Unix time, set by ``make reproduce BUDGET=...``) stops a sweep from
starting cells after that time: the cells in flight finish and are stored, then the sweep raises
:class:`BudgetExhausted` (naming the counts), or with ``allow_partial=True`` returns the rows present
(``.attrs["present"]`` of ``.attrs["needed"]`` cells).  The next run continues where the store stands.

Failures
--------
With ``on_error="raise"`` (default) an exception in a cell propagates with a note naming the cell.  With
``on_error="record"``, a :class:`safeguarded.solvers.SolverError` (infeasible, unbounded, inaccurate,
failed) becomes a failure row with ``status`` (the solver status) and ``error`` (the message) instead of
numbers; successful rows get ``status`` "ok" (unless the cell set one) and ``error`` "".  Use
:func:`split_failures` before averaging.  A worker process that dies (killed, out of memory) makes the
sweep raise :class:`SweepError` naming the cell(s) it was running; finished cells stay stored.

Backends (``backend=`` or ``$SAFEGUARDED_BACKEND``)
---------------------------------------------------
``sequential``
    in-process, no parallelism (the default in CI and for debugging).
``loky`` / ``threading``
    joblib's local process / thread pools with ``n_jobs`` workers (``$SAFEGUARDED_N_JOBS``), capped so
    that ``n_jobs * cell_memory_mb`` fits into the available memory when ``cell_memory_mb`` is given.
``dask``
    a ``distributed.Client``: the client at ``$SAFEGUARDED_DASK_SCHEDULER`` (e.g. the scheduler of a
    dask-jobqueue ``PBSCluster``/``SLURMCluster``), or an already created client, or a new
    ``LocalCluster``.  Workers return their cells to the driver, which stores them.
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import inspect
import itertools
import json
import os
import socket
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from safeguarded.paths import RESULTS
from safeguarded.results import (
    VERSIONED_PACKAGES,
    SweepStore,
    cell_key,
    check_tolerance,
    compute_cell,
    env_n_jobs,
    installed_versions,
    shard_header,
)

__all__ = [
    "rng_for",
    "grid",
    "store_key",
    "code_hash",
    "code_modules",
    "installed_versions",
    "run_sweep",
    "deadline",
    "env_backend",
    "env_n_jobs",
    "split_failures",
    "clean_scratch",
    "available_memory_mb",
    "memory_capped_n_jobs",
    "peak_rss_mb",
    "SweepError",
    "BudgetExhausted",
    "BACKENDS",
    "ON_ERROR",
    "VERSIONED_PACKAGES",
]

BACKENDS = ("sequential", "loky", "threading", "dask")
ON_ERROR = ("raise", "record")


_PACKAGE_ROOT = Path(__file__).resolve().parent
_HOST = socket.gethostname().replace("/", "_")
_RUNNING = ".running-"

#: Test hook: called as ``_fault_hook(point, path)`` at ``"cell"`` (inside a test cell function).
_fault_hook: Callable[[str, Path], None] | None = None


def _fault(point: str, path: Path) -> None:
    if _fault_hook is not None:
        _fault_hook(point, path)


class SweepError(RuntimeError):
    """A sweep could not finish: names the cell(s) and where the finished cells are kept."""


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
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(_jsonable(obj), sort_keys=True, default=repr).encode()).hexdigest()


# --------------------------------------------------------------------------------------------------
# What a cell's numbers depend on: code, installed versions, salt


def _module_file(module: str) -> Path | None:
    """The source file of a ``safeguarded`` module, found on disk (nothing is imported)."""
    parts = module.split(".")
    if parts[0] != "safeguarded":
        return None
    base = _PACKAGE_ROOT.joinpath(*parts[1:])
    for candidate in ([base.with_suffix(".py")] if len(parts) > 1 else []) + [base / "__init__.py"]:
        if candidate.is_file():
            return candidate
    return None


@functools.cache
def _safeguarded_imports(source: str, module: str, is_package: bool) -> tuple[str, ...]:
    """Names of the ``safeguarded`` modules (and their parent packages) ``source`` may import.

    Every ``import``/``from ... import`` anywhere in the file counts (also inside functions); for
    ``from a import b`` both ``a`` and ``a.b`` are candidates (kept only if a file exists).
    """
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    out = set()
    for name in names:
        parts = name.split(".")
        if parts[0] == "safeguarded":
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return tuple(sorted(out))


@functools.cache
def _closure(module: str, source: str, is_package: bool) -> tuple[tuple[str, str], ...]:
    """(module name, content hash) of ``source`` and of every ``safeguarded`` module it imports."""
    files: dict[str, str] = {module: source}
    stack = [(module, source, is_package)]
    while stack:
        name, text, pkg = stack.pop()
        for dep in _safeguarded_imports(text, name, pkg):
            path = _module_file(dep)
            if path is None or dep in files:
                continue
            files[dep] = path.read_text(encoding="utf-8")
            stack.append((dep, files[dep], path.name == "__init__.py"))
    return tuple((name, hashlib.sha256(files[name].encode()).hexdigest()) for name in sorted(files))


@functools.cache
def _module_source(module: str) -> tuple[str, bool] | None:
    mod = sys.modules.get(module)
    file = getattr(mod, "__file__", None)
    if file and Path(file).suffix == ".py" and Path(file).is_file():
        return Path(file).read_text(encoding="utf-8"), Path(file).name == "__init__.py"
    return None


def code_modules(func: Callable) -> dict[str, str]:
    """{module name: sha256 of its source} of the code ``func`` runs; memoised per process.

    For a function defined outside any file (a notebook cell), its own source (via :mod:`inspect`)
    and the ``safeguarded`` modules that source imports are hashed instead of a module file.
    """
    func = inspect.unwrap(getattr(func, "func", func))
    module = getattr(func, "__module__", None) or "__main__"
    found = _module_source(module)
    if found is not None:
        return dict(_closure(module, *found))
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        warnings.warn(
            f"source of {func!r} not found: its cache key follows only its name and the package",
            stacklevel=2,
        )
        source = f"import safeguarded\n# {getattr(func, '__qualname__', repr(func))}\n"
    return dict(_closure(f"{module}:{getattr(func, '__qualname__', '')}", source, False))


def code_hash(func: Callable) -> str:
    """One hash of :func:`code_modules` (see the module docstring)."""
    return _digest(sorted(code_modules(func).items()))


# --------------------------------------------------------------------------------------------------
# Markers of the cells in flight (scratch files beside the store, never committed)


def _private_name(path: Path, kind: str) -> Path:
    return path.with_name(f"{path.name}{kind}{_HOST}-{os.getpid()}-{uuid.uuid4().hex[:8]}")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed but not yet reaped process (zombie) is dead for us
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _owner(path: Path, kind: str) -> tuple[str, int] | None:
    """(host, pid) of a marker name, or ``None`` if ``path`` is not one."""
    _, sep, tail = path.name.partition(kind)
    if not sep:
        return None
    host, _, rest = tail.rpartition("-")[0].rpartition("-")
    try:
        return host, int(rest)
    except ValueError:
        return None


def _dead_markers(folder: Path) -> list[Path]:
    """Markers left in ``folder`` by dead processes of this host."""
    if not folder.is_dir():
        return []
    out = []
    for path in folder.iterdir():
        owner = _owner(path, _RUNNING)
        if owner is not None and owner[0] == _HOST and not _pid_alive(owner[1]):
            out.append(path)
    return out


def clean_scratch(root: str | os.PathLike | None = None, *, dry_run: bool = False) -> list[Path]:
    """Remove what is not store data under ``root`` (default ``results/``): the pickled cells of the
    cache this store replaced (``*.pkl`` and its temporaries) and dead processes' markers."""
    root = Path(root) if root is not None else RESULTS
    removed: list[Path] = []
    if not root.is_dir():
        return removed
    for path in sorted(root.rglob("*")):
        old_cache = path.is_file() and (
            path.suffix == ".pkl" or ".pkl.partial-" in path.name or path.name.startswith(".current-")
        )
        if old_cache or path in _dead_markers(path.parent):
            removed.append(path)
            if not dry_run:
                path.unlink(missing_ok=True)
    return removed


# --------------------------------------------------------------------------------------------------
# Running cells


def _run_cell(
    func: Callable, params: dict, seed: int, on_error: str = "raise", marker_folder: Path | None = None
) -> tuple[list[dict], dict]:
    """:func:`safeguarded.results.compute_cell`, with a marker naming the cell while it runs (so that a
    dead worker's cell can be named)."""
    marker = None
    if marker_folder is not None:
        marker = _private_name(marker_folder / "cell", _RUNNING)
        marker_folder.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"params": _jsonable(params), "seed": seed}, default=repr))
    try:
        return compute_cell(func, params, seed, on_error)
    finally:
        if marker is not None:
            marker.unlink(missing_ok=True)


def split_failures(results: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(successful rows, failure rows) of a sweep run with ``on_error="record"``."""
    if "error" not in results.columns:
        raise ValueError("results must have an 'error' column (run_sweep(..., on_error='record'))")
    failed = results["error"].fillna("").astype(str) != ""
    return results[~failed], results[failed]


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


# --------------------------------------------------------------------------------------------------
# Memory


def available_memory_mb() -> float | None:
    """``MemAvailable`` of ``/proc/meminfo`` (or psutil's ``available``) in MiB; ``None`` if unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    try:
        import psutil
    except ImportError:
        return None
    return psutil.virtual_memory().available / 2**20


def memory_capped_n_jobs(n_jobs: int, cell_memory_mb: float | None, available_mb: float | None) -> int:
    """The largest worker count <= ``n_jobs`` whose cells (``cell_memory_mb`` each) fit in memory.

    At least 1: when one cell does not fit either, a warning says so and the sweep runs one cell at a
    time (the kernel, not this function, decides whether that survives).
    """
    n_jobs = int(n_jobs)
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, got n_jobs={n_jobs!r}")
    if cell_memory_mb is None or available_mb is None:
        return n_jobs
    if not cell_memory_mb > 0:
        raise ValueError(f"cell_memory_mb must be > 0 (MiB per cell), got cell_memory_mb={cell_memory_mb!r}")
    fits = int(available_mb // cell_memory_mb)
    if fits < 1:
        warnings.warn(
            f"a cell needs {cell_memory_mb:.0f} MiB but only {available_mb:.0f} MiB are available; "
            "running one cell at a time",
            RuntimeWarning,
            stacklevel=2,
        )
    return max(1, min(n_jobs, fits))


def _peak_rss_child(func: Callable, params: Mapping[str, Any], seed: int) -> tuple[float, float]:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    func(**params, seed=seed)
    return before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_rss_mb(func: Callable, params: Mapping[str, Any], seed: int = 0) -> dict[str, float]:
    """Peak resident memory (MiB) of one cell, run in a fresh spawned process.

    Returns ``{"baseline": peak before the call (interpreter + imports), "peak": peak after it}``;
    ``peak`` is what a worker needs, i.e. the value to pass as ``run_sweep(cell_memory_mb=...)``.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        before, peak = pool.submit(_peak_rss_child, func, dict(params), int(seed)).result()
    return {"baseline": before, "peak": peak}


# --------------------------------------------------------------------------------------------------
# The sweep


# --------------------------------------------------------------------------------------------------
# The sweep


class BudgetExhausted(SweepError):
    """The time budget (``$SAFEGUARDED_DEADLINE``) ended before every cell was stored; rerun to continue."""


def env_backend() -> str | None:
    """``$SAFEGUARDED_BACKEND`` (None when unset or empty); ValueError naming it and the backends."""
    value = os.environ.get("SAFEGUARDED_BACKEND", "").strip()
    if value and value not in BACKENDS:
        raise ValueError(f"SAFEGUARDED_BACKEND must be one of {BACKENDS}, got SAFEGUARDED_BACKEND={value!r}")
    return value or None


def deadline() -> float | None:
    """``$SAFEGUARDED_DEADLINE`` (Unix time after which no cell starts), or ``None``."""
    value = os.environ.get("SAFEGUARDED_DEADLINE", "").strip()
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"SAFEGUARDED_DEADLINE must be a Unix time in seconds, got {value!r}") from None


def _past() -> bool:
    """Whether the budget has ended (read each time: a runner may set or move it while a sweep runs)."""
    limit = deadline()
    return limit is not None and time.time() >= limit


#: The keys each (store folder, notebook) asked for in this process: recorded as the sweep's grid.
_ASKED: dict[tuple[Path, str], set[str]] = {}


def _stored_rows(cell, on_error: str) -> list[dict] | None:
    """The rows of a stored cell as ``on_error`` wants them; ``None``: compute it again (a recorded
    solver failure asked for with ``on_error="raise"``, which must raise)."""
    rows = cell.rows
    if (
        on_error == "raise"
        and any(str(r.get("error") or "") for r in rows)
        and cell.header.get("on_error") == "record"
    ):
        return None
    if on_error == "record":
        rows = [{**r, "status": r.get("status", "ok"), "error": r.get("error", "")} for r in rows]
    return rows


def _died_cells(folder: Path | None) -> list[dict]:
    if folder is None:
        return []
    cells = []
    for marker in _dead_markers(folder):
        try:
            cells.append(json.loads(marker.read_text()))
        except (OSError, ValueError):
            cells.append({"params": marker.name, "seed": None})
        marker.unlink(missing_ok=True)
    return cells


def _worker_died(name: str, store, what: str, exc: BaseException) -> SweepError:
    kept = len(store.refresh().cells) if store is not None else 0
    where = (
        f"in the store ({kept} cells of {name} v{store.version})"
        if store is not None
        else "nowhere (cache=False)"
    )
    return SweepError(
        f"sweep {name!r}: a worker process died ({type(exc).__name__}) while running cell(s) "
        f"{what}; the finished cells are kept {where}, rerun to resume"
    )


def _indexed(i: int, *args) -> tuple[int, list[dict], dict]:
    rows, meta = _run_cell(*args)
    return i, rows, meta


def _run_on_dask(client, args, todo, cells, finish, name, store, marker_folder) -> None:
    """A bounded number of futures in flight; none submitted after the deadline.  A killed worker
    (``KilledWorker``) is reported with the cell it ran."""
    from distributed import as_completed

    workers = len(client.scheduler_info().get("workers", {})) or 2
    pending = list(zip(todo, args, strict=True))[::-1]
    futures: dict = {}
    queue = as_completed()
    try:
        while pending and len(futures) < 2 * workers and not _past():
            i, a = pending.pop()
            future = client.submit(_indexed, i, *a, pure=False)
            futures[future] = i
            queue.add(future)
        for future in queue:
            i = futures.pop(future)
            try:
                _, rows, meta = future.result()
            except Exception as exc:
                if type(exc).__name__ != "KilledWorker":
                    raise
                for other, j in list(futures.items()):  # store what finished elsewhere meanwhile
                    if other.status == "finished":
                        futures.pop(other)
                        finish(j, *other.result()[1:])
                died = _died_cells(marker_folder) or [{"params": cells[i][0], "seed": cells[i][1]}]
                what = "; ".join(f"params={c['params']!r} seed={c['seed']}" for c in died)
                raise _worker_died(name, store, what, exc) from exc
            finish(i, rows, meta)
            if pending and not _past():
                j, a = pending.pop()
                nxt = client.submit(_indexed, j, *a, pure=False)
                futures[nxt] = j
                queue.add(nxt)
    finally:
        client.cancel(list(futures))


def run_sweep(
    func: Callable[..., Mapping | Iterable[Mapping]],
    params: Sequence[Mapping[str, Any]],
    seeds: Sequence[int],
    *,
    name: str,
    version: str | int = "1",
    cache: bool = True,
    cache_dir: str | os.PathLike | None = None,
    backend: str | None = None,
    n_jobs: int | None = None,
    cell_memory_mb: float | None = None,
    on_error: str = "raise",
    progress: bool | None = None,
    tolerance: Mapping[str, float] | None = None,
    volatile: Sequence[str] | None = None,
    allow_partial: bool = False,
) -> pd.DataFrame:
    """Run ``func`` on every (parameters, seed) cell not yet stored and return all rows as a DataFrame.

    Parameters
    ----------
    func
        A module-level (picklable, importable) function ``func(**params, seed=int) -> dict | list[dict]``.
    params
        The parameter dicts, e.g. from :func:`grid`.
    seeds
        The seeds; every parameter dict is run with every seed.
    name
        The sweep's name, its folder in the store (``results/<name>``), e.g. ``"rldp/fig2"``.
    version
        The sweep's declared version, part of every cell's key: bump it when a change of the code is
        meant to change the numbers (``make verify`` finds a forgotten bump).
    cache, cache_dir
        Whether to read/write the store, and its root (default ``$SAFEGUARDED_RESULTS`` or ``results/``).
    backend, n_jobs
        See the module docstring; default ``$SAFEGUARDED_BACKEND`` or ``loky``, and
        ``$SAFEGUARDED_N_JOBS`` or the number of CPUs.
    cell_memory_mb
        Peak memory of one cell in MiB (measure it with :func:`peak_rss_mb`); the local backends run at
        most ``MemAvailable // cell_memory_mb`` cells at once (and at least one).
    on_error
        ``"raise"`` (default) or ``"record"``: solver failures become rows with ``status``/``error``.
    progress
        Show a tqdm bar; default only when stderr is a terminal and ``$CI`` is unset.
    tolerance, volatile
        What ``make verify`` allows when it recomputes a stored cell: ``{"rtol": .., "atol": ..}``, optionally
        with ``"columns": {name: {"rtol": .., "atol": ..}}`` for columns that need their own
        (default :data:`safeguarded.results.DEFAULT_TOLERANCE`, i.e. exact to rounding) and the result
        columns it does not compare (default: timing columns, :data:`safeguarded.results.VOLATILE_PATTERN`).
    allow_partial
        When the time budget ends first, return the rows present instead of raising
        :class:`BudgetExhausted` (the caller then states ``.attrs["present"]`` of ``.attrs["needed"]``).

    Returns
    -------
    pandas.DataFrame
        One row per returned dict, with the parameters and the seed as columns, in grid order.
        ``.attrs`` holds ``n_jobs`` (the worker count used), ``computed``, ``cached`` (read from the
        store), ``present`` and ``needed`` (cells), ``corrupt`` (refused shards) and ``version``.

    Raises
    ------
    SweepError
        When a worker process died; names the cell(s) it was running.  Finished cells stay stored.
    BudgetExhausted
        When ``$SAFEGUARDED_DEADLINE`` passed before every cell was stored (unless ``allow_partial``).
    """

    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    if not isinstance(name, str) or not name or name.startswith("/") or ".." in Path(name).parts:
        raise ValueError(f"name must be a non-empty relative path like 'work/item', got name={name!r}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must be a non-empty sequence of integers")
    backend = backend or env_backend() or "loky"
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got backend={backend!r}")
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be one of {ON_ERROR}, got on_error={on_error!r}")
    check_tolerance(tolerance)
    n_jobs = int(n_jobs or env_n_jobs() or os.cpu_count() or 1)
    if backend in ("loky", "threading"):
        n_jobs = memory_capped_n_jobs(n_jobs, cell_memory_mb, available_memory_mb())
    progress = _progress_default() if progress is None else progress
    deadline()  # a malformed value fails before any cell runs

    cells = [(dict(p), s) for p in params for s in seeds]
    results: list[list[dict] | None] = [None] * len(cells)
    store = None
    if cache:
        root = (
            Path(cache_dir) if cache_dir is not None else Path(os.environ.get("SAFEGUARDED_RESULTS", RESULTS))
        )
        store = SweepStore(name, str(version), root).refresh()
        for marker in _dead_markers(store.folder):  # left by a killed run of this host
            marker.unlink(missing_ok=True)
        keys = [store_key(name, p, s, store.version) for p, s in cells]
        notebook = os.environ.get("SAFEGUARDED_NOTEBOOK", "interactive")
        asked = _ASKED.setdefault((store.folder, notebook), set())
        asked.update(keys)
        store.record_grid(notebook, asked)
        for i, key in enumerate(keys):
            if key in store.cells:
                results[i] = _stored_rows(store.cells[key], on_error)
    todo = [i for i, r in enumerate(results) if r is None]
    cached = len(cells) - len(todo)
    marker_folder = store.folder if store is not None else None
    header = None
    if store is not None and todo:
        header = shard_header(
            name,
            store.version,
            func,
            fingerprint=code_hash(func)[:16],
            on_error=on_error,
            tolerance=tolerance,
            volatile=volatile,
        )

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(cells), initial=cached, desc=name)
    computed = 0

    def finish(i: int, rows: list[dict], meta: dict) -> None:
        nonlocal computed
        if store is not None:
            store.add(cells[i][0], cells[i][1], rows, meta, header)
        results[i] = rows
        computed += 1
        if bar:
            bar.update()

    args = [(func, cells[i][0], cells[i][1], on_error, marker_folder) for i in todo]
    try:
        if todo and (backend == "sequential" or n_jobs == 1 and backend != "dask"):
            n_jobs = 1
            for i, a in zip(todo, args, strict=True):
                if _past():
                    break
                finish(i, *_run_cell(*a))
        elif todo and backend == "dask":
            client, owned = _dask_client()
            n_jobs = -1
            try:
                _run_on_dask(client, args, todo, cells, finish, name, store, marker_folder)
            finally:
                if owned:
                    cluster = client.cluster
                    client.close()
                    cluster.close()
        elif todo:
            import joblib

            def jobs():
                for i, a in zip(todo, args, strict=True):
                    if _past():  # joblib pulls jobs as workers free up: none starts after the deadline
                        return
                    yield joblib.delayed(_indexed)(i, *a)

            try:
                with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
                    for i, rows, meta in joblib.Parallel(
                        n_jobs=n_jobs, return_as="generator_unordered", pre_dispatch="n_jobs"
                    )(jobs()):
                        finish(i, rows, meta)
            except Exception as exc:
                died = _died_cells(marker_folder)
                if not died:
                    raise
                what = "; ".join(f"params={c['params']!r} seed={c['seed']}" for c in died)
                raise _worker_died(name, store, what, exc) from exc
    finally:
        if bar:
            bar.close()
        if store is not None:
            store.close()
    present = sum(r is not None for r in results)
    attrs = dict(
        n_jobs=n_jobs,
        computed=computed,
        cached=cached,
        present=present,
        needed=len(cells),
        corrupt=len(store.corrupt) if store is not None else 0,
        version=str(version),
    )
    if present < len(cells) and not allow_partial:
        raise BudgetExhausted(
            f"sweep {name!r} v{version}: the time budget ended with {present} of {len(cells)} cells stored "
            f"({computed} computed by this run); rerun to continue from the store"
        )
    df = pd.DataFrame(
        [
            {**p, "seed": s, **row}
            for (p, s), rows in zip(cells, results, strict=True)
            if rows is not None
            for row in rows
        ]
    )
    df.attrs.update(attrs)
    return df


def store_key(name: str, params: Mapping[str, Any], seed: int, version: str) -> str:
    """The store's key of one cell (:func:`safeguarded.results.cell_key`)."""
    return cell_key(name, params, seed, version)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m safeguarded.experiments clean-scratch [--results DIR] [--dry-run]``."""
    parser = argparse.ArgumentParser(prog="python -m safeguarded.experiments")
    sub = parser.add_subparsers(dest="command", required=True)
    clean = sub.add_parser("clean-scratch", help="remove the old pickle cache and dead processes' markers")
    clean.add_argument("--results", default=None, help="the store (default: results/)")
    clean.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    args = parser.parse_args(argv)
    removed = clean_scratch(args.results, dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    print(f"{verb} {len(removed)} scratch files under {args.results or RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
