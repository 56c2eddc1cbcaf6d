"""Sweeps over a parameter grid x seeds: explicit random generators, an on-disk cache of finished
cells that follows the code, a parallel map whose backend is a setting, and a progress bar when
interactive.

A *cell* is one (parameters, seed) pair.  The cell function is called as ``func(**params, seed=s)``
and returns a dict (one result row) or a list of dicts (several rows); it builds its random
generators from ``seed`` with :func:`rng_for`, so every number depends only on the parameters.

The cache
---------
Each finished cell is pickled to ``results/<sweep name>/<context>-<cell>.pkl``.  ``<cell>`` hashes the
sweep name, the parameters and the seed; ``<context>`` hashes everything else the numbers depend on:

* the cell function's module and qualified name;
* the source of every ``safeguarded`` module in the transitive import closure of the function's
  module (imports parsed with :mod:`ast`, only ``safeguarded.*`` followed, the function's own module
  file included even when it lies outside the package, e.g. ``tests/sweep_cells.py``);
* the installed versions of :data:`VERSIONED_PACKAGES` (solvers and numerics);
* an optional ``salt`` (the older ``version=`` keyword is kept as a second salt).

Editing a line of a work, or upgrading a solver, therefore recomputes that work's cells; editing an
unrelated work does not.  The code hash is computed once per process (the code that runs is the code
imported at start, so a kernel must be restarted after an edit anyway).  Files of the same sweep made
under an older context are *stale*: never read, reported once per run ("N stale cells of <name> kept;
remove with make clean-stale") and removed by ``python -m safeguarded.experiments clean-stale``.

Writes are atomic: a cell is pickled to ``<key>.pkl.partial-<host>-<pid>-<token>`` (a name no reader
globs) in the same folder, the file is fsynced, renamed over ``<key>.pkl`` and the folder fsynced.  A
killed run leaves at most such temporaries (and ``.running-`` markers naming the cells in flight);
the next run removes those of dead processes.  A cache file that cannot be unpickled or does not
hold the expected key, parameters and seed is reported (a warning naming the file) and recomputed.

Failures
--------
With ``on_error="raise"`` (default) an exception in a cell propagates with a note naming the cell.  With
``on_error="record"``, a :class:`safeguarded.solvers.SolverError` (infeasible, unbounded, inaccurate,
failed) becomes a failure row with ``status`` (the solver status) and ``error`` (the message) instead of
numbers; successful rows get ``status`` "ok" (unless the cell set one) and ``error`` "".  Use
:func:`split_failures` before averaging.  A worker process that dies (killed, out of memory) makes the
sweep raise :class:`SweepError` naming the cell(s) it was running; finished cells stay on disk.

Backends (``backend=`` or ``$SAFEGUARDED_BACKEND``)
---------------------------------------------------
``sequential``
    in-process, no parallelism (the default in CI and for debugging).
``loky`` / ``threading``
    joblib's local process / thread pools with ``n_jobs`` workers (``$SAFEGUARDED_N_JOBS``), capped so
    that ``n_jobs * cell_memory_mb`` fits into the available memory when ``cell_memory_mb`` is given.
``dask``
    joblib's dask backend on a ``distributed.Client``: the client at ``$SAFEGUARDED_DASK_SCHEDULER``
    (e.g. the scheduler of a dask-jobqueue ``PBSCluster``/``SLURMCluster``), or an already created
    client, or a new ``LocalCluster``.  The sweep itself is unchanged (memory is the cluster's
    business: its workers' ``memory_limit``).
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import importlib.metadata
import inspect
import itertools
import json
import logging
import os
import pickle
import socket
import sys
import uuid
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from safeguarded.paths import RESULTS

__all__ = [
    "rng_for",
    "grid",
    "cell_key",
    "code_hash",
    "code_modules",
    "installed_versions",
    "sweep_context",
    "run_sweep",
    "split_failures",
    "stale_files",
    "clean_stale",
    "available_memory_mb",
    "memory_capped_n_jobs",
    "peak_rss_mb",
    "SweepError",
    "BACKENDS",
    "ON_ERROR",
    "VERSIONED_PACKAGES",
]

BACKENDS = ("sequential", "loky", "threading", "dask")
ON_ERROR = ("raise", "record")

#: Packages whose installed version is part of every cache key.
VERSIONED_PACKAGES = ("clarabel", "highspy", "scs", "ecos", "cvxpy", "numpy", "scipy")

log = logging.getLogger(__name__)

_PACKAGE_ROOT = Path(__file__).resolve().parent
_HOST = socket.gethostname().replace("/", "_")
_PARTIAL = ".partial-"
_RUNNING = ".running-"
_MANIFEST = ".current-"

#: Test hook: called as ``_fault_hook(point, path)`` at ``"partial"`` (half the bytes written),
#: ``"written"`` (temporary complete and fsynced) and ``"replaced"`` (renamed, folder not yet fsynced).
_fault_hook: Callable[[str, Path], None] | None = None


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


@functools.cache
def installed_versions() -> dict[str, str | None]:
    """Installed versions of :data:`VERSIONED_PACKAGES` (``None`` when not installed)."""
    out: dict[str, str | None] = {}
    for package in VERSIONED_PACKAGES:
        try:
            out[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            out[package] = None
    return out


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


def _func_id(func: Callable) -> str:
    base = getattr(func, "func", func)
    fid = f"{getattr(base, '__module__', '?')}:{getattr(base, '__qualname__', repr(base))}"
    if base is not func:  # functools.partial: its bound arguments are part of the meaning
        fid += ":" + json.dumps(_jsonable([func.args, func.keywords]), sort_keys=True, default=repr)
    return fid


def sweep_context(func: Callable, salt: Any = None) -> str:
    """Hash of what every cell of ``func`` depends on besides its parameters and seed."""
    return _digest([_func_id(func), code_hash(func), installed_versions(), salt])


def cell_key(name: str, params: Mapping[str, Any], seed: int, context: str) -> str:
    """The cache key ``<context[:16]>-<hash(name, params, seed)[:24]>`` of one cell.

    Independent of dict order and of NumPy scalar types; ``context`` from :func:`sweep_context`.
    """
    if not isinstance(context, str) or len(context) < 16:
        raise ValueError(f"context must be a hash string from sweep_context, got context={context!r}")
    return f"{context[:16]}-{_digest([name, params, int(seed)])[:24]}"


# --------------------------------------------------------------------------------------------------
# Files: atomic writes, validated reads, temporaries of dead processes, stale cells


def _fault(point: str, path: Path) -> None:
    if _fault_hook is not None:
        _fault_hook(point, path)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _private_name(path: Path, kind: str) -> Path:
    return path.with_name(f"{path.name}{kind}{_HOST}-{os.getpid()}-{uuid.uuid4().hex[:8]}")


def _atomic_write(data: bytes, path: Path) -> None:
    """Write ``data`` to ``path`` via a fsynced private temporary in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _private_name(path, _PARTIAL)
    try:
        with open(tmp, "xb") as f:
            f.write(data[: len(data) // 2])
            f.flush()
            _fault("partial", path)
            f.write(data[len(data) // 2 :])
            f.flush()
            os.fsync(f.fileno())
        _fault("written", path)
        os.replace(tmp, path)
        _fault("replaced", path)
        _fsync_dir(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _atomic_pickle(obj: Any, path: Path) -> None:
    _atomic_write(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL), path)


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
    """(host, pid) of a private temporary/marker name, or ``None`` if ``path`` is not one."""
    _, sep, tail = path.name.partition(kind)
    if not sep:
        return None
    host, _, rest = tail.rpartition("-")[0].rpartition("-")
    try:
        return host, int(rest)
    except ValueError:
        return None


def _dead_private_files(folder: Path, kinds: tuple[str, ...] = (_PARTIAL, _RUNNING)) -> list[Path]:
    """Temporaries/markers left in ``folder`` by dead processes of this host (and old ``.tmp-*.pkl``)."""
    if not folder.is_dir():
        return []
    out = []
    for path in folder.iterdir():
        if path.name.startswith(".tmp-") and path.name.endswith(".pkl"):
            out.append(path)  # temporaries of the previous cache format
            continue
        for kind in kinds:
            owner = _owner(path, kind)
            if owner is not None and owner[0] == _HOST and not _pid_alive(owner[1]):
                out.append(path)
    return out


def _load_cell(path: Path, key: str, params: Mapping[str, Any], seed: int) -> list[dict] | None:
    """The rows of a cached cell, or ``None`` (with a warning naming the file) if it is unusable."""
    try:
        with open(path, "rb") as f:
            record = pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception as exc:  # truncated, garbage, or classes that no longer exist
        reason = f"cannot be unpickled ({type(exc).__name__}: {exc})"
    else:
        reason = _check_record(record, key, params, seed)
        if reason is None:
            return record["rows"]
    warnings.warn(f"cache file {path} {reason}; recomputing the cell", RuntimeWarning, stacklevel=3)
    return None


def _check_record(record: Any, key: str, params: Mapping[str, Any], seed: int) -> str | None:
    if not isinstance(record, dict) or not {"key", "params", "seed", "rows"} <= set(record):
        return "does not hold a cell record"
    if record["key"] != key:
        return f"holds key {record['key']!r}, expected {key!r}"
    if record["seed"] != seed or _digest(record["params"]) != _digest(params):
        return f"holds params {record['params']!r} seed {record['seed']!r}, expected {params!r} seed {seed}"
    rows = record["rows"]
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return "holds rows that are not a list of dicts"
    return None


def _current_contexts(folder: Path) -> set[str]:
    out = set()
    for manifest in folder.glob(_MANIFEST + "*"):
        if _PARTIAL in manifest.name:
            continue
        try:
            out.add(manifest.read_text().strip()[:16])
        except OSError:
            pass
    return out


def stale_files(folder: str | os.PathLike) -> list[Path]:
    """Cell files of one sweep folder made under a context no recorded run uses any more."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    current = _current_contexts(folder)
    return sorted(p for p in folder.glob("*.pkl") if p.stem.partition("-")[0] not in current)


def clean_stale(root: str | os.PathLike | None = None, *, dry_run: bool = False) -> list[Path]:
    """Remove stale cell files and dead processes' temporaries under ``root`` (default ``results/``)."""
    root = Path(root) if root is not None else RESULTS
    removed: list[Path] = []
    if not root.is_dir():
        return removed
    for folder in sorted({p.parent for p in root.rglob("*") if p.is_file()}):
        for path in stale_files(folder) + _dead_private_files(folder):
            removed.append(path)
            if not dry_run:
                path.unlink(missing_ok=True)
    return removed


# --------------------------------------------------------------------------------------------------
# Running cells


def _run_cell(
    func: Callable, params: dict, seed: int, path: Path | None, key: str | None, on_error: str = "raise"
) -> list[dict]:
    marker = None
    if path is not None:
        marker = _private_name(path, _RUNNING)
        path.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"params": _jsonable(params), "seed": seed}, default=repr))
    try:
        try:
            out = func(**params, seed=seed)
            rows = [out] if isinstance(out, Mapping) else list(out)
            rows = [{**params, "seed": seed, **row} for row in rows]
            if on_error == "record":
                rows = [{**row, "status": row.get("status", "ok"), "error": ""} for row in rows]
        except Exception as exc:
            solvers = sys.modules.get("safeguarded.solvers")
            if on_error != "record" or solvers is None or not isinstance(exc, solvers.SolverError):
                exc.add_note(f"in sweep cell params={params!r} seed={seed}")
                raise
            rows = [{**params, "seed": seed, "status": exc.status, "error": f"{type(exc).__name__}: {exc}"}]
        if path is not None:
            _atomic_pickle({"key": key, "params": params, "seed": seed, "rows": rows}, path)
        return rows
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


def _prepare_folder(folder: Path, func: Callable, context: str, name: str) -> int:
    """Remove dead temporaries, record ``context`` as current for ``func``; return the stale count."""
    for path in _dead_private_files(folder):
        path.unlink(missing_ok=True)
    manifest = folder / f"{_MANIFEST}{_digest(_func_id(func))[:12]}"
    try:
        recorded = manifest.read_text().strip()
    except OSError:
        recorded = None
    if recorded != context:
        _atomic_write(context.encode(), manifest)
    n_stale = len(stale_files(folder))
    if n_stale:
        log.warning("%d stale cells of %s kept; remove with make clean-stale", n_stale, name)
    return n_stale


def _died_cells(folder: Path | None) -> list[dict]:
    if folder is None:
        return []
    cells = []
    for marker in _dead_private_files(folder, (_RUNNING,)):
        try:
            cells.append(json.loads(marker.read_text()))
        except (OSError, ValueError):
            cells.append({"params": marker.name, "seed": None})
        marker.unlink(missing_ok=True)
    return cells


def _worker_died(name: str, folder: Path | None, what: str, exc: BaseException) -> SweepError:
    kept = len(list(folder.glob("*.pkl"))) if folder is not None else 0
    return SweepError(
        f"sweep {name!r}: a worker process died ({type(exc).__name__}) while running cell(s) "
        f"{what}; the finished cells are kept in {folder} ({kept} files), rerun to resume"
    )


def _run_on_dask(client, args, todo, cells, results, bar, name: str, folder: Path | None) -> None:
    """One future per cell; a killed worker (``KilledWorker``) is reported with the cell it ran."""
    from distributed import as_completed

    futures = {client.submit(_run_cell, *a, pure=False): i for i, a in zip(todo, args, strict=True)}
    try:
        for future in as_completed(futures):
            i = futures[future]
            try:
                results[i] = future.result()
            except Exception as exc:
                if type(exc).__name__ != "KilledWorker":
                    raise
                # the scheduler fails every task the dead worker held; its markers say which one ran
                died = _died_cells(folder) or [{"params": cells[i][0], "seed": cells[i][1]}]
                what = "; ".join(f"params={c['params']!r} seed={c['seed']}" for c in died)
                raise _worker_died(name, folder, what, exc) from exc
            if bar:
                bar.update()
    finally:
        client.cancel(list(futures))


def run_sweep(
    func: Callable[..., Mapping | Iterable[Mapping]],
    params: Sequence[Mapping[str, Any]],
    seeds: Sequence[int],
    *,
    name: str,
    salt: Any = None,
    version: str | None = None,
    cache: bool = True,
    cache_dir: str | os.PathLike | None = None,
    backend: str | None = None,
    n_jobs: int | None = None,
    cell_memory_mb: float | None = None,
    on_error: str = "raise",
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
    salt, version
        Optional extra parts of every cache key (any JSON-able value).  Not needed when the code
        changes: the key already hashes the code (see the module docstring).
    cache, cache_dir
        Whether to read/write the on-disk cache, and where (default ``results/``).
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

    Returns
    -------
    pandas.DataFrame
        One row per returned dict, with the parameters and the seed as columns, in grid order.
        ``.attrs`` holds ``n_jobs`` (the worker count used), ``computed``, ``cached``, ``stale`` and
        ``corrupt`` (cache files found unusable and recomputed).

    Raises
    ------
    SweepError
        When a worker process died; names the cell(s) it was running.  Finished cells stay cached.
    """
    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    if not isinstance(name, str) or not name or name.startswith("/") or ".." in Path(name).parts:
        raise ValueError(f"name must be a non-empty relative path like 'work/item', got name={name!r}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must be a non-empty sequence of integers")
    backend = backend or os.environ.get("SAFEGUARDED_BACKEND", "loky")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got backend={backend!r}")
    if on_error not in ON_ERROR:
        raise ValueError(f"on_error must be one of {ON_ERROR}, got on_error={on_error!r}")
    n_jobs = int(n_jobs or os.environ.get("SAFEGUARDED_N_JOBS", 0) or os.cpu_count() or 1)
    if backend in ("loky", "threading"):
        n_jobs = memory_capped_n_jobs(n_jobs, cell_memory_mb, available_memory_mb())
    progress = _progress_default() if progress is None else progress

    cells = [(dict(p), s) for p in params for s in seeds]
    folder = (Path(cache_dir) if cache_dir is not None else RESULTS) / name if cache else None
    keys: list[str | None] = [None] * len(cells)
    paths: list[Path | None] = [None] * len(cells)
    n_stale = n_corrupt = 0
    results: list[list[dict] | None] = [None] * len(cells)
    todo = list(range(len(cells)))
    if folder is not None:
        context = sweep_context(func, [version, salt, on_error])
        folder.mkdir(parents=True, exist_ok=True)
        n_stale = _prepare_folder(folder, func, context, name)
        todo = []
        for i, (p, s) in enumerate(cells):
            keys[i] = cell_key(name, p, s, context)
            paths[i] = folder / f"{keys[i]}.pkl"
            if paths[i].is_file():
                results[i] = _load_cell(paths[i], keys[i], p, s)
                n_corrupt += results[i] is None
            if results[i] is None:
                todo.append(i)

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(cells), initial=len(cells) - len(todo), desc=name)

    args = [(func, cells[i][0], cells[i][1], paths[i], keys[i], on_error) for i in todo]
    if todo and (backend == "sequential" or n_jobs == 1 and backend != "dask"):
        n_jobs = 1
        for i, a in zip(todo, args, strict=True):
            results[i] = _run_cell(*a)
            if bar:
                bar.update()
    elif todo and backend == "dask":
        client, owned = _dask_client()
        n_jobs = -1
        try:
            _run_on_dask(client, args, todo, cells, results, bar, name, folder)
        finally:
            if owned:
                cluster = client.cluster
                client.close()
                cluster.close()
    elif todo:
        import joblib

        try:
            with joblib.parallel_config(backend=backend, n_jobs=n_jobs):
                jobs = (joblib.delayed(_run_cell)(*a) for a in args)
                for i, rows in zip(
                    todo, joblib.Parallel(n_jobs=n_jobs, return_as="generator")(jobs), strict=True
                ):
                    results[i] = rows
                    if bar:
                        bar.update()
        except Exception as exc:
            died = _died_cells(folder)
            if not died:
                raise
            what = "; ".join(f"params={c['params']!r} seed={c['seed']}" for c in died)
            raise _worker_died(name, folder, what, exc) from exc
    if bar:
        bar.close()
    df = pd.DataFrame([row for rows in results for row in rows])
    df.attrs.update(
        n_jobs=n_jobs, computed=len(todo), cached=len(cells) - len(todo), stale=n_stale, corrupt=n_corrupt
    )
    return df


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m safeguarded.experiments clean-stale [--results DIR] [--dry-run]``."""
    parser = argparse.ArgumentParser(prog="python -m safeguarded.experiments")
    sub = parser.add_subparsers(dest="command", required=True)
    clean = sub.add_parser("clean-stale", help="remove cached cells superseded by a code/version change")
    clean.add_argument("--results", default=None, help="the results folder (default: results/)")
    clean.add_argument("--dry-run", action="store_true", help="only list what would be removed")
    args = parser.parse_args(argv)
    removed = clean_stale(args.results, dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    print(f"{verb} {len(removed)} stale cache files under {args.results or RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
