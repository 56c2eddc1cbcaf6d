"""The mixed-feature Wasserstein learning problem (57) of thesis Section 3 in matrix form, shared by the
cut models (:mod:`._cut_models`) and the algorithms (:mod:`.models`): the problem :class:`Spec` and its
variable layout, the parameter checks, and the affine maps of a cut ``(n, i, z)`` with the rows they give.

Variable layout: ``[beta_0, beta_x (M_x), beta_z (M_z), lambda, s (N), tau]`` then auxiliaries.
The public names are re-exported by :mod:`safeguarded.wasserstein_mixed.models`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from safeguarded.validation import check_array, check_bool, check_positive, check_type
from safeguarded.wasserstein_mixed.data import MixedData, check_metric_params, d_z, one_hot
from safeguarded.wasserstein_mixed.losses import Loss

HIGHS = "HIGHS (highspy)"
CLARABEL = "CLARABEL (native)"


@dataclass(frozen=True)
class Spec:
    """One mixed-feature Wasserstein learning problem (54) without its radius eps.

    ``alpha`` adds ``alpha * ||beta||_2`` (r-MixF / r-Nom); ``nominal=True`` drops the Wasserstein part
    (lambda = 0, only the nominal constraints) which gives (regularised) ERM.
    """

    data: MixedData
    loss: Loss
    kappa_z: float = 1.0
    kappa_y: float = 1.0
    p: float = 1.0
    alpha: float = 0.0
    bound: float = 100.0
    nominal: bool = False

    def __post_init__(self):
        check_type("data", self.data, MixedData, "a MixedData")
        check_type("loss", self.loss, Loss, "a Loss (make_loss)")
        check_metric_params(self.kappa_z, self.kappa_y, self.p)
        if self.loss.task != self.data.task:
            raise ValueError(f"loss {self.loss.name!r} is for {self.loss.task}, data are {self.data.task}")
        check_positive("alpha", self.alpha, allow_zero=True)
        check_positive("bound", self.bound)
        check_bool("nominal", self.nominal)

    @property
    def nb(self) -> int:
        return 1 + self.data.M_x + self.data.M_z

    @property
    def lam(self) -> int:
        return self.nb

    @property
    def s0(self) -> int:
        return self.nb + 1

    @property
    def tau(self) -> int:
        return self.nb + 1 + self.data.N

    @property
    def n_base(self) -> int:
        return self.nb + 2 + self.data.N

    @property
    def groups(self) -> tuple[int, ...]:
        return (1, -1) if self.data.task == "classification" and not self.nominal else (1,)

    def lam_max(self) -> float:
        """A bound on lambda that is never binding at an optimum when ``|beta| <= bound`` (Prop. 12)."""
        if self.nominal:
            return 0.0
        xs = float(np.max(np.sum(np.abs(self.data.X), axis=1), initial=0.0))
        span = 2 * self.bound * (2 + xs + self.data.K + np.max(np.abs(self.data.y), initial=1.0))
        return float(self.loss.lip * span / min(self.kappa_z, self.kappa_y) + 1.0)


def _check_eps(eps) -> float:
    if not (isinstance(eps, int | float | np.floating) and math.isfinite(eps) and eps >= 0):
        raise ValueError(f"eps must be a finite number >= 0, got eps={eps!r}")
    return float(eps)


def _check_weights(spec: Spec, weights) -> np.ndarray:
    N = spec.data.N
    if weights is None:
        return np.full(N, 1.0 / N)
    w = check_array("weights", weights, nonempty=False)
    if w.shape != (N,) or np.any(w < 0) or not np.any(w > 0):
        raise ValueError(f"weights must be {N} non-negative numbers, not all zero")
    return w


def _check_spec(spec) -> Spec:
    return check_type("spec", spec, Spec, "a Spec")


def _check_time_limit(time_limit) -> float | None:
    return None if time_limit is None else check_positive("time_limit", time_limit)


# ------------------------------------------------------------------------------- cut matrices
def cut_matrices(spec: Spec, n, group, codes):
    """The affine maps of cuts ``(n, i, z)``: ``g = G x + gc`` and ``rhs = R x + rc`` over the base
    variables, so that the cut is ``L(g) <= rhs`` (the constraints of (58)-(61))."""
    d = spec.data
    n = np.asarray(n, np.int64)
    group = np.asarray(group, float)
    codes = np.atleast_2d(np.asarray(codes, np.int64)).reshape(len(n), d.K)
    m = len(n)
    if d.task == "classification":
        sigma = group * d.y[n]
        gc = np.zeros(m)
    else:
        sigma = np.ones(m)
        gc = -d.y[n]
    feats = np.hstack([np.ones((m, 1)), d.X[n], one_hot(codes, d.levels)]) * sigma[:, None]
    G = sp.csr_matrix(feats, shape=(m, spec.n_base))
    n_diff = np.sum(codes != d.codes[n], axis=1)
    lam_coef = spec.kappa_z * d_z(n_diff, spec.p) + spec.kappa_y * (group < 0)
    rows = np.concatenate([np.arange(m), np.arange(m)])
    cols = np.concatenate([np.full(m, spec.lam), spec.s0 + n])
    vals = np.concatenate([lam_coef, np.ones(m)])
    if spec.nominal:
        keep = cols != spec.lam
        rows, cols, vals = rows[keep], cols[keep], vals[keep]
    R = sp.csr_matrix((vals, (rows, cols)), shape=(m, spec.n_base))
    return G, gc, R, np.zeros(m)


def _pieces(loss: Loss) -> np.ndarray:
    """Affine pieces that can bind (a zero piece with b <= 0 is implied by s >= 0, lambda >= 0)."""
    P = loss.pieces
    return P[~((P[:, 0] == 0) & (P[:, 1] <= 0))]


def _pwa_rows(loss, G, gc, R, rc):
    """Rows ``A x <= u`` of ``a_j g + b_j <= rhs`` for every piece: A = a_j G - R, u = rc - a_j gc - b_j."""
    As, us = [], []
    for a, b in _pieces(loss):
        As.append(a * G - R)
        us.append(rc - a * gc - b)
    return sp.vstack(As).tocsr(), np.concatenate(us)


def _base_rows(spec: Spec):
    """Theta of (58)-(61): ``lip |beta_x,k| <= lambda w_k`` (dual of the weighted l1 norm)."""
    d = spec.data
    if spec.nominal or d.M_x == 0:
        return sp.csr_matrix((0, spec.n_base)), np.zeros(0)
    k = np.arange(d.M_x)
    A = sp.lil_matrix((2 * d.M_x, spec.n_base))
    A[k, 1 + k] = spec.loss.lip
    A[d.M_x + k, 1 + k] = -spec.loss.lip
    A[k, spec.lam] = -d.x_weights
    A[d.M_x + k, spec.lam] = -d.x_weights
    return A.tocsr(), np.zeros(2 * d.M_x)


def _lam_bounds(spec: Spec) -> tuple[float, float]:
    if spec.nominal:
        return 0.0, 0.0
    lo = spec.loss.lip / spec.kappa_y if spec.data.task == "regression" else 0.0
    return lo, max(spec.lam_max(), lo)
