"""Checks of thesis §5's theorems, corollaries and remarks on small constructed instances.

Each public ``*_check(seed)`` draws small log-sum-exp (or quadratic / sum-of-max) instances, computes a
statement's two sides by independent methods (brute force over the feasible set's boundary or vertices,
a grid over dom f*, a different solver or formulation) and returns a dict with ``holds`` and the numbers
behind it; ``notebooks/convex_max_theorems.ipynb`` registers them and ``statements.RESULTS`` lists which
statement each one checks.  Solvers are named in every call (Clarabel for conic models, HiGHS for LPs).

* Theorem 19 with Corollaries 10-12 and Remark 3 (L4979-L5118): max f(Ax + b) over a p-norm ball
  (brute force on its boundary) equals sup_w rho ||A'w||_q + a'A'w + b'w - f*(w) (a grid over the
  simplex), and x = argsup{(A'w)'x : x in U} at the maximising w attains it;
* Corollary 10 and L5073-L5075: (81) bounds the optimum from above, x* from below, x* lies on the sphere,
  and (81) with a full V and its semidefinite constraint has the optimum of V = Diag(w);
* Corollary 11 (L5079-L5083): the mixed-integer form (82) equals vertex enumeration of the box;
* Theorem 20 (L5135, in its polyhedral form (93)): max over a polygon (vertex enumeration) equals
  sup_w min{d'lambda : D'lambda >= A'w, lambda >= 0} + b'w - f*(w) (an LP per w);
* L5170-L5178: the static relaxation (90) is an upper bound;
* Theorem 21 (L5222-L5231): (95) bounds (91) from above for log-sum-exp, quadratic and sum-of-max
  objectives (vertex enumeration), and the scenario bound (96)-(99) from below;
* Remark 5 (L5237): the adversarial (constraint-generation) approach ends at (95)'s optimum;
* Corollaries 13 and 14 (L5647-L5698): the exponential-cone program (118) yields a point feasible in (95)
  with log-sum-exp's perspective evaluated directly, and the cone programs of (97)-(99) return the closed
  form softmax scenarios.
"""

from __future__ import annotations

import itertools

import cvxpy as cp
import numpy as np
from scipy.optimize import minimize, minimize_scalar
from scipy.special import logsumexp

from safeguarded.convex_max.ball import box_enumeration, cor10_bounds, cor11_exact
from safeguarded.convex_max.instances import BallInstance, PolyInstance
from safeguarded.convex_max.polyhedron import (
    lse_scenarios,
    lse_upper_bound,
    objective,
    poly_bounds,
    summax_upper_bound,
)
from safeguarded.solvers import solve, solve_lp
from safeguarded.validation import check_integer

__all__ = [
    "ball_check",
    "cor10_relaxation_check",
    "cor11_check",
    "theorem20_check",
    "static_relaxation_check",
    "theorem21_check",
    "remark5_check",
    "corollary13_check",
    "corollary14_check",
]


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(check_integer("seed", seed, minimum=0))


def _negent(w: np.ndarray) -> np.ndarray:
    """f*(w) of log-sum-exp on the simplex, sum_j w_j log w_j (rows of ``w``)."""
    w = np.atleast_2d(w)
    return np.sum(np.where(w > 0, w * np.log(np.where(w > 0, w, 1.0)), 0.0), axis=1)


def _ball(rng: np.random.Generator, n: int, m: int) -> BallInstance:
    return BallInstance(
        A=rng.normal(size=(m, n)),
        b=rng.normal(size=m),
        a=rng.normal(size=n),
        rho=float(rng.uniform(0.5, 2.0)),
    )


def _unit(v: np.ndarray, p: float) -> np.ndarray:
    return v / np.linalg.norm(v, ord=p, axis=-1, keepdims=True)


def _holder(g: np.ndarray, p: float) -> np.ndarray:
    """argmax of g'u over ||u||_p <= 1 (Hölder's equality case)."""
    if np.isinf(p):
        return np.where(g >= 0, 1.0, -1.0)
    if p == 1:
        u = np.zeros_like(g)
        k = int(np.argmax(np.abs(g)))
        u[k] = np.sign(g[k]) or 1.0
        return u
    q = p / (p - 1)
    return _unit(np.sign(g) * np.abs(g) ** (q - 1), p)


def _primal_ball(inst: BallInstance, p: float) -> float:
    """max LSE(Ax + b) over ||x - a||_p <= rho for n = 2: the box's vertices (p = inf), else a dense grid of
    the boundary (a convex function is maximal there) refined by a bounded scalar search."""
    A, b, a, rho = inst.A, inst.b, inst.a, inst.rho
    if np.isinf(p):
        return max(
            float(logsumexp(A @ (a + rho * np.array(s)) + b)) for s in itertools.product((-1, 1), repeat=2)
        )

    def F(phi):
        u = _unit(np.stack([np.cos(phi), np.sin(phi)], axis=-1), p)
        return logsumexp((a + rho * u) @ A.T + b, axis=-1)

    grid = np.linspace(0.0, 2 * np.pi, 20_001)
    vals = F(grid)
    k = int(np.argmax(vals))
    res = minimize_scalar(
        lambda t: -float(F(np.array(t))),
        bounds=(grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]),
        method="bounded",
        options={"xatol": 1e-13},
    )
    return max(float(vals[k]), -res.fun)


def _dual_ball(inst: BallInstance, p: float) -> tuple[float, np.ndarray]:
    """(84): sup over the simplex (m = 3) of rho ||A'w||_q + (Aa + b)'w - f*(w), by a grid of step 1/300
    and a Nelder-Mead refinement; returns the value and the maximising w."""
    A, b, a, rho = inst.A, inst.b, inst.a, inst.rho
    q = 1.0 if np.isinf(p) else (np.inf if p == 1 else p / (p - 1))
    c = A @ a + b

    def G(W):
        W = np.atleast_2d(W)
        return rho * np.linalg.norm(W @ A, ord=q, axis=1) + W @ c - _negent(W)

    h = 300
    i, j = np.meshgrid(np.arange(h + 1), np.arange(h + 1), indexing="ij")
    keep = i + j <= h
    W = np.stack([i[keep], j[keep], h - i[keep] - j[keep]], axis=1) / h
    vals = G(W)
    w0 = W[int(np.argmax(vals))]

    def neg(t):
        w = np.array([t[0], t[1], 1 - t[0] - t[1]])
        return np.inf if np.any(w < 0) else -float(G(w)[0])

    res = minimize(
        neg, w0[:2], method="Nelder-Mead", options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 4000}
    )
    best = max(float(vals.max()), -res.fun)
    w = np.array([*res.x, 1 - res.x.sum()]) if -res.fun >= vals.max() else w0
    return best, w


def ball_check(seed) -> dict:
    """Theorem 19 through Corollaries 10 (p = 2), 11 (p = inf) and 12 (p = 3) on 3 random instances each
    (n = 2, m = 3): the primal maximum against (84), and f(A x_bar + b) at x_bar = a + rho u, u Hölder's
    maximiser of (A'w_bar)'u (Remark 3, (78)), against the same value."""
    rng = _rng(seed)
    rows = []
    for p in (2.0, np.inf, 3.0):
        for _ in range(3):
            inst = _ball(rng, 2, 3)
            primal = _primal_ball(inst, p)
            dual, w = _dual_ball(inst, p)
            x_bar = inst.a + inst.rho * _holder(inst.A.T @ w, p)
            rows.append(
                {
                    "p": p,
                    "primal (72)": primal,
                    "dual (84)": dual,
                    "f at recovered x": float(logsumexp(inst.A @ x_bar + inst.b)),
                }
            )
    gap = max(abs(r["primal (72)"] - r["dual (84)"]) / max(1.0, abs(r["primal (72)"])) for r in rows)
    rec = max(abs(r["primal (72)"] - r["f at recovered x"]) / max(1.0, abs(r["primal (72)"])) for r in rows)
    return {
        "rows": rows,
        "max_rel_gap": gap,
        "max_rel_gap_recovered": rec,
        "holds": gap <= 1e-6,
        "recovered": rec <= 1e-5,
    }


def _full_81(inst: BallInstance) -> float:
    """(81) with a full symmetric V, the RLT products of the simplex's constraints and the semidefinite
    constraint [[V, w], [w', 1]] >= 0 (Clarabel: SDP with exponential cones)."""
    m = inst.m
    alphas = np.vstack([-np.eye(m), np.ones((1, m)), -np.ones((1, m))])
    betas = np.concatenate([np.zeros(m), [1.0], [-1.0]])
    M = cp.Variable((m + 1, m + 1), PSD=True)
    V, w = M[:m, :m], M[:m, m]
    cons = [M[m, m] == 1, alphas @ w <= betas]
    for i in range(len(betas)):
        for j in range(i, len(betas)):
            cons.append(
                alphas[i] @ V @ alphas[j]
                - (betas[i] * alphas[j] + betas[j] * alphas[i]) @ w
                + betas[i] * betas[j]
                >= 0
            )
    c = inst.A @ inst.a + inst.b
    obj = inst.rho * cp.sqrt(cp.trace(inst.A.T @ V @ inst.A)) + c @ w + cp.sum(cp.entr(w))
    prob = cp.Problem(cp.Maximize(obj), cons)
    return solve(prob, name="convex_max.theorems.full81", solver="CLARABEL", problem_class="SDP").objective


def cor10_relaxation_check(seed) -> dict:
    """Corollary 10's bounds on 4 random instances (n = 2, m = 3): LB = f(x*) <= max (boundary brute force)
    <= UB (81) with V = Diag(w) (``cor10_bounds``); ||x* - a||_2 = rho (L5075); and (81) with a full V and
    the semidefinite constraint has the same optimum (L5073: the constraint is redundant, V* = Diag(w))."""
    rng = _rng(seed)
    rows = []
    for _ in range(4):
        inst = _ball(rng, 2, 3)
        bounds = cor10_bounds(inst, solver="CLARABEL")
        rows.append(
            {
                "LB": bounds.lower,
                "max": _primal_ball(inst, 2.0),
                "UB (V = Diag(w))": bounds.upper,
                "UB (full V, SDP)": _full_81(inst),
                "||x* - a|| - rho": float(np.linalg.norm(bounds.x - inst.a) - inst.rho),
            }
        )
    tol = 1e-6
    bracket = all(r["LB"] <= r["max"] + tol and r["max"] <= r["UB (V = Diag(w))"] + tol for r in rows)
    diag = max(
        abs(r["UB (full V, SDP)"] - r["UB (V = Diag(w))"]) / max(1.0, abs(r["UB (V = Diag(w))"]))
        for r in rows
    )
    tight = max(abs(r["||x* - a|| - rho"]) for r in rows)
    return {
        "rows": rows,
        "bracket": bracket,
        "max_rel_diag_gap": diag,
        "diag": diag <= 1e-5,
        "max_tightness": tight,
        "tight": tight <= 1e-9,
    }


def cor11_check(seed) -> dict:
    """Corollary 11 on 2 random box instances (n = 4, m = 3): the exact value of (82) by outer
    approximation (``cor11_exact``, HiGHS MILPs) against enumeration of the 2^4 vertices."""
    rng = _rng(seed)
    rows = []
    for _ in range(2):
        inst = _ball(rng, 4, 3)
        exact = cor11_exact(inst, time_limit=60.0)
        rows.append({"(82) exact": exact.value, "vertex enumeration": box_enumeration(inst)[0]})
    gap = max(
        abs(r["(82) exact"] - r["vertex enumeration"]) / max(1.0, abs(r["vertex enumeration"])) for r in rows
    )
    return {"rows": rows, "max_rel_gap": gap, "holds": gap <= 1e-6}


def _vertices(D: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Vertices of {x >= 0 : Dx <= d} by enumerating every n-subset of active constraints."""
    n = D.shape[1]
    G, h = np.vstack([D, -np.eye(n)]), np.concatenate([d, np.zeros(n)])
    out = []
    for rows in itertools.combinations(range(len(h)), n):
        Gs = G[list(rows)]
        if abs(np.linalg.det(Gs)) < 1e-12:
            continue
        x = np.linalg.solve(Gs, h[list(rows)])
        if np.all(G @ x <= h + 1e-9):
            out.append(x)
    return np.array(out)


def _polytope(rng: np.random.Generator, n: int, q: int) -> tuple[np.ndarray, np.ndarray]:
    return rng.uniform(0.2, 1.5, size=(q, n)), rng.uniform(1.0, 3.0, size=q)


def _support_lp(D, d, g) -> float:
    """min{d'lambda : D'lambda >= g, lambda >= 0} (the dual of max{g'x : Dx <= d, x >= 0}; HiGHS)."""
    q, n = D.shape
    return solve_lp(
        d, D.T, g, np.full(n, np.inf), np.zeros(q), np.full(q, np.inf), name="convex_max.theorems.support"
    ).objective


def theorem20_check(seed) -> dict:
    """Theorem 20 in its polyhedral form (93) on 3 random polygons (n = 2, q = 4, m = 2): the maximum of
    LSE(Ax + b) over the vertices against sup over w = (t, 1 - t) of the LP value
    min{d'lambda : D'lambda >= A'w} + b'w - f*(w) (a grid of 401 t and a bounded refinement)."""
    rng = _rng(seed)
    rows = []
    for _ in range(3):
        D, d = _polytope(rng, 2, 4)
        A, b = rng.normal(size=(2, 2)), rng.normal(size=2)
        primal = max(float(logsumexp(A @ x + b)) for x in _vertices(D, d))

        def H(t, D=D, d=d, A=A, b=b):
            w = np.array([t, 1 - t])
            return _support_lp(D, d, A.T @ w) + b @ w - float(_negent(w)[0])

        grid = np.linspace(0.0, 1.0, 401)
        vals = np.array([H(t) for t in grid])
        k = int(np.argmax(vals))
        res = minimize_scalar(
            lambda t, H=H: -H(t),
            bounds=(grid[max(k - 1, 0)], grid[min(k + 1, 400)]),
            method="bounded",
            options={"xatol": 1e-12},
        )
        rows.append({"vertex enumeration (91)": primal, "ARO (93)": max(float(vals[k]), -res.fun)})
    gap = max(abs(r["vertex enumeration (91)"] - r["ARO (93)"]) / max(1.0, abs(r["ARO (93)"])) for r in rows)
    return {"rows": rows, "max_rel_gap": gap, "holds": gap <= 1e-7}


def static_relaxation_check(seed) -> dict:
    """(90) (L5170-L5178) for log-sum-exp over 5 random polytopes (n = 3, q = 5, m = 4): with linear g_j the
    static relaxation is f(b) + min{d'lambda : D'lambda >= (max_j A_ji)_i, lambda >= 0} (HiGHS); it must
    not be below the maximum over the vertices."""
    rng = _rng(seed)
    rows = []
    for _ in range(5):
        D, d = _polytope(rng, 3, 5)
        A, b = rng.normal(size=(4, 3)), rng.normal(size=4)
        ub = float(logsumexp(b)) + _support_lp(D, d, A.max(axis=0))
        rows.append({"(90)": ub, "max": max(float(logsumexp(A @ x + b)) for x in _vertices(D, d))})
    margin = min(r["(90)"] - r["max"] for r in rows)
    return {"rows": rows, "min_margin": margin, "holds": margin >= -1e-7}


def _poly_instance(rng: np.random.Generator, kind: str, n: int = 3, q: int = 6) -> PolyInstance:
    D, d = _polytope(rng, n, q)
    if kind == "lse":
        return PolyInstance(D, d, "lse", A=rng.normal(size=(4, n)), b=rng.normal(size=4), name="check")
    if kind == "quad":
        return PolyInstance(D, d, "quad", L=rng.normal(size=(n, n)), ell=rng.normal(size=n), name="check")
    return PolyInstance(
        D, d, "summax", A=rng.normal(size=(6, n)), b=rng.normal(size=6), J=3, K=2, name="check"
    )


def theorem21_check(seed) -> dict:
    """Theorem 21 on 3 random polytopes per objective (log-sum-exp, convex quadratic, sum-of-max; n = 3,
    q = 6): the scenario LB <= the maximum over the vertices <= the UB (95) (``poly_bounds``)."""
    rng = _rng(seed)
    rows = []
    for kind in ("lse", "quad", "summax"):
        for _ in range(3):
            inst = _poly_instance(rng, kind)
            bounds = poly_bounds(inst, solver="CLARABEL")
            best = max(objective(inst, x) for x in _vertices(inst.D, inst.d))
            rows.append({"kind": kind, "LB": bounds.lower.value, "max": best, "UB (95)": bounds.upper.value})
    tol = 1e-6
    ok = all(
        r["LB"] <= r["max"] + tol * max(1, abs(r["max"]))
        and r["max"] <= r["UB (95)"] + tol * max(1, abs(r["max"]))
        for r in rows
    )
    return {"rows": rows, "min_ub_margin": min(r["UB (95)"] - r["max"] for r in rows), "holds": ok}


def remark5_check(seed) -> dict:
    """Remark 5 on 3 random sum-of-max instances (n = 4, q = 8, m = 12): the LP (95) solved by constraint
    generation (pieces added while violated) against the literal LP, both by HiGHS."""
    rng = _rng(seed)
    rows = []
    for _ in range(3):
        D, d = _polytope(rng, 4, 8)
        inst = PolyInstance(
            D, d, "summax", A=rng.normal(size=(12, 4)), b=rng.normal(size=12), J=4, K=3, name="check"
        )
        gen = summax_upper_bound(inst, form="generation", method="simplex")
        lit = summax_upper_bound(inst, form="literal", method="simplex")
        rows.append({"generation": gen.extra["lp_objective"], "literal": lit.extra["lp_objective"]})
    gap = max(abs(r["generation"] - r["literal"]) / max(1.0, abs(r["literal"])) for r in rows)
    return {"rows": rows, "max_rel_gap": gap, "holds": gap <= 1e-7}


def _persp_lse(s: float, x: np.ndarray) -> float:
    """s LSE(x / s) for s > 0, its recession function max(x) at s = 0 (the limit convention of L4977)."""
    return float(np.max(x)) if s <= 0 else float(s * logsumexp(x / s))


def corollary13_check(seed) -> dict:
    """Corollary 13 on 3 random log-sum-exp instances (n = 3, q = 6, m = 4): the (u, V, r, tau) of the
    exponential-cone program (118) put into (95) with the perspective of log-sum-exp evaluated directly;
    the largest violation of (95)'s constraints, relative to max(1, |tau|)."""
    rng = _rng(seed)
    worst = 0.0
    for _ in range(3):
        inst = _poly_instance(rng, "lse")
        ub = lse_upper_bound(inst, solver="CLARABEL")
        A, b, D, d, u, V, r, tau = inst.A, inst.b, inst.D, inst.d, ub.u, ub.V, ub.r, ub.value
        viol = [d @ u + _persp_lse(1 + d @ r, V.T @ d + b) - tau, -(1 + d @ r)]
        for i in range(inst.n):
            s = -(D[:, i] @ r)
            viol += [-(D[:, i] @ u) + _persp_lse(s, A[:, i] - V.T @ D[:, i]), -s]
        for i in range(inst.q):
            viol += [-u[i] + _persp_lse(-r[i], -V[i]), r[i]]
        worst = max(worst, max(viol) / max(1.0, abs(tau)))
    return {"max_rel_violation": float(worst), "holds": worst <= 1e-6}


def corollary14_check(seed) -> dict:
    """Corollary 14 on 2 random log-sum-exp instances (n = 3, q = 6, m = 4): each scenario problem
    (97)-(99) solved as the exponential-cone program of Corollary 14 (Clarabel) against the closed-form
    softmax scenarios of ``lse_scenarios``; the largest difference of the objective values they attain."""
    rng = _rng(seed)
    worst = 0.0
    for _ in range(2):
        inst = _poly_instance(rng, "lse")
        ub = lse_upper_bound(inst, solver="CLARABEL")
        A, b, D, d, V, r = inst.A, inst.b, inst.D, inst.d, ub.V, ub.r
        problems = [(V.T @ d + b, 1 + d @ r)]
        problems += [(A[:, i] - V.T @ D[:, i], -(D[:, i] @ r)) for i in range(inst.n)]
        problems += [(-V[i], -r[i]) for i in range(inst.q)]
        closed = lse_scenarios(inst, ub)
        for (c, kappa), w_closed in zip(problems, closed, strict=True):
            w, t = cp.Variable(inst.m), cp.Variable(inst.m)
            prob = cp.Problem(
                cp.Maximize(kappa * cp.sum(t) + c @ w),
                [cp.constraints.ExpCone(t, w, np.ones(inst.m)), cp.sum(w) == 1],
            )
            value = solve(
                prob, name="convex_max.theorems.cor14", solver="CLARABEL", problem_class="EXP"
            ).objective
            attained = float(c @ w_closed - kappa * _negent(w_closed)[0])
            worst = max(worst, abs(value - attained) / max(1.0, abs(value)))
    return {"max_rel_gap": float(worst), "holds": worst <= 1e-6}
