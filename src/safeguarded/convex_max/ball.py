"""Log-sum-exp maximisation over a norm ball (thesis §5.2): Cor. 10 (2-norm) and Cor. 11 (∞-norm).

Corollary 10 (L5032–5073): the optimum of ``max LSE(Ax + b) s.t. ||x - a||_2 <= rho`` equals (79)
``sup_{w in simplex} rho ||A'w||_2 + (Aa + b)'w + H(w)``; its RLT + PSD relaxation (81) with the
optimal ``V = Diag(w)`` (log-sum-exp case) is the exponential-cone program

    max  rho · sqrt(Σ_i w_i ||A_(i)||²) + (Aa + b)'w + Σ_i entr(w_i)   s.t. w in simplex,

an upper bound; the lower-bound point is ``x* = a + rho A'w*/||A'w*||_2`` (on the sphere).

Corollary 11 (L5079–5110): over the box ``||x - a||_inf <= rho`` the optimum equals (82)
``sup_{w in simplex} rho ||A'w||_1 + (Aa + b)'w + H(w)``, a mixed-integer exponential-cone program.
Here it is solved exactly by outer approximation: a HiGHS MILP with binary signs of ``A'w``
(big-M from the range of ``A'w`` over the simplex) and tangent cuts of ``-w log w``, refined at each
MILP solution until the MILP bound meets the best vertex value ``LSE(A(a + rho s) + b)``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from scipy.optimize import Bounds, LinearConstraint, milp

from safeguarded.convex_max.functions import lse, lse_grad
from safeguarded.convex_max.instances import BallInstance
from safeguarded.convex_max.lp import check_solver
from safeguarded.solvers import SolverError, resolve_solver, solve, solve_with_retries, solver_version
from safeguarded.validation import check_integer, check_positive, check_type

__all__ = ["BallBounds", "cor10_bounds", "ExactBoxResult", "cor11_exact", "box_enumeration"]


@dataclass
class BallBounds:
    """Upper bound (81), lower-bound point x* and its value, timings and solver record."""

    upper: float
    lower: float
    x: np.ndarray
    w: np.ndarray
    ub_time: float
    lb_time: float
    wall_time: float
    solver: str
    solver_version: str
    status: str
    #: the objective of (81) evaluated at the returned (feasible) w: a certified lower estimate of the
    #: optimum of (81), so a printed UB below it is below the relaxation's optimum whatever the solver
    upper_at_w: float = float("nan")

    @property
    def time(self) -> float:
        return self.ub_time + self.lb_time


def cor10_bounds(inst: BallInstance, *, solver: str | None = None) -> BallBounds:
    """Corollary 10 for log-sum-exp over the 2-norm ball: UB of (81) with V = Diag(w), LB at x*."""
    check_type("inst", inst, BallInstance, "a BallInstance")
    check_solver(solver, "EXP")
    start = time.perf_counter()
    A, b, a, rho = inst.A, inst.b, inst.a, inst.rho
    row_sq = np.einsum("ij,ij->i", A, A)  # ||A_(i)||², tr(A'Diag(w)A) = row_sq'w
    c = A @ a + b
    w = cp.Variable(inst.m, nonneg=True)
    # hypograph of the square root with k normalised to mean 1: s² <= (k/kbar)'w, i.e.
    # ||(2s, k'w/kbar - 1)|| <= k'w/kbar + 1, objective rho·sqrt(kbar)·s.  Measured: the plain
    # cp.sqrt(k'w) >= s (or the unnormalised cone) makes Clarabel 0.11 fail outright on the m = 700 /
    # 1,000 instances (Table 37 P11, P12).
    kbar = float(row_sq.mean())
    s = cp.Variable()
    kw = (row_sq / kbar) @ w
    problem = cp.Problem(
        cp.Maximize(rho * np.sqrt(kbar) * s + c @ w + cp.sum(cp.entr(w))),
        [cp.sum(w) == 1, cp.SOC(kw + 1, cp.hstack([2 * s, kw - 1]))],
    )
    name = f"convex_max.cor10[{inst.name}]"
    try:
        record = solve_with_retries(problem, name=name, solver=solver, problem_class="EXP")
    except SolverError as exc:
        if exc.status != "solver_error" or resolve_solver(solver, "EXP") != "CLARABEL":
            raise
        record = solve(problem, name=name, solver=solver, problem_class="EXP", equilibrate_enable=False)
    w_star = np.clip(np.asarray(w.value).ravel(), 0.0, None)
    w_star /= w_star.sum()
    t0 = time.perf_counter()
    g = A.T @ w_star
    norm = np.linalg.norm(g)
    if norm == 0:
        raise SolverError(record.problem, record.solver, "degenerate", "A'w* = 0: no direction for x*")
    x = a + rho * g / norm
    lower = float(lse(A @ x + b))
    lb_time = time.perf_counter() - t0
    # (81)'s concave objective at the returned feasible w: a value (81) attains, so a lower estimate of
    # its optimum (``upper_at_w``); the reported bound stays the solver's optimum.
    positive = w_star[w_star > 0]
    upper_at_w = float(rho * np.sqrt(row_sq @ w_star) + c @ w_star - positive @ np.log(positive))
    return BallBounds(
        upper=record.objective, lower=lower, x=x, w=w_star, ub_time=record.solve_time, lb_time=lb_time,
        wall_time=time.perf_counter() - start, solver=record.solver, solver_version=record.solver_version,
        status=record.status, upper_at_w=upper_at_w,
    )


@dataclass
class ExactBoxResult:
    """Corollary 11 by outer approximation: value (best vertex), MILP bound, point, history."""

    value: float
    bound: float
    x: np.ndarray
    signs: np.ndarray
    iterations: int
    time: float
    status: str  #: "optimal" (bound - value <= tol) or "time_limit"
    solver: str = "HIGHS"
    solver_version: str = ""
    history: list = field(default_factory=list)


def _entropy_cut(w0: np.ndarray):
    """Tangent of h(w) = -w log w at w0: h(w) <= slope·w + icpt (h concave)."""
    w0 = np.clip(w0, 1e-12, 1.0)
    slope = -np.log(w0) - 1.0
    icpt = -w0 * np.log(w0) - slope * w0  # = w0
    return slope, icpt


def cor11_exact(
    inst: BallInstance, *, tol: float = 1e-6, time_limit: float = 600.0, max_iter: int = 200
) -> ExactBoxResult:
    """Global optimum of ``max LSE(Ax + b) s.t. ||x - a||_inf <= rho`` via (82)/(83) (Cor. 11).

    MILP variables ``(w, theta, t, z)``: ``w`` in the simplex, ``theta_j <= -w_j log w_j`` by tangent
    cuts, ``t_j <= |(A'w)_j|`` selected by binaries ``z_j`` (sign of ``(A'w)_j``) with big-M from the
    range of ``A'w`` over the simplex; objective ``rho Σ t + (Aa + b)'w + Σ theta``.  Each MILP's dual
    bound is a valid upper bound (the cuts over-estimate the entropy); the vertex
    ``x = a + rho s`` of its signs gives a lower bound ``LSE(A x + b)``; cuts are added at the MILP's
    ``w`` and at ``softmax(A x + b)`` until the gap is at most ``tol`` (relative to ``max(1, |value|)``).
    """
    check_type("inst", inst, BallInstance, "a BallInstance")
    tol = check_positive("tol", tol)
    time_limit = check_positive("time_limit", time_limit)
    max_iter = check_integer("max_iter", max_iter, minimum=1)
    start = time.perf_counter()
    A, b, a, rho = inst.A, inst.b, inst.a, inst.rho
    m, n = A.shape
    c = A @ a + b
    M1 = 2.0 * np.maximum(0.0, -A.min(axis=0))  # t_j <= y_j + M1 (1 - z_j)
    M2 = 2.0 * np.maximum(0.0, A.max(axis=0))  # t_j <= -y_j + M2 z_j
    nv = 2 * m + 2 * n  # [w, theta, t, z]
    iw, ith, iz = 0, m, 2 * m + n
    cost = np.concatenate([-c, -np.ones(m), -rho * np.ones(n), np.zeros(n)])
    lo = np.concatenate([np.zeros(m), np.zeros(m), np.full(n, -np.inf), np.zeros(n)])
    hi = np.concatenate([np.ones(m), np.full(m, np.exp(-1.0)), np.full(n, np.inf), np.ones(n)])
    integrality = np.concatenate([np.zeros(2 * m + n), np.ones(n)])
    In = sp.identity(n, format="csr")
    At = sp.csr_matrix(A.T)
    row_simplex = sp.hstack([sp.csr_matrix(np.ones((1, m))), sp.csr_matrix((1, m + 2 * n))])
    row_pos = sp.hstack([-At, sp.csr_matrix((n, m)), In, sp.diags(M1)])  # t - y + M1 z <= M1
    row_neg = sp.hstack([At, sp.csr_matrix((n, m)), In, sp.diags(-M2)])  # t + y - M2 z <= 0
    fixed = [
        LinearConstraint(row_simplex, 1.0, 1.0),
        LinearConstraint(sp.vstack([row_pos, row_neg]), -np.inf, np.concatenate([M1, np.zeros(n)])),
    ]
    cut_points = [np.full(m, p) for p in np.geomspace(1e-8, 1.0, 25)]
    best_val, best_s = -np.inf, None
    history = []
    bound = np.inf
    status = "time_limit"
    for it_ in range(1, max_iter + 1):
        pts = np.array(cut_points)  # (k, m)
        slope, icpt = _entropy_cut(pts)
        k = pts.shape[0]
        rows = np.arange(k * m)
        cols_w = np.tile(np.arange(m), k)
        Acut = sp.csr_matrix(
            (np.concatenate([-slope.ravel(), np.ones(k * m)]),
             (np.concatenate([rows, rows]), np.concatenate([iw + cols_w, ith + cols_w]))),
            shape=(k * m, nv),
        )
        remaining = time_limit - (time.perf_counter() - start)
        if remaining <= 0:
            break
        res = milp(
            cost, integrality=integrality, bounds=Bounds(lo, hi),
            constraints=fixed + [LinearConstraint(Acut, -np.inf, icpt.ravel())],
            options={"time_limit": remaining, "mip_rel_gap": 1e-9},
        )
        if res.status not in (0, 1):  # 1: time limit (the incumbent and the dual bound stay usable)
            raise SolverError(f"convex_max.cor11[{inst.name}]", "HIGHS", str(res.status), res.message)
        dual = getattr(res, "mip_dual_bound", None)
        if dual is not None and np.isfinite(dual):  # valid even at the time limit: cuts over-estimate H
            bound = min(bound, -float(dual))
        elif res.status == 0:
            bound = min(bound, -float(res.fun))
        if res.x is None:  # time limit before any incumbent
            break
        z = res.x[iz:iz + n] > 0.5
        s = np.where(z, 1.0, -1.0)
        xv = a + rho * s
        val = float(lse(A @ xv + b))
        if val > best_val:
            best_val, best_s = val, s
        history.append((it_, float(-res.fun), best_val))
        if res.status != 0:  # time limit inside the MILP: bound not proven
            break
        if bound - best_val <= tol * max(1.0, abs(best_val)):
            status = "optimal"
            break
        cut_points += [res.x[iw:iw + m], lse_grad(A @ xv + b)]
    if best_s is None:  # no incumbent within the time limit
        best_s = np.full(n, np.nan)
    return ExactBoxResult(
        value=best_val if np.isfinite(best_val) else np.nan, bound=bound, x=a + rho * best_s,
        signs=best_s, iterations=len(history),
        time=time.perf_counter() - start, status=status, solver="HIGHS",
        solver_version=solver_version("HIGHS"),
        history=history,
    )


def box_enumeration(inst: BallInstance, chunk: int = 1 << 16) -> tuple[float, np.ndarray]:
    """Brute force ``max_{s in {-1,1}^n} LSE(A(a + rho s) + b)`` over all 2^n vertices (n <= 22)."""
    check_type("inst", inst, BallInstance, "a BallInstance")
    chunk = check_integer("chunk", chunk, minimum=1)
    n = inst.n
    if n > 22:
        raise ValueError(f"inst must have n <= 22 for 2^n enumeration, got n={n}")
    base = inst.A @ inst.a + inst.b
    best, best_s = -np.inf, None
    bits = np.arange(n)
    for startidx in range(0, 1 << n, chunk):
        idx = np.arange(startidx, min(1 << n, startidx + chunk))
        S = np.where((idx[:, None] >> bits) & 1, 1.0, -1.0)
        vals = lse(base[None, :] + inst.rho * S @ inst.A.T, axis=1)
        j = int(np.argmax(vals))
        if vals[j] > best:
            best, best_s = float(vals[j]), S[j]
    return best, best_s
