"""Checks of thesis §6's propositions, theorems and remarks on small constructed instances.

Each public ``*_check(seed)`` returns a dict with ``holds`` and the numbers behind it; the notebook
``rlt_theorems.ipynb`` registers them and ``statements.RESULTS`` lists which statement each one checks.
Every conic problem is solved by Clarabel (named in each call).

* Proposition 20 (L6110-L6116) and Corollary 15 (L6181-L6186): the liftings the proofs construct agree with
  f at X = xx', grow when X grows in the semidefinite order and are concave (random points);
* Theorem 23 and Corollary 17 (L6285-L6294): over two simplices the RLT relaxation with X = Diag(x),
  Y = Diag(y) and the RLT/SDP relaxation have the value of the full RLT relaxation;
* L6323: the results do not extend to three simplices (an instance where RLT/SDP is strictly tighter);
* App. 6.A.3 (L6411-L6445): with a lifted nonlinear constraint, and with a second block of variables in
  a set Y, the RLT relaxation keeps an optimum with X = Diag(x) (and RLT/SDP its value);
* App. 6.A.4 (L6449): the eigen-split of a standard quadratic problem makes Theorem 22 apply;
* L6338: on the original polytope (a hypercube) RLT is typically strictly weaker than RLT/SDP.
"""

from __future__ import annotations

import cvxpy as cp
import numpy as np

from safeguarded.rlt.instances import eigen_split, hypercube_problem, rotation_matrix
from safeguarded.rlt.relaxations import solve_method
from safeguarded.solvers import solve_with_retries
from safeguarded.validation import check_integer

__all__ = [
    "proposition20_check",
    "corollary15_check",
    "theorem23_check",
    "three_simplices_check",
    "nonlinear_constraints_check",
    "second_block_check",
    "stqp_split_check",
    "rlt_weaker_check",
]

POINTS = 200  #: random points per property


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(check_integer("seed", seed, minimum=0))


def _psd(rng: np.random.Generator, n: int, scale: float = 1.0) -> np.ndarray:
    G = rng.normal(size=(n, n)) * scale
    return G @ G.T


def _lifting_violations(f, lift, rng: np.random.Generator, n: int) -> dict:
    """The three properties of Definition 7 at random points: |f'(xx', x) - f(x)| (agreement), the drop
    f'(X, x) - f'(X + P, x) for P >= 0 (monotonicity) and the midpoint excess (concavity), each as its
    largest violation; the points are (X, x) with x >= 0 and X = xx' + S, S >= 0."""
    agree = mono = conc = 0.0
    for _ in range(POINTS):
        x1, x2 = rng.uniform(0.05, 2.0, size=n), rng.uniform(0.05, 2.0, size=n)
        X1, X2 = np.outer(x1, x1) + _psd(rng, n, 0.5), np.outer(x2, x2) + _psd(rng, n, 0.5)
        agree = max(agree, abs(lift(np.outer(x1, x1), x1) - f(x1)))
        mono = max(mono, lift(X1, x1) - lift(X1 + _psd(rng, n), x1))
        mid = lift((X1 + X2) / 2, (x1 + x2) / 2)
        conc = max(conc, (lift(X1, x1) + lift(X2, x2)) / 2 - mid)
    return {"agreement": agree, "monotonicity": mono, "concavity": conc}


def _linearithmic(ts, t0s, h):
    """Proposition 20.1: f = sum_l (t_l'x + t0_l) h(t_l'x + t0_l) and the proof's lifting (L6120)."""

    def f(x):
        return sum((t @ x + t0) * h(t @ x + t0) for t, t0 in zip(ts, t0s, strict=True))

    def lift(X, x):
        return sum(
            (t @ x + t0) * h((t @ X @ t + 2 * t0 * (t @ x) + t0**2) / (t @ x + t0))
            for t, t0 in zip(ts, t0s, strict=True)
        )

    return f, lift


def proposition20_check(seed) -> dict:
    """Proposition 20's five statements at n = 3 on random points: 1(i) h = log(1 + u) with t >= 0;
    1(ii) affine h with t of either sign; 2 a non-negative combination; 3 sqrt(1 + .) of 1(i); 4 1(i) at
    Tx with T >= 0 (3 x 3); 5 the minimum of 1(i) and 2.  Largest violation per statement and property."""
    rng = _rng(seed)
    n = 3
    ts, t0s = [rng.uniform(0, 1, size=n) for _ in range(2)], list(rng.uniform(0, 1, size=2))
    f1, l1 = _linearithmic(ts, t0s, np.log1p)
    c1, c0 = rng.uniform(0.2, 1.0), rng.normal()
    ts2, t0s2 = [rng.normal(size=n) for _ in range(2)], list(rng.normal(size=2))
    f2 = lambda x: sum((t @ x + t0) * (c1 * (t @ x + t0) + c0) for t, t0 in zip(ts2, t0s2, strict=True))  # noqa: E731

    def l2(X, x):
        return sum(
            c1 * (t @ X @ t + 2 * t0 * (t @ x) + t0**2) + c0 * (t @ x + t0)
            for t, t0 in zip(ts2, t0s2, strict=True)
        )

    w1, w2 = rng.uniform(0, 2, size=2)
    T = rng.uniform(0, 1, size=(n, n))
    cases = {
        "1(i) generalized linearithmic, concave h": (f1, l1),
        "1(ii) affine h, t of any sign": (f2, l2),
        "2 linear combination": (
            lambda x: w1 * f1(x) + w2 * f2(x),
            lambda X, x: w1 * l1(X, x) + w2 * l2(X, x),
        ),
        "3 concave composition": (lambda x: np.sqrt(1 + f1(x)), lambda X, x: np.sqrt(1 + l1(X, x))),
        "4 linear pre-composition": (lambda x: f1(T @ x), lambda X, x: l1(T @ X @ T.T, T @ x)),
        "5 pointwise minimum": (lambda x: min(f1(x), f2(x)), lambda X, x: min(l1(X, x), l2(X, x))),
    }
    rows = {name: _lifting_violations(f, lift, rng, n) for name, (f, lift) in cases.items()}
    worst = max(max(v.values()) for v in rows.values())
    return {"rows": rows, "max_violation": float(worst), "holds": worst <= 1e-9}


def corollary15_check(seed) -> dict:
    """Corollary 15's four classes at n = 3 (power: n = 1) with the liftings of its proof: <Q, X> + q'x + q0;
    sqrt(<F'F, X>) + f'x + f0; sum_i c_i x_i log(X_ii / x_i); x (X / x)^(a - 1) with a = 3/2."""
    rng = _rng(seed)
    n = 3
    Q, q, q0 = _psd(rng, n), rng.normal(size=n), rng.normal()
    F, fv, f0 = rng.normal(size=(2, n)), rng.normal(size=n), rng.normal()
    c = rng.uniform(0, 2, size=n)
    a = 1.5
    cases = {
        "1 convex quadratic": (lambda x: x @ Q @ x + q @ x + q0, lambda X, x: np.sum(Q * X) + q @ x + q0, n),
        "2 conic quadratic": (
            lambda x: np.linalg.norm(F @ x) + fv @ x + f0,
            lambda X, x: np.sqrt(np.sum((F.T @ F) * X)) + fv @ x + f0,
            n,
        ),
        "3 negative entropy": (
            lambda x: np.sum(c * x * np.log(x)),
            lambda X, x: np.sum(c * x * np.log(np.diag(X) / x)),
            n,
        ),
        "4 power x^a, a = 3/2": (lambda x: x[0] ** a, lambda X, x: x[0] * (X[0, 0] / x[0]) ** (a - 1), 1),
    }
    rows = {name: _lifting_violations(f, lift, rng, dim) for name, (f, lift, dim) in cases.items()}
    worst = max(max(v.values()) for v in rows.values())
    return {"rows": rows, "max_violation": float(worst), "holds": worst <= 1e-9}


# ------------------------------------------------------------------------- products of simplices
def _product_relaxation(sizes, Q, g, *, mode: str) -> float:
    """max <Q, W> + g(x) over a product of simplices (block sizes ``sizes``), W the lifted matrix of the
    stacked x: every block pair's products of x_k >= 0 with sum(x_l) = 1 and with x_l >= 0 (W >= 0, the
    block W_kl has row sums x_k and column sums x_l; (142) for two blocks).  ``mode``: "rlt", "diag"
    (diagonal blocks W_kk = Diag(x_k)), or "sdp" (RLT plus [[W, x], [x', 1]] >= 0).  Clarabel."""
    N = sum(sizes)
    M = (
        cp.Variable((N + 1, N + 1), PSD=True)
        if mode == "sdp"
        else cp.Variable((N + 1, N + 1), symmetric=True)
    )
    W, x = M[:N, :N], M[:N, N]
    starts = np.cumsum([0, *sizes])
    cons = [W >= 0, x >= 0, M[N, N] == 1]
    for k in range(len(sizes)):
        sk = slice(starts[k], starts[k + 1])
        cons.append(cp.sum(x[sk]) == 1)
        for m in range(len(sizes)):
            sm = slice(starts[m], starts[m + 1])
            cons += [cp.sum(W[sk, sm], axis=1) == x[sk]]
        if mode == "diag":
            off = np.ones((sizes[k], sizes[k])) - np.eye(sizes[k])
            cons.append(cp.multiply(off, W[sk, sk]) == 0)
    prob = cp.Problem(cp.Maximize(cp.sum(cp.multiply(Q, W)) + g(x)), cons)
    return solve_with_retries(
        prob, name=f"rlt.theorems.product[{mode}]", solver="CLARABEL", problem_class="SDP"
    ).objective


def _max_rel_gap(rows: list[dict], mode: str) -> float:
    """The largest |RLT - ``mode``| over the instances ``rows``, relative to max(1, |RLT|)."""
    return max(abs(r["rlt"] - r[mode]) / max(1.0, abs(r["rlt"])) for r in rows)


def theorem23_check(seed) -> dict:
    """Theorem 23 and Corollary 17 on 3 random instances over two simplices (n1 = n2 = 3): f = <Q, .>
    lifted from a convex quadratic, g = -c ||(x, y) - u||^2; the full RLT, the RLT with X = Diag(x),
    Y = Diag(y), and RLT/SDP."""
    rng = _rng(seed)
    rows = []
    for _ in range(3):
        Q, u, c = _psd(rng, 6), rng.uniform(0, 0.5, size=6), rng.uniform(0.5, 2.0)
        g = lambda x, u=u, c=c: -c * cp.sum_squares(x - u)  # noqa: E731
        rows.append({mode: _product_relaxation((3, 3), Q, g, mode=mode) for mode in ("rlt", "diag", "sdp")})
    diag = _max_rel_gap(rows, "diag")
    sdp = _max_rel_gap(rows, "sdp")
    return {
        "rows": rows,
        "max_rel_gap_diag": diag,
        "max_rel_gap_sdp": sdp,
        "holds": diag <= 1e-6,
        "holds_sdp": sdp <= 1e-6,
    }


def three_simplices_check(seed) -> dict:
    """L6323 on a constructed instance over three simplices of size 2: with s_k = x_k1 - x_k2,
    f = sum_{k<l} (s_k - s_l)^2 (convex) and g = -10 sum_k s_k^2, RLT may couple every pair of blocks
    anti-monotonically (value 12 at the centre) while the semidefinite constraint forbids three pairwise
    correlations of -1 (value 9); with two simplices (f = (s_1 - s_2)^2) the two agree (Corollary 17).
    ``seed`` draws a random rescaling of f that leaves the conclusion unchanged."""
    rng = _rng(seed)
    scale = float(rng.uniform(0.5, 2.0))
    e = np.array([1.0, -1.0])

    def quad(k_blocks):
        N = 2 * k_blocks
        Q = np.zeros((N, N))
        for k in range(k_blocks):
            for m in range(k + 1, k_blocks):
                t = np.zeros(N)
                t[2 * k : 2 * k + 2], t[2 * m : 2 * m + 2] = e, -e
                Q += scale * np.outer(t, t)
        return Q

    def g(k_blocks):
        S = np.kron(np.eye(k_blocks), e[None, :])
        return lambda x: -10 * scale * cp.sum_squares(S @ x)

    three = {mode: _product_relaxation((2, 2, 2), quad(3), g(3), mode=mode) for mode in ("rlt", "sdp")}
    two = {mode: _product_relaxation((2, 2), quad(2), g(2), mode=mode) for mode in ("rlt", "sdp")}
    gap3 = three["rlt"] - three["sdp"]
    gap2 = abs(two["rlt"] - two["sdp"])
    return {
        "three": three,
        "two": two,
        "gap_three": float(gap3),
        "gap_two": float(gap2),
        "holds": gap3 > 1e-3 * max(1.0, abs(three["sdp"])),
        "two_equal": gap2 <= 1e-6 * max(1.0, abs(two["rlt"])),
    }


def _simplex_relaxation(n, Q, g, extra=None, *, mode: str, y_dim: int = 0) -> float:
    """max <Q, X> + g(x, y) over (140) (one simplex; optional ``extra(X, x)`` constraints and a block y in
    [-1, 1]^y_dim), ``mode`` "rlt", "diag" (X = Diag(x)) or "sdp" (RLT plus the LMI).  Clarabel."""
    M = (
        cp.Variable((n + 1, n + 1), PSD=True)
        if mode == "sdp"
        else cp.Variable((n + 1, n + 1), symmetric=True)
    )
    X, x = M[:n, :n], M[:n, n]
    y = cp.Variable(max(y_dim, 1))
    cons = [X >= 0, x >= 0, M[n, n] == 1, cp.sum(x) == 1, cp.sum(X, axis=1) == x, cp.abs(y) <= 1]
    if mode == "diag":
        cons.append(cp.multiply(np.ones((n, n)) - np.eye(n), X) == 0)
    if extra is not None:
        cons += extra(X, x)
    prob = cp.Problem(cp.Maximize(cp.sum(cp.multiply(Q, X)) + g(x, y)), cons)
    return solve_with_retries(
        prob, name=f"rlt.theorems.simplex[{mode}]", solver="CLARABEL", problem_class="SDP"
    ).objective


def nonlinear_constraints_check(seed) -> dict:
    """App. 6.A.3's (148) on 3 random instances (n = 4): maximise <Q, X> - c||x - u||^2 subject to the lifted
    convex-quadratic constraint <P, X> - k >= 0 (k half the largest feasible <P, X>, so it can bind);
    the full RLT against X = Diag(x) and against RLT/SDP."""
    rng = _rng(seed)
    rows = []
    n = 4
    for _ in range(3):
        Q, P, u = _psd(rng, n), _psd(rng, n), rng.uniform(0, 0.5, size=n)
        k = 0.5 * float(np.max(np.diag(P)))
        g = lambda x, y, u=u: -2.0 * cp.sum_squares(x - u)  # noqa: E731
        extra = lambda X, x, P=P, k=k: [cp.sum(cp.multiply(P, X)) - k >= 0]  # noqa: E731
        rows.append({mode: _simplex_relaxation(n, Q, g, extra, mode=mode) for mode in ("rlt", "diag", "sdp")})
    diag = _max_rel_gap(rows, "diag")
    sdp = _max_rel_gap(rows, "sdp")
    return {
        "rows": rows,
        "max_rel_gap_diag": diag,
        "max_rel_gap_sdp": sdp,
        "holds": diag <= 1e-6 and sdp <= 1e-6,
    }


def second_block_check(seed) -> dict:
    """L6427-L6445 on 3 random instances: x in the 4-simplex, y in [-1, 1]^2, f = x'Qx lifted, g(x, y) =
    -||y - Bx||^2 + c'y (jointly concave); the RLT without cross-products of x's and y's constraints,
    full X against X = Diag(x)."""
    rng = _rng(seed)
    rows = []
    for _ in range(3):
        Q, B, c = _psd(rng, 4), rng.normal(size=(2, 4)), rng.normal(size=2)
        g = lambda x, y, B=B, c=c: -cp.sum_squares(y - B @ x) + c @ y  # noqa: E731
        rows.append({mode: _simplex_relaxation(4, Q, g, mode=mode, y_dim=2) for mode in ("rlt", "diag")})
    gap = _max_rel_gap(rows, "diag")
    return {"rows": rows, "max_rel_gap": gap, "holds": gap <= 1e-6}


def stqp_split_check(seed) -> dict:
    """App. 6.A.4 on 3 random standard quadratic problems (n = 5, Q symmetric indefinite): with
    Q = Q+ - Q- (eigen-split), f = x'Q+x lifted to <Q+, X> and g = -x'Q-x; full X against X = Diag(x)."""
    rng = _rng(seed)
    rows = []
    for _ in range(3):
        G = rng.normal(size=(5, 5))
        Qp, Qm = eigen_split((G + G.T) / 2)
        g = lambda x, y, Qm=Qm: -cp.quad_form(x, Qm, assume_PSD=True)  # noqa: E731
        rows.append({mode: _simplex_relaxation(5, Qp, g, mode=mode) for mode in ("rlt", "diag")})
    gap = _max_rel_gap(rows, "diag")
    return {"rows": rows, "max_rel_gap": gap, "holds": gap <= 1e-6}


def rlt_weaker_check(seed) -> dict:
    """L6338 on 8 hypercube instances (n = 3, f = ||DQx||^2 with D's diagonal from [0, 10] and a Haar
    rotation, the barrier g of App. 6.B.1): how often the classical RLT of the original polytope is strictly
    weaker (larger, relative 1e-6) than RLT/SDP ("typically": on most)."""
    rng = _rng(seed)
    strict = 0
    rows = []
    for _ in range(8):
        D = np.diag(rng.uniform(0, 10, size=3))
        inst = hypercube_problem(D, rotation_matrix(3, rng))
        rlt = solve_method(inst, "rlt", chain=("CLARABEL",)).value
        sdp = solve_method(inst, "rlt_sdp", chain=("CLARABEL",)).value
        rows.append({"rlt": rlt, "rlt_sdp": sdp})
        strict += int(rlt > sdp + 1e-6 * max(1.0, abs(sdp)))
    return {"rows": rows, "strictly_weaker": strict, "instances": len(rows), "holds": strict > len(rows) / 2}
