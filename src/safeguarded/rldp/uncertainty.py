"""The χ² uncertainty set (2)–(3), its projection onto pairs of conditionals (Theorem 3), and the
closed-form support functions of Theorems 2 and 4 (Goseling & Lopuhaä-Zwakenberg, ISIT 2022).

Distributions on 𝒮×𝒰 are arrays of shape ``(|S|, |U|)``.  The support functions are evaluated here
through their one- and two-dimensional reductions (w = t·1 without loss of generality, and the dual
multiplier c eliminated in closed form); the optimisation models in :mod:`safeguarded.rldp.problems`
use the same reductions with c kept, so that they stay DPP.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, stats

from safeguarded.validation import check_in_interval, check_integer, check_positive, check_rng, check_simplex

__all__ = [
    "K_THM4",
    "chi2_radius",
    "sample_instance",
    "chi2_statistic",
    "in_chi2_set",
    "projection_radius",
    "projection_statistic",
    "support_chi2",
    "support_projection",
    "direct_support_chi2",
    "direct_support_projection",
    "theorem_identity_errors",
]

#: The constant 2^{-2/3} + 2^{1/3} = 3·2^{-2/3} of Theorem 4 (29).
K_THM4 = 2.0 ** (-2.0 / 3.0) + 2.0 ** (1.0 / 3.0)


def chi2_radius(alpha: float, n: int, n_cells: int) -> float:
    """B = F⁻¹_{|S×U|−1}(1−α) / n, eq. (3): the radius of the (1−α) χ²-test confidence set."""
    alpha = check_in_interval("alpha", alpha, 0.0, 1.0)
    n = check_integer("n", n, minimum=1)
    n_cells = check_integer("n_cells", n_cells, minimum=2)
    return float(stats.chi2.ppf(1.0 - alpha, n_cells - 1) / n)


def sample_instance(
    rng: np.random.Generator, n_s: int, n_u: int, n: int, dirichlet_alpha: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Draw P* ~ Dirichlet(dirichlet_alpha·1) on 𝒮×𝒰 and the empirical P̂ of n samples from it.

    The paper uses the Jeffreys prior, dirichlet_alpha = ½ (§V).  Returns ``(P_star, P_hat)``, each of
    shape ``(n_s, n_u)``.
    """
    check_rng("rng", rng)
    p_star = draw_true_distribution(rng, n_s, n_u, dirichlet_alpha)
    return p_star, draw_empirical(rng, p_star, n)


def draw_true_distribution(
    rng: np.random.Generator, n_s: int, n_u: int, dirichlet_alpha: float = 0.5
) -> np.ndarray:
    """P* ~ Dirichlet(dirichlet_alpha·1) on the |S|·|U| cells, shape ``(n_s, n_u)``."""
    n_s = check_integer("n_s", n_s, minimum=1)
    n_u = check_integer("n_u", n_u, minimum=1)
    a = check_positive("dirichlet_alpha", dirichlet_alpha)
    return rng.dirichlet(np.full(n_s * n_u, a)).reshape(n_s, n_u)


def draw_empirical(rng: np.random.Generator, p_star: np.ndarray, n: int) -> np.ndarray:
    """The empirical distribution P̂ of n i.i.d. samples from ``p_star`` (a Multinomial(n, P*)/n draw)."""
    p = check_simplex("p_star", p_star)
    n = check_integer("n", n, minimum=1)
    counts = rng.multinomial(n, p.ravel() / p.sum())
    return (counts / n).reshape(p.shape)


def chi2_statistic(p: np.ndarray, p_hat: np.ndarray) -> float:
    """Σ (P̂ − P)² / P, the left-hand side of (2); cells with P = 0 < P̂ give +∞, 0/0 gives 0."""
    p = check_simplex("p", p)
    p_hat = check_simplex("p_hat", p_hat)
    if p.shape != p_hat.shape:
        raise ValueError(f"p and p_hat must have the same shape, got {p.shape} and {p_hat.shape}")
    num = (p_hat - p) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, num / np.where(p > 0, p, 1.0), np.where(num > 0, np.inf, 0.0))
    return float(terms.sum())


def in_chi2_set(p: np.ndarray, p_hat: np.ndarray, B: float) -> bool:
    """Whether P ∈ ℱ_B, eq. (2)."""
    B = check_positive("B", B)
    return chi2_statistic(p, p_hat) <= B


def projection_radius(p_hat: np.ndarray, B: float, s1: int, s2: int) -> float:
    """C = √(B+1) − 1 + P̂_{s1} + P̂_{s2}, the right-hand side of Theorem 3 (28)."""
    p_hat = _check_joint("p_hat", p_hat)
    B = check_positive("B", B)
    _check_secret_pair(s1, s2, p_hat.shape[0])
    marg = p_hat.sum(axis=1)
    return float(np.sqrt(B + 1.0) - 1.0 + marg[s1] + marg[s2])


def _check_joint(name: str, p) -> np.ndarray:
    """A joint distribution on 𝒮×𝒰: a probability array of shape ``(|S|, |U|)``."""
    arr = check_simplex(name, p)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a distribution on S x U of shape (|S|, |U|), got shape {arr.shape}")
    return arr


def _check_secret_pair(s1, s2, n_s: int) -> None:
    for name, s in (("s1", s1), ("s2", s2)):
        check_integer(name, s, minimum=0)
        if s >= n_s:
            raise ValueError(f"{name} must be a secret index in [0, {n_s - 1}], got {name}={s}")
    if s1 == s2:
        raise ValueError(f"s1 and s2 must differ (the constraint is trivial for s1 = s2), got {s1}")


def projection_statistic(r1: np.ndarray, r2: np.ndarray, p_hat: np.ndarray, s1: int, s2: int) -> float:
    """Σ_i √(Σ_u P̂²_{s_i,u} / R_{u|s_i}), the left-hand side of Theorem 3 (28)."""
    p_hat = _check_joint("p_hat", p_hat)
    _check_secret_pair(s1, s2, p_hat.shape[0])
    r1, r2 = (check_simplex(name, r) for name, r in (("r1", r1), ("r2", r2)))
    for name, r in (("r1", r1), ("r2", r2)):
        if r.shape != (p_hat.shape[1],):
            raise ValueError(f"{name} must be a distribution of shape ({p_hat.shape[1]},), got {r.shape}")
    total = 0.0
    for r, s in ((r1, s1), (r2, s2)):
        a = p_hat[s]
        with np.errstate(divide="ignore"):
            terms = np.where(a > 0, a**2 / np.where(r > 0, r, 0.0), 0.0)
        total += np.sqrt(terms.sum())
    return float(total)


def _check_vector(name: str, v, size: int) -> np.ndarray:
    v = np.asarray(v, dtype=float).ravel()
    if v.size != size or not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be a finite vector of length {size}, got shape {np.shape(v)}")
    return v


def support_chi2(v: np.ndarray, p_hat: np.ndarray, B: float) -> float:
    """δ*(v | ℱ_B) by Theorem 2 (21), reduced to one dimension and solved by a bracketed root search.

    With w = t·1 (w.l.o.g.) and c eliminated (c = Λ²/(B+1)²):
    δ* = min_{t ≥ max v} f(t),  f(t) = t − Λ(t)² / (B+1),  Λ(t) = Σ P̂_k √(t − v_k),
    a convex function of t (the partial minimum over c of a jointly convex function).  With
    z_k = t − v_k, μ = P̂ᵀv and Σ P̂ = 1 it is evaluated without cancellation as

        f(t) = μ + (B·Σ P̂_k z_k + Var_P̂(√z)) / (B+1),
        Var_P̂(√z) = ½ Σ_jk P̂_j P̂_k (v_j − v_k)² / (√z_j + √z_k)²,

    and its minimiser solves f′(t) = 0, i.e. ψ(t) = Λ(t)·Σ_k P̂_k/√z_k − 1 = B, where

        ψ(t) = ½ Σ_jk P̂_j P̂_k (v_j − v_k)² / ((√z_j + √z_k)² √z_j √z_k)

    is non-increasing in t (f is convex).  Every z_k ≥ s = t − max v gives ψ ≤ Var_P̂(v) / (4 s²), so
    s_hi = √(Var_P̂(v) / (4B)) brackets the root from above for every B > 0; if ψ ≤ B already at
    s = 0 (the maximum of v sits on cells with P̂ = 0, or v is constant on the support of P̂) the
    minimiser is t = max v.  The root is found in log s by Brent's method to machine precision.
    """
    p_hat = check_simplex("p_hat", p_hat).ravel()
    v = _check_vector("v", v, p_hat.size)
    B = check_positive("B", B)
    vmax = float(v.max())
    support = p_hat > 0
    p, gap = p_hat[support] / p_hat[support].sum(), vmax - v[support]  # gap_k = max v − v_k ≥ 0
    mean_gap = float(p @ gap)  # = max v − μ
    dv2 = (gap[:, None] - gap[None, :]) ** 2  # (v_j − v_k)², exact differences of the gaps
    pp = p[:, None] * p[None, :]
    var_v = 0.5 * float(np.sum(pp * dv2))

    def root_terms(s: float):
        r = np.sqrt(s + gap)
        sums = (r[:, None] + r[None, :]) ** 2
        return r, sums

    def psi(s: float) -> float:
        r, sums = root_terms(s)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(dv2 > 0, pp * dv2 / (sums * r[:, None] * r[None, :]), 0.0)
        return 0.5 * float(np.sum(terms))

    def value(s: float) -> float:
        _, sums = root_terms(s)
        with np.errstate(divide="ignore", invalid="ignore"):
            var_sqrt = 0.5 * float(np.sum(np.where(dv2 > 0, pp * dv2 / sums, 0.0)))
        # f − vmax = s − (s + mean_gap) + (B (s + mean_gap) + var_sqrt) / (B + 1)
        return vmax - mean_gap + (B * (s + mean_gap) + var_sqrt) / (B + 1.0)

    if var_v == 0.0 or psi(0.0) <= B:
        return value(0.0)
    s_hi = np.sqrt(var_v / (4.0 * B))  # psi(s_hi) < B by the bound above
    while psi(s_hi) > B:  # pragma: no cover - a guard against rounding only
        s_hi *= 2.0
    s_lo = s_hi
    while psi(s_lo) <= B:  # terminates: psi(0) > B here and psi is continuous
        s_lo *= 1e-3
    u = optimize.brentq(
        lambda x: psi(float(np.exp(x))) - B,
        np.log(s_lo),
        np.log(s_hi),
        xtol=1e-15,
        rtol=4 * np.finfo(float).eps,
    )
    return value(float(np.exp(u)))


def support_projection(
    v1: np.ndarray, v2: np.ndarray, p_hat: np.ndarray, B: float, s1: int, s2: int
) -> float:
    """δ*(v₁, v₂ | ℱ_{U|s1,s2}) by Theorem 4 (29), reduced to two dimensions.

    With w_i = t_i·1 and c eliminated:
    δ* = min_{t_i ≥ max v_i} t₁ + t₂ − (λ₁^{2/3} + λ₂^{2/3})³ / C², λ_i = Σ_u P̂_{s_i,u} √(t_i − v_i(u)),
    with C from :func:`projection_radius`.
    """
    p_hat = _check_joint("p_hat", p_hat)
    n_u = p_hat.shape[1]
    v1 = _check_vector("v1", v1, n_u)
    v2 = _check_vector("v2", v2, n_u)
    C = projection_radius(p_hat, B, s1, s2)
    a1, a2 = p_hat[s1], p_hat[s2]

    def objective(x):
        t1, t2 = v1.max() + x[0] ** 2, v2.max() + x[1] ** 2  # t_i >= max v_i by construction
        l1 = a1 @ np.sqrt(t1 - v1)
        l2 = a2 @ np.sqrt(t2 - v2)
        return t1 + t2 - (l1 ** (2 / 3) + l2 ** (2 / 3)) ** 3 / C**2

    best = np.inf
    for start in ([0.1, 0.1], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]):
        res = optimize.minimize(
            objective, start, method="Nelder-Mead", options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 20000}
        )
        best = min(best, res.fun)
    return float(best)


# ---------------------------------------------------------------------------- independent checks
def direct_support_chi2(v: np.ndarray, p_hat: np.ndarray, B: float, solver: str = "CLARABEL") -> float:
    """max_{P ∈ ℱ_B} vᵀP solved directly as a convex program over the set (2), without Theorem 2:
    the independent check of :func:`support_chi2`.

    Written as eq. (2) states it, Σ_k (P̂_k − P_k)² / P_k ≤ B with P ≥ 0, ΣP = 1, and scaled so that
    the solver sees numbers of order one at every radius: P = P̂ + √B·δ, and v mapped to
    w = (v − min v) / ptp(v) ∈ [0, 1] (a support function of a set of distributions satisfies
    δ*(a·v + b·1) = a·δ*(v) + b for a > 0).  Solved with high-accuracy tolerances
    (:func:`safeguarded.solvers.solve_with_retries`).  Unscaled (Σ P̂²/P ≤ B + 1 in P) the
    B-dependent part of the value, of order √B, is resolved only to the solver's feasibility
    tolerance divided by √B: 1e-7 of ptp(v) at n = 10⁶ with Clarabel's default tolerances.
    """
    import cvxpy as cp

    from safeguarded.solvers import resolve_solver, solve_with_retries

    resolve_solver(solver)  # ValueError naming solver unless installed
    p_hat = check_simplex("p_hat", p_hat).ravel()
    v = _check_vector("v", v, p_hat.size)
    B = check_positive("B", B)
    lo, spread = float(v.min()), float(np.ptp(v))
    if spread == 0.0:
        return lo  # every P in the set gives vᵀP = v_0
    w = (v - lo) / spread
    root_b = np.sqrt(B)
    delta = cp.Variable(p_hat.size)
    P = p_hat + root_b * delta
    chi2 = cp.sum(cp.hstack([cp.quad_over_lin(delta[k], P[k]) for k in range(p_hat.size)]))  # = stat / B
    prob = cp.Problem(cp.Maximize(w @ delta), [cp.sum(delta) == 0, P >= 0, chi2 <= 1])
    record = solve_with_retries(prob, name="rldp.direct_support_chi2", solver=solver, high_accuracy=True)
    return float(lo + spread * (float(w @ p_hat) + root_b * record.objective))


def direct_support_projection(
    v1: np.ndarray,
    v2: np.ndarray,
    p_hat: np.ndarray,
    B: float,
    s1: int,
    s2: int,
    starts: int = 8,
    seed: int = 0,
) -> float:
    """max of v₁ᵀR₁ + v₂ᵀR₂ over the Theorem-3 set (28) by multistart SLSQP (no duality, no cvxpy):
    the independent check of :func:`support_projection`.  A linear objective over a convex set, so
    every converged local maximum is global; the multistart guards against non-convergence."""
    p_hat = _check_joint("p_hat", p_hat)
    n_u = p_hat.shape[1]
    v1, v2 = _check_vector("v1", v1, n_u), _check_vector("v2", v2, n_u)
    C = projection_radius(p_hat, B, s1, s2)
    starts = check_integer("starts", starts, minimum=1)
    seed = check_integer("seed", seed, minimum=0)
    a1, a2 = p_hat[s1], p_hat[s2]

    def slack(x):
        return C - np.sqrt(np.sum(a1**2 / x[:n_u])) - np.sqrt(np.sum(a2**2 / x[n_u:]))

    cons = [
        {"type": "ineq", "fun": slack},
        {"type": "eq", "fun": lambda x: x[:n_u].sum() - 1},
        {"type": "eq", "fun": lambda x: x[n_u:].sum() - 1},
    ]
    rng = np.random.default_rng(seed)
    best = -np.inf
    for k in range(starts):
        if k == 0 and a1.sum() > 0 and a2.sum() > 0:
            x0 = np.concatenate([a1 / a1.sum(), a2 / a2.sum()])
        else:
            x0 = np.concatenate([rng.dirichlet(np.ones(n_u)), rng.dirichlet(np.ones(n_u))])
        res = optimize.minimize(
            lambda x: -(v1 @ x[:n_u] + v2 @ x[n_u:]),
            np.clip(x0, 1e-6, None),
            method="SLSQP",
            bounds=[(1e-12, 1)] * (2 * n_u),
            constraints=cons,
            options={"ftol": 1e-14, "maxiter": 2000},
        )
        if res.success and slack(res.x) > -1e-9:
            best = max(best, -res.fun)
    if not np.isfinite(best):
        raise RuntimeError("direct_support_projection: no SLSQP start converged to a feasible point")
    return float(best)


def theorem_identity_errors(
    n_instances: int,
    seed: int,
    n_s: int = 3,
    n_u: int = 5,
    n: int = 75,
    alpha: float = 0.05,
    epsilon: float = 0.5,
) -> dict[str, float]:
    """Largest |closed form − direct maximisation| of Theorems 2 and 4 over random instances."""
    n_instances = check_integer("n_instances", n_instances, minimum=1)
    seed = check_integer("seed", seed, minimum=0)
    n_s = check_integer("n_s", n_s, minimum=2)
    n_u = check_integer("n_u", n_u, minimum=1)
    epsilon = check_positive("epsilon", epsilon)
    rng = np.random.default_rng(seed)
    B = chi2_radius(alpha, n, n_s * n_u)
    err2 = err4 = 0.0
    for _ in range(n_instances):
        _, p_hat = sample_instance(rng, n_s, n_u, n)
        v = rng.normal(size=p_hat.size) * 3
        err2 = max(err2, abs(support_chi2(v, p_hat, B) - direct_support_chi2(v, p_hat, B)))
        s1, s2 = rng.choice(n_s, size=2, replace=False)
        v1, v2 = rng.uniform(0, 1, n_u), -np.exp(epsilon) * rng.uniform(0, 1, n_u)
        closed = support_projection(v1, v2, p_hat, B, s1, s2)
        err4 = max(err4, abs(closed - direct_support_projection(v1, v2, p_hat, B, s1, s2, starts=4)))
    return {"theorem2_max_abs_error": err2, "theorem4_max_abs_error": err4}
