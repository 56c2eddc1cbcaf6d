"""Instances of thesis §5.4 (Tables 37–41): loader for the authors' ``.mat`` files and generators.

The instance data of §5.4.1–§5.4.5 are single random draws stored by the authors
(``selvi-aras/convex-max``, folders ``Section 4.1`` … ``4.5``) and mirrored under
``convex-max/section-4.k/Pj/Pj.mat`` in the data registry.  :func:`load_instance` reads one through
:func:`safeguarded.data.fetch` (checksum-verified) and validates every array.  Table 37's P10–P12 are
not in the mirror: :func:`generate_lse_ball` regenerates them from App. 5.G.1 (L5870–5898) with an
explicit seed — these are *new* draws, labelled as such, never compared with the thesis's numbers.

Conventions (thesis §5.3.2, eq. (91)): ``A`` is m×n, ``b`` has length m, the polyhedron is
``U = {x >= 0 : D x <= d}`` with ``D`` q×n.  Sum-of-max blocks ``I_k`` are contiguous of size ``J``
(App. 5.G.5 and the authors' code), so ``m = K J``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from safeguarded.validation import check_integer, check_positive, check_type

__all__ = [
    "BallInstance",
    "PolyInstance",
    "InstanceFileError",
    "SECTIONS",
    "instance_names",
    "load_instance",
    "read_mat",
    "generate_lse_ball",
    "TABLE37_GENERATED",
]

#: Thesis table -> mirror folder (the journal paper's numbering of §4.1–§4.5 = thesis §5.4.1–§5.4.5).
SECTIONS = {
    "table37": "section-4.1",
    "table38": "section-4.2",
    "table39": "section-4.3",
    "table40": "section-4.4",
    "table41": "section-4.5",
}

_NAMES = {
    "table37": [f"P{i}" for i in range(1, 10)],
    "table38": [f"P{i}" for i in range(1, 6)],
    "table39": [f"P{i}" for i in range(1, 8)],
    "table40": ["P1-size10", "P1-size40", "P1-size60", "P1-size100", "P2", "P3", "P4", "P5", "P6"],
    "table41": [f"P{i}" for i in range(1, 14)],
}

#: App. 5.G.1 settings of the Table 37 instances absent from the mirror (regenerated, seeded).
TABLE37_GENERATED = {
    "P10": dict(m=100, n=10_000, rho=15.0, A_range=(-0.5, 0.5), b_range=(-0.25, 0.25), a_range=(-0.5, 0.5)),
    "P11": dict(m=1_000, n=1_000, rho=18.0, A_range=(-0.5, 0.5), b_range=(-0.25, 0.25), a_range=(-0.5, 0.5)),
    "P12": dict(m=700, n=2_000, rho=24.0, A_range=(-0.5, 0.5), b_range=(-0.25, 0.25), a_range=(-0.5, 0.5)),
}


class InstanceFileError(ValueError):
    """A ``.mat`` instance file that cannot be read or whose arrays are inconsistent."""


def _finite(name: str, arr: np.ndarray) -> np.ndarray:
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {int(np.sum(~np.isfinite(arr)))} non-finite entries")
    return arr


def _matrix(name: str, value) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if arr.ndim != 2 or 0 in arr.shape:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {arr.shape}")
    return _finite(name, arr)


def _vector(name: str, value, length: int | None = None) -> np.ndarray:
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.ravel()
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty vector, got shape {np.shape(value)}")
    if length is not None and arr.size != length:
        raise ValueError(f"{name} must have length {length} to match the other data, got length {arr.size}")
    return _finite(name, arr)


@dataclass(frozen=True)
class BallInstance:
    """``max f(Ax + b)`` s.t. ``||x - a|| <= rho`` (problem (72); 2-norm: Cor. 10, ∞-norm: Cor. 11)."""

    A: np.ndarray
    b: np.ndarray
    a: np.ndarray
    rho: float
    name: str = ""
    generated: bool = False  #: True for a regenerated draw (not the thesis's data)

    def __post_init__(self):
        A = _matrix("A", self.A)
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "b", _vector("b", self.b, A.shape[0]))
        object.__setattr__(self, "a", _vector("a", self.a, A.shape[1]))
        object.__setattr__(self, "rho", check_positive("rho", self.rho))

    @property
    def m(self) -> int:
        return self.A.shape[0]

    @property
    def n(self) -> int:
        return self.A.shape[1]


@dataclass(frozen=True)
class PolyInstance:
    """``max f(Ax + b)`` over ``U = {x >= 0 : Dx <= d}`` (problem (91)).

    ``kind`` is ``"lse"`` (log-sum-exp, Table 40), ``"summax"`` (sum of max of K contiguous blocks of
    size J, Table 41) or ``"quad"`` (``x'Qx + l'x`` with ``Q = L'L``, Table 39; then ``A``/``b`` are
    unused and ``report_scale``/``report_offset`` give the value the thesis prints, App. 5.G.3).
    """

    D: np.ndarray
    d: np.ndarray
    kind: str
    A: np.ndarray | None = None
    b: np.ndarray | None = None
    J: int | None = None
    K: int | None = None
    L: np.ndarray | None = None
    ell: np.ndarray | None = None
    report_scale: float = 1.0
    report_offset: float = 0.0
    name: str = ""
    meta: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in ("lse", "summax", "quad"):
            raise ValueError(f"kind must be one of 'lse', 'summax', 'quad', got kind={self.kind!r}")
        D = _matrix("D", self.D)
        object.__setattr__(self, "D", D)
        object.__setattr__(self, "d", _vector("d", self.d, D.shape[0]))
        n = D.shape[1]
        if self.kind == "quad":
            L = _matrix("L", self.L)
            if L.shape[1] != n:
                raise ValueError(f"L must have n={n} columns to match D, got shape {L.shape}")
            object.__setattr__(self, "L", L)
            object.__setattr__(self, "ell", _vector("ell", self.ell, n))
            return
        A = _matrix("A", self.A)
        if A.shape[1] != n:
            raise ValueError(f"A must have n={n} columns to match D, got shape {A.shape}")
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "b", _vector("b", self.b, A.shape[0]))
        if self.kind == "summax":
            J = check_integer("J", int(self.J) if self.J is not None else None, minimum=1)
            K = check_integer("K", int(self.K) if self.K is not None else None, minimum=1)
            if J * K != A.shape[0]:
                raise ValueError(f"J*K must equal m={A.shape[0]} (rows of A), got J={J}, K={K}")
            object.__setattr__(self, "J", J)
            object.__setattr__(self, "K", K)

    @property
    def n(self) -> int:
        return self.D.shape[1]

    @property
    def q(self) -> int:
        return self.D.shape[0]

    @property
    def m(self) -> int:
        return self.L.shape[0] if self.kind == "quad" else self.A.shape[0]

    def report(self, raw: float) -> float:
        """The value the thesis prints for objective value ``raw`` (App. 5.G.3 ½(·) + const)."""
        return self.report_scale * raw + self.report_offset


def instance_names(table: str) -> list[str]:
    """Names of the mirrored instances of ``table`` (one of :data:`SECTIONS`)."""
    if table not in SECTIONS:
        raise ValueError(f"table must be one of {sorted(SECTIONS)}, got table={table!r}")
    return list(_NAMES[table])


def read_mat(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of a MATLAB ``.mat`` file; :class:`InstanceFileError` names the file if unreadable."""
    import scipy.io

    check_type("path", path, str | Path, "a file path (str or Path)")
    try:
        raw = scipy.io.loadmat(str(path))
    except Exception as exc:  # scipy raises ValueError/TypeError/OSError on corrupt files
        raise InstanceFileError(f"path {str(path)!r} is not a readable .mat instance file: {exc}") from exc
    return {k: v for k, v in raw.items() if not k.startswith("__")}


def _scalar(data: dict, key: str, path) -> int:
    if key not in data:
        raise InstanceFileError(f"instance file {str(path)!r} has no variable {key!r}")
    return int(np.asarray(data[key]).ravel()[0])


def _need(data: dict, keys, path) -> None:
    missing = [k for k in keys if k not in data]
    if missing:
        raise InstanceFileError(f"instance file {str(path)!r} lacks the variables {missing}")


def instance_from_arrays(table: str, name: str, data: dict, path="<arrays>"):
    """Build the instance of ``table`` from the arrays of its ``.mat`` file (validated)."""
    try:
        if table in ("table37", "table38"):
            _need(data, ["A", "b", "a", "rho"], path)
            return BallInstance(data["A"], data["b"], data["a"], float(np.ravel(data["rho"])[0]), name=name)
        if table == "table39":
            _need(data, ["D", "d", "L", "ell"], path)
            # App. 5.G.3: P1 reports ½Σ(x_i - 2)² = ½(x'x - 4·1'x) + 2n,
            # P2 reports ½Σ(x_i + 5)² = ½(x'x + 10·1'x) + 12.5n.
            n = data["L"].shape[1]
            scale, offset = {"P1": (0.5, 2.0 * n), "P2": (0.5, 12.5 * n)}.get(name, (1.0, 0.0))
            return PolyInstance(
                data["D"], data["d"], "quad", L=data["L"], ell=data["ell"], report_scale=scale,
                report_offset=offset, name=name,
            )
        if table == "table40":
            _need(data, ["A", "b", "D", "d"], path)
            return PolyInstance(data["D"], data["d"], "lse", A=data["A"], b=data["b"], name=name)
        if table == "table41":
            _need(data, ["A", "b", "D", "d", "J", "K"], path)
            return PolyInstance(
                data["D"], data["d"], "summax", A=data["A"], b=data["b"], J=_scalar(data, "J", path),
                K=_scalar(data, "K", path), name=name,
            )
    except InstanceFileError:
        raise
    except ValueError as exc:
        raise InstanceFileError(f"instance file {str(path)!r}: {exc}") from exc
    raise ValueError(f"table must be one of {sorted(SECTIONS)}, got table={table!r}")


def load_instance(table: str, name: str, *, mirror=None):
    """Load instance ``name`` (e.g. ``"P3"``, ``"P1-size40"``) of ``table`` from the data registry."""
    from safeguarded.data import fetch

    if name not in instance_names(table):
        raise ValueError(f"name must be one of {instance_names(table)} for {table}, got name={name!r}")
    if mirror is not None and not Path(mirror).is_dir():
        raise ValueError(f"mirror must be an existing folder or None, got mirror={mirror!r}")
    path = fetch(f"convex-max/{SECTIONS[table]}/{name}/{name}.mat", mirror=mirror)
    return instance_from_arrays(table, name, read_mat(path), path)


def generate_lse_ball(
    *, m: int, n: int, A_range, b_range, a_range, rho: float, seed: int, name: str = ""
) -> BallInstance:
    """A random Table 37 instance per App. 5.G.1 (A, b, a uniform on the given ranges), seeded.

    Used for P10–P12 (absent from the mirror); the draw is new, so its bounds are not the thesis's.
    """
    m = check_integer("m", m, minimum=1)
    n = check_integer("n", n, minimum=1)
    ranges = {"A_range": A_range, "b_range": b_range, "a_range": a_range}
    for key, r in ranges.items():
        lo_hi = np.asarray(r, dtype=float) if isinstance(r, tuple | list) else np.array([])
        if lo_hi.shape != (2,) or not np.all(np.isfinite(lo_hi)) or lo_hi[0] > lo_hi[1]:
            raise ValueError(f"{key} must be a pair (low, high) of finite numbers, low <= high, got {r!r}")
    rho = check_positive("rho", rho)
    seed = check_integer("seed", seed, minimum=0)
    check_type("name", name, str, "a string")
    rng = np.random.default_rng(seed)
    A = rng.uniform(*A_range, size=(m, n))
    b = rng.uniform(*b_range, size=m)
    a = rng.uniform(*a_range, size=n)
    return BallInstance(A, b, a, rho, name=name, generated=True)
