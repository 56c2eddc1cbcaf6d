"""Open-source stand-ins for the thesis's baselines (§5.4), each run at a stated time limit.

=====================  ==========================================  ===========================
thesis                 stand-in here                               function
=====================  ==========================================  ===========================
Knitro (local NLP)     scipy SLSQP (n <= 500) or successive        :func:`local_multistart`
+ multistart           linearisation (larger n), seeded starts
BARON (global NLP)     SCIP (pyscipopt), spatial branch and bound  :func:`scip_global`
CPLEX global QP        SCIP (pyscipopt)                            :func:`scip_global`
GUROBI MILP (sum-max)  HiGHS MILP (logical big-M reformulation)    :func:`summax_milp`
=====================  ==========================================  ===========================

"Restricted" runs (Tables 39, 41) are the same calls with ``time_limit`` = our UB + LB time (L5353).
Every result records the solver, its version, the time limit, the status, the best value found and
(for the global solvers) the proven bound; a value is NaN ("NA" in the thesis) when no feasible point
was found in the limit.
"""

from __future__ import annotations

import importlib.metadata
import time
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp, minimize

from safeguarded.convex_max.functions import lse, lse_grad, sum_of_max
from safeguarded.convex_max.instances import BallInstance, PolyInstance
from safeguarded.convex_max.lp import PolyhedronLP
from safeguarded.convex_max.polyhedron import objective
from safeguarded.solvers import solver_version
from safeguarded.validation import check_bool, check_choice, check_integer, check_positive, check_type

__all__ = ["BaselineResult", "local_multistart", "scip_global", "summax_milp", "x_bounds"]


@dataclass
class BaselineResult:
    value: float  #: best objective found (NaN: none in the limit)
    bound: float  #: proven upper bound (NaN for local solvers)
    time: float
    time_limit: float
    status: str
    solver: str
    solver_version: str
    starts: int = 1  #: local multistart: number of starts run
    first_best_start: int = 1  #: start at which the best value was first reached (thesis "start")
    stand_in_for: str = ""


def _feasible_ball(inst: BallInstance, norm: str, x: np.ndarray) -> np.ndarray:
    dx = x - inst.a
    if norm == "inf":
        return inst.a + np.clip(dx, -inst.rho, inst.rho)
    nx = np.linalg.norm(dx)
    return x if nx <= inst.rho else inst.a + dx * inst.rho / nx


def _local_ball(inst: BallInstance, norm: str, x0: np.ndarray, max_iter: int = 500):
    A, b, a, rho = inst.A, inst.b, inst.a, inst.rho
    if inst.n <= 500:
        fun = lambda x: -lse(A @ x + b)  # noqa: E731
        jac = lambda x: -(A.T @ lse_grad(A @ x + b))  # noqa: E731
        if norm == "inf":
            res = minimize(fun, x0, jac=jac, method="SLSQP", bounds=list(zip(a - rho, a + rho, strict=True)),
                           options={"maxiter": max_iter})
        else:
            con = {"type": "ineq", "fun": lambda x: rho**2 - (x - a) @ (x - a), "jac": lambda x: -2 * (x - a)}
            res = minimize(fun, x0, jac=jac, method="SLSQP", constraints=[con], options={"maxiter": max_iter})
        x = _feasible_ball(inst, norm, res.x)
        return float(lse(A @ x + b)), x
    # successive linearisation: x+ = argmax_{x in ball} grad'x, monotone for convex f
    x = x0
    val = float(lse(A @ x + b))
    for _ in range(max_iter):
        g = A.T @ lse_grad(A @ x + b)
        x_new = a + (rho * np.sign(g) if norm == "inf" else rho * g / max(np.linalg.norm(g), 1e-300))
        new = float(lse(A @ x_new + b))
        x, done = x_new, new <= val + 1e-10 * max(1.0, abs(val))
        val = max(val, new)
        if done:
            break
    return val, x


def _local_poly(inst: PolyInstance, x0: np.ndarray, lp: PolyhedronLP, max_iter: int = 500):
    D, d = inst.D, inst.d
    if inst.n <= 500:
        if inst.kind == "lse":
            fun = lambda x: -lse(inst.A @ x + inst.b)  # noqa: E731
            jac = lambda x: -(inst.A.T @ lse_grad(inst.A @ x + inst.b))  # noqa: E731
        elif inst.kind == "quad":
            Q = inst.L.T @ inst.L
            fun = lambda x: -(x @ Q @ x + inst.ell @ x)  # noqa: E731
            jac = lambda x: -(2 * Q @ x + inst.ell)  # noqa: E731
        else:
            fun, jac = (lambda x: -objective(inst, x)), None
        res = minimize(fun, x0, jac=jac, method="SLSQP", bounds=[(0, None)] * inst.n,
                       constraints=[{"type": "ineq", "fun": lambda x: d - D @ x, "jac": lambda x: -D}],
                       options={"maxiter": max_iter})
        x = np.maximum(res.x, 0)
        if np.all(D @ x <= d + 1e-7):
            return objective(inst, x), x
    x = lp.argmax(np.ones(inst.n))
    return objective(inst, x), x


def _check_common(inst, norm, time_limit) -> float:
    check_type("inst", inst, BallInstance | PolyInstance, "a BallInstance or a PolyInstance")
    check_choice("norm", norm, (None, "2", "inf"))
    return check_positive("time_limit", time_limit)


def local_multistart(inst, *, norm: str | None = None, max_starts: int = 20, time_limit: float = 10.0,
                     seed: int = 0) -> tuple[BaselineResult, BaselineResult]:
    """Knitro stand-in: a local solve from the centre (single start) and seeded random multistart.

    Returns ``(single, multistart)``; ``first_best_start`` is the start at which the multistart's best
    value (to 1e-4 relative) was first found, the thesis's "start" column.
    """
    time_limit = _check_common(inst, norm, time_limit)
    max_starts = check_integer("max_starts", max_starts, minimum=1)
    seed = check_integer("seed", seed, minimum=0)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    is_ball = isinstance(inst, BallInstance)
    lp = None if is_ball else PolyhedronLP(inst.D, inst.d, "local")
    if is_ball:
        x0 = inst.a.copy()
        draw = lambda: _feasible_ball(inst, norm, inst.a + inst.rho * rng.uniform(-1, 1, inst.n))  # noqa: E731
        run = lambda x: _local_ball(inst, norm, x)  # noqa: E731
    else:
        x0 = np.zeros(inst.n)
        # random feasible start: a random convex combination of 0 and a random LP vertex
        draw = lambda: rng.uniform() * lp.argmax(rng.normal(size=inst.n))  # noqa: E731
        run = lambda x: _local_poly(inst, x, lp)  # noqa: E731
    v1, _ = run(x0)
    t1 = time.perf_counter() - start
    single = BaselineResult(v1, np.nan, t1, time_limit, "local", "scipy-SLSQP", _ver("scipy"), 1, 1,
                            "Knitro (single start)")
    vals = [v1]
    while len(vals) < max_starts and time.perf_counter() - start < time_limit:
        vals.append(run(draw())[0])
    best = max(vals)
    first = next(i for i, v in enumerate(vals) if v >= best - 1e-4 * max(1.0, abs(best))) + 1
    multi = BaselineResult(best, np.nan, time.perf_counter() - start, time_limit, "local", "scipy-SLSQP",
                           _ver("scipy"), len(vals), first, "Knitro multistart")
    return single, multi


def _ver(pkg: str) -> str:
    try:
        return importlib.metadata.version(pkg)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def x_bounds(inst: PolyInstance) -> tuple[np.ndarray, np.ndarray]:
    """``0 <= x_i <= max{x_i : x in U}`` (n LPs) for big-M constants and solver bounds."""
    check_type("inst", inst, PolyInstance, "a PolyInstance")
    lp = PolyhedronLP(inst.D, inst.d, "x_bounds")
    hi = np.array([lp.argmax(np.eye(inst.n)[i])[i] for i in range(inst.n)])
    return np.zeros(inst.n), hi


def scip_global(inst, *, norm: str | None = None, time_limit: float = 10.0,
                stand_in_for: str = "BARON", log_form: bool = False) -> BaselineResult:
    """BARON / CPLEX-global stand-in: SCIP's spatial branch and bound on the original problem."""
    time_limit = _check_common(inst, norm, time_limit)
    if isinstance(inst, PolyInstance) and inst.kind not in ("lse", "quad"):
        raise ValueError(f"inst must be of kind 'lse' or 'quad' for scip_global, got kind={inst.kind!r}")
    check_type("stand_in_for", stand_in_for, str, "a string")
    log_form = check_bool("log_form", log_form)
    from pyscipopt import Model, exp, log, quicksum

    model = Model()
    model.hideOutput()
    model.setParam("limits/time", float(time_limit))
    n = inst.n
    if isinstance(inst, BallInstance):
        lo, hi = inst.a - inst.rho, inst.a + inst.rho
        x = [model.addVar(lb=float(lo[i]), ub=float(hi[i])) for i in range(n)]
        if norm != "inf":
            model.addCons(quicksum((x[i] - float(inst.a[i])) ** 2 for i in range(n)) <= inst.rho**2)
        A, b, kind = inst.A, inst.b, "lse"
    else:
        lo, hi = x_bounds(inst)
        x = [model.addVar(lb=0.0, ub=float(hi[i])) for i in range(n)]
        for row, rhs in zip(inst.D, inst.d, strict=True):
            nz = np.flatnonzero(row)
            model.addCons(quicksum(float(row[i]) * x[i] for i in nz) <= float(rhs))
        A, b, kind = inst.A, inst.b, inst.kind
    t = model.addVar(lb=None, ub=None)
    if kind == "lse":
        # t <= LSE(Ax + b)  <=>  Σ_j exp(A_(j) x + b_j - t) >= 1 (a reverse-convex constraint; measured:
        # SCIP 10 declares wrong "optimal" values with the log(Σ exp) form on Table 37 P2 / Table 40 P2)
        terms = [quicksum(float(A[j, i]) * x[i] for i in np.flatnonzero(A[j])) + float(b[j])
                 for j in range(A.shape[0])]
        if log_form:
            model.addCons(t <= log(quicksum(exp(e) for e in terms)))
        else:
            model.addCons(quicksum(exp(e - t) for e in terms) >= 1)
    elif kind == "quad":
        Q = inst.L.T @ inst.L
        model.addCons(t <= quicksum(float(Q[i, k]) * x[i] * x[k] for i in range(n) for k in range(n))
                      + quicksum(float(inst.ell[i]) * x[i] for i in range(n)))
    else:
        raise ValueError(f"kind must be 'lse' or 'quad' for scip_global, got kind={kind!r}")
    model.setObjective(t, "maximize")
    start = time.perf_counter()
    model.optimize()
    elapsed = time.perf_counter() - start
    status = model.getStatus()
    if model.getNSols() > 0:
        sol = model.getBestSol()
        xv = np.array([model.getSolVal(sol, v) for v in x])
        value = float(lse(A @ xv + b)) if kind == "lse" else objective(inst, xv)
    else:
        value = np.nan
    bound = float(model.getDualbound())
    return BaselineResult(value, bound, elapsed, time_limit, status, "SCIP", solver_version("SCIP"),
                          stand_in_for=stand_in_for)


def summax_milp(inst: PolyInstance, *, time_limit: float = 10.0) -> BaselineResult:
    """GUROBI stand-in: the logical (big-M) MILP of sum-of-max (Table 34 note) in HiGHS.

    ``max Σ_k t_k`` s.t. ``t_k <= A_(j) x + b_j + M_j (1 - z_j)``, ``Σ_{j in I_k} z_j = 1``, ``z`` binary,
    ``x in U``; ``M_j`` from interval bounds of ``A x`` over ``0 <= x <= x_max`` (:func:`x_bounds`).
    """
    check_type("inst", inst, PolyInstance, "a PolyInstance")
    if inst.kind != "summax":
        raise ValueError(f"inst must be a sum-of-max instance (kind 'summax'), got kind={inst.kind!r}")
    time_limit = check_positive("time_limit", time_limit)
    import scipy.sparse as sp

    A, b, D, d, J, K = inst.A, inst.b, inst.D, inst.d, inst.J, inst.K
    m, n = A.shape
    lo, hi = x_bounds(inst)
    row_hi = np.maximum(A, 0) @ hi + np.minimum(A, 0) @ lo + b  # upper bounds of A_(j) x + b_j
    row_lo = np.minimum(A, 0) @ hi + np.maximum(A, 0) @ lo + b
    blk = np.repeat(np.arange(K), J)
    M = row_hi.reshape(K, J).max(axis=1)[blk] - row_lo
    # variables [x (n), t (K), z (m)]
    cost = np.concatenate([np.zeros(n), -np.ones(K), np.zeros(m)])
    B = sp.csr_matrix((np.ones(m), (np.arange(m), blk)), shape=(m, K))
    rows_t = sp.hstack([-sp.csr_matrix(A), B, sp.diags(M)])  # t_k - A_j x + M_j z_j <= b_j + M_j
    rows_z = sp.hstack([sp.csr_matrix((K, n)), sp.csr_matrix((K, K)), B.T])
    rows_D = sp.hstack([sp.csr_matrix(D), sp.csr_matrix((D.shape[0], K + m))])
    cons = [LinearConstraint(rows_t, -np.inf, b + M), LinearConstraint(rows_z, 1, 1),
            LinearConstraint(rows_D, -np.inf, d)]
    bounds = Bounds(np.concatenate([lo, np.full(K, -np.inf), np.zeros(m)]),
                    np.concatenate([hi, np.full(K, np.inf), np.ones(m)]))
    integrality = np.concatenate([np.zeros(n + K), np.ones(m)])
    start = time.perf_counter()
    res = milp(cost, integrality=integrality, bounds=bounds, constraints=cons,
               options={"time_limit": float(time_limit)})
    elapsed = time.perf_counter() - start
    if res.x is not None:
        value = float(sum_of_max(A @ np.maximum(res.x[:n], 0) + b, J, K))
    else:
        value = np.nan
    dual = getattr(res, "mip_dual_bound", None)
    bound = -float(dual) if dual is not None else np.nan
    status = {0: "optimal", 1: "time_limit"}.get(res.status, f"status_{res.status}")
    return BaselineResult(value, bound, elapsed, time_limit, status, "HIGHS-MILP", solver_version("HIGHS"),
                          stand_in_for="GUROBI")
