"""The ``"cutting_plane"`` method of :func:`safeguarded.dp_noise.bounds.upper_bound` / ``lower_bound``:
Algorithm 1 (L819).  Solve a relaxation with the event constraints found so far, add for every shift the
most violated event (the separation of Algorithm 2, vectorised over fine cells), re-solve warm-started
with HiGHS dual simplex, until no shortfall exceeds ``tol``.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from safeguarded.dp_noise._lp_problem import (
    SOLVER_NAME,
    _add_rows,
    _cut_row,
    _highs,
    _monotone_rows,
    _Problem,
    _run,
    privacy_shortfalls,
)
from safeguarded.solvers import SolverError


def _solve_cutting_plane(
    prob: _Problem, name: str, monotone: bool, tol: float, max_rounds: int, cuts: str, max_seconds: float
):
    """Algorithm 1 (L819) with the vectorised separation; warm-started HiGHS dual simplex."""
    import highspy

    inf = highspy.kHighsInf
    n = prob.n
    h = _highs(n, prob.costs)
    h.setOptionValue("solver", "simplex")
    _add_rows(h, sp.csr_matrix(np.ones((1, n))), np.ones(1), np.ones(1))
    n_rows = 1
    if monotone:
        mono = _monotone_rows(prob, n)
        _add_rows(h, mono, np.full(mono.shape[0], -inf), np.zeros(mono.shape[0]))
        n_rows += mono.shape[0]
    history = []
    start = time.perf_counter()
    for rnd in range(1, max_rounds + 1):
        p, obj = _run(h, name)
        p = np.clip(p, 0.0, None)
        shifts, vals, events = privacy_shortfalls(prob, p)
        viol = vals - prob.delta
        worst = float(viol.max())
        history.append((rnd, obj, worst))
        if worst <= tol:
            return p, obj, rnd, n_rows, history
        if time.perf_counter() - start > max_seconds:
            raise SolverError(
                name, SOLVER_NAME, "time_limit", f"max shortfall {worst:.3g} after {rnd} rounds"
            )
        if cuts == "max":
            pick = [int(np.argmax(viol))]
        else:  # every shift with a positive shortfall
            pick = list(np.nonzero(viol > tol)[0])
        rows = np.array([_cut_row(prob, int(shifts[r]), events[r]) for r in pick])
        rows[np.abs(rows) < 1e-15] = 0.0
        _add_rows(h, sp.csr_matrix(rows), np.full(len(pick), -inf), np.full(len(pick), prob.delta))
        n_rows += len(pick)
    raise SolverError(name, SOLVER_NAME, "iteration_limit", f"no convergence in {max_rounds} rounds")
