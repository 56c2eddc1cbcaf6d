"""Seeded random instances of thesis §6 (Selvi, den Hertog & Wiesemann, *Math. Program.* 2023).

Every instance maximises ``f(x) + g(x)`` over a polytope (problem (137)) with a convex quadratic

    f(x) = ||L (x - c)||^2 = (x - c)^T M (x - c),   L = D Q,   M = L^T L,

and a concave logarithmic barrier ``g(x) = sum_k w_k log(G_k x + h_k)``, or is a standard quadratic
program (StQP) ``max x^T Q x`` over the simplex (App. 6.B.2).

Where the thesis and the authors' MATLAB code (``selvi-aras/RLT``) differ, both are available:

``rotation="haar"`` (thesis, L6252: "uniformly sampled rotation matrix Mezzadri (2006)")
    ``scipy.stats.ortho_group`` (QR of a Gaussian matrix with Mezzadri's sign correction).
``rotation="qr"`` (code: ``[Q,~] = qr(randn(n))``)
    plain QR of a Gaussian matrix, no sign correction (not exactly Haar).
``scaling="thesis"`` / ``scaling="code"``
    hypercube (App. 6.B.1, L6464 "generated as in Section 6.3"): D ~ U[0, 10] (thesis) or U[0, 1]
    (code); StQP (L6484–6486): eigenvalues ~ U[-7.5, 2.5] / U[-5, 5] (thesis) or
    U[-3n/4, n/4] / U[-n/2, n/2] (code), i.e. the thesis's matrices multiplied by n/10.
    The simplicial and simplex x cube instances use D ~ U[0, 10] in both.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.stats import ortho_group

from safeguarded.experiments import rng_for
from safeguarded.validation import check_array, check_positive, check_rng

__all__ = [
    "ROTATIONS",
    "SCALINGS",
    "SETTINGS",
    "Barrier",
    "QuadBarrierProblem",
    "StQP",
    "rotation_matrix",
    "diagonal_scaling",
    "simplex_problem",
    "hypercube_problem",
    "simplex_cube_problem",
    "stqp_instance",
    "eigen_split",
    "draw_instance",
    "hypercube_vertices",
    "simplex_cube_vertices",
]

ROTATIONS = ("haar", "qr")
SCALINGS = ("thesis", "code")
SETTINGS = ("simplex", "hypercube", "simplex_cube", "stqp1", "stqp2")

#: setting -> integer sub-key for :func:`safeguarded.experiments.rng_for`, so that instances of
#: different settings with the same (seed, n) are independent.
_SETTING_KEY = {name: i for i, name in enumerate(SETTINGS)}


def _check_n(n, name: str = "n", minimum: int = 1) -> int:
    if int(n) != n or n < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {name}={n!r}")
    return int(n)


def _check_choice(value: str, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {name}={value!r}")
    return value


def rotation_matrix(n: int, rng: np.random.Generator, rotation: str = "haar") -> np.ndarray:
    """An n x n orthogonal matrix: Haar via ``ortho_group`` (thesis) or plain QR of randn (code)."""
    n = _check_n(n)
    check_rng("rng", rng)
    _check_choice(rotation, "rotation", ROTATIONS)
    if rotation == "haar":
        if n == 1:  # O(1) = {-1, +1}; ortho_group needs dim >= 2
            return np.array([[1.0 if rng.random() < 0.5 else -1.0]])
        return ortho_group.rvs(n, random_state=rng)
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return q


def diagonal_scaling(n: int, rng: np.random.Generator, upper: float) -> np.ndarray:
    """The diagonal of D with entries ~ U[0, upper] (thesis L6252: upper = 10)."""
    n = _check_n(n)
    check_rng("rng", rng)
    upper = check_positive("upper", upper)
    return rng.uniform(0.0, upper, size=n)


@dataclass(frozen=True)
class Barrier:
    """The concave barrier g(x) = sum_k w_k log(G_k x + h_k) (w > 0)."""

    G: sp.csr_matrix
    h: np.ndarray
    w: np.ndarray

    def __call__(self, x: np.ndarray) -> float:
        arg = self.G @ x + self.h
        if np.any(arg <= 0):
            return -np.inf
        return float(self.w @ np.log(arg))


@dataclass(frozen=True)
class QuadBarrierProblem:
    """sup ||L (x - c)||^2 + g(x)  s.t.  A x <= b  [and, if ``simplex``, x in the probability simplex].

    ``M = L^T L`` is the matrix of the convex quadratic f; its lifting f'(X, x) = <M, X> - 2 c^T M x
    + c^T M c is monotone (Corollary 15.1). ``A, b`` describe the feasible polytope as halfspaces,
    the input of the classical RLT (138). ``simplex=True`` marks the probability simplex (139), whose
    RLT is (140).
    """

    name: str
    L: np.ndarray
    c: np.ndarray
    barrier: Barrier
    A: sp.csr_matrix
    b: np.ndarray
    simplex: bool = False

    @property
    def n(self) -> int:
        return self.L.shape[1]

    @property
    def M(self) -> np.ndarray:
        return self.L.T @ self.L

    def f(self, x: np.ndarray) -> float:
        r = self.L @ (np.asarray(x, float) - self.c)
        return float(r @ r)

    def objective(self, x: np.ndarray) -> float:
        """f(x) + g(x) (-inf outside the barrier's domain)."""
        return self.f(x) + self.barrier(np.asarray(x, float))


@dataclass(frozen=True)
class StQP:
    """max x^T Q x over the probability simplex, with the eigen-split Q = Q+ - Q- (App. 6.A.4)."""

    name: str
    Q: np.ndarray
    Q_plus: np.ndarray
    Q_minus: np.ndarray

    @property
    def n(self) -> int:
        return self.Q.shape[0]

    def objective(self, x: np.ndarray) -> float:
        x = np.asarray(x, float)
        return float(x @ self.Q @ x)


def _check_scaling_matrix(D, n: int) -> np.ndarray:
    d = np.asarray(D, float)
    if d.ndim == 2:
        if d.shape != (n, n) or np.any(d != np.diag(np.diag(d))):
            raise ValueError(f"D must be a diagonal {n}x{n} matrix or a vector of length {n}")
        d = np.diag(d)
    if d.shape != (n,):
        raise ValueError(f"D must have {n} diagonal entries, got shape {d.shape}")
    if np.any(d < 0) or not np.all(np.isfinite(d)):
        raise ValueError(
            f"D must be positive semidefinite (finite diagonal entries >= 0), got min entry {d.min():.3g}"
        )
    return d


def _check_square(Q, n: int, name: str) -> np.ndarray:
    q = check_array(name, Q, finite=False)
    if q.shape != (n, n):
        raise ValueError(f"{name} must be a {n}x{n} matrix, got shape {q.shape}")
    if not np.all(np.isfinite(q)):
        raise ValueError(f"{name} must be finite, got {int(np.sum(~np.isfinite(q)))} non-finite entries")
    return q


def _simplex_halfspaces(n: int) -> tuple[sp.csr_matrix, np.ndarray]:
    """-x <= 0, 1^T x <= 1, -1^T x <= -1 (the code's halfspace description of the simplex)."""
    A = sp.vstack([-sp.identity(n), sp.csr_matrix(np.ones((1, n))), sp.csr_matrix(-np.ones((1, n)))])
    return A.tocsr(), np.concatenate([np.zeros(n), [1.0, -1.0]])


def simplex_problem(D, Q) -> QuadBarrierProblem:
    """Simplicial instance of §6.3 (L6240): f = ||DQ(x - 1/n)||^2, g = (1/n) sum ln x_i over (139)."""
    d = np.asarray(D, float)
    n = _check_n(d.shape[0] if d.ndim else 0)
    d = _check_scaling_matrix(d, n)
    Q = _check_square(Q, n, "Q")
    A, b = _simplex_halfspaces(n)
    barrier = Barrier(sp.identity(n, format="csr"), np.zeros(n), np.full(n, 1.0 / n))
    return QuadBarrierProblem("simplex", d[:, None] * Q, np.full(n, 1.0 / n), barrier, A, b, simplex=True)


def hypercube_problem(D, Q) -> QuadBarrierProblem:
    """Hypercube instance of App. 6.B.1 (L6457): f = ||DQx||^2, g = sum ln(1 - x_i^2) over [-1, 1]^n."""
    d = np.asarray(D, float)
    n = _check_n(d.shape[0] if d.ndim else 0)
    d = _check_scaling_matrix(d, n)
    Q = _check_square(Q, n, "Q")
    eye = sp.identity(n, format="csr")
    A = sp.vstack([eye, -eye]).tocsr()
    b = np.ones(2 * n)
    # ln(1 - x_i^2) = ln(1 - x_i) + ln(1 + x_i)
    barrier = Barrier(sp.vstack([-eye, eye]).tocsr(), np.ones(2 * n), np.ones(2 * n))
    return QuadBarrierProblem("hypercube", d[:, None] * Q, np.zeros(n), barrier, A, b)


def simplex_cube_problem(D, Q, k: int = 3) -> QuadBarrierProblem:
    """Simplex x cube instance of App. 6.B.1 (L6472): variables (x, y), x in the (n-k)-simplex, y in
    [-1, 1]^k; f = ||DQ(x - 1/(n-k); y)||^2, g = (1/(n-k)) sum ln x_i + sum ln(1 - y_i^2).

    The halfspaces are the code's n + k + 2 rows: -x <= 0, 1^T x <= 1, -1^T x <= -1, y <= 1, -y <= 1.
    """
    d = np.asarray(D, float)
    n = _check_n(d.shape[0] if d.ndim else 0)
    k = _check_n(k, "k")
    if n - k < 1:
        raise ValueError(f"n must be >= k + 1 = {k + 1} for the simplex x cube instance, got n={n}")
    d = _check_scaling_matrix(d, n)
    Q = _check_square(Q, n, "Q")
    m = n - k
    As, bs = _simplex_halfspaces(m)
    eye_k = sp.identity(k, format="csr")
    A = sp.bmat([[As, None], [None, eye_k], [None, -eye_k]]).tocsr()
    b = np.concatenate([bs, np.ones(2 * k)])
    G = sp.bmat([[sp.identity(m), None], [None, -eye_k], [None, eye_k]]).tocsr()
    h = np.concatenate([np.zeros(m), np.ones(2 * k)])
    w = np.concatenate([np.full(m, 1.0 / m), np.ones(2 * k)])
    c = np.concatenate([np.full(m, 1.0 / m), np.zeros(k)])
    return QuadBarrierProblem("simplex_cube", d[:, None] * Q, c, Barrier(G, h, w), A, b)


def eigen_split(Q) -> tuple[np.ndarray, np.ndarray]:
    """Q = Q+ - Q- with Q+, Q- PSD from the eigendecomposition (App. 6.A.4; code ``eigen_trick.m``)."""
    Q = check_array("Q", Q, finite=False, nonempty=False)
    if Q.ndim != 2 or Q.shape[0] != Q.shape[1] or Q.shape[0] < 1:
        raise ValueError(f"Q must be a square matrix of size n >= 1, got shape {Q.shape}")
    if not np.all(np.isfinite(Q)):
        raise ValueError(f"Q must be finite, got {int(np.sum(~np.isfinite(Q)))} non-finite entries")
    if not np.allclose(Q, Q.T, rtol=0, atol=1e-10 * max(1.0, np.abs(Q).max())):
        raise ValueError(f"Q must be symmetric, got max |Q - Q^T| = {np.abs(Q - Q.T).max():.3g}")
    Q = (Q + Q.T) / 2
    lam, V = np.linalg.eigh(Q)
    q_plus = (V * np.maximum(lam, 0.0)) @ V.T
    q_minus = (V * np.maximum(-lam, 0.0)) @ V.T
    return (q_plus + q_plus.T) / 2, (q_minus + q_minus.T) / 2


def stqp_from_matrix(Q, name: str = "stqp") -> StQP:
    """An StQP max x^T Q x over the simplex, with its eigen-split (ValueError if Q is not symmetric)."""
    q_plus, q_minus = eigen_split(Q)
    Q = np.asarray(Q, float)
    return StQP(name, (Q + Q.T) / 2, q_plus, q_minus)


def _stqp_interval(n: int, kind: int, scaling: str) -> tuple[float, float]:
    lo, hi = {1: (-7.5, 2.5), 2: (-5.0, 5.0)}[kind]
    if scaling == "code":  # rand*n - 3n/4 and rand*n - n/2: the thesis interval times n/10
        lo, hi = lo * n / 10, hi * n / 10
    return lo, hi


def stqp_instance(
    n: int, kind: int, rng: np.random.Generator, rotation: str = "haar", scaling: str = "thesis"
) -> StQP:
    """StQP of App. 6.B.2 (L6484): Q = V Diag(lambda) V^T, lambda ~ U[interval of type ``kind``]."""
    n = _check_n(n)
    if kind not in (1, 2):
        raise ValueError(f"kind must be 1 or 2, got kind={kind!r}")
    check_rng("rng", rng)
    _check_choice(scaling, "scaling", SCALINGS)
    lo, hi = _stqp_interval(n, kind, scaling)
    lam = rng.uniform(lo, hi, size=n)
    V = rotation_matrix(n, rng, rotation)
    return stqp_from_matrix((V * lam) @ V.T, name=f"stqp{kind}")


def draw_instance(
    setting: str, n: int, seed: int, rotation: str = "haar", scaling: str = "thesis", k: int = 3
):
    """Instance ``seed`` of ``setting`` at size n, from ``rng_for(seed, setting key, n)``.

    The draw order is the code's: D first, then the rotation (eigenvalues first for StQP).
    """
    _check_choice(setting, "setting", SETTINGS)
    _check_choice(rotation, "rotation", ROTATIONS)
    _check_choice(scaling, "scaling", SCALINGS)
    n = _check_n(n)
    k = _check_n(k, "k")
    rng = rng_for(seed, _SETTING_KEY[setting], n)
    if setting.startswith("stqp"):
        return stqp_instance(n, int(setting[-1]), rng, rotation, scaling)
    upper = 1.0 if (setting == "hypercube" and scaling == "code") else 10.0
    d = diagonal_scaling(n, rng, upper)
    Q = rotation_matrix(n, rng, rotation)
    if setting == "simplex":
        return simplex_problem(d, Q)
    if setting == "hypercube":
        return hypercube_problem(d, Q)
    return simplex_cube_problem(d, Q, k)


def hypercube_vertices(n: int) -> np.ndarray:
    """The 2^n vertices of [-1, 1]^n as columns (n x 2^n), in the code's dec2bin order."""
    n = _check_n(n)
    if n > 20:
        raise ValueError(f"n must be <= 20 for vertex enumeration (2^n vertices), got n={n}")
    return np.array(list(itertools.product((-1.0, 1.0), repeat=n))).T


def simplex_cube_vertices(n: int, k: int) -> np.ndarray:
    """The 2^k (n - k) vertices (e_i, s) of simplex x [-1, 1]^k as columns (n x 2^k (n-k))."""
    n, k = _check_n(n), _check_n(k, "k")
    if n - k < 1:
        raise ValueError(f"k must be <= n - 1 = {n - 1} (the simplex part needs a coordinate), got k={k}")
    m = n - k
    cube = hypercube_vertices(k)
    return np.vstack([np.repeat(np.eye(m), cube.shape[1], axis=1), np.tile(cube, m)])
