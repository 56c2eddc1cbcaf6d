"""The baseline the paper argues against (Section 6.2): (OPT) (16a-f) as a generalized linear-
fractional program, solved by bisection on beta with an LP feasibility problem per step.

At a fixed beta the constraints (16b)-(16f) of binary decisions are linear in x = D~_1 (D~_0 = 1 - x,
(16f)). With one auxiliary variable s_T = sum_{x in T} P(x) x per QID group (so that every row has
two non-zeros instead of |T|):

    sum_{x in T} P(x) x - s_T = 0                                    (definition of s_T)
    P(x) x - beta s_T <= 0                                           (16b), a = 1
    -P(x) x + beta s_T <= beta sum_T P - P(x)                        (16b), a = 0
    lo(x) <= x <= hi(x)                                              (16c)-(16e), box (47)

P is rescaled to sum to one inside every group (the confidence ratio is scale-free), which keeps the
LPs well conditioned. Three drivers:

* :func:`lp_bisection_group` / :func:`lp_bisection_per_group`: one bisection per QID group
  (OPT-Sub), each step one small feasibility LP;
* :func:`lp_bisection_monolithic`: one bisection for the whole table, each step one LP over all
  records with a common beta (the paper's complexity argument, n = |R_X| variables);
* :func:`lp_bisection_batched`: every group's bisection advanced together, each step one *elastic*
  LP (min sum_T e_T with every row of group T relaxed by e_T >= 0); since the LP separates by group,
  group T is feasible at its beta_T iff e_T = 0. Used by the tests as a fast independent oracle.

LPs are solved by HiGHS through ``scipy.optimize.linprog(method="highs")`` (recorded as
:data:`SOLVER`); a status other than optimal/infeasible raises :class:`safeguarded.solvers.SolverError`.
"""

from __future__ import annotations

import importlib.metadata
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from safeguarded.atr._checks import check_group_codes, check_prob_vector, check_unit_array
from safeguarded.atr.table import Segments
from safeguarded.solvers import SolverError
from safeguarded.validation import check_positive

__all__ = [
    "SOLVER",
    "LPBisectionResult",
    "lp_bisection_group",
    "lp_bisection_per_group",
    "lp_bisection_monolithic",
    "lp_bisection_batched",
    "lp_bisection_group_cvxpy",
]

SOLVER = f"HIGHS via scipy {importlib.metadata.version('scipy')} linprog(method='highs')"
_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10, "presolve": True}


@dataclass(frozen=True)
class LPBisectionResult:
    """beta* (per group or overall), the number of LPs solved and the wall time (s)."""

    beta: np.ndarray
    n_lps: int
    wall_time: float
    solver: str = SOLVER


def _prepare(p, lo, hi, group):
    p = check_prob_vector("p", p)
    lo = check_unit_array("lo", lo, p.size)
    hi = check_unit_array("hi", hi, p.size)
    _check_box(lo, hi)
    group = check_group_codes("group", group, p.size)
    segs = Segments.from_codes(group)
    ps = segs.sort(p)
    tot = segs.sum(ps)
    if np.any(tot <= 0):
        raise ValueError("every QID group must have positive probability mass (p), got an empty group")
    return segs, ps / tot[segs.seg], segs.sort(lo), segs.sort(hi)


def _group_proportions(p: np.ndarray) -> np.ndarray:
    """The group's record probabilities rescaled to sum to one (only proportions matter)."""
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
        raise ValueError("p must be a non-empty 1-D array of probabilities >= 0 with positive sum")
    return p / p.sum()


def _check_box(lo, hi) -> None:
    if np.any(lo > hi):
        i = int(np.flatnonzero(lo > hi)[0])
        raise ValueError(f"lo must be <= hi (an empty fidelity box), got lo={lo[i]!r} > hi={hi[i]!r} at {i}")


def _check_tol(tol):
    if not (isinstance(tol, float | int) and 0 < tol < 0.5):
        raise ValueError(f"tol must be in (0, 0.5), got tol={tol!r}")


def _solve(c, A_ub, b_ub, A_eq, b_eq, bounds, name) -> tuple[bool, np.ndarray | None]:
    """One LP; a status other than optimal (0) or infeasible (2) is retried with presolve off and then
    with HiGHS's interior-point method, then raises SolverError."""
    for method, presolve in (("highs", True), ("highs", False), ("highs-ipm", True)):
        res = linprog(
            c,
            A_ub=A_ub,
            b_ub=b_ub,
            A_eq=A_eq,
            b_eq=b_eq,
            bounds=bounds,
            method=method,
            options={**_OPTIONS, "presolve": presolve},
        )
        if res.status == 0:
            return True, res.x
        if res.status == 2:
            return False, None
    raise SolverError(name, SOLVER, f"status {res.status}", res.message)


def _row_scale(jmax, seg, G):
    """Per-group scale of an outcome's rows: its largest possible mass sum_T P D~_a max."""
    w = np.bincount(seg, weights=jmax, minlength=G)
    return np.where(w > 0, w, 1.0)


def _feasibility_lp(pn, lo, hi, seg, n_groups, beta_rec, elastic: bool):
    """The LP at per-record beta (beta of the record's group). Returns (feasible, e) — e per group
    when ``elastic`` (then always feasible), else None.

    Rows of outcome a are divided by :func:`_row_scale`, so that HiGHS's absolute feasibility
    tolerance acts on a ratio
    and not on joint probabilities that may be tiny."""
    n = pn.size
    G = n_groups
    rows = np.arange(n)
    w1 = _row_scale(pn * hi, seg, G)
    w0 = _row_scale(pn * (1.0 - lo), seg, G)
    r1 = (1.0 / np.where(w1 > 0, w1, 1.0))[seg]
    r0 = (1.0 / np.where(w0 > 0, w0, 1.0))[seg]
    # columns: x (n), s (G), [e (G)]
    ncol = n + G + (G if elastic else 0)
    data = [pn * r1, -beta_rec * r1, -pn * r0, beta_rec * r0]
    ri = [rows, rows, n + rows, n + rows]
    ci = [rows, n + seg, rows, n + seg]
    if elastic:
        data += [-np.ones(n), -np.ones(n)]
        ri += [rows, n + rows]
        ci += [n + G + seg, n + G + seg]
    A_ub = sp.csr_matrix(
        (np.concatenate(data), (np.concatenate(ri), np.concatenate(ci))), shape=(2 * n, ncol)
    )
    b_ub = np.concatenate([np.zeros(n), (beta_rec - pn) * r0])  # group mass is 1 after rescaling
    A_eq = sp.csr_matrix(
        (
            np.concatenate([pn, -np.ones(G)]),
            (np.concatenate([seg, np.arange(G)]), np.concatenate([rows, n + np.arange(G)])),
        ),
        shape=(G, ncol),
    )
    bounds = np.zeros((ncol, 2))
    bounds[:n, 0], bounds[:n, 1] = lo, hi
    bounds[n : n + G] = (0.0, 1.0)
    if elastic:
        bounds[n + G :] = (0.0, np.inf)
    c = np.zeros(ncol)
    if elastic:
        c[n + G :] = 1.0
    ok, z = _solve(c, A_ub, b_ub, A_eq, np.zeros(G), bounds, "atr.OPT feasibility LP")
    if elastic:
        if not ok:
            raise SolverError("atr.OPT elastic LP", SOLVER, "infeasible", "the elastic LP is always feasible")
        return True, z[n + G :]
    return ok, None


def lp_bisection_group(p, lo, hi, *, tol: float = 1e-9) -> tuple[float, int]:
    """beta*_T of one QID group by bisection on [0, 1] (beta = 1 is always feasible). Returns
    (beta*, number of LPs). ``p`` need not sum to one here (only the group's proportions matter)."""
    _check_tol(tol)
    p = np.asarray(p, dtype=float)
    pn = _group_proportions(p)
    lo = check_unit_array("lo", lo, p.size)
    hi = check_unit_array("hi", hi, p.size)
    _check_box(lo, hi)
    seg = np.zeros(p.size, dtype=np.intp)
    a, b, k = 0.0, 1.0, 0
    while b - a > tol:
        mid = 0.5 * (a + b)
        ok, _ = _feasibility_lp(pn, lo, hi, seg, 1, np.full(p.size, mid), elastic=False)
        k += 1
        a, b = (a, mid) if ok else (mid, b)
    return b, k


def lp_bisection_per_group(p, lo, hi, group, *, tol: float = 1e-9) -> LPBisectionResult:
    """beta*_T of every QID group, one bisection (OPT-Sub LPs) per group (groups in sorted-code order)."""
    _check_tol(tol)
    segs, pn, los, his = _prepare(p, lo, hi, group)
    start = time.perf_counter()
    ends = np.append(segs.starts[1:], segs.n)
    out, n_lps = np.empty(segs.n_groups), 0
    for g, (i, j) in enumerate(zip(segs.starts, ends, strict=True)):
        out[g], k = lp_bisection_group(pn[i:j], los[i:j], his[i:j], tol=tol)
        n_lps += k
    return LPBisectionResult(out, n_lps, time.perf_counter() - start)


def lp_bisection_monolithic(p, lo, hi, group, *, tol: float = 1e-9) -> LPBisectionResult:
    """beta* of (OPT) for the whole table: one bisection, each step one LP over all records."""
    _check_tol(tol)
    segs, pn, los, his = _prepare(p, lo, hi, group)
    start = time.perf_counter()
    a, b, k = 0.0, 1.0, 0
    while b - a > tol:
        mid = 0.5 * (a + b)
        ok, _ = _feasibility_lp(pn, los, his, segs.seg, segs.n_groups, np.full(segs.n, mid), elastic=False)
        k += 1
        a, b = (a, mid) if ok else (mid, b)
    return LPBisectionResult(np.array([b]), k, time.perf_counter() - start)


def lp_bisection_batched(
    p, lo, hi, group, *, tol: float = 1e-9, feas_tol: float = 1e-11
) -> LPBisectionResult:
    """beta*_T of every group, all bisections advanced together by one elastic LP per step.

    Group T counts as feasible at its current beta_T when its elastic variable e_T <= ``feas_tol``
    (joint-probability units, group mass 1).
    """
    _check_tol(tol)
    feas_tol = check_positive("feas_tol", feas_tol)
    segs, pn, los, his = _prepare(p, lo, hi, group)
    start = time.perf_counter()
    G = segs.n_groups
    a, b, k = np.zeros(G), np.ones(G), 0
    while np.max(b - a) > tol:
        mid = 0.5 * (a + b)
        _, e = _feasibility_lp(pn, los, his, segs.seg, G, mid[segs.seg], elastic=True)
        k += 1
        ok = e <= feas_tol
        a, b = np.where(ok, a, mid), np.where(ok, mid, b)
    return LPBisectionResult(b, k, time.perf_counter() - start)


def lp_bisection_group_cvxpy(p, lo, hi, *, tol: float = 1e-7, solver: str | None = None):
    """beta*_T of one group by bisection, the feasibility LP built once in cvxpy with beta as a
    ``cp.Parameter`` (DPP) and solved through :func:`safeguarded.solvers.solve` (default HiGHS).

    A cross-check of the scipy/HiGHS drivers through the repository's solver layer (cvxpy's default
    HiGHS tolerances make it accurate to about 1e-6 in beta). Returns (beta*, n_lps, solver name).
    """
    import cvxpy as cp

    from safeguarded.solvers import InfeasibleError, resolve_solver, solve

    _check_tol(tol)
    resolve_solver(solver, "LP")  # ValueError naming solver unless installed
    p = np.asarray(p, dtype=float)
    pn = _group_proportions(p)
    lo = check_unit_array("lo", lo, p.size)
    hi = check_unit_array("hi", hi, p.size)
    _check_box(lo, hi)
    x, s = cp.Variable(p.size), cp.Variable()
    beta = cp.Parameter(nonneg=True)
    cons = [
        pn @ x == s,
        cp.multiply(pn, x) <= beta * s,  # (16b), a = 1
        -cp.multiply(pn, x) + beta * s <= beta - pn,  # (16b), a = 0 (group mass 1)
        x >= lo,
        x <= hi,
    ]
    prob = cp.Problem(cp.Minimize(0), cons)
    a, b, k, used = 0.0, 1.0, 0, ""
    while b - a > tol:
        beta.value = 0.5 * (a + b)
        k += 1
        try:
            used = solve(prob, name="atr.OPT-Sub feasibility", solver=solver, problem_class="LP").solver
            a, b = a, beta.value
        except InfeasibleError:
            a, b = beta.value, b
    return b, k, used
