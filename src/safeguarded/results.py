"""The results store: every finished paper-scale sweep cell, committed with its provenance, so that
runs on any machine add up (schema and rules: ``docs/results.md``).

Layout::

    results/<work>/<sweep>/v<version>/<UTC time>-<random>.jsonl    one shard per writing process
    results/<work>/<sweep>/v<version>/grid-<notebook>.json         the cells a notebook asks for

A shard is JSON lines, written append-only by one process: a ``shard`` header (what the process ran:
the cell function, the fingerprint of its code, the commit, solver and numeric library versions, the
array backend, the tolerance of ``verify``), then one ``cell`` line per finished cell (parameters, seed,
result rows, wall and CPU seconds, peak memory, date).  Every line carries the SHA-256 of its own
content; a cell line also carries its key, the hash of (sweep, parameters, seed, version), which the
reader recomputes.  A shard with a bad line (truncated, edited, corrupted, a key that its parameters
do not give) is refused whole, with :class:`CorruptShardError` naming the file and the line; the other
shards stay usable.

A cell's key is (sweep, parameters, seed, the sweep's declared ``version``): editing code does not
invalidate it.  Whether the stored numbers are still what the code computes is *measured*:
:func:`verify` recomputes a sample of stored cells and compares (``make verify``).  Bump the sweep's
``version`` (``run_sweep(..., version=...)``) when a change is meant to change its numbers.

Writers append under an exclusive ``flock`` on the version folder's ``.lock`` and re-read the other
shards first, so two processes (two runs, the driver of a dask cluster and a second run) never store
one cell twice; each line is one ``write`` followed by ``fsync``, so a killed process loses at most the
cells it was computing.  Copies of the store merged by git may hold a cell twice (computed on two
machines): the reader keeps the first (shards in name order) and :func:`status` counts the disagreeing
duplicates.

Command line: ``python -m safeguarded.results status | verify | salvage`` (``make status``,
``make verify``).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import functools
import hashlib
import importlib
import importlib.metadata
import json
import math
import os
import platform
import random
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from safeguarded.paths import REPO_ROOT, RESULTS

__all__ = [
    "FORMAT",
    "DEFAULT_TOLERANCE",
    "VOLATILE_PATTERN",
    "StoreError",
    "check_tolerance",
    "CorruptShardError",
    "encode",
    "decode",
    "cell_key",
    "compute_cell",
    "installed_versions",
    "VERSIONED_PACKAGES",
    "SweepStore",
    "stored_frame",
    "sweep_folders",
    "load_stores",
    "env_n_jobs",
    "status",
    "notebook_status",
    "status_report",
    "verify",
    "compare_rows",
    "store_size",
]

#: Version of the shard format (the ``format`` of every header).
FORMAT = 1
SUFFIX = ".jsonl"
#: ``verify``'s default: numbers agree within ``rtol * max(|a|, |b|) + atol``; text, flags exactly.
DEFAULT_TOLERANCE = {"rtol": 1e-9, "atol": 1e-12}
#: Result columns that measure time (never compared by ``verify``), unless a sweep names its own.
VOLATILE_PATTERN = r"(^|_)(time|times|seconds|wall|runtime|elapsed)(_|$)|_s$|^t_"

_KEY_LENGTH = 24
_LOCK = ".lock"


class StoreError(RuntimeError):
    """A problem with the results store (names the sweep or the file)."""


class CorruptShardError(StoreError):
    """A shard that fails its checks: refused whole; the message names the file, the line and why."""

    def __init__(self, path: Path, line: int, reason: str):
        self.path, self.line, self.reason = Path(path), line, reason
        super().__init__(
            f"shard {_shown(path)} refused at line {line}: {reason} (the other shards are "
            f"used; `python -m safeguarded.results salvage {_shown(path)}` keeps its valid lines)"
        )


def _shown(path: Path) -> str:
    path = Path(path)
    return str(path.relative_to(REPO_ROOT)) if path.is_relative_to(REPO_ROOT) else str(path)


# --------------------------------------------------------------------------------------------------
# Values as JSON, exactly: floats round-trip (repr), tuples and arrays keep their type


def encode(value: Any) -> Any:
    """``value`` as plain JSON data; :func:`decode` gives it back (tuples, arrays and dtypes included).

    Raises :class:`TypeError` naming the type for anything else (a cell must return plain values)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, np.generic):
        return encode(value.item())
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, np.ndarray):
        return {"__ndarray__": encode(value.tolist()), "dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        if all(isinstance(k, str) and not k.startswith("__") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"__items__": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(
        f"a stored cell holds only numbers, text, None, lists, tuples, dicts and numpy arrays; "
        f"got a {type(value).__module__}.{type(value).__qualname__}"
    )


def decode(value: Any) -> Any:
    """The inverse of :func:`encode`."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if "__ndarray__" in value:
            return np.asarray(decode(value["__ndarray__"]), dtype=value["dtype"]).reshape(value["shape"])
        if "__tuple__" in value:
            return tuple(decode(v) for v in value["__tuple__"])
        if "__items__" in value:
            return {decode(k): decode(v) for k, v in value["__items__"]}
        return {k: decode(v) for k, v in value.items()}
    return value


def _canonical(obj: Any) -> str:
    """Sorted keys: the form hashed for keys and compared between copies."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=True, ensure_ascii=False)


def _dump(obj: Any) -> str:
    """The form of a stored line: the keys in their order (a row's columns come back in order)."""
    return json.dumps(obj, separators=(",", ":"), allow_nan=True, ensure_ascii=False)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cell_key(sweep: str, params: Mapping[str, Any], seed: int, version: str) -> str:
    """The key of one cell: a hash of (sweep, parameters, seed, version), independent of dict order and
    of numpy scalar types; never of the code (see the module docstring)."""
    if int(seed) != seed:
        raise ValueError(f"seed must be an integer, got seed={seed!r}")
    return _sha(_canonical(encode([sweep, dict(params), int(seed), str(version)])))[:_KEY_LENGTH]


def _line(record: dict) -> bytes:
    """One stored line: the record and, last, the SHA-256 of the record's own line form."""
    record = {k: v for k, v in record.items() if k != "sha256"}
    return (_dump({**record, "sha256": _sha(_dump(record))}) + "\n").encode()


def _parse(raw: bytes, path: Path, lineno: int) -> dict:
    try:
        record = json.loads(raw)
    except ValueError as exc:
        raise CorruptShardError(path, lineno, f"not JSON ({exc})") from None
    if not isinstance(record, dict) or "sha256" not in record:
        raise CorruptShardError(path, lineno, "no checksum")
    claimed = record.pop("sha256")
    if _sha(_dump(record)) != claimed:
        raise CorruptShardError(path, lineno, "checksum mismatch (the line was changed or damaged)")
    return record


# --------------------------------------------------------------------------------------------------
# Provenance of the writing process


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


_COMMIT: str | None = None


def commit() -> str:
    """``HEAD`` of the repository, with ``+changes`` when tracked source files differ from it."""
    global _COMMIT
    if _COMMIT is None:
        head = _git("rev-parse", "HEAD")
        dirty = _git("status", "--porcelain", "--untracked-files=no", "--", "src")
        _COMMIT = "unknown" if head is None else head + ("+changes" if dirty else "")
    return _COMMIT


def array_label() -> str:
    """The array backend and device of ``$SAFEGUARDED_ARRAY`` (``numpy`` unless set)."""
    name = os.environ.get("SAFEGUARDED_ARRAY", "numpy")
    if name == "numpy":
        return "numpy"
    try:
        from safeguarded.arrays import array_backend_label

        return array_backend_label(name)
    except Exception as exc:  # recorded as asked; the kernel itself reports the failure
        return f"{name} (unavailable: {type(exc).__name__})"


def func_id(func) -> tuple[str, Any]:
    """(``module:qualname``, the bound arguments of a ``functools.partial`` or ``None``)."""
    base = getattr(func, "func", func)
    name = f"{getattr(base, '__module__', '?')}:{getattr(base, '__qualname__', repr(base))}"
    bound = None
    if base is not func:
        bound = encode([list(func.args), dict(func.keywords)])
    return name, bound


def resolve(name: str, bound: Any = None):
    """The cell function a header names (imported), re-bound like the stored ``functools.partial``."""
    module, _, qualname = name.partition(":")
    if module in ("__main__", "?") or not qualname:
        raise StoreError(f"cell function {name} is not importable (defined in a notebook or a script)")
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise StoreError(
            f"cell function {name} not found ({type(exc).__name__}: {exc}); moved or renamed "
            "without a version bump?"
        ) from None
    if bound is not None:
        args, kwargs = decode(bound)
        obj = functools.partial(obj, *args, **kwargs)
    return obj


#: Packages whose installed versions every shard header records (solvers and numerics).
VERSIONED_PACKAGES = ("clarabel", "highspy", "scs", "ecos", "cvxpy", "numpy", "scipy")


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


def compute_cell(
    func, params: Mapping[str, Any], seed: int, on_error: str = "raise"
) -> tuple[list[dict], dict]:
    """Run one cell: (its own rows, what it cost: ``wall_s``, ``cpu_s``, ``peak_rss_mb``, ``date``).

    ``func(**params, seed=seed)`` returns a dict or a list of dicts.  With ``on_error="record"`` a
    :class:`safeguarded.solvers.SolverError` becomes one row with ``status`` and ``error`` and
    successful rows get ``status`` "ok" (unless set) and ``error`` ""; any other exception propagates
    with a note naming the cell."""
    import resource

    wall, cpu = time.perf_counter(), time.process_time()
    try:
        out = func(**params, seed=seed)
        rows = [dict(out)] if isinstance(out, Mapping) else [dict(r) for r in out]
        if on_error == "record":
            rows = [{**row, "status": row.get("status", "ok"), "error": ""} for row in rows]
    except Exception as exc:
        solvers = sys.modules.get("safeguarded.solvers")
        if on_error != "record" or solvers is None or not isinstance(exc, solvers.SolverError):
            exc.add_note(f"in sweep cell params={dict(params)!r} seed={seed}")
            raise
        rows = [{"status": exc.status, "error": f"{type(exc).__name__}: {exc}"}]
    meta = {
        "wall_s": round(time.perf_counter() - wall, 4),
        "cpu_s": round(time.process_time() - cpu, 4),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    return rows, meta


def shard_header(
    sweep: str,
    version: str,
    func,
    *,
    fingerprint: str,
    on_error: str,
    tolerance: Mapping[str, float] | None,
    volatile: Sequence[str] | None,
) -> dict:
    """The header record of a new shard (see ``docs/results.md``)."""
    name, bound = func_id(func)
    return {
        "kind": "shard",
        "format": FORMAT,
        "sweep": sweep,
        "version": str(version),
        "func": name,
        "bound": bound,
        "code": fingerprint,
        "commit": commit(),
        "versions": installed_versions(),
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "array": array_label(),
        "on_error": on_error,
        "tolerance": dict(tolerance or DEFAULT_TOLERANCE),
        "volatile": list(volatile) if volatile else None,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


# --------------------------------------------------------------------------------------------------
# One sweep version's folder


@dataclass
class StoredCell:
    """A cell read from the store: its record, the header of its shard and where it lies."""

    record: dict
    header: dict
    path: Path
    line: int

    @property
    def rows(self) -> list[dict]:
        return decode(self.record["rows"])

    @property
    def params(self) -> dict:
        return decode(self.record["params"])

    @property
    def seed(self) -> int:
        return self.record["seed"]


@dataclass
class _Shard:
    offset: int = 0
    lines: int = 0
    header: dict | None = None


@dataclass
class SweepStore:
    """The cells of one sweep at one version under ``root`` (``results/`` by default).

    ``cells`` maps keys to :class:`StoredCell`; ``corrupt`` maps refused shards to their error;
    ``duplicates`` counts cells found again in later shards and ``conflicts`` those whose rows differ.
    """

    sweep: str
    version: str = "1"
    root: Path = field(default_factory=lambda: RESULTS)
    cells: dict[str, StoredCell] = field(default_factory=dict)
    corrupt: dict[Path, CorruptShardError] = field(default_factory=dict)
    duplicates: int = 0
    conflicts: list[str] = field(default_factory=list)

    def __post_init__(self):
        if (
            not isinstance(self.sweep, str)
            or not self.sweep
            or self.sweep.startswith("/")
            or ".." in Path(self.sweep).parts
        ):
            raise ValueError(
                f"sweep must be a non-empty relative path like 'work/item', got sweep={self.sweep!r}"
            )
        self.version = str(self.version)
        if not re.fullmatch(r"[A-Za-z0-9._-]+", self.version):
            raise ValueError(
                f"version must be letters, digits, '.', '_' or '-', got version={self.version!r}"
            )
        self.root = Path(self.root)
        self.folder = self.root / self.sweep / f"v{self.version}"
        self._shards: dict[Path, _Shard] = {}
        self._own: Path | None = None
        self._own_fd: int | None = None

    # reading ---------------------------------------------------------------------------------------

    def refresh(self) -> SweepStore:
        """Read what other shards (or this process) appended since the last call."""
        if not self.folder.is_dir():
            return self
        for path in sorted(self.folder.glob(f"*{SUFFIX}")):
            if path in self.corrupt:
                continue
            try:
                self._read(path)
            except CorruptShardError as exc:
                self._refuse(path, exc)
        return self

    def _refuse(self, path: Path, exc: CorruptShardError) -> None:
        import warnings

        self.corrupt[path] = exc
        self.cells = {k: c for k, c in self.cells.items() if c.path != path}
        self._shards.pop(path, None)
        warnings.warn(str(exc), RuntimeWarning, stacklevel=3)

    def _read(self, path: Path) -> None:
        state = self._shards.setdefault(path, _Shard())
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size < state.offset:
                raise CorruptShardError(path, state.lines, "the shard shrank (rewritten by hand?)")
            if size == state.offset:
                return
            f.seek(state.offset)
            data = f.read(size - state.offset)
        if not data.endswith(b"\n"):
            raise CorruptShardError(
                path, state.lines + data.count(b"\n") + 1, "truncated (the last line has no end)"
            )
        new = []
        for raw in data.splitlines():
            state.lines += 1
            record = _parse(raw, path, state.lines)
            if state.header is None:
                self._check_header(record, path)
                state.header = record
                continue
            self._check_cell(record, path, state.lines)
            new.append(StoredCell(record, state.header, path, state.lines))
        state.offset = size
        for cell in new:
            key = cell.record["key"]
            if key not in self.cells:
                self.cells[key] = cell
                continue
            self.duplicates += 1
            if _canonical(self.cells[key].record["rows"]) != _canonical(cell.record["rows"]):
                self.conflicts.append(
                    f"{key}: {_shown(self.cells[key].path)} line {self.cells[key].line} "
                    f"vs {_shown(path)} line {cell.line}"
                )

    def _check_header(self, record: dict, path: Path) -> None:
        if record.get("kind") != "shard":
            raise CorruptShardError(path, 1, "the first line is not a shard header")
        if record.get("format") != FORMAT:
            raise CorruptShardError(path, 1, f"format {record.get('format')!r}, this code reads {FORMAT}")
        if record.get("sweep") != self.sweep or record.get("version") != self.version:
            raise CorruptShardError(
                path,
                1,
                f"the header is of sweep {record.get('sweep')!r} version "
                f"{record.get('version')!r}, the folder of {self.sweep!r} v{self.version}",
            )

    def _check_cell(self, record: dict, path: Path, lineno: int) -> None:
        if record.get("kind") != "cell" or not {"key", "params", "seed", "rows"} <= set(record):
            raise CorruptShardError(path, lineno, "not a cell record")
        try:
            key = cell_key(self.sweep, decode(record["params"]), record["seed"], self.version)
        except (TypeError, ValueError) as exc:
            raise CorruptShardError(path, lineno, f"unreadable parameters or seed ({exc})") from None
        if key != record["key"]:
            raise CorruptShardError(
                path, lineno, f"its parameters and seed give key {key}, the line says {record['key']}"
            )
        if not isinstance(record["rows"], list) or not all(isinstance(r, dict) for r in record["rows"]):
            raise CorruptShardError(path, lineno, "its rows are not a list of records")

    def get(self, params: Mapping[str, Any], seed: int) -> StoredCell | None:
        return self.cells.get(cell_key(self.sweep, params, seed, self.version))

    # writing ---------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self):
        """An exclusive ``flock`` on the folder's ``.lock`` (waits for other writers)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder / _LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def add(
        self, params: Mapping[str, Any], seed: int, rows: list[dict], meta: Mapping[str, Any], header: dict
    ) -> bool:
        """Store one finished cell; ``False`` (nothing written) when another writer stored it first.

        ``header`` is written once, as the first line of this process's shard."""
        key = cell_key(self.sweep, params, seed, self.version)
        record = {
            "kind": "cell",
            "key": key,
            "params": encode(dict(params)),
            "seed": int(seed),
            "rows": encode(list(rows)),
            **{k: encode(v) for k, v in meta.items()},
        }
        line = _line(record)  # encode before taking the lock: a bad value fails without a trace
        with self.locked():
            self.refresh()
            if key in self.cells:
                return False
            if self._own_fd is None:
                stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
                self._own = self.folder / f"{stamp}-{uuid.uuid4().hex[:12]}{SUFFIX}"
                self._own_fd = os.open(self._own, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
                _write_all(self._own_fd, _line({**header, "sweep": self.sweep, "version": self.version}))
                _fsync_dir(self.folder)
            _fault("before-write", self._own)
            _write_all(self._own_fd, line)
            _fault("written", self._own)
            os.fsync(self._own_fd)
            _fault("synced", self._own)
            self.refresh()
        return True

    def close(self) -> None:
        if self._own_fd is not None:
            os.close(self._own_fd)
            self._own_fd = None

    # the cells a notebook asks for -------------------------------------------------------------------

    def record_grid(self, notebook: str, keys: Iterable[str]) -> None:
        """Record (atomically, only when it changed) the keys ``notebook`` needs of this sweep version."""
        keys = sorted(set(keys))
        path = self.folder / f"grid-{_safe(notebook)}.json"
        text = (
            json.dumps(
                {
                    "notebook": notebook,
                    "sweep": self.sweep,
                    "version": self.version,
                    "cells": len(keys),
                    "keys": keys,
                },
                indent=0,
            )
            + "\n"
        )
        with contextlib.suppress(OSError):
            if path.read_text() == text:
                return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}")
        tmp.write_text(text)
        os.replace(tmp, path)

    def grids(self) -> dict[str, set[str]]:
        out = {}
        for path in sorted(self.folder.glob("grid-*.json")):
            data = json.loads(path.read_text())
            out[data["notebook"]] = set(data["keys"])
        return out


def stored_frame(sweep: str, version: str = "1", root: Path | None = None):
    """Every stored cell of one sweep version as a DataFrame (parameters, seed, then the rows'
    columns, as ``run_sweep`` returns them), read from the store without computing anything."""
    import pandas as pd

    store = SweepStore(sweep, version, root or RESULTS).refresh()
    return pd.DataFrame([{**c.params, "seed": c.seed, **row} for c in store.cells.values() for row in c.rows])


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text) or "_"


def _write_all(fd: int, data: bytes) -> None:
    """One ``write`` for the whole line (a process killed around it leaves the line whole or absent)."""
    written = os.write(fd, data)
    while written < len(data):  # only on a full disk or a signal mid-way: finish the line
        written += os.write(fd, data[written:])


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: Test hook: called as ``_fault_hook(point, shard)`` at ``before-write``, ``written``, ``synced``.
_fault_hook = None


def _fault(point: str, path: Path | None) -> None:
    if _fault_hook is not None:
        _fault_hook(point, path)


# --------------------------------------------------------------------------------------------------
# The whole store


def sweep_folders(root: Path | None = None, work: str = "all") -> list[tuple[str, str]]:
    """(sweep, version) of every version folder under ``root`` holding shards or grids, sorted."""
    root = Path(root) if root is not None else RESULTS
    found = set()
    if not root.is_dir():
        return []
    for path in root.rglob("v*"):
        if path.is_dir() and (any(path.glob(f"*{SUFFIX}")) or any(path.glob("grid-*.json"))):
            sweep = path.parent.relative_to(root).as_posix()
            if work in ("all", sweep.split("/")[0]):
                found.add((sweep, path.name[1:]))
    return sorted(found)


def store_size(root: Path | None = None) -> int:
    """Bytes of the committed store files (shards and grids) under ``root``."""
    root = Path(root) if root is not None else RESULTS
    if not root.is_dir():
        return 0
    return sum(
        p.stat().st_size
        for p in root.rglob("*")
        if p.is_file() and (p.suffix == SUFFIX or (p.name.startswith("grid-") and p.suffix == ".json"))
    )


def load_stores(root: Path | None = None, work: str = "all") -> list[SweepStore]:
    """Every sweep version under ``root``, read.  A refused shard is not warned about here: it is in
    each store's ``corrupt``, which :func:`status` counts and :func:`verify` reports."""
    import warnings

    stores = []
    for sweep, version in sweep_folders(root, work):
        store = SweepStore(sweep, version, root or RESULTS)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            store.refresh()
        stores.append(store)
    return stores


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f}"


def status(root: Path | None = None, work: str = "all", stores: list[SweepStore] | None = None) -> list[dict]:
    """One row per (sweep, version): cells stored / needed by the notebooks' grids, core-hours spent
    (the stored cells' CPU seconds; wall where CPU is missing) and estimated to go (missing cells times
    the median stored cell), refused shards, disagreeing duplicates.  ``stores``: already loaded."""
    rows = []
    for store in load_stores(root, work) if stores is None else stores:
        sweep, version = store.sweep, store.version
        grids = store.grids()
        needed = set().union(*grids.values()) if grids else set()
        present = set(store.cells)
        seconds = [_cell_seconds(c.record) for c in store.cells.values()]
        spent = sum(seconds)
        missing = len(needed - present)
        per_cell = float(np.median(seconds)) if seconds else math.nan
        rows.append(
            {
                "sweep": sweep,
                "version": version,
                "notebooks": ", ".join(sorted(grids)) or "—",
                "stored": len(present & needed) if needed else len(present),
                "needed": len(needed) if needed else None,
                "extra": len(present - needed) if needed else 0,
                "core_h_spent": spent / 3600,
                "core_h_to_go": missing * per_cell / 3600 if missing else 0.0,
                "corrupt": len(store.corrupt),
                "conflicts": len(store.conflicts),
            }
        )
    return rows


def notebook_status(
    root: Path | None = None,
    work: str = "all",
    figures: Path | None = None,
    stores: list[SweepStore] | None = None,
) -> list[dict]:
    """One row per notebook that recorded a grid: the printed items its claims are about (from its
    claims fragment ``figures/<work>/claims/<notebook>.csv``), its sweeps, the cells stored / needed over
    all of them, core-hours spent and estimated to go.  ``stores``: already loaded."""
    from safeguarded.paths import FIGURES

    figures = Path(figures or FIGURES)
    per: dict[str, dict] = {}
    for store in load_stores(root, work) if stores is None else stores:
        seconds = {k: _cell_seconds(c.record) for k, c in store.cells.items()}
        per_cell = float(np.median(list(seconds.values()))) if seconds else math.nan
        for notebook, keys in store.grids().items():
            row = per.setdefault(
                notebook,
                {
                    "notebook": notebook,
                    "sweeps": 0,
                    "stored": 0,
                    "needed": 0,
                    "core_h_spent": 0.0,
                    "core_h_to_go": 0.0,
                },
            )
            present = keys & set(seconds)
            row["sweeps"] += 1
            row["stored"] += len(present)
            row["needed"] += len(keys)
            row["core_h_spent"] += sum(seconds[k] for k in present) / 3600
            missing = len(keys) - len(present)
            row["core_h_to_go"] += missing * per_cell / 3600 if missing else 0.0
    for notebook, row in per.items():
        items = ""
        fragment = next(figures.glob(f"*/claims/{notebook}.csv"), None)
        if fragment is not None:
            import csv

            with open(fragment, newline="", encoding="utf-8") as f:
                items = " ".join(dict.fromkeys(r["item"] for r in csv.DictReader(f)))
        row["items"] = items or "—"
    return [per[k] for k in sorted(per)]


def _cell_seconds(record: dict) -> float:
    value = record.get("cpu_s")
    if value is None or not value > 0:
        value = record.get("wall_s") or 0.0
    return float(value)


def status_report(root: Path | None = None, work: str = "all", figures: Path | None = None) -> str:
    """The status as Markdown: per printed table (notebook), then per sweep version, then the size."""
    stores = load_stores(root, work)
    return status_markdown(
        status(stores=stores), store_size(root), notebook_status(figures=figures, stores=stores)
    )


def status_markdown(rows: list[dict], size: int | None = None, notebooks: list[dict] | None = None) -> str:
    lines = []
    if notebooks:
        lines += [
            "| notebook | printed items | sweeps | cells stored / needed | core-h spent | core-h to go* |",
            "|---|---|---|---|---|---|",
        ]
        for r in notebooks:
            to_go = "—" if math.isnan(r["core_h_to_go"]) else _hours(r["core_h_to_go"] * 3600)
            lines.append(
                f"| `{r['notebook']}` | {r['items']} | {r['sweeps']} | {r['stored']:,} / {r['needed']:,} | "
                f"{_hours(r['core_h_spent'] * 3600)} | {to_go} |"
            )
        lines.append("")
    lines += [
        "| sweep | version | notebook(s) | cells stored / needed | core-h spent | core-h to go* |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        needed = "—" if r["needed"] is None else f"{r['needed']:,}"
        to_go = "—" if math.isnan(r["core_h_to_go"]) else _hours(r["core_h_to_go"] * 3600)
        flags = []
        if r["corrupt"]:
            flags.append(f"{r['corrupt']} shard(s) refused")
        if r["conflicts"]:
            flags.append(f"{r['conflicts']} disagreeing duplicate(s)")
        if r["extra"]:
            flags.append(f"+{r['extra']} outside the grids")
        stored = f"{r['stored']:,} / {needed}" + (f" ({'; '.join(flags)})" if flags else "")
        lines.append(
            f"| `{r['sweep']}` | {r['version']} | {r['notebooks']} | {stored} | "
            f"{_hours(r['core_h_spent'] * 3600)} | {to_go} |"
        )
    lines.append("")
    lines.append(
        "\\* missing cells × the median stored cell's CPU seconds: a lower bound where a sweep runs its "
        "costly cells last"
    )
    if size is not None:
        lines.append("")
        lines.append(
            f"Store size: {size / 2**20:.2f} MiB of the {BUDGET_MIB} MiB budget "
            f"({sum(r['stored'] + r['extra'] for r in rows):,} cells)."
        )
    return "\n".join(lines) + "\n"


#: The most the committed store may take (MiB); ``tests/test_results.py`` enforces it.
BUDGET_MIB = 100

_STATUS_BEGIN, _STATUS_END = "<!-- results-status:begin -->", "<!-- results-status:end -->"


def write_status(markdown: str, files: Sequence[Path]) -> list[Path]:
    """Replace the text between the status markers of each file (files without markers are skipped)."""
    changed = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        if _STATUS_BEGIN not in text or _STATUS_END not in text:
            continue
        head, _, rest = text.partition(_STATUS_BEGIN)
        _, _, tail = rest.partition(_STATUS_END)
        new = f"{head}{_STATUS_BEGIN}\n{markdown}{_STATUS_END}{tail}"
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


# --------------------------------------------------------------------------------------------------
# Verify: recompute stored cells and compare


def _close(a: Any, b: Any, rtol: float, atol: float) -> bool:
    """Numbers within the tolerance (NaN equals NaN), containers element by element, the rest exactly."""
    if isinstance(a, np.ndarray):
        a = a.tolist()
    if isinstance(b, np.ndarray):
        b = b.tolist()
    if isinstance(a, bool | np.bool_) or isinstance(b, bool | np.bool_):
        return isinstance(a, bool | np.bool_) and isinstance(b, bool | np.bool_) and bool(a) == bool(b)
    if isinstance(a, int | float | np.number) and isinstance(b, int | float | np.number):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return abs(a - b) <= rtol * max(abs(a), abs(b)) + atol
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k], rtol, atol) for k in a)
    return a == b


def compare_rows(
    stored: list[dict],
    now: list[dict],
    *,
    rtol: float,
    atol: float,
    volatile: Sequence[str] | None = None,
    columns: Mapping[str, Mapping[str, float]] | None = None,
) -> list[str]:
    """The differences between stored rows and recomputed ones (empty: they agree).

    Columns in ``volatile`` (default: names matching :data:`VOLATILE_PATTERN`, i.e. timings) are
    not compared; ``columns`` maps a column to its own ``{"rtol", "atol"}`` (e.g. a percentage that is a
    difference of certified bounds needs an absolute tolerance where the bounds need a relative one)."""
    columns = columns or {}
    is_volatile = (
        (lambda c: c in volatile)
        if volatile is not None
        else (lambda c: re.search(VOLATILE_PATTERN, c) is not None)
    )
    if len(stored) != len(now):
        return [f"{len(stored)} stored rows, {len(now)} now"]
    diffs = []
    for i, (a, b) in enumerate(zip(stored, now, strict=True)):
        for column in sorted(set(a) | set(b)):
            if is_volatile(column):
                continue
            if column not in a or column not in b:
                diffs.append(
                    f"row {i} {column}: {'absent' if column not in a else 'present'} in the store, "
                    f"{'absent' if column not in b else 'present'} now"
                )
            elif not _close(a[column], b[column], *_column_tolerance(columns, column, rtol, atol)):
                diffs.append(f"row {i} {column}: stored {_brief(a[column])}, now {_brief(b[column])}")
    return diffs


def _column_tolerance(columns: Mapping, column: str, rtol: float, atol: float) -> tuple[float, float]:
    own = columns.get(column)
    return (rtol, atol) if own is None else (own["rtol"], own["atol"])


def check_tolerance(tolerance: Mapping | None) -> None:
    """Refuse a malformed sweep tolerance: ``{"rtol": >= 0, "atol": >= 0}``, optionally with ``"columns"``,
    a mapping of column names to such pairs."""
    if tolerance is None:
        return

    def is_pair(p, extra=frozenset()) -> bool:
        return (isinstance(p, Mapping) and set(p) - extra == {"rtol", "atol"}
                and all(isinstance(p[k], int | float) and p[k] >= 0 for k in ("rtol", "atol")))

    own = tolerance.get("columns", {}) if isinstance(tolerance, Mapping) else None
    if not (is_pair(tolerance, frozenset({"columns"})) and isinstance(own, Mapping)
            and all(is_pair(p) for p in own.values())):
        raise ValueError(
            "tolerance must be {'rtol': >= 0, 'atol': >= 0} optionally with 'columns': {name: {'rtol': >= 0, "
            f"'atol': >= 0}}}}, got tolerance={tolerance!r}"
        )


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass
class VerifyReport:
    sweep: str
    version: str
    stored: int
    checked: int = 0
    seconds: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    skipped: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.problems


def _sample(cells: list[StoredCell], n: int, rng: random.Random, fast: bool, max_seconds: float | None):
    if max_seconds is not None:
        cells = [c for c in cells if float(c.record.get("wall_s") or 0.0) <= max_seconds]
    if fast:
        return sorted(cells, key=lambda c: (float(c.record.get("wall_s") or 0.0), c.record["key"]))[:n]
    cells = sorted(cells, key=lambda c: c.record["key"])
    return rng.sample(cells, min(n, len(cells)))


def env_n_jobs() -> int | None:
    """``$SAFEGUARDED_N_JOBS`` as a positive integer (None when unset or empty); ValueError naming it.
    The worker count of :func:`verify` and of :func:`safeguarded.experiments.run_sweep`."""
    value = os.environ.get("SAFEGUARDED_N_JOBS", "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"SAFEGUARDED_N_JOBS must be a positive integer (worker processes), got "
                         f"SAFEGUARDED_N_JOBS={value!r}")
    return int(value)


def _recompute(func_name: str, bound, params: dict, seed: int, on_error: str) -> tuple[list, float]:
    """(rows, seconds) of one stored cell recomputed by the current code (in a worker of :func:`verify`)."""
    start = time.perf_counter()
    rows, _ = compute_cell(resolve(func_name, bound), params, seed, on_error)
    return rows, time.perf_counter() - start


def verify(
    root: Path | None = None,
    work: str = "all",
    n: int = 2,
    seed: int = 0,
    fast: bool = False,
    max_seconds: float | None = None,
    sweeps: Sequence[str] | None = None,
    log=print,
    n_jobs: int | None = None,
) -> list[VerifyReport]:
    """Recompute ``n`` stored cells of every sweep version (a seeded sample; ``fast``: the quickest by
    their stored wall time; ``max_seconds``: only cells that took at most that long) with the current
    code and compare with the stored rows within the shard's tolerance.  Returns one report per sweep
    version; :attr:`VerifyReport.ok` is false on any difference, refused shard or unimportable function.

    The cells are recomputed in ``n_jobs`` worker processes (default ``$SAFEGUARDED_N_JOBS`` or the CPUs;
    1: in this process); a report's ``seconds`` is the sum of its cells' times."""
    rng = random.Random(seed)
    plans = []
    for store in load_stores(root, work):
        sweep, version = store.sweep, store.version
        if sweeps and sweep not in sweeps:
            continue
        report = VerifyReport(sweep, version, len(store.cells))
        report.problems += [str(e) for e in store.corrupt.values()]
        report.problems += [f"disagreeing duplicate {c}" for c in store.conflicts]
        chosen = _sample(list(store.cells.values()), n, rng, fast, max_seconds)
        if store.cells and not chosen:
            report.skipped = f"skipped: no stored cell took at most {max_seconds:g} s (make verify: any)"
        runnable = []
        for cell in chosen:
            try:
                resolve(cell.header["func"], cell.header.get("bound"))
            except StoreError as exc:
                report.problems.append(str(exc))
                break
            runnable.append(cell)
        plans.append((report, runnable))
    jobs = [(c.header["func"], c.header.get("bound"), c.params, c.seed, c.header.get("on_error", "raise"))
            for _, cells in plans for c in cells]
    n_jobs = max(1, min(len(jobs), int(n_jobs or env_n_jobs() or os.cpu_count() or 1)))
    if n_jobs > 1:
        from joblib import Parallel, delayed

        outputs = Parallel(n_jobs=n_jobs, backend="loky")(delayed(_recompute)(*job) for job in jobs)
    else:
        outputs = [_recompute(*job) for job in jobs]
    results = iter(outputs)
    reports = []
    for report, cells in plans:
        for cell in cells:
            rows, seconds = next(results)
            report.seconds += seconds
            tol = cell.header.get("tolerance") or DEFAULT_TOLERANCE
            diffs = compare_rows(
                cell.rows, rows, rtol=tol["rtol"], atol=tol["atol"], volatile=cell.header.get("volatile"),
                columns=tol.get("columns"),
            )
            report.checked += 1
            if diffs:
                report.mismatches.append(
                    f"cell params={cell.params!r} seed={cell.seed} ({_shown(cell.path)} line "
                    f"{cell.line}): "
                    + "; ".join(diffs[:6])
                    + (f"; and {len(diffs) - 6} more" if len(diffs) > 6 else "")
                )
        verdict = "ok" if report.ok else "FAILED"
        details = report.mismatches + report.problems + ([report.skipped] if report.skipped else [])
        log(
            f"{verdict:6} {report.sweep} v{report.version}: {report.checked} of {report.stored} stored cells "
            f"recomputed in {report.seconds:.1f} s" + "".join(f"\n         {m}" for m in details)
        )
        reports.append(report)
    return reports


# --------------------------------------------------------------------------------------------------
# Salvage a refused shard


def salvage(path: Path) -> tuple[int, Path | None]:
    """Move the valid cell lines of a refused shard into a new shard of the same folder and delete the
    old one; returns (cells kept, the new shard).  Lines after the first bad one are checked one by one."""
    path = Path(path)
    version_folder = path.parent
    lines = path.read_bytes().split(b"\n")
    header, kept = None, []
    for i, raw in enumerate(lines, start=1):
        if not raw:
            continue
        try:
            record = _parse(raw, path, i)
        except CorruptShardError:
            continue
        if record.get("kind") == "shard" and header is None:
            header = record
        elif record.get("kind") == "cell" and header is not None:
            kept.append(record)
    if header is None:
        raise StoreError(f"{_shown(path)}: no valid header; nothing to salvage (remove the file)")
    store = SweepStore(
        header["sweep"], header["version"], version_folder.parents[len(Path(header["sweep"]).parts)]
    )
    new = (
        store.folder
        / f"{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%SZ')}-{uuid.uuid4().hex[:12]}{SUFFIX}"
    )
    valid = []
    for record in kept:
        try:
            store._check_cell(record, path, 0)
        except CorruptShardError:
            continue
        valid.append(record)
    with store.locked():
        new.write_bytes(_line(header) + b"".join(_line(r) for r in valid))
        path.unlink()
    return len(valid), new


# --------------------------------------------------------------------------------------------------
# Command line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m safeguarded.results", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--root", type=Path, default=None, help="the store (default: results/)")
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser("status", help="cells stored / needed and core-hours per sweep")
    st.add_argument("--work", default="all")
    st.add_argument(
        "--write",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="also write the table between the results-status markers of these files",
    )
    ve = sub.add_parser("verify", help="recompute a seeded sample of stored cells and compare")
    ve.add_argument("--work", default="all")
    ve.add_argument("--n", type=int, default=2, help="cells per sweep version (default 2)")
    ve.add_argument("--seed", type=int, default=0)
    ve.add_argument(
        "--fast", action="store_true", help="the quickest stored cells instead of a random sample"
    )
    ve.add_argument("--max-seconds", type=float, default=None, help="only cells that took at most this long")
    ve.add_argument("--sweep", action="append", help="only this sweep (repeatable)")
    sa = sub.add_parser("salvage", help="keep the valid lines of a refused shard in a new shard")
    sa.add_argument("shard", type=Path)
    args = parser.parse_args(argv)
    if args.command == "status":
        rows = status(args.root, args.work)
        text = status_report(args.root, args.work)
        print(text, end="")
        for path in args.write or ():
            print(f"written to {path}" if write_status(text, [path]) else f"{path}: unchanged or no markers")
        return 1 if any(r["corrupt"] or r["conflicts"] for r in rows) else 0
    if args.command == "verify":
        if args.n < 1:
            parser.error(f"--n must be a positive integer, got {args.n}")
        start = time.perf_counter()
        reports = verify(args.root, args.work, args.n, args.seed, args.fast, args.max_seconds, args.sweep)
        bad = [r for r in reports if not r.ok]
        print(
            f"verify: {sum(r.checked for r in reports)} cells of {len(reports)} sweep versions recomputed in "
            f"{time.perf_counter() - start:.0f} s; {len(bad)} failed"
            + (f": {', '.join(r.sweep for r in bad)}" if bad else "")
        )
        return 1 if bad else 0
    kept, new = salvage(args.shard)
    print(f"{kept} cells of {args.shard} kept in {new}; the refused shard removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
