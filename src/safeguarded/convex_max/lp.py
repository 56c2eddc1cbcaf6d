"""HiGHS models built natively (no cvxpy compile): the polyhedron checks, the scenario LPs (96) and
the large sparse LPs of Table 41.  Every solve checks the model status and records HiGHS's version.

The generic pieces (:func:`~safeguarded.solvers.solve_lp`, the model helpers) live in
:mod:`safeguarded.solvers`; ``solve_lp`` and ``LPResult`` are re-exported here for this work's modules."""

from __future__ import annotations

import time

import highspy
import numpy as np
import scipy.sparse as sp

from safeguarded.solvers import (
    InfeasibleError,
    LPResult,
    UnboundedError,
    check_highs_status,
    highs_model,
    pass_lp,
    resolve_solver,
    solve_lp,
)
from safeguarded.validation import check_array, check_type

__all__ = ["LPResult", "solve_lp", "PolyhedronLP", "check_polyhedron"]

_INF = highspy.kHighsInf


def check_solver(solver, problem_class: str) -> str | None:
    """``solver`` (None: the default) if it names an installed solver for ``problem_class``."""
    if solver is not None:
        check_type("solver", solver, str, "a solver name or None")
        resolve_solver(solver, problem_class)  # ValueError naming solver if not installed
    return solver


class PolyhedronLP:
    """``max g'x`` over ``U = {x >= 0 : Dx <= d}`` (96), built once and re-solved for many ``g``."""

    def __init__(self, D: np.ndarray, d: np.ndarray, name: str = "U"):
        self.n = D.shape[1]
        self.name = name
        self.h = highs_model({"solver": "simplex"})
        pass_lp(self.h, np.zeros(self.n), sp.csc_matrix(D), np.full(len(d), -_INF), d, np.zeros(self.n),
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
        check_highs_status(self.h, f"{self.name}: LP (96)")
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
