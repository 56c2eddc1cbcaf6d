"""Inter-ARO* (Theorem 11, ℓ₁ metric) by a level bundle method over θ = (β, λ, λ̂).

For data sets whose N·N̂ pairs are too many for one conic program (:func:`models.build_inter_aro`) and
on which constraint generation (:func:`models.fit_inter_aro_cg`) stalls (contraceptive: 96,798 pairs a
fold; spambase: 952,200), see ``benchmarks/bench_robust_lr_aux_spambase.py``.

The reduced Inter-ARO* program of :mod:`models` is, with (s, ŝ) minimised out for fixed θ,

    min_θ F(θ) = ελ + ε̂λ̂ + V(θ)  over  Θ = {‖β‖_∞ ≤ λ + λ̂, ‖β‖_∞ ≤ B, λ, λ̂ ≥ 0},
    V(θ) = min_{s, ŝ ≥ 0} (1/N) Σ_i s_i + (1/N̂) Σ_j ŝ_j   s.t.  s_i + ŝ_j ≥ c_ij(θ)  for all (i, j),

with c_ij(θ) = max_l [L^α(arg_ijl) − κλ·1[l ≠ y_i] − κλ̂·1[l ≠ ŷ_j]] the pair cost of Theorem 11
(L4199–4203; :func:`models.inter_aro_violations` at s = ŝ = 0).  For fixed θ, V is the dual of a transport
problem, solved exactly by POT's network simplex (:class:`_PairTransport`; ``transport_solver="HIGHS"``: the
LP in HiGHS, warm-started from the previous basis, the tests' oracle).  Each c_ij is convex in θ (arg_ijl is
concave: lβᵀx^i plus the ℓ₁ pairing of x̂^j − x^i with the box ends min(lβ + λ, λ̂) and
max(lβ − λ, −λ̂); L^α is convex and decreasing), so V is convex and, by Danskin's theorem, Σ π_ij ∇c_ij
with the LP's optimal duals π is a subgradient.

The method keeps cutting planes of V.  They do not depend on (ε, ε̂), so one :class:`InterAroBundle`
serves a whole cross-validation grid of radii on one fold (cuts and LP basis reused).  Each step of the
level method (Lemaréchal, Nemirovskii and Nesterov, 1995) computes the Kelley lower bound
L = min_Θ [ελ + ε̂λ̂ + model of V] (an LP over Θ bounded by λ ≤ F/ε, λ̂ ≤ F/ε̂, since V ≥ 0), projects
the best point found onto the level set {model ≤ L + 0.3 (F_best − L)} (a Clarabel QP) and evaluates
F there.  A fit stops when F_best − L ≤ ``gap``·(1 + |F_best|): the returned objective is an exactly
evaluated F(θ) and ``extra["lower_bound"]`` = L certifies it.
"""

from __future__ import annotations

import time

import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from scipy.spatial.distance import cdist

from safeguarded.robust_lr_aux.losses import check_attack_norm, check_data, dual_order
from safeguarded.robust_lr_aux.models import Fit, check_beta_bound
from safeguarded.robust_lr_aux.transport import TRANSPORT_SOLVERS
from safeguarded.solvers import (
    SolveRecord,
    SolverError,
    check_highs_status,
    highs_model,
    pass_lp,
    solve,
    solve_transport,
    solver_version,
)
from safeguarded.validation import check_array, check_choice, check_integer, check_positive

__all__ = ["InterAroBundle", "pair_costs", "pair_cost_subgradient", "fit_inter_aro_bundle"]


def pair_costs(beta, lam: float, lam_hat: float, X, y, X_aux, y_aux, *, alpha: float, kappa: float, p=2):
    """The N × N̂ matrix c_ij(θ) of Theorem 11's pair constraints s_i + ŝ_j ≥ c_ij (see the module).

    Vectorised over the pairs: with D = x̂^j − x^i and the box ends u = min(lβ + λ, λ̂) (upper) and
    w = max(lβ − λ, −λ̂) (lower) of the label l, (D)⁺·u − (D)⁻·w = D·m_l + |D|·h with m_l = ½(u + w) = l·m₁
    and h = ½(u − w) = ½[min(β + λ, λ̂) + min(λ − β, λ̂)] the same for both labels, so arg_ijl is a rank-one
    part plus one weighted ℓ₁ distance matrix (``scipy.spatial.distance.cdist``) shared by l = ±1;
    :func:`models.inter_aro_violations` at s = ŝ = 0 (a loop over i) is the tests' oracle.
    """
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    beta, lam, lam_hat = _check_theta(beta, lam, lam_hat, X.shape[1])
    alpha = check_positive("alpha", alpha, allow_zero=True)
    kappa = check_positive("kappa", kappa, allow_zero=True)
    p = check_attack_norm(p)
    shift = alpha * np.linalg.norm(beta, dual_order(p))
    upper, lower = np.minimum(beta + lam, lam_hat), np.maximum(beta - lam, -lam_hat)
    mid = 0.5 * (upper + lower)
    distance = _weighted_l1(X, X_aux, 0.5 * (upper - lower))
    out = np.full((X.shape[0], X_aux.shape[0]), -np.inf)
    for l in (1, -1):
        arg = distance + (l * (X @ (beta - mid)))[:, None]
        arg += (l * (X_aux @ mid))[None, :]
        cost = np.logaddexp(0.0, shift - arg, out=arg)
        cost -= (kappa * lam * (1 - l * y) / 2)[:, None]
        cost -= (kappa * lam_hat * (1 - l * y_aux) / 2)[None, :]
        np.maximum(out, cost, out=out)
    return out


def _weighted_l1(X: np.ndarray, X_aux: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Σ_k w_k |x̂^j_k − x^i_k| for all (i, j); weights of either sign (u − w ≥ 0 on Θ, not elsewhere)."""
    pos, neg = np.maximum(w, 0.0), np.maximum(-w, 0.0)
    out = cdist(X, X_aux, "cityblock", w=pos) if pos.any() else np.zeros((X.shape[0], X_aux.shape[0]))
    if neg.any():
        out -= cdist(X, X_aux, "cityblock", w=neg)
    return out


def _check_theta(beta, lam, lam_hat, n: int) -> tuple[np.ndarray, float, float]:
    """(β of length n, λ ≥ 0, λ̂ ≥ 0) with errors naming the parameter."""
    beta = check_array("beta", beta, shape=(n,))
    lam = check_positive("lam", lam, allow_zero=True)
    return beta, lam, check_positive("lam_hat", lam_hat, allow_zero=True)


def _dual_norm_subgradient(beta: np.ndarray, p) -> np.ndarray:
    """A subgradient of ‖β‖_{p*} (p* the dual order of the attack norm p)."""
    q = dual_order(p)
    if q == 2.0:
        norm = np.linalg.norm(beta)
        return beta / norm if norm > 0 else np.zeros_like(beta)
    if q == 1.0:
        return np.sign(beta)
    g = np.zeros_like(beta)
    k = int(np.argmax(np.abs(beta)))
    g[k] = np.sign(beta[k])
    return g


def pair_cost_subgradient(beta, lam: float, lam_hat: float, I, J, weights, X, y, X_aux, y_aux, *,
                          alpha: float, kappa: float, p=2) -> np.ndarray:
    """Σ_k w_k ∇c_{I_k J_k}(θ) ∈ ℝ^{n+2} (β, λ, λ̂), each c differentiated at its active label l.

    d arg/dβ = l x^i + l (x̂^j − x^i)⁺ 1[lβ + λ < λ̂] − l (x̂^j − x^i)⁻ 1[lβ − λ > −λ̂] (per coordinate);
    d arg/dλ and d arg/dλ̂ collect the coordinates whose box end is λ- or λ̂-determined;
    dL^α/d arg = −σ(−arg + α‖β‖_{p*}) and the attack adds σ·α ∂‖β‖_{p*}.
    """
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    beta, lam, lam_hat = _check_theta(beta, lam, lam_hat, X.shape[1])
    alpha = check_positive("alpha", alpha, allow_zero=True)
    kappa = check_positive("kappa", kappa, allow_zero=True)
    p = check_attack_norm(p)
    I, J = (check_array(name, v, ndim=1, nonempty=False) for name, v in (("I", I), ("J", J)))
    if (I.shape != J.shape or np.any(I != np.round(I)) or np.any(J != np.round(J)) or np.any(I < 0)
            or np.any(J < 0) or np.any(I >= len(y)) or np.any(J >= len(y_aux))):
        raise ValueError(f"I and J must be equal-length integer arrays, I < N = {len(y)}, J < N_hat = "
                         f"{len(y_aux)}")
    I, J = I.astype(int), J.astype(int)
    weights = check_array("weights", weights, shape=(len(I),), nonempty=False)
    n = beta.size
    shift = alpha * np.linalg.norm(beta, dual_order(p))
    d_shift = alpha * _dual_norm_subgradient(beta, p)
    diff = X_aux[J] - X[I]
    Dp, Dm = np.maximum(diff, 0.0), np.maximum(-diff, 0.0)
    best = np.full(len(I), -np.inf)
    grads = np.zeros((len(I), n + 2))
    for l in (1, -1):
        up_lam = l * beta + lam < lam_hat  # the upper box end is l·β + λ (else λ̂)
        lo_lam = l * beta - lam > -lam_hat  # the lower box end is l·β − λ (else −λ̂)
        upper = np.where(up_lam, l * beta + lam, lam_hat)
        lower = np.where(lo_lam, l * beta - lam, -lam_hat)
        arg = l * (X[I] @ beta) + Dp @ upper - Dm @ lower
        a, b = (1 - l * y[I]) / 2, (1 - l * y_aux[J]) / 2
        value = np.logaddexp(0.0, -arg + shift) - kappa * lam * a - kappa * lam_hat * b
        sigma = 0.5 * (1.0 + np.tanh(0.5 * (shift - arg)))  # the logistic sigmoid, overflow-free
        d_arg_beta = l * X[I] + l * Dp * up_lam - l * Dm * lo_lam
        g = np.empty((len(I), n + 2))
        g[:, :n] = sigma[:, None] * (d_shift[None, :] - d_arg_beta)
        g[:, n] = -sigma * (Dp @ up_lam + Dm @ lo_lam) - kappa * a
        g[:, n + 1] = -sigma * (Dp @ ~up_lam + Dm @ ~lo_lam) - kappa * b
        take = value > best
        best[take], grads[take] = value[take], g[take]
    return np.asarray(weights, float) @ grads


class _PairLP:
    """V(θ)'s LP over all N·N̂ pairs in one HiGHS model; re-solves change only the row bounds c_ij."""

    def __init__(self, N: int, N_hat: int):
        rows = sp.hstack([sp.kron(sp.eye(N), np.ones((N_hat, 1))), sp.kron(np.ones((N, 1)), sp.eye(N_hat))],
                         format="csc")
        cost = np.concatenate([np.full(N, 1.0 / N), np.full(N_hat, 1.0 / N_hat)])
        self.N, self.N_hat = N, N_hat
        self.h = highs_model(None)
        m = N * N_hat
        pass_lp(self.h, cost, rows, np.full(m, -np.inf), np.full(m, np.inf), np.zeros(N + N_hat),
                np.full(N + N_hat, np.inf))
        self.index = np.arange(m, dtype=np.int32)
        self.upper = np.full(m, np.inf)

    def solve(self, C: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """(V, duals π over the pairs, primal (s, ŝ)); rows with c_ij ≤ 0 are dropped (s, ŝ ≥ 0 meet them)."""
        c = C.ravel()
        self.h.changeRowsBounds(c.size, self.index, np.where(c > 0, c, -np.inf), self.upper)
        self.h.run()
        check_highs_status(self.h, "robust_lr_aux.inter_aro_bundle.V")
        solution = self.h.getSolution()
        return (float(self.h.getInfo().objective_function_value), np.asarray(solution.row_dual),
                np.asarray(solution.col_value))


class _PairTransport:
    """V(θ) as the transport problem dual to its LP, solved exactly by POT's network simplex.

    The LP's dual is max Σ π_ij c_ij over π ≥ 0 with row sums ≤ 1/N and column sums ≤ 1/N̂; a sub-coupling
    completes to a coupling of the uniform marginals without loss on c⁺ = max(c, 0) and a coupling restricted
    to {c > 0} is a sub-coupling, so V(θ) = max over couplings π of Σ π_ij c⁺_ij.  The plan on {c > 0} is an
    optimal dual π (the subgradient's weights, Danskin); the potentials, shifted so that min ŝ = 0, are an
    optimal (s, ŝ) ≥ 0 (s_i + ŝ_j ≥ c⁺_ij ≥ 0 and the objective is invariant under the shift).
    """

    def __init__(self, N: int, N_hat: int):
        self.a, self.b = np.full(N, 1.0 / N), np.full(N_hat, 1.0 / N_hat)

    def solve(self, C: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """(V, π over the pairs (zero where c_ij ≤ 0), (s, ŝ)) as :meth:`_PairLP.solve`."""
        profit = np.maximum(C, 0.0)
        res = solve_transport(self.a, self.b, -profit, name="robust_lr_aux.inter_aro_bundle.V")
        pi = np.where(C > 0, res.plan, 0.0).ravel()
        s, s_hat = -res.u, -res.v
        low = float(s_hat.min())
        return -res.cost, pi, np.concatenate([s + low, s_hat - low])


class _Master:
    """The Kelley LP over x = (β, λ, λ̂, t) in one HiGHS model kept across steps and fits: the 2n rows
    ±β_k − λ − λ̂ ≤ 0 of Θ, then one row G_k θ − t ≤ −h_k per cut, added as cuts arrive, so that each
    re-solve (new costs ε, ε̂ and box, a new cut) starts from the previous basis.

    (The level step's QP stays a Clarabel solve: HiGHS's active-set QP stalled on spambase's level sets,
    measured, minutes per step against Clarabel's 0.1 s.)
    """

    def __init__(self, n: int, beta_bound: float | None):
        self.n = n
        eye = sp.eye(n, format="csr")
        ones = np.ones((n, 1))
        theta_rows = sp.vstack([sp.hstack([eye, -ones, -ones, np.zeros((n, 1))]),
                                sp.hstack([-eye, -ones, -ones, np.zeros((n, 1))])], format="csc")
        bound = np.inf if beta_bound is None else beta_bound
        lo = np.concatenate([np.full(n, -bound), [0.0, 0.0, 0.0]])
        hi = np.concatenate([np.full(n, bound), [np.inf, np.inf, np.inf]])
        self.lp = highs_model(None)
        pass_lp(self.lp, np.zeros(n + 3), theta_rows, np.full(2 * n, -np.inf), np.zeros(2 * n), lo, hi)
        self.cuts = 0

    def add_cuts(self, G: np.ndarray, h: np.ndarray) -> None:
        """Add the cuts not yet in the model (rows G_k θ − t ≤ −h_k)."""
        n = self.n
        index = np.arange(n + 3, dtype=np.int32)
        for k in range(self.cuts, len(h)):
            self.lp.addRow(-np.inf, -float(h[k]), n + 3, index, np.concatenate([G[k], [-1.0]]))
        self.cuts = len(h)

    def kelley(self, eps: float, eps_hat: float, lo: np.ndarray, hi: np.ndarray) -> tuple[float, np.ndarray]:
        """min ελ + ε̂λ̂ + t over the cuts, Θ and the box [lo, hi] on θ: (value, θ)."""
        n = self.n
        self.lp.changeColsCost(n + 3, np.arange(n + 3, dtype=np.int32),
                               np.concatenate([np.zeros(n), [eps, eps_hat, 1.0]]))
        self.lp.changeColsBounds(n + 2, np.arange(n + 2, dtype=np.int32), lo, hi)
        self.lp.run()
        check_highs_status(self.lp, "robust_lr_aux.inter_aro_bundle.lower_bound")
        x = np.asarray(self.lp.getSolution().col_value)
        return float(self.lp.getInfo().objective_function_value), x[: n + 2]


class InterAroBundle:
    """Inter-ARO* on fixed data, α and κ: the LP of V and its cutting planes, shared by fits over (ε, ε̂)."""

    def __init__(self, X, y, X_aux, y_aux, *, alpha: float, kappa: float, p=2,
                 beta_bound: float | None = 100.0, transport_solver: str = "POT-EMD"):
        self.X, self.y, self.X_aux, self.y_aux = check_data(X, y, X_aux, y_aux)
        self.alpha = check_positive("alpha", alpha, allow_zero=True)
        self.kappa = check_positive("kappa", kappa, allow_zero=True)
        self.p = check_attack_norm(p)
        self.beta_bound = check_beta_bound(beta_bound)
        self.N, self.n = self.X.shape
        self.N_hat = self.X_aux.shape[0]
        self.transport_solver = check_choice("transport_solver", transport_solver, TRANSPORT_SOLVERS)
        self._lp = (_PairTransport if self.transport_solver == "POT-EMD" else _PairLP)(self.N, self.N_hat)
        self._master = _Master(self.n, self.beta_bound)
        self.points: list[np.ndarray] = []  # θ_k
        self.values: list[float] = []  # V(θ_k)
        self.slopes: list[np.ndarray] = []  # a subgradient of V at θ_k
        self.primal: list[np.ndarray] = []  # the LP's (s, ŝ) at θ_k
        self.seconds = {"costs": 0.0, "lp": 0.0, "master": 0.0, "lower_bound": 0.0}
        self.start = np.concatenate([np.zeros(self.n), [0.1, 0.1]])  # β = 0: c_ij varies with ‖x̂^j − x^i‖₁

    @property
    def solver_label(self) -> str:
        """The solvers of a fit: V(θ)'s transport (POT-EMD or HIGHS), the lower-bound LP (HIGHS), the QP."""
        return "POT-EMD+HIGHS+CLARABEL" if self.transport_solver == "POT-EMD" else "HIGHS+CLARABEL"

    def oracle(self, theta: np.ndarray) -> int:
        """Evaluate V and a subgradient at θ and keep the cut; returns its index."""
        n = self.n
        beta, lam, lam_hat = theta[:n], float(theta[n]), float(theta[n + 1])
        t0 = time.perf_counter()
        C = pair_costs(beta, lam, lam_hat, self.X, self.y, self.X_aux, self.y_aux, alpha=self.alpha,
                       kappa=self.kappa, p=self.p)
        t1 = time.perf_counter()
        V, pi, x = self._lp.solve(C)
        t2 = time.perf_counter()
        support = np.flatnonzero(pi > 0)
        I, J = np.divmod(support, self.N_hat)
        g = pair_cost_subgradient(beta, lam, lam_hat, I, J, pi[support], self.X, self.y, self.X_aux,
                                  self.y_aux, alpha=self.alpha, kappa=self.kappa, p=self.p)
        self.seconds["costs"] += t1 - t0 + time.perf_counter() - t2
        self.seconds["lp"] += t2 - t1
        self.points.append(np.array(theta, float))
        self.values.append(V)
        self.slopes.append(g)
        self.primal.append(x)
        return len(self.values) - 1

    def _cuts(self) -> tuple[np.ndarray, np.ndarray]:
        G = np.array(self.slopes)
        return G, np.array(self.values) - np.einsum("kj,kj->k", G, np.array(self.points))

    def _theta_set(self, theta, lam, lam_hat) -> list:
        beta = theta[: self.n]
        cons = [lam >= 0, lam_hat >= 0, cp.abs(beta) <= lam + lam_hat]
        return cons + ([cp.abs(beta) <= self.beta_bound] if self.beta_bound is not None else [])

    def _into_theta_set(self, theta: np.ndarray) -> np.ndarray:
        """θ moved into Θ exactly (the QP / LP solvers meet its constraints to their tolerances only)."""
        n = self.n
        out = np.array(theta, float)
        out[n:] = np.maximum(out[n:], 0.0)
        bound = out[n] + out[n + 1]
        if self.beta_bound is not None:
            bound = min(bound, self.beta_bound)
        out[:n] = np.clip(out[:n], -bound, bound)
        return out

    def _level_step(self, center: np.ndarray, eps: float, eps_hat: float, level: float) -> np.ndarray:
        """The projection of the centre on {θ ∈ Θ: ελ + ε̂λ̂ + max(0, cuts) ≤ level} (Clarabel QP)."""
        n = self.n
        G, h = self._cuts()
        theta, t = cp.Variable(n + 2), cp.Variable(nonneg=True)
        lam, lam_hat = theta[n], theta[n + 1]
        constraints = [t >= h + G @ theta, eps * lam + eps_hat * lam_hat + t <= level,
                       *self._theta_set(theta, lam, lam_hat)]
        problem = cp.Problem(cp.Minimize(cp.sum_squares(theta - center)), constraints)
        start = time.perf_counter()
        # a trial point only (F is evaluated exactly, the bound comes from the LP): inaccurate is accepted
        solve(problem, name="robust_lr_aux.inter_aro_bundle.level_step", solver="CLARABEL",
              problem_class="QP", accept_inaccurate=True)
        self.seconds["master"] += time.perf_counter() - start
        return self._into_theta_set(theta.value)

    def lower_bound(self, eps: float, eps_hat: float, best: float, center: np.ndarray
                    ) -> tuple[float, np.ndarray]:
        """A certified lower bound on min_Θ F and its θ: the Kelley model's minimum over Θ, an LP (HiGHS).

        Θ is bounded by λ ≤ best/ε and λ̂ ≤ best/ε̂ (V ≥ 0, so a better θ has ελ ≤ F(θ) ≤ best).  The LP is
        first solved in a box ‖θ − centre‖_∞ ≤ r: if its minimiser touches no side of the box it is a
        local, hence (the model is convex) global, minimiser over Θ; else r grows fourfold.  One HiGHS
        model holds the cuts across steps and fits (:class:`_Master`), re-solved from its last basis.
        """
        started = time.perf_counter()
        n = self.n
        self._master.add_cuts(*self._cuts())
        B = self.beta_bound if self.beta_bound is not None else best / eps + best / eps_hat
        lo = np.concatenate([np.full(n, -B), [0.0, 0.0]])
        hi = np.concatenate([np.full(n, B), [best / eps, best / eps_hat]])
        radius = 0.1 * (1.0 + float(np.max(np.abs(center))))
        while True:
            box_lo, box_hi = np.maximum(lo, center - radius), np.minimum(hi, center + radius)
            value, theta = self._master.kelley(eps, eps_hat, box_lo, box_hi)
            slack = 1e-9 * radius  # a side counts only where it is the box's, not Θ's
            touches = ((box_lo > lo) & (theta <= box_lo + slack)) | (
                (box_hi < hi) & (theta >= box_hi - slack))
            if not touches.any():
                self.seconds["lower_bound"] += time.perf_counter() - started
                return value, self._into_theta_set(theta)
            radius *= 4.0

    def fit(self, eps: float, eps_hat: float, *, gap: float = 1e-6, max_iter: int = 3000) -> Fit:
        """Minimise F for radii (ε, ε̂) > 0 to a certified relative gap (F − lower bound ≤ gap·(1 + |F|)).

        Starts at the best known point for these radii among the cuts kept so far (the previous fits'
        points); raises :class:`RuntimeError` if ``max_iter`` steps do not close the gap.
        """
        eps = check_positive("eps", eps)
        eps_hat = check_positive("eps_hat", eps_hat)
        gap = check_positive("gap", gap)
        max_iter = check_integer("max_iter", max_iter, minimum=1)
        n = self.n
        started = time.perf_counter()
        lp_before = self.seconds["lp"]
        if not self.values:
            self.oracle(self.start)
        F = [eps * th[n] + eps_hat * th[n + 1] + v for th, v in zip(self.points, self.values, strict=True)]
        best = int(np.argmin(F))
        center, F_center = self.points[best], F[best]
        lower, steps = 0.0, 0  # F ≥ 0 (V ≥ 0), so 0 is a valid first bound
        while True:
            bound, kelley = self.lower_bound(eps, eps_hat, F_center, center)
            lower = max(lower, bound)
            if F_center - lower <= gap * (1 + abs(F_center)) or steps >= max_iter:
                break
            steps += 1
            try:
                new = self._level_step(center, eps, eps_hat, lower + 0.3 * (F_center - lower))
            except SolverError:  # the QP failed (a thin level set): cut at the model's minimiser instead
                new = kelley
            k = self.oracle(new)
            F_new = eps * new[n] + eps_hat * new[n + 1] + self.values[k]
            if F_new < F_center:
                center, F_center, best = new, F_new, k
        if F_center - lower > gap * (1 + abs(F_center)):
            raise RuntimeError(f"InterAroBundle.fit: the gap did not close in max_iter={max_iter} steps "
                               f"(eps={eps}, eps_hat={eps_hat}; F {F_center}, lower bound {lower})")
        x = self.primal[best]
        record = SolveRecord(
            problem="robust_lr_aux.Inter-ARO*-level-bundle", solver=self.solver_label,
            solver_version=", ".join(f"{package} {solver_version(name)}" for package, name in (
                ("pot", "POT-EMD"), ("highspy", "HIGHS"), ("clarabel", "CLARABEL"))
                if name in self.solver_label.split("+")),
            status="optimal", objective=F_center, solve_time=self.seconds["lp"] - lp_before,
            wall_time=time.perf_counter() - started, requested_solver=self.solver_label)
        extra = {"lam": center[n], "lam_hat": center[n + 1], "s": x[: self.N], "s_hat": x[self.N:],
                 "lower_bound": lower, "steps": steps, "cuts": len(self.values)}
        return Fit(center[:n].copy(), F_center, [record], extra)


def fit_inter_aro_bundle(X, y, X_aux, y_aux, *, alpha: float, eps: float, eps_hat: float, kappa: float, p=2,
                         beta_bound: float | None = 100.0, gap: float = 1e-6,
                         transport_solver: str = "POT-EMD") -> Fit:
    """One Inter-ARO* fit by :class:`InterAroBundle` (a grid of radii should share one instance)."""
    bundle = InterAroBundle(X, y, X_aux, y_aux, alpha=alpha, kappa=kappa, p=p, beta_bound=beta_bound,
                            transport_solver=transport_solver)
    return bundle.fit(eps, eps_hat, gap=gap)
