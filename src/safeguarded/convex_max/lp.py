"""HiGHS models built natively (no cvxpy compile): the polyhedron checks, the scenario LPs (96) and
the large sparse LPs of Table 41.  Every solve checks the model status and records HiGHS's version."""

from __future__ import annotations

import time
from dataclasses import dataclass

import highspy
import numpy as np
import scipy.sparse as sp

from safeguarded.solvers import InfeasibleError, SolverError, UnboundedError, resolve_solver, solver_version
from safeguarded.validation import check_array, check_type

__all__ = ["LPResult", "solve_lp", "PolyhedronLP", "check_polyhedron"]

_INF = highspy.kHighsInf


@dataclass
class LPResult:
    x: np.ndarray
    objective: float
    status: str
    solve_time: float
    solver: str = "HIGHS"
    solver_version: str = ""


def check_solver(solver, problem_class: str) -> str | None:
    """``solver`` (None: the default) if it names an installed solver for ``problem_class``."""
    if solver is not None:
        check_type("solver", solver, str, "a solver name or None")
        resolve_solver(solver, problem_class)  # ValueError naming solver if not installed
    return solver


def _highs(options: dict | None = None) -> highspy.Highs:
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if options is not None:
        check_type("options", options, dict, "a dict of HiGHS options or None")
    for key, value in (options or {}).items():
        if h.setOptionValue(key, value) == highspy.HighsStatus.kError:
            raise ValueError(f"options must be valid HiGHS options, got {key}={value!r}")
    return h


def _pass(h: highspy.Highs, c, A: sp.spmatrix, row_lo, row_hi, col_lo, col_hi) -> None:
    A = sp.csc_matrix(A)
    lp = highspy.HighsLp()
    lp.num_col_ = A.shape[1]
    lp.num_row_ = A.shape[0]
    lp.col_cost_ = np.asarray(c, dtype=float)
    lp.col_lower_ = np.asarray(col_lo, dtype=float)
    lp.col_upper_ = np.asarray(col_hi, dtype=float)
    lp.row_lower_ = np.asarray(row_lo, dtype=float)
    lp.row_upper_ = np.asarray(row_hi, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A.indices.astype(np.int32)
    lp.a_matrix_.value_ = A.data.astype(float)
    status = h.passModel(lp)
    if status == highspy.HighsStatus.kError:
        raise SolverError("highs.passModel", "HIGHS", "error", "the model was rejected")


def _check(h: highspy.Highs, name: str) -> str:
    status = h.getModelStatus()
    text = h.modelStatusToString(status)
    if status == highspy.HighsModelStatus.kOptimal:
        return text
    if status == highspy.HighsModelStatus.kInfeasible:
        raise InfeasibleError(name, "HIGHS", text)
    if status in (highspy.HighsModelStatus.kUnbounded, highspy.HighsModelStatus.kUnboundedOrInfeasible):
        raise UnboundedError(name, "HIGHS", text)
    raise SolverError(name, "HIGHS", text)


def solve_lp(c, A, row_lo, row_hi, col_lo, col_hi, *, name: str, options: dict | None = None) -> LPResult:
    """``min c'x`` s.t. ``row_lo <= Ax <= row_hi``, ``col_lo <= x <= col_hi`` in HiGHS; status checked."""
    c = check_array("c", c, ndim=1)
    if sp.issparse(A):
        if A.ndim != 2:
            raise ValueError(f"A must be a 2-d matrix, got shape {A.shape}")
    else:
        A = check_array("A", A, ndim=2)
    m, n = A.shape
    if c.size != n:
        raise ValueError(f"c must have one entry per column of A ({n}), got length {c.size}")
    for lo_name, lo, hi_name, hi, size in (("row_lo", row_lo, "row_hi", row_hi, m),
                                           ("col_lo", col_lo, "col_hi", col_hi, n)):
        lo = check_array(lo_name, lo, shape=(size,), finite=False, nonempty=False)
        hi = check_array(hi_name, hi, shape=(size,), finite=False, nonempty=False)
        for side, v in ((lo_name, lo), (hi_name, hi)):
            if np.any(np.isnan(v)):
                raise ValueError(f"{side} must not contain NaN (use +-inf for a free side)")
        if np.any(lo > hi):
            raise ValueError(f"{lo_name} must be <= {hi_name} entrywise, got {lo_name} > {hi_name} at "
                             f"{int(np.argmax(lo > hi))}")
    check_type("name", name, str, "a string")
    h = _highs(options)
    _pass(h, c, A, row_lo, row_hi, col_lo, col_hi)
    start = time.perf_counter()
    h.run()
    elapsed = time.perf_counter() - start
    status = _check(h, name)
    x = np.asarray(h.getSolution().col_value)
    return LPResult(x, float(h.getInfo().objective_function_value), status, elapsed, "HIGHS",
                    solver_version("HIGHS"))


class PolyhedronLP:
    """``max g'x`` over ``U = {x >= 0 : Dx <= d}`` (96), built once and re-solved for many ``g``."""

    def __init__(self, D: np.ndarray, d: np.ndarray, name: str = "U"):
        self.n = D.shape[1]
        self.name = name
        self.h = _highs({"solver": "simplex"})
        _pass(self.h, np.zeros(self.n), sp.csc_matrix(D), np.full(len(d), -_INF), d, np.zeros(self.n),
              np.full(self.n, _INF))
        self.h.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self.solve_time = 0.0
        self.count = 0

    def argmax(self, g) -> np.ndarray:
        g = np.asarray(g, dtype=float)
        self.h.changeColsCost(self.n, np.arange(self.n, dtype=np.int32), g)
        start = time.perf_counter()
        self.h.run()
        self.solve_time += time.perf_counter() - start
        self.count += 1
        _check(self.h, f"{self.name}: LP (96)")
        return np.asarray(self.h.getSolution().col_value)

    def support(self, g) -> tuple[float, np.ndarray]:
        """``h_U(g) = max g'x`` over U and the optimal dual multipliers ``lambda >= 0`` of ``Dx <= d``
        (``D'lambda >= g``, ``d'lambda = h_U(g)`` by LP duality)."""
        x = self.argmax(g)
        lam = np.maximum(np.asarray(self.h.getSolution().row_dual), 0.0)
        return float(np.asarray(g, dtype=float) @ x), lam


def check_polyhedron(D: np.ndarray, d: np.ndarray) -> float:
    """Raise ValueError if ``U = {x >= 0 : Dx <= d}`` is empty or unbounded; return ``max 1'x`` on U.

    Since ``x >= 0``, U is bounded iff ``max 1'x`` over U is finite (one LP).
    """
    D = check_array("D", D, ndim=2)
    d = check_array("d", d).ravel()
    if D.shape[0] != d.size:
        raise ValueError(f"D must be a q×n matrix with q = len(d) = {d.size}, got D of shape {D.shape}")
    lp = PolyhedronLP(D, d, "check_polyhedron")
    try:
        x = lp.argmax(np.ones(D.shape[1]))
    except InfeasibleError as exc:
        raise ValueError("D, d: the polyhedron {x >= 0 : Dx <= d} is empty (infeasible)") from exc
    except UnboundedError as exc:
        raise ValueError("D, d: the polyhedron {x >= 0 : Dx <= d} is unbounded; Theorem 21 needs a "
                         "compact feasible set") from exc
    return float(x.sum())
