"""Mixed-feature data and the ground metric (55) of thesis Section 3.

A data point is ``xi = (x, z, y)``: numerical features ``x`` (support R^{M_x}), ``K`` discrete features
with ``k_m >= 2`` levels each, one-hot encoded with the reference level (code 0) dropped, so that
``z_m in Z(k_m) = {z in {0,1}^{k_m - 1} : sum z <= 1}`` and ``M_z = sum_m (k_m - 1)`` (Section 3.2), and
an output ``y`` (``{-1, +1}`` for classification, R for regression).

Discrete features are stored as integer level codes (``codes[n, m] in {0, ..., k_m - 1}``); the one-hot
matrix ``Z`` is derived.  The numerical block carries per-coordinate weights ``x_weights`` of the
weighted l1 norm ``||x - x'|| = sum_i w_i |x_i - x'_i|`` (all 1 in the thesis); they let a discrete
feature that is "treated as continuous" (the ConF approximation, Section 3.5.1) keep the weight
``kappa_z`` of the feature it replaces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from safeguarded.validation import check_array, check_choice, check_in_interval

__all__ = ["MixedData", "ground_metric", "d_z", "check_metric_params", "TASKS"]

TASKS = ("classification", "regression")


def check_metric_params(kappa_z: float, kappa_y: float, p: float) -> tuple[float, float, float]:
    """Validate the parameters of the ground metric (55): ``kappa_z, kappa_y > 0`` and ``p in [1, inf]``."""
    for name, value in (("kappa_z", kappa_z), ("kappa_y", kappa_y)):
        if not (isinstance(value, int | float | np.floating) and math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {name}={value!r}")
    if not (isinstance(p, int | float | np.floating) and not math.isnan(p) and p >= 1):
        raise ValueError(f"p must be in [1, inf], got p={p!r}")
    return float(kappa_z), float(kappa_y), float(p)


def d_z(n_differ, p: float):
    """Discrete distance (55b): ``(number of differing features)^(1/p)``; ``p = inf`` gives ``1[differ]``."""
    n_differ = check_array("n_differ", n_differ, nonempty=False)
    if np.any(n_differ < 0):
        raise ValueError(f"n_differ must be counts >= 0, got minimum {n_differ.min():g}")
    p = check_in_interval("p", p, 1.0, math.inf, closed="both")
    if math.isinf(p):
        return (n_differ > 0).astype(float)
    return n_differ ** (1.0 / p)


@dataclass(frozen=True)
class MixedData:
    """N mixed-feature data points (Section 3.2).

    Parameters
    ----------
    X : (N, M_x) array of numerical features.
    codes : (N, K) integer array of discrete level codes, ``0 <= codes[:, m] < levels[m]``.
    levels : the level counts ``k_m >= 2``.
    y : (N,) outputs; in ``{-1, +1}`` for classification.
    task : ``"classification"`` or ``"regression"``.
    x_weights : (M_x,) positive weights of the l1 norm on ``x`` (default ones).
    names : optional feature names (numerical first, then discrete).
    """

    X: np.ndarray
    codes: np.ndarray
    levels: tuple[int, ...]
    y: np.ndarray
    task: str
    x_weights: np.ndarray | None = None
    names: tuple[str, ...] = field(default=())

    def __post_init__(self):
        if self.task not in TASKS:
            raise ValueError(f"task must be one of {TASKS}, got task={self.task!r}")
        X = np.asarray(self.X, dtype=float)
        y = np.asarray(self.y, dtype=float).ravel()
        n = y.shape[0]
        if X.ndim != 2 or X.shape[0] != n:
            raise ValueError(f"X must have shape (N, M_x) with N={n}, got {X.shape}")
        if not np.all(np.isfinite(X)) or not np.all(np.isfinite(y)):
            raise ValueError("X and y must be finite (handle missing values before building MixedData)")
        codes = np.asarray(self.codes)
        if codes.size == 0:
            codes = np.zeros((n, 0), dtype=np.int64)
        levels = tuple(int(k) for k in self.levels)
        if codes.ndim != 2 or codes.shape != (n, len(levels)):
            raise ValueError(f"codes must have shape (N, K) = ({n}, {len(levels)}), got {codes.shape}")
        for m, k in enumerate(levels):
            if k < 2:
                raise ValueError(f"levels must be >= 2 for every discrete feature, got levels[{m}]={k}")
            if codes.shape[0] and (codes[:, m].min() < 0 or codes[:, m].max() >= k):
                raise ValueError(f"codes[:, {m}] must lie in [0, {k - 1}]")
        if self.task == "classification" and not np.all(np.isin(y, (-1.0, 1.0))):
            raise ValueError("y must be in {-1, +1} for classification")
        w = np.ones(X.shape[1]) if self.x_weights is None else np.asarray(self.x_weights, dtype=float)
        if w.shape != (X.shape[1],) or np.any(w <= 0):
            raise ValueError(f"x_weights must be {X.shape[1]} positive numbers")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "codes", codes.astype(np.int64))
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "x_weights", w)

    # ----------------------------------------------------------------- sizes and encodings
    @property
    def N(self) -> int:  # noqa: N802 - the thesis's symbol
        return int(self.y.shape[0])

    @property
    def M_x(self) -> int:  # noqa: N802
        return int(self.X.shape[1])

    @property
    def K(self) -> int:  # noqa: N802
        return len(self.levels)

    @property
    def M_z(self) -> int:  # noqa: N802
        return int(sum(k - 1 for k in self.levels))

    @property
    def offsets(self) -> np.ndarray:
        """Start index of feature m's dummies in ``Z``."""
        return np.concatenate([[0], np.cumsum([k - 1 for k in self.levels])]).astype(np.int64)[:-1]

    @property
    def Z(self) -> np.ndarray:  # noqa: N802
        return one_hot(self.codes, self.levels)

    def subset(self, idx) -> MixedData:
        idx = np.asarray(idx)
        return MixedData(
            self.X[idx], self.codes[idx], self.levels, self.y[idx], self.task, self.x_weights, self.names
        )

    def as_continuous(self, mask=None, kappa_z: float = 1.0) -> MixedData:
        """The ConF view (Section 3.5.1): discrete features with ``mask[m]`` become unbounded numerical
        coordinates (their dummies join ``x`` with l1 weight ``kappa_z``); ``mask=None`` moves all."""
        mask = np.ones(self.K, bool) if mask is None else np.asarray(mask, bool)
        if mask.shape != (self.K,):
            raise ValueError(f"mask must have K={self.K} entries, got shape {mask.shape}")
        Z = self.Z
        cols = [
            np.arange(o, o + k - 1) for o, k, mk in zip(self.offsets, self.levels, mask, strict=True) if mk
        ]
        cols = np.concatenate(cols) if cols else np.zeros(0, np.int64)
        X = np.hstack([self.X, Z[:, cols]])
        w = np.concatenate([self.x_weights, np.full(cols.size, float(kappa_z))])
        keep = ~mask
        return MixedData(X, self.codes[:, keep], tuple(np.asarray(self.levels)[keep]), self.y, self.task, w)

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        continuous,
        categorical,
        target: str,
        task: str,
        reference: str = "most_frequent",
    ) -> MixedData:
        """Build from a DataFrame: ``continuous`` columns must be numeric, each ``categorical`` column must
        have at least two observed levels; the reference (dropped) level is the most frequent one
        (``reference="most_frequent"``) or the first in sorted order (``"first"``)."""
        if reference not in ("most_frequent", "first"):
            raise ValueError(f"reference must be 'most_frequent' or 'first', got reference={reference!r}")
        X = []
        for col in continuous:
            if not pd.api.types.is_numeric_dtype(frame[col]):
                raise ValueError(f"continuous column {col!r} must be numeric, got dtype {frame[col].dtype}")
            X.append(frame[col].to_numpy(dtype=float))
        codes, levels = [], []
        for col in categorical:
            values = frame[col].astype(str)
            counts = values.value_counts()
            if len(counts) < 2:
                raise ValueError(f"categorical column {col!r} must have at least 2 levels, got {len(counts)}")
            order = (
                sorted(counts.index)
                if reference == "first"
                else sorted(counts.index, key=lambda v: (-counts[v], v))
            )
            lookup = {v: i for i, v in enumerate(order)}
            codes.append(values.map(lookup).to_numpy(dtype=np.int64))
            levels.append(len(order))
        n = len(frame)
        Xa = np.column_stack(X) if X else np.zeros((n, 0))
        Ca = np.column_stack(codes) if codes else np.zeros((n, 0), np.int64)
        return cls(
            Xa,
            Ca,
            tuple(levels),
            frame[target].to_numpy(dtype=float),
            task,
            names=tuple(continuous) + tuple(categorical),
        )


def one_hot(codes: np.ndarray, levels) -> np.ndarray:
    """One-hot encoding with the reference level 0 dropped: (N, K) codes -> (N, M_z)."""
    codes = np.atleast_2d(np.asarray(codes, dtype=np.int64))
    levels = tuple(levels)
    out = np.zeros((codes.shape[0], int(sum(k - 1 for k in levels))))
    off = 0
    for m, k in enumerate(levels):
        c = codes[:, m]
        rows = np.nonzero(c > 0)[0]
        out[rows, off + c[rows] - 1] = 1.0
        off += k - 1
    return out


def ground_metric(
    xi, xi2, *, task: str, kappa_z: float = 1.0, kappa_y: float = 1.0, p: float = 1.0, x_weights=None
) -> float:
    """The ground metric (55a): ``||x - x'||_1 + kappa_z d_z(z, z') + kappa_y d_y(y, y')``.

    ``xi = (x, codes, y)`` with ``codes`` the discrete level codes.
    """
    kappa_z, kappa_y, p = check_metric_params(kappa_z, kappa_y, p)
    check_choice("task", task, TASKS)
    for name, point in (("xi", xi), ("xi2", xi2)):
        if not isinstance(point, tuple | list) or len(point) != 3:
            raise ValueError(f"{name} must be a triple (x, codes, y), got {name}={point!r}")
    (x, c, y), (x2, c2, y2) = xi, xi2
    x, x2 = check_array("xi[0] (x)", x, nonempty=False), check_array("xi2[0] (x)", x2, nonempty=False)
    if x.shape != x2.shape or np.shape(c) != np.shape(c2):
        raise ValueError(f"xi and xi2 must have the same shapes, got x {x.shape} vs {x2.shape}, codes "
                         f"{np.shape(c)} vs {np.shape(c2)}")
    check_array("xi[2] (y)", y), check_array("xi2[2] (y)", y2)
    w = np.ones(x.shape) if x_weights is None else check_array("x_weights", x_weights, nonempty=False)
    if w.shape != x.shape or np.any(w <= 0):
        raise ValueError(f"x_weights must be {x.size} positive numbers, got {x_weights!r}")
    dx = float(np.sum(w * np.abs(x - x2)))
    dz = float(d_z(np.sum(np.asarray(c) != np.asarray(c2)), p))
    dy = float(y != y2) if task == "classification" else abs(float(y) - float(y2))
    return dx + kappa_z * dz + kappa_y * dy
