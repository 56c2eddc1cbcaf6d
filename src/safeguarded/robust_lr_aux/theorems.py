"""Checks of thesis §4's theorems, propositions and lemmas on small constructed instances.

Each public ``*_check(seed)`` draws a small instance, computes the statement's two sides by independent
methods and returns a dict with the quantities a claim row needs (``holds`` and the numbers behind it).
The notebook ``robust_lr_aux_theorems.ipynb`` registers them; ``statements.RESULTS`` lists which statement
each one checks.  Solvers are named in every call: Clarabel for the conic models (cvxpy), HiGHS for the
LPs (:func:`safeguarded.solvers.solve_lp`), POT's network simplex for transport distances.

* Observation 7 (L4149-L4157): sup_{||z||_p <= alpha} l_beta(x + z, y) = l^alpha_beta(x, y), with the
  supremum computed by a conic solve over z, and L^alpha convex with Lipschitz modulus 1;
* Corollary 8 (L4161-L4173): for a fixed beta, the worst-case expectation over B_eps(P_N) (a primal LP
  over distributions on a discretised support, a lower bound) equals Corollary 8's dual in lambda;
* Theorem 11 (L4199-L4201): Inter-ARO* at a fixed beta is at least the worst case over the intersection of
  the two balls (the same primal LP with both transport budgets);
* Lemma 31 (L4443-L4445) at n = 1: the difference-of-convex supremum equals its conjugate form;
* Lemma 33 (L4632-L4634): W(Q, mixture) <= the mixture of the distances (transport LPs);
* Observation 8 (L4219-L4223): problem (67) equals (68) with lambda = N / (N + w N_hat);
* §4.6 (L4243): eps + eps_hat >= W(P_N, P_hat) is necessary for the balls to meet (min over Q of
  W(P_N, Q) + W(Q, P_hat) equals W(P_N, P_hat)).
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from scipy.optimize import minimize_scalar

from safeguarded.robust_lr_aux import transport
from safeguarded.robust_lr_aux.losses import adversarial_loss, dual_order
from safeguarded.solvers import solve, solve_lp
from safeguarded.validation import check_integer

__all__ = [
    "observation7_check",
    "corollary8_check",
    "theorem11_check",
    "lemma31_check",
    "lemma33_check",
    "observation8_check",
    "intersection_check",
]

#: the metric's feature norm q (Definition 5; the experiments' l1) and the attack norm p
Q_NORM, P_NORM = 1.0, 2.0
#: distances along the worst direction at which the primal LPs may move mass (a discretised support)
DISTANCES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 32.0, 128.0, 1024.0, 8192.0)


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(check_integer("seed", seed, minimum=0))


def _sample(rng: np.random.Generator, N: int, n: int, shift: float = 0.0):
    X = rng.normal(size=(N, n)) + shift
    y = np.where(X @ np.linspace(1.0, -0.5, n) + 0.5 * rng.normal(size=N) >= 0, 1.0, -1.0)
    return X, y


def _logloss(margin) -> np.ndarray:
    return np.logaddexp(0.0, -np.asarray(margin, dtype=float))


def _norm(v: np.ndarray, q: float, axis=-1) -> np.ndarray:
    return np.linalg.norm(v, ord=q, axis=axis)


def _worst_direction(beta: np.ndarray, q: float) -> np.ndarray:
    """A unit ``q``-norm vector u with beta'u = ||beta||_{q*} (Hölder's equality case)."""
    if q == 1:
        u = np.zeros_like(beta)
        k = int(np.argmax(np.abs(beta)))
        u[k] = np.sign(beta[k]) or 1.0
        return u
    if np.isinf(q):
        return np.where(beta >= 0, 1.0, -1.0)
    qs = dual_order(q)
    u = np.sign(beta) * np.abs(beta) ** (qs - 1)
    return u / _norm(u, q)


# ---------------------------------------------------------------------------------------- Observation 7
def _attack_supremum(beta, x, y, alpha, p) -> float:
    """sup_{||z||_p <= alpha} log(1 + exp(-y beta'(x + z))) by a conic solve of min_z y beta'z (Clarabel);
    the logloss decreases in the margin, so the supremum sits at the smallest margin."""
    z = cp.Variable(beta.size)
    prob = cp.Problem(cp.Minimize(y * (beta @ z)), [cp.norm(z, p) <= alpha])
    solve(prob, name="robust_lr_aux.obs7.attack", solver="CLARABEL", problem_class="SOCP")
    return float(_logloss(y * beta @ x + prob.value))


def observation7_check(seed) -> dict:
    """Observation 7 on 20 random (beta, x, y) per attack norm p in {1, 2, inf}: the attack's supremum
    (conic solve) against the closed form l^alpha; and L^alpha(z) = log(1 + exp(-z + c)) convex with
    |slope| <= 1 on a grid (finite differences)."""
    rng = _rng(seed)
    gap = 0.0
    for p in (1.0, 2.0, np.inf):
        for _ in range(20):
            n = int(rng.integers(2, 6))
            beta, x = rng.normal(size=n), rng.normal(size=n)
            y, alpha = float(rng.choice([-1.0, 1.0])), float(rng.uniform(0.05, 1.0))
            closed = float(adversarial_loss(beta, x[None, :], np.array([y]), alpha, p)[0])
            gap = max(gap, abs(_attack_supremum(beta, x, y, alpha, p) - closed))
    grid = np.linspace(-30.0, 30.0, 6001)
    slopes, curvature = [], []
    for c in rng.uniform(0.0, 3.0, size=5):
        values = _logloss(grid - c)
        slope = np.diff(values) / np.diff(grid)
        slopes.append(np.max(np.abs(slope)))
        curvature.append(np.min(np.diff(slope)))
    max_slope, min_curv = float(max(slopes)), float(min(curvature))
    return {
        "max_abs_gap": gap,
        "max_abs_slope": max_slope,
        "min_second_difference": min_curv,
        "holds": gap <= 1e-6,
        "lipschitz_convex": max_slope <= 1.0 + 1e-9 and min_curv >= -1e-9,
    }


# ------------------------------------------------------------------------------- Corollary 8, Theorem 11
def _candidates(beta, X, q):
    """Support points for the primal LPs: every sample point moved along the direction that raises the
    loss of label l fastest (per unit q-norm) by 0 and each of DISTANCES, with either label."""
    u = _worst_direction(beta, q)
    pts, labels = [], []
    for x in X:
        for lab in (-1.0, 1.0):
            for t in (0.0, *DISTANCES):
                pts.append(x - lab * t * u)
                labels.append(lab)
    return np.array(pts), np.array(labels)


def _cost(X, y, C, yc, kappa, q) -> np.ndarray:
    return _norm(X[:, None, :] - C[None, :, :], q) + kappa * (y[:, None] != yc[None, :])


def _worst_case_lp(beta, alpha, p, q, kappa, balls, C, yc) -> float:
    """max_Q E_Q[l^alpha] over distributions Q on the points C (labels yc) with W(P, Q) <= radius for every
    (X, y, radius) in ``balls``: one coupling per ball, their second marginals equal (HiGHS)."""
    loss = adversarial_loss(beta, C, yc, alpha, p)
    nC = len(C)
    blocks, sizes, costs = [], [], []
    for X, y, _ in balls:
        sizes.append(len(X))
        costs.append(_cost(X, y, C, yc, kappa, q).ravel())
    nvar = sum(sizes) * nC
    rows, lo, hi = [], [], []
    offset = 0
    for k, ((_X, _, radius), N) in enumerate(zip(balls, sizes, strict=True)):
        block = sp.lil_matrix((N + 1, nvar))
        for i in range(N):  # first marginal: each sample point keeps mass 1/N
            block[i, offset + i * nC : offset + (i + 1) * nC] = 1.0
        block[N, offset : offset + N * nC] = costs[k]  # the transport budget
        rows.append(block.tocsr())
        lo += [1.0 / N] * N + [-np.inf]
        hi += [1.0 / N] * N + [radius]
        if k:  # equal second marginals: sum_i pi^0_ic = sum_j pi^k_jc
            link = sp.hstack(
                [
                    sp.kron(np.ones((1, sizes[0])), sp.eye(nC)),
                    sp.csr_matrix((nC, sum(sizes[1:k]) * nC)),
                    -sp.kron(np.ones((1, N)), sp.eye(nC)),
                    sp.csr_matrix((nC, nvar - offset - N * nC)),
                ]
            )
            rows.append(link.tocsr())
            lo += [0.0] * nC
            hi += [0.0] * nC
        blocks.append(offset)
        offset += N * nC
    A = sp.vstack(rows, format="csc")
    c = np.zeros(nvar)
    c[: sizes[0] * nC] = -np.tile(loss, sizes[0])  # the objective on the first coupling's Q
    res = solve_lp(
        c,
        A,
        np.array(lo),
        np.array(hi),
        np.zeros(nvar),
        np.full(nvar, np.inf),
        name="robust_lr_aux.theorems.worst_case",
    )
    return -res.objective


def _corollary8_dual(beta, X, y, eps, kappa, alpha, p, q) -> float:
    """Corollary 8's objective minimised over lambda >= ||beta||_{q*} at a fixed beta: a convex piecewise
    function of lambda, minimal at its lower end or at a breakpoint (l(x, -y) - l(x, y)) / kappa."""
    own = adversarial_loss(beta, X, y, alpha, p)
    flip = adversarial_loss(beta, X, -y, alpha, p)
    low = float(_norm(beta, dual_order(q)))
    lams = np.concatenate([[low], (flip - own) / kappa])
    lams = lams[lams >= low]
    return float(min(eps * lam + np.mean(np.maximum(own, flip - kappa * lam)) for lam in lams))


def corollary8_check(seed) -> dict:
    """Corollary 8 at a fixed beta on 5 random instances (N = 6, n = 2, kappa = 1, eps = 0.3): the primal
    worst case on the discretised support (a lower bound of the supremum) against the dual; the gap left
    is the discretisation's (mass moved at most 8,192 units)."""
    rng = _rng(seed)
    rows = []
    for _ in range(5):
        X, y = _sample(rng, 6, 2)
        beta = rng.normal(size=2)
        eps, kappa, alpha = 0.3, 1.0, 0.2
        C, yc = _candidates(beta, X, Q_NORM)
        primal = _worst_case_lp(beta, alpha, P_NORM, Q_NORM, kappa, [(X, y, eps)], C, yc)
        dual = _corollary8_dual(beta, X, y, eps, kappa, alpha, P_NORM, Q_NORM)
        rows.append((primal, dual))
    primal, dual = np.array(rows).T
    rel = float(np.max((dual - primal) / np.abs(dual)))
    return {
        "primal": primal,
        "dual": dual,
        "max_rel_gap": rel,
        "holds": bool(np.all(primal <= dual + 1e-7)) and rel <= 1e-3,
    }


def _inter_aro_star_at(beta, X, y, Xa, ya, eps, eps_hat, kappa, alpha, p, q) -> float:
    """Inter-ARO* (Theorem 11, L4201, the literal model with its z variables) at a fixed beta (Clarabel)."""
    N, Nh, n = len(X), len(Xa), X.shape[1]
    qs = dual_order(q)
    shift = alpha * float(_norm(beta, dual_order(p)))
    lam, lam_h = cp.Variable(nonneg=True), cp.Variable(nonneg=True)
    s, s_h = cp.Variable(N, nonneg=True), cp.Variable(Nh, nonneg=True)
    I, J = np.repeat(np.arange(N), Nh), np.tile(np.arange(Nh), N)  # the pairs (i, j), row k = i Nh + j
    Si = sp.csr_matrix((np.ones(N * Nh), (np.arange(N * Nh), I)), shape=(N * Nh, N))
    Sj = sp.csr_matrix((np.ones(N * Nh), (np.arange(N * Nh), J)), shape=(N * Nh, Nh))
    diff = Xa[J] - X[I]
    cons = []
    for lab in (-1.0, 1.0):
        Z = cp.Variable((N * Nh, n))
        margin = lab * (X[I] @ beta) + cp.sum(cp.multiply(Z, diff), axis=1)
        rhs = (
            Si @ s
            + cp.multiply(kappa * (1 - lab * y[I]) / 2, lam)
            + Sj @ s_h
            + cp.multiply(kappa * (1 - lab * ya[J]) / 2, lam_h)
        )
        cons += [
            cp.logistic(-margin + shift) <= rhs,
            cp.norm(lab * np.ones((N * Nh, 1)) @ beta[None, :] - Z, qs, axis=1) <= lam,
            cp.norm(Z, qs, axis=1) <= lam_h,
        ]
    prob = cp.Problem(cp.Minimize(eps * lam + eps_hat * lam_h + cp.sum(s) / N + cp.sum(s_h) / Nh), cons)
    return solve(
        prob, name="robust_lr_aux.thm11.inter_aro_star", solver="CLARABEL", problem_class="EXP"
    ).objective


def theorem11_check(seed) -> dict:
    """Theorem 11 at a fixed beta on 4 random instances (N = 4, N_hat = 5, n = 2): the worst case over
    B_eps(P_N) ∩ B_eps_hat(P_hat) on a discretised support (a lower bound of Inter-ARO at that beta, with
    points between the two samples added) against Inter-ARO* (an upper bound, if the theorem holds)."""
    rng = _rng(seed)
    rows = []
    for _ in range(4):
        X, y = _sample(rng, 4, 2)
        Xa, ya = _sample(rng, 5, 2, shift=0.7)
        beta = rng.normal(size=2)
        kappa, alpha = 1.0, 0.2
        W = transport.wasserstein_distance(X, y, Xa, ya, kappa=kappa, q=Q_NORM)
        eps, eps_hat = 0.6 * W, 0.6 * W  # the balls meet (eps + eps_hat >= W)
        C, yc = _candidates(beta, np.vstack([X, Xa]), Q_NORM)
        mids = [(1 - t) * xi + t * xj for xi in X for xj in Xa for t in (0.25, 0.5, 0.75)]
        C = np.vstack([C, mids, mids])
        yc = np.concatenate([yc, np.full(len(mids), 1.0), np.full(len(mids), -1.0)])
        lower = _worst_case_lp(beta, alpha, P_NORM, Q_NORM, kappa, [(X, y, eps), (Xa, ya, eps_hat)], C, yc)
        upper = _inter_aro_star_at(beta, X, y, Xa, ya, eps, eps_hat, kappa, alpha, P_NORM, Q_NORM)
        rows.append((lower, upper))
    lower, upper = np.array(rows).T
    return {
        "worst_case_lower": lower,
        "inter_aro_star": upper,
        "min_margin": float(np.min(upper - lower)),
        "holds": bool(np.all(lower <= upper + 1e-6)),
    }


# ------------------------------------------------------------------------------------------- Lemma 31
def _lemma31_lhs(omega, a, a_hat, lam, lam_hat, c) -> float:
    """sup_x L(omega x) - lam|a - x| - lam_hat|a_hat - x| for L(u) = log(1 + exp(-u + c)), n = 1: dense
    grid plus a bounded refinement on each piece between the kinks."""
    lo, hi = min(a, a_hat) - 60.0, max(a, a_hat) + 60.0

    def F(x):
        return float(_logloss(omega * x - c) - lam * abs(a - x) - lam_hat * abs(a_hat - x))

    grid = np.linspace(lo, hi, 200_001)
    vals = _logloss(omega * grid - c) - lam * np.abs(a - grid) - lam_hat * np.abs(a_hat - grid)
    best = float(vals.max())
    for left, right in ((lo, min(a, a_hat)), (min(a, a_hat), max(a, a_hat)), (max(a, a_hat), hi)):
        if right > left:
            res = minimize_scalar(
                lambda x: -F(x), bounds=(left, right), method="bounded", options={"xatol": 1e-12}
            )
            best = max(best, -res.fun, F(left), F(right))
    return best


def _lemma31_rhs(omega, a, a_hat, lam, lam_hat, c, *, printed: bool = True) -> float:
    """The right-hand side of Lemma 31 at n = 1: sup over theta in dom L* = [-1, 0] of
    -L*(theta) + theta omega a + theta inf_z {z (a_hat - a) : |theta||omega - z| <= lam,
    |theta||z| <= lam_hat}, with L*(theta) = theta c + (-theta) log(-theta) + (1 + theta) log(1 + theta).

    ``printed=False`` takes the infimum of theta z (a_hat - a) instead (theta inside the infimum, as the
    proof of Theorem 11 uses it at L4545): for theta < 0 the two differ, theta inf = inf of theta ... only
    when theta >= 0."""

    def G(theta):
        theta = np.atleast_1d(np.asarray(theta, dtype=float))
        t = np.abs(theta)
        lo, hi = np.maximum(omega - lam / t, -lam_hat / t), np.minimum(omega + lam / t, lam_hat / t)
        e1, e2 = lo * (a_hat - a), hi * (a_hat - a)
        inner = theta * np.minimum(e1, e2) if printed else np.minimum(theta * e1, theta * e2)
        one = 1 + theta
        conj = theta * c + t * np.log(t) + np.where(one > 0, one * np.log(np.where(one > 0, one, 1.0)), 0.0)
        out = -conj + theta * omega * a + inner
        return np.where(lo > hi + 1e-15, -np.inf, out)  # an empty inner set: +inf times theta < 0

    # theta = 0 itself is left out: there |theta| z is no longer bounded by lam_hat through z, and the
    # supremum over [-1, 0) already contains the limit theta -> 0
    grid = -np.logspace(-12, 0, 200_000)
    vals = G(grid)
    k = int(np.argmax(vals))
    best = float(vals[k])
    lo, hi = grid[min(k + 1, len(grid) - 1)], grid[max(k - 1, 0)]
    if hi > lo:
        res = minimize_scalar(
            lambda th: -float(G(th)[0]), bounds=(lo, hi), method="bounded", options={"xatol": 1e-14}
        )
        best = max(best, -res.fun)
    return best


def lemma31_check(seed) -> dict:
    """Lemma 31 at n = 1 on 6 random (omega, a, a_hat, lam, lam_hat) with lam + lam_hat > |omega| (a finite
    supremum), L the adversarial logistic loss: the supremum over x against the conjugate form as printed
    (``holds``) and with theta inside the infimum (``holds_theta_inside``)."""
    rng = _rng(seed)
    rows = []
    for _ in range(6):
        omega, a, a_hat = rng.normal(), rng.normal(), rng.normal()
        total = abs(omega) * rng.uniform(1.1, 2.0)
        share = rng.uniform(0.2, 0.8)
        lam, lam_hat, c = total * share, total * (1 - share), rng.uniform(0.0, 1.0)
        args = (omega, a, a_hat, lam, lam_hat, c)
        rows.append((_lemma31_lhs(*args), _lemma31_rhs(*args), _lemma31_rhs(*args, printed=False)))
    lhs, rhs, inside = np.array(rows).T
    gap, gap_inside = float(np.max(np.abs(lhs - rhs))), float(np.max(np.abs(lhs - inside)))
    return {
        "lhs": lhs,
        "rhs": rhs,
        "rhs_theta_inside": inside,
        "max_abs_gap": gap,
        "max_abs_gap_theta_inside": gap_inside,
        "holds": gap <= 1e-5,
        "holds_theta_inside": gap_inside <= 1e-5,
    }


# ------------------------------------------------------------------------------------------- Lemma 33
def lemma33_check(seed) -> dict:
    """Lemma 33 on 10 random triples (Q: 5 atoms, P1: 6, P2: 7; n = 3) and lambda in (0, 1): W(Q, lambda P1 +
    (1 - lambda) P2) against lambda W(Q, P1) + (1 - lambda) W(Q, P2), every distance a transport LP."""
    rng = _rng(seed)
    margins = []
    for _ in range(10):
        Xq, yq = _sample(rng, 5, 3)
        X1, y1 = _sample(rng, 6, 3, shift=0.5)
        X2, y2 = _sample(rng, 7, 3, shift=-0.5)
        lam = float(rng.uniform(0.05, 0.95))
        w = np.concatenate([np.full(6, lam / 6), np.full(7, (1 - lam) / 7)])
        mix = transport.wasserstein_distance(
            Xq, yq, np.vstack([X1, X2]), np.concatenate([y1, y2]), kappa=1.0, weights_aux=w
        )
        bound = lam * transport.wasserstein_distance(Xq, yq, X1, y1, kappa=1.0) + (
            1 - lam
        ) * transport.wasserstein_distance(Xq, yq, X2, y2, kappa=1.0)
        margins.append(bound - mix)
    return {"min_margin": float(min(margins)), "holds": min(margins) >= -1e-9}


# -------------------------------------------------------------------------------------- Observation 8
def observation8_check(seed) -> dict:
    """Observation 8 on random beta and w in {0.5, 1, 2}: problem (67)'s objective (each attack's supremum
    by a conic solve) against E_{Q_mix}[l^alpha] with lambda = N / (N + w N_hat) (closed form)."""
    rng = _rng(seed)
    X, y = _sample(rng, 5, 3)
    Xa, ya = _sample(rng, 7, 3, shift=0.4)
    alpha, gap = 0.3, 0.0
    for w in (0.5, 1.0, 2.0):
        beta = rng.normal(size=3)
        own = sum(_attack_supremum(beta, x, t, alpha, P_NORM) for x, t in zip(X, y, strict=True))
        aux = sum(_attack_supremum(beta, x, t, alpha, P_NORM) for x, t in zip(Xa, ya, strict=True))
        obj67 = (own + w * aux) / (len(X) + w * len(Xa))
        lam = len(X) / (len(X) + w * len(Xa))
        obj68 = (
            lam * adversarial_loss(beta, X, y, alpha).mean()
            + (1 - lam) * adversarial_loss(beta, Xa, ya, alpha).mean()
        )
        gap = max(gap, abs(obj67 - obj68))
    return {"max_abs_gap": float(gap), "holds": gap <= 1e-6}


# ---------------------------------------------------------------------------------- §4.6, L4243
def intersection_check(seed) -> dict:
    """L4243's necessity of eps + eps_hat >= W(P_N, P_hat) on 5 random pairs (N = 5, N_hat = 6, n = 2): the
    smallest W(P_N, Q) + W(Q, P_hat) over Q on both samples' points (either label) and the midpoints of
    every pair (an LP with two couplings) against W(P_N, P_hat); were it smaller, balls with eps + eps_hat
    < W could meet."""
    rng = _rng(seed)
    rows = []
    for _ in range(5):
        X, y = _sample(rng, 5, 2)
        Xa, ya = _sample(rng, 6, 2, shift=0.8)
        mids = np.array([(xi + xj) / 2 for xi in X for xj in Xa])
        C = np.vstack([X, Xa, mids, X, Xa, mids])
        k = len(X) + len(Xa) + len(mids)
        yc = np.concatenate([np.full(k, 1.0), np.full(k, -1.0)])
        nC, N, Nh = len(C), len(X), len(Xa)
        cost = np.concatenate(
            [_cost(X, y, C, yc, 1.0, Q_NORM).ravel(), _cost(Xa, ya, C, yc, 1.0, Q_NORM).ravel()]
        )
        A = sp.vstack(
            [
                sp.hstack([sp.kron(sp.eye(N), np.ones((1, nC))), sp.csr_matrix((N, Nh * nC))]),
                sp.hstack([sp.csr_matrix((Nh, N * nC)), sp.kron(sp.eye(Nh), np.ones((1, nC)))]),
                sp.hstack([sp.kron(np.ones((1, N)), sp.eye(nC)), -sp.kron(np.ones((1, Nh)), sp.eye(nC))]),
            ],
            format="csc",
        )
        rhs = np.concatenate([np.full(N, 1 / N), np.full(Nh, 1 / Nh), np.zeros(nC)])
        res = solve_lp(
            cost,
            A,
            rhs,
            rhs,
            np.zeros(cost.size),
            np.full(cost.size, np.inf),
            name="robust_lr_aux.theorems.intersection",
        )
        rows.append((res.objective, transport.wasserstein_distance(X, y, Xa, ya, kappa=1.0, q=Q_NORM)))
    smallest, W = np.array(rows).T
    return {
        "min_sum": smallest,
        "W": W,
        "max_abs_gap": float(np.max(np.abs(smallest - W))),
        "holds": bool(np.all(smallest >= W - 1e-9)),
    }
