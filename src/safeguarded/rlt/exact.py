"""Global optima of small instances, the independent reference every relaxation must bound from above.

* :func:`scip_global` — SCIP (pyscipopt) spatial branch-and-bound on the nonconvex problem (137);
* :func:`grid_maximum` — the best point of a fine grid (n <= 3), polished by a local solver: a
  feasible value, hence a lower bound on the global optimum that does not depend on SCIP;
* :func:`stqp_global_enumeration` — the exact StQP optimum by enumerating the KKT points on every
  support (the global maximiser of x^T Q x over the simplex is such a point; generic Q).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.optimize import minimize

from safeguarded.rlt.instances import QuadBarrierProblem, StQP
from safeguarded.validation import check_integer, check_positive, check_type

__all__ = ["scip_global", "grid_maximum", "stqp_global_enumeration", "simplex_grid", "box_grid"]


MAX_GRID_POINTS = 2_000_000  #: the largest grid :func:`simplex_grid` / :func:`box_grid` build (~50 MB)


def _check_grid_size(function: str, n: int, resolution: int, points: int, formula: str) -> None:
    if points > MAX_GRID_POINTS:
        raise ValueError(
            f"{function}(n={n}, resolution={resolution}) would have {formula} = {points:.3g} points, over "
            f"the limit of {MAX_GRID_POINTS:,} (safeguarded.rlt.exact.MAX_GRID_POINTS); lower n or resolution"
        )


def _compositions(parts: int, total: int):
    """Tuples of ``parts`` non-negative integers with sum <= ``total``, in lexicographic order."""
    if parts == 0:
        yield ()
        return
    for first in range(total + 1):
        for rest in _compositions(parts - 1, total - first):
            yield (first, *rest)


def simplex_grid(n: int, resolution: int) -> np.ndarray:
    """All points of the probability simplex in R^n with coordinates in {0, 1/r, ..., 1} (rows);
    C(r + n - 1, n - 1) of them, at most :data:`MAX_GRID_POINTS` (ValueError beyond)."""
    n = check_integer("n", n, minimum=1)
    resolution = check_integer("resolution", resolution, minimum=1)
    _check_grid_size("simplex_grid", n, resolution, math.comb(resolution + n - 1, n - 1),
                     f"C({resolution + n - 1}, {n - 1})")
    pts = list(_compositions(n - 1, resolution))
    arr = np.array(pts, dtype=float).reshape(len(pts), n - 1)
    return np.hstack([arr, resolution - arr.sum(axis=1, keepdims=True)]) / resolution


def box_grid(n: int, resolution: int) -> np.ndarray:
    """Grid of [-1, 1]^n with ``resolution`` + 1 points per axis (rows); at most
    :data:`MAX_GRID_POINTS` points (ValueError beyond)."""
    n = check_integer("n", n, minimum=1)
    resolution = check_integer("resolution", resolution, minimum=1)
    _check_grid_size("box_grid", n, resolution, (resolution + 1) ** n, f"{resolution + 1}^{n}")
    axis = np.linspace(-1.0, 1.0, resolution + 1)
    return np.array(list(itertools.product(axis, repeat=n)), dtype=float).reshape(-1, n)


def _polish(prob: QuadBarrierProblem, x0: np.ndarray) -> tuple[float, np.ndarray]:
    """Local maximisation from x0 (SLSQP on the polytope, staying inside the barrier's domain)."""
    A = prob.A.toarray()
    cons = [{"type": "ineq", "fun": lambda x: prob.b - A @ x - 1e-12}]
    if prob.simplex:
        cons.append({"type": "eq", "fun": lambda x: x.sum() - 1.0})

    def negobj(x):
        v = prob.objective(x)
        return -v if np.isfinite(v) else 1e12

    res = minimize(negobj, x0, method="SLSQP", constraints=cons, options={"ftol": 1e-12, "maxiter": 500})
    x = res.x
    feasible = np.all(A @ x <= prob.b + 1e-9) and (not prob.simplex or abs(x.sum() - 1) < 1e-9)
    value = prob.objective(x) if feasible else -np.inf
    start_value = prob.objective(x0)
    return (value, x) if value > start_value else (start_value, x0)


def grid_maximum(
    prob: QuadBarrierProblem, resolution: int = 200, polish: int = 5
) -> tuple[float, np.ndarray]:
    """Best objective over a grid of the feasible set (simplex or hypercube, n <= 3), then polished
    locally from the ``polish`` best grid points.  Returns (value, x); value <= global optimum."""
    check_type("prob", prob, QuadBarrierProblem, "a QuadBarrierProblem")
    resolution = check_integer("resolution", resolution, minimum=1)
    polish = check_integer("polish", polish, minimum=1)
    if prob.n > 3:
        raise ValueError(f"prob must have n <= 3 for grid_maximum, got n={prob.n}")
    if prob.simplex:
        pts = simplex_grid(prob.n, resolution)
    elif prob.name == "hypercube":
        pts = box_grid(prob.n, resolution)
    else:
        raise ValueError(f"grid_maximum supports simplex and hypercube instances, got {prob.name!r}")
    R = (pts - prob.c) @ prob.L.T
    f = np.einsum("ij,ij->i", R, R)
    arg = pts @ prob.barrier.G.T.toarray() + prob.barrier.h
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(np.all(arg > 0, axis=1), np.log(np.clip(arg, 1e-300, None)) @ prob.barrier.w, -np.inf)
    vals = f + g
    order = np.argsort(vals)[::-1][:polish]
    best = max((_polish(prob, pts[i]) for i in order), key=lambda t: t[0])
    return float(best[0]), best[1]


def scip_global(prob: QuadBarrierProblem, time_limit: float = 30.0, gap: float = 1e-7) -> dict:
    """Solve sup f(x) + g(x) s.t. Ax <= b globally with SCIP; returns value (primal), bound (dual),
    status, certified, x, and the SCIP version.  Raises RuntimeError if SCIP finds no feasible point."""
    check_type("prob", prob, QuadBarrierProblem, "a QuadBarrierProblem")
    time_limit = check_positive("time_limit", time_limit)
    gap = check_positive("gap", gap, allow_zero=True)
    import pyscipopt
    from pyscipopt import Model, log, quicksum

    n = prob.n
    model = Model("rlt_global")
    model.hideOutput()
    model.setParam("limits/time", float(time_limit))
    model.setParam("limits/gap", float(gap))
    model.setParam("parallel/maxnthreads", 1) if "parallel/maxnthreads" in model.getParams() else None
    x = [model.addVar(f"x{i}", lb=-1.0 if not prob.simplex else 0.0, ub=1.0) for i in range(n)]
    A = prob.A.toarray()
    for row, rhs in zip(A, prob.b, strict=True):
        model.addCons(quicksum(float(a) * x[j] for j, a in enumerate(row) if a != 0) <= float(rhs))
    if prob.simplex:
        model.addCons(quicksum(x) == 1)
    G = prob.barrier.G.toarray()
    u = []
    for k, (row, h) in enumerate(zip(G, prob.barrier.h, strict=True)):
        uk = model.addVar(f"u{k}", lb=1e-9, ub=None)
        model.addCons(uk == quicksum(float(a) * x[j] for j, a in enumerate(row) if a != 0) + float(h))
        u.append(uk)
    r = [model.addVar(f"r{i}", lb=None, ub=None) for i in range(prob.L.shape[0])]
    Lc = prob.L @ prob.c
    for i in range(len(r)):
        model.addCons(r[i] == quicksum(float(prob.L[i, j]) * x[j] for j in range(n)) - float(Lc[i]))
    t = model.addVar("t", lb=None, ub=None)
    objective = quicksum(ri * ri for ri in r) + quicksum(
        float(w) * log(uk) for w, uk in zip(prob.barrier.w, u, strict=True)
    )
    model.addCons(t <= objective)
    model.setObjective(t, "maximize")
    model.optimize()
    if model.getNSols() == 0:
        raise RuntimeError(f"SCIP found no feasible point (status {model.getStatus()})")
    sol = model.getBestSol()
    xv = np.array([model.getSolVal(sol, xi) for xi in x])
    return {
        "value": float(prob.objective(xv)),
        "bound": float(model.getDualbound()),
        "status": model.getStatus(),
        # 'gaplimit' means solved to the requested relative gap: a certified global optimum
        "certified": model.getStatus() in ("optimal", "gaplimit"),
        "x": xv,
        "solver": "SCIP",
        "solver_version": pyscipopt.__version__,
    }


def stqp_global_enumeration(stqp: StQP, max_n: int = 12) -> tuple[float, np.ndarray]:
    """max x^T Q x over the simplex by enumerating supports S: on S the maximiser solves
    Q_SS x_S = mu 1, 1^T x_S = 1 (KKT on the face's relative interior); keep the feasible ones."""
    check_type("stqp", stqp, StQP, "an StQP")
    max_n = check_integer("max_n", max_n, minimum=1)
    n = stqp.n
    if n > max_n:
        raise ValueError(f"n must be <= max_n={max_n} for support enumeration (2^n supports), got n={n}")
    Q = stqp.Q
    best, best_x = -np.inf, None
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            S = list(S)
            K = np.zeros((size + 1, size + 1))
            K[:size, :size] = Q[np.ix_(S, S)]
            K[:size, size] = -1.0
            K[size, :size] = 1.0
            rhs = np.zeros(size + 1)
            rhs[size] = 1.0
            try:
                sol = np.linalg.solve(K, rhs)
            except np.linalg.LinAlgError:
                continue
            xs = sol[:size]
            if np.all(xs >= -1e-12):
                x = np.zeros(n)
                x[S] = np.clip(xs, 0, None)
                x /= x.sum()
                v = stqp.objective(x)
                if v > best:
                    best, best_x = v, x
    return float(best), best_x
