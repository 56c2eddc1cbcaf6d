"""Mixed-feature Wasserstein learning models of thesis Section 3.

* :func:`cutting_plane` - Algorithm 9 (Prop. 9) on the unified form (57) with the separation oracle
  Algorithm 10; cuts are added to ONE model in place (HiGHS ``addRows`` for piecewise-affine losses,
  a natively assembled Clarabel conic model otherwise), and a model can be reused across the
  eps grid and cross-validation folds (cuts do not depend on eps or on which samples are weighted).
* :func:`enumerated` - the exponential-size dual (56)/(57): Props. 11 / 13 (classification, (58)/(59))
  and 15 / 16 (regression, (60)/(61)) with Corollaries 2, 3, 5, 7, every z in Z written out.
* :func:`bounded_lp` - the bounded continuous-feature model (56') for piecewise-affine losses and p = 1,
  as a polynomial-size LP (Prop. 10); with a tangent loss it is the ``piece[J]`` model of Table 20.
* :func:`nominal` - (regularised) empirical risk minimisation; ConF is ``cutting_plane`` on
  ``data.as_continuous()`` (Section 3.5.1).

Conventions (the thesis leaves them open; see the notebooks): numerical support R^{M_x} and output
support R (regression), l1 norm on x (dual norm l_inf), coefficients boxed to ``|beta| <= bound``
(100, as in the NeurIPS predecessor), the l2 regulariser ``alpha * ||beta||_2`` on the whole vector
including the intercept (as in the predecessor's code).

Variable layout: ``[beta_0, beta_x (M_x), beta_z (M_z), lambda, s (N), tau]`` then auxiliaries.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from safeguarded.solvers import InaccurateError, InfeasibleError, SolverError, solver_version
from safeguarded.validation import (
    check_array,
    check_bool,
    check_choice,
    check_integer,
    check_positive,
    check_type,
)
from safeguarded.wasserstein_mixed.data import MixedData, check_metric_params, d_z, one_hot
from safeguarded.wasserstein_mixed.losses import Loss
from safeguarded.wasserstein_mixed.oracle import separate

__all__ = [
    "Spec",
    "FitResult",
    "HighsCutModel",
    "ConicCutModel",
    "make_model",
    "cutting_plane",
    "enumerated",
    "bounded_lp",
    "nominal",
    "predict",
    "objective_value",
    "solver_label",
]

HIGHS = "HIGHS (highspy)"
CLARABEL = "CLARABEL (native)"
#: Clarabel settings tried in turn; equilibration off rescues the large enumerated exp-cone models
#: (measured: default settings stop with InsufficientProgress on the K = 3, N = 40 log-loss test).
CLARABEL_RETRIES = (
    {},
    {"equilibrate_enable": False},
    {"equilibrate_enable": False, "max_iter": 2000, "static_regularization_constant": 1e-7},
)


def solver_label(name: str) -> str:
    check_choice("name", name, (HIGHS, CLARABEL))
    pkg = "HIGHS" if name == HIGHS else "CLARABEL"
    return f"{name} {solver_version(pkg)}"


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


# ------------------------------------------------------------------------------- HiGHS model
class HighsCutModel:
    """The relaxation of (57) for a piecewise-affine loss as one HiGHS LP; cuts are appended in place
    (``addRows``) and the LP is re-solved from the previous basis."""

    solver = HIGHS

    def __init__(self, spec: Spec, time_limit: float | None = None):
        import highspy

        if not spec.loss.piecewise_affine or spec.alpha > 0:
            raise ValueError("HighsCutModel needs a piecewise-affine loss and alpha = 0")
        self.spec = spec
        self.h = h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        inf = highspy.kHighsInf
        nv = spec.n_base
        lo = np.zeros(nv)
        hi = np.full(nv, inf)
        lo[: spec.nb], hi[: spec.nb] = -spec.bound, spec.bound
        lo[spec.lam], hi[spec.lam] = _lam_bounds(spec)
        hi[spec.tau] = 0.0
        h.addVars(nv, lo, hi)
        A, u = _base_rows(spec)
        self._add(A, u)
        self.n_cuts = 0
        self.keys: set = set()

    def _add(self, A, u):
        import highspy

        if A.shape[0] == 0:
            return
        A = sp.csr_matrix(A)
        self.h.addRows(
            A.shape[0],
            np.full(A.shape[0], -highspy.kHighsInf),
            np.asarray(u, float),
            A.nnz,
            A.indptr.astype(np.int32),
            A.indices.astype(np.int32),
            A.data.astype(float),
        )

    def add_cuts(self, n, group, codes) -> int:
        n, group, codes = _new_cuts(self.keys, n, group, codes)
        if len(n) == 0:
            return 0
        G, gc, R, rc = cut_matrices(self.spec, n, group, codes)
        A, u = _pwa_rows(self.spec.loss, G, gc, R, rc)
        self._add(A, u)
        self.n_cuts += len(n)
        return len(n)

    def solve(self, eps: float, weights: np.ndarray):
        import highspy

        spec = self.spec
        cost = np.zeros(spec.n_base)
        cost[spec.lam] = eps
        cost[spec.s0 : spec.s0 + spec.data.N] = weights
        self.h.changeColsCost(spec.n_base, np.arange(spec.n_base, dtype=np.int32), cost)
        self.h.run()
        status = self.h.getModelStatus()
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise SolverError("wasserstein_mixed cut LP", HIGHS, "time_limit")
        if status == highspy.HighsModelStatus.kInfeasible:
            raise InfeasibleError("wasserstein_mixed cut LP", HIGHS, "infeasible")
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverError("wasserstein_mixed cut LP", HIGHS, self.h.modelStatusToString(status))
        x = np.asarray(self.h.getSolution().col_value, float)
        return x, float(self.h.getInfo().objective_function_value), "optimal"


def _new_cuts(keys: set, n, group, codes):
    """Drop cuts already in the model (their keys are remembered)."""
    n = np.asarray(n, np.int64)
    group = np.asarray(group, np.int64)
    codes = np.asarray(codes, np.int64).reshape(len(n), -1)
    keep = []
    for t in range(len(n)):
        key = (int(n[t]), int(group[t]), codes[t].tobytes())
        if key not in keys:
            keys.add(key)
            keep.append(t)
    keep = np.asarray(keep, np.int64)
    return n[keep], group[keep], codes[keep]


# ------------------------------------------------------------------------------- Clarabel model
@dataclass
class _Conic:
    """Rows ``A x + s = b`` grouped by cone, assembled for Clarabel."""

    nv: int
    nonneg_A: list = field(default_factory=list)
    nonneg_b: list = field(default_factory=list)
    soc: list = field(default_factory=list)  # (A block, b block, dims list)
    exp: list = field(default_factory=list)  # (A block, b block) with 3 rows per cone

    def new(self, k: int) -> np.ndarray:
        idx = np.arange(self.nv, self.nv + k)
        self.nv += k
        return idx

    def le(self, A, u):
        """``A x <= u``."""
        self.nonneg_A.append(sp.csr_matrix(A))
        self.nonneg_b.append(np.asarray(u, float))

    def solve(self, cost, time_limit=None, name="wasserstein_mixed conic"):
        import clarabel

        def pad(M):
            M = sp.csr_matrix(M)
            return sp.csr_matrix((M.data, M.indices, M.indptr), shape=(M.shape[0], self.nv))

        blocks = [pad(A) for A in self.nonneg_A]
        bs = list(self.nonneg_b)
        n_nonneg = sum(b.size for b in bs)
        cones = [clarabel.NonnegativeConeT(n_nonneg)] if n_nonneg else []
        for A, b, dims in self.soc:
            blocks.append(pad(A))
            bs.append(b)
            cones += [clarabel.SecondOrderConeT(k) for k in dims]
        for A, b in self.exp:
            blocks.append(pad(A))
            bs.append(b)
            cones += [clarabel.ExponentialConeT()] * (b.size // 3)
        A = sp.vstack(blocks).tocsc()
        b = np.concatenate(bs)
        q = np.zeros(self.nv)
        q[: len(cost)] = cost
        P = sp.csc_matrix((self.nv, self.nv))
        for retry in CLARABEL_RETRIES:  # default settings, then without equilibration
            settings = clarabel.DefaultSettings()
            settings.verbose = False
            settings.max_iter = 500
            for key, value in retry.items():
                setattr(settings, key, value)
            if time_limit is not None:
                settings.time_limit = float(time_limit)
            sol = clarabel.DefaultSolver(P, q, A, b, cones, settings).solve()
            status = str(sol.status)
            if status.endswith("Solved") and not status.endswith("AlmostSolved"):
                break
        if status.endswith("Solved") and not status.endswith("AlmostSolved"):
            flag = "optimal"
        elif status.endswith(("AlmostSolved", "InsufficientProgress", "MaxIterations")):
            flag = "optimal_inaccurate"  # kept and reported in the status column, never silently
        elif "Infeasible" in status:
            raise InfeasibleError(name, CLARABEL, status)
        elif "Time" in status:
            raise SolverError(name, CLARABEL, "time_limit")
        else:
            raise InaccurateError(name, CLARABEL, status)
        return np.asarray(sol.x, float), float(sol.obj_val), flag


def _soc3(G_or_none, A0, b0, A1, b1, A2, b2):
    """Stack 3-row SOC blocks ``(t, u, v)`` per cut as rows ``s = b - A x`` interleaved per cone."""
    m = A0.shape[0]
    A = sp.vstack([A0, A1, A2]).tocsr()
    perm = np.arange(3 * m).reshape(3, m).T.ravel()
    return A[perm], np.concatenate([b0, b1, b2])[perm], [3] * m


def _unit(m, idx, nv, coef=1.0):
    return sp.csr_matrix((np.full(m, coef), (np.arange(m), idx)), shape=(m, nv))


def add_epigraph(cm: _Conic, loss: Loss, G, gc, R, rc):
    """Add ``L(G x + gc) <= R x + rc`` row-wise (Corollaries 2, 3, 5, 7)."""
    m = G.shape[0]
    if m == 0:
        return
    if loss.piecewise_affine:
        A, u = _pwa_rows(loss, G, gc, R, rc)
        cm.le(A, u)
        return
    a1, a2 = cm.new(m), cm.new(m)
    nv = cm.nv

    def wide(M):
        M = sp.csr_matrix(M)
        return sp.csr_matrix((M.data, M.indices, M.indptr), shape=(m, nv))

    G, R = wide(G), wide(R)
    if loss.name == "logistic":
        # u >= exp(-r), v >= exp(-g - r), u + v <= 1  <=>  log(1 + exp(-g)) <= r
        ones, zero = np.ones(m), sp.csr_matrix((m, nv))
        blk1 = [R, zero, -_unit(m, a1, nv)], [-rc, ones, np.zeros(m)]
        blk2 = [G + R, zero, -_unit(m, a2, nv)], [-(gc + rc), ones, np.zeros(m)]
        for As, bs in (blk1, blk2):
            A = sp.vstack(As).tocsr()
            perm = np.arange(3 * m).reshape(3, m).T.ravel()
            cm.exp.append((A[perm], np.concatenate(bs)[perm]))
        cm.le(_unit(m, a1, nv) + _unit(m, a2, nv), np.ones(m))
        return
    if loss.name == "smooth_hinge":
        # L(e) = min_w max(0, 1 - w) + (w - e)^2 / 2: h >= 0, h >= 1 - w, (w - g)^2 / 2 <= r - h
        w, h = a1, a2
        cm.le(-_unit(m, h, nv), np.zeros(m))
        cm.le(-_unit(m, w, nv) - _unit(m, h, nv), -np.ones(m))
        Q = R - _unit(m, h, nv)  # q = Q x + rc
        U = _unit(m, w, nv) - G  # u = U x - gc
        A, b, dims = _soc3(None, -Q, rc + 0.5, -U, -gc, -Q, rc - 0.5)
        cm.soc.append((A, b, dims))
        return
    if loss.name == "huber":
        # L(e) = min_p (e - p)^2 / 2 + delta |p|: t >= |p|, (g - p)^2 / 2 <= r - delta t
        pv, t = a1, a2
        cm.le(_unit(m, pv, nv) - _unit(m, t, nv), np.zeros(m))
        cm.le(-_unit(m, pv, nv) - _unit(m, t, nv), np.zeros(m))
        Q = R - loss.param * _unit(m, t, nv)
        U = G - _unit(m, pv, nv)  # u = U x + gc
        A, b, dims = _soc3(None, -Q, rc + 0.5, -U, gc, -Q, rc - 0.5)
        cm.soc.append((A, b, dims))
        return
    raise ValueError(f"no conic epigraph for loss {loss.name!r}")


class ConicCutModel:
    """The relaxation of (57) as a Clarabel conic program, assembled natively (no cvxpy) from the
    stored cuts each time it is solved: building it costs a few sparse stacks."""

    solver = CLARABEL

    def __init__(self, spec: Spec, time_limit: float | None = None):
        self.spec = spec
        self.time_limit = time_limit
        self.keys: set = set()
        self.cuts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.n_cuts = 0

    def add_cuts(self, n, group, codes) -> int:
        n, group, codes = _new_cuts(self.keys, n, group, codes)
        if len(n):
            self.cuts.append((n, group, codes))
            self.n_cuts += len(n)
        return len(n)

    def solve(self, eps: float, weights: np.ndarray):
        spec = self.spec
        cm = _Conic(spec.n_base)
        nb = spec.nb
        eye = sp.identity(spec.n_base, format="csr")
        # box on beta, bounds on lambda, s >= 0 (s_n = 0 for unweighted samples), tau
        cm.le(eye[:nb], np.full(nb, spec.bound))
        cm.le(-eye[:nb], np.full(nb, spec.bound))
        lo, hi = _lam_bounds(spec)
        cm.le(eye[[spec.lam]], [hi])
        cm.le(-eye[[spec.lam]], [-lo])
        N = spec.data.N
        cm.le(-eye[spec.s0 : spec.s0 + N], np.zeros(N))
        off = np.nonzero(weights <= 0)[0]
        if off.size:
            cm.le(eye[spec.s0 + off], np.zeros(off.size))
        A, u = _base_rows(spec)
        if A.shape[0]:
            cm.le(A, u)
        if spec.alpha > 0:
            A = sp.vstack([-eye[[spec.tau]], -eye[:nb]])
            cm.soc.append((A, np.zeros(nb + 1), [nb + 1]))
        else:
            cm.le(eye[[spec.tau]], [0.0])
        if self.cuts:
            n = np.concatenate([c[0] for c in self.cuts])
            g = np.concatenate([c[1] for c in self.cuts])
            z = np.vstack([c[2] for c in self.cuts])
            act = weights[n] > 0
            G, gc, R, rc = cut_matrices(spec, n[act], g[act], z[act])
            add_epigraph(cm, spec.loss, G, gc, R, rc)
        cost = np.zeros(spec.n_base)
        cost[spec.lam] = eps
        cost[spec.s0 : spec.s0 + N] = weights
        cost[spec.tau] = spec.alpha
        x, obj, flag = cm.solve(cost, self.time_limit)
        return x[: spec.n_base], obj, flag


def _check_spec(spec) -> Spec:
    return check_type("spec", spec, Spec, "a Spec")


def _check_time_limit(time_limit) -> float | None:
    return None if time_limit is None else check_positive("time_limit", time_limit)


def make_model(spec: Spec, time_limit: float | None = None):
    """HiGHS (in place) for piecewise-affine losses without regulariser, Clarabel otherwise."""
    _check_spec(spec)
    time_limit = _check_time_limit(time_limit)
    if spec.loss.piecewise_affine and spec.alpha == 0:
        return HighsCutModel(spec, time_limit)
    return ConicCutModel(spec, time_limit)


# ------------------------------------------------------------------------------- Algorithm 9
@dataclass
class FitResult:
    beta: np.ndarray
    lam: float
    s: np.ndarray
    objective: float
    lower: float
    upper: float
    rounds: int
    cuts_added: int
    cuts_total: int
    seconds: float
    solver: str
    status: str
    lb_history: list
    ub_history: list


def _violations(spec: Spec, x: np.ndarray, active: np.ndarray):
    """Algorithm 10 per group; returns per active n the best (violation, group, codes)."""
    d = spec.data
    beta = x[: spec.nb]
    lam = x[spec.lam]
    s = x[spec.s0 : spec.s0 + d.N]
    n = active
    base = beta[0] + d.X[n] @ beta[1 : 1 + d.M_x] + d.Z[n] @ beta[1 + d.M_x :]
    best_v = np.full(n.size, -np.inf)
    best_g = np.ones(n.size, np.int64)
    best_z = d.codes[n].copy()
    for grp in spec.groups:
        if d.task == "classification":
            sigma = grp * d.y[n]
            g0 = sigma * base
        else:
            sigma = np.ones(n.size)
            g0 = base - d.y[n]
        c = s[n] + (lam * spec.kappa_y if grp < 0 else 0.0)
        if spec.nominal:  # only z = z^n: no separation needed
            z, v = d.codes[n], spec.loss(g0) - c
        else:
            z, v = separate(
                spec.loss, beta[1 + d.M_x :], sigma, g0, d.codes[n], d.levels, lam, spec.kappa_z, spec.p, c
            )
        better = v > best_v
        best_v = np.where(better, v, best_v)
        best_g = np.where(better, grp, best_g)
        best_z[better] = z[better]
    return best_v, best_g, best_z


def cutting_plane(
    spec: Spec,
    eps: float,
    weights=None,
    model=None,
    *,
    tol: float = 1e-7,
    max_rounds: int = 2000,
    time_limit: float | None = None,
) -> FitResult:
    """Algorithm 9 for (57): solve the relaxation, add per data point the most violated cut
    (Algorithm 10, over the groups i), update LB = f0(theta*, sigma*) and UB = f0(theta*, sigma* +
    vartheta*), stop when no cut is violated by more than ``tol`` (then UB - LB <= tol).

    ``model`` (from :func:`make_model`) is reused when given: its cuts stay valid for every eps and
    every weighting of the samples (``weights[n] = 0`` leaves sample n out, e.g. a CV fold).
    """
    _check_spec(spec)
    if model is not None:
        check_type("model", model, HighsCutModel | ConicCutModel, "a model from make_model (or None)")
        if model.spec.data.N != spec.data.N:
            raise ValueError(f"model must be built for spec's data (N = {spec.data.N}), got N = "
                             f"{model.spec.data.N}")
    tol = check_positive("tol", tol)
    max_rounds = check_integer("max_rounds", max_rounds, minimum=1)
    time_limit = _check_time_limit(time_limit)
    eps = _check_eps(eps)
    w = _check_weights(spec, weights)
    t0 = time.perf_counter()
    model = model if model is not None else make_model(spec, time_limit)
    active = np.nonzero(w > 0)[0]
    d = spec.data
    before = model.n_cuts
    for grp in spec.groups:
        model.add_cuts(active, np.full(active.size, grp), d.codes[active])
    lb_hist, ub_hist = [], []
    ub = math.inf
    status = "optimal"
    x = None
    rounds = 0
    flags = set()
    while rounds < max_rounds:
        rounds += 1
        x, obj, flag = model.solve(eps, w)
        flags.add(flag)
        v, g, z = _violations(spec, x, active)
        viol = np.maximum(v, 0.0)
        lb = obj
        ub = min(ub, obj + float(np.sum(w[active] * viol)))
        lb_hist.append(lb)
        ub_hist.append(ub)
        new = v > tol
        if not np.any(new):
            break
        if model.add_cuts(active[new], g[new], z[new]) == 0:
            # every violated cut is already in the model: the violation is solver tolerance
            status = "optimal" if ub - lb <= 1e-6 * max(1.0, abs(ub)) else "stalled"
            break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            status = "time_limit"
            break
    else:
        status = "max_rounds"
    if "optimal_inaccurate" in flags and status == "optimal":
        status = "optimal_inaccurate"
    return FitResult(
        beta=x[: spec.nb].copy(),
        lam=float(x[spec.lam]),
        s=x[spec.s0 : spec.s0 + d.N].copy(),
        objective=lb_hist[-1],
        lower=lb_hist[-1],
        upper=ub,
        rounds=rounds,
        cuts_added=model.n_cuts - before,
        cuts_total=model.n_cuts,
        seconds=time.perf_counter() - t0,
        solver=solver_label(model.solver),
        status=status,
        lb_history=lb_hist,
        ub_history=ub_hist,
    )


# ------------------------------------------------------------------------------- monolithic models
def all_points(levels) -> np.ndarray:
    """Every z in Z as level codes, (prod k_m, K)."""
    return np.array(list(itertools.product(*[range(k) for k in levels])), dtype=np.int64).reshape(
        -1, len(levels)
    )


def enumerated(spec: Spec, eps: float, weights=None, *, solver: str = "clarabel") -> FitResult:
    """The exponential-size dual (56)/(57) written out over all of Z (tiny K only), solved once."""
    _check_spec(spec)
    check_choice("solver", solver, ("clarabel", "highs"))
    eps = _check_eps(eps)
    w = _check_weights(spec, weights)
    d = spec.data
    pts = all_points(d.levels)
    if pts.shape[0] * d.N > 200_000:
        raise ValueError(f"enumerated model too large: |Z| * N = {pts.shape[0] * d.N} > 200000")
    t0 = time.perf_counter()
    active = np.nonzero(w > 0)[0]
    n = np.repeat(active, pts.shape[0])
    z = np.tile(pts, (active.size, 1))
    model = ConicCutModel(spec) if solver == "clarabel" else HighsCutModel(spec)
    for grp in spec.groups:
        model.add_cuts(n, np.full(n.size, grp), z)
    x, obj, flag = model.solve(eps, w)
    return FitResult(
        x[: spec.nb].copy(),
        float(x[spec.lam]),
        x[spec.s0 : spec.s0 + d.N].copy(),
        obj,
        obj,
        obj,
        1,
        model.n_cuts,
        model.n_cuts,
        time.perf_counter() - t0,
        solver_label(model.solver),
        flag,
        [obj],
        [obj],
    )


def nominal(
    data: MixedData, loss: Loss, alpha: float = 0.0, weights=None, *, bound: float = 100.0
) -> FitResult:
    """(Regularised) nominal ERM: ``min sum_n w_n L(.) + alpha ||beta||_2`` (Nom / r-Nom)."""
    spec = Spec(data, loss, alpha=alpha, bound=bound, nominal=True)
    return cutting_plane(spec, 0.0, weights)


def bounded_lp(
    spec: Spec, eps: float, weights=None, *, time_limit: float | None = None, lp_solver: str = "ipm"
) -> FitResult:
    """The bounded continuous-feature model (56') for a piecewise-affine loss and p = 1 as one LP.

    On ``U(k) = conv Z(k)`` the metric ``d_u(., z^n_m)`` is affine (it equals ``1^T u`` when ``z^n_m``
    is the reference level and ``1 - u_l`` when it is level l), so the inner supremum over ``U`` of each
    affine piece separates over features into ``r_{n,i,j,m} >= a_j sigma_n (beta_z,m(v) - beta_z,m(z^n_m))
    - lambda kappa_z 1[v != z^n_m]`` for every level v, ``r >= 0``, and
    ``a_j g(z^n) + b_j + sum_m r_{n,i,j,m} <= s_n + lambda kappa_y 1[i = -1]``:
    O(N J K) variables and O(N J M_z) rows (Section 3.5.2, L3444, L3469).  Prop. 10: same optimal
    value as the mixed-feature model.
    """
    import highspy

    _check_spec(spec)
    time_limit = _check_time_limit(time_limit)
    check_choice("lp_solver", lp_solver, ("ipm", "simplex", "pdlp", "choose"))
    eps = _check_eps(eps)
    w = _check_weights(spec, weights)
    if not spec.loss.piecewise_affine or spec.alpha > 0:
        raise ValueError("spec must have a piecewise-affine loss and alpha = 0 for bounded_lp")
    if spec.p != 1:
        raise ValueError(f"spec must have p = 1 for bounded_lp (derived for p = 1), got p={spec.p!r}")
    t0 = time.perf_counter()
    d = spec.data
    active = np.nonzero(w > 0)[0]
    pieces = _pieces(spec.loss)
    nb = spec.nb
    bz0 = 1 + d.M_x
    offs = d.offsets
    blocks = [(None, grp, j) for grp in spec.groups for j in range(len(pieces))]
    # one r per (group, piece, active n, feature m)
    n_act = active.size
    K = d.K
    n_r = len(blocks) * n_act * K
    nv = spec.n_base + n_r
    rows_i, cols_i, vals_i, upper = [], [], [], []
    row = 0
    base_feats = np.hstack([np.ones((n_act, 1)), d.X[active], d.Z[active]])
    for b, (_, grp, j) in enumerate(blocks):
        a, bj = pieces[j]
        if d.task == "classification":
            sigma = grp * d.y[active]
            gc = np.zeros(n_act)
        else:
            sigma = np.ones(n_act)
            gc = -d.y[active]
        r_idx = spec.n_base + b * n_act * K + np.arange(n_act * K).reshape(n_act, K)
        # main row: a sigma feats . beta + sum_m r - s_n - lam kappa_y [grp<0] <= -(a gc + b)
        coef = a * sigma[:, None] * base_feats
        rr = np.repeat(np.arange(n_act), nb)
        cc = np.tile(np.arange(nb), n_act)
        rows_i += [row + rr, row + np.repeat(np.arange(n_act), K), row + np.arange(n_act)]
        cols_i += [cc, r_idx.ravel(), spec.s0 + active]
        vals_i += [coef.ravel(), np.ones(n_act * K), -np.ones(n_act)]
        if grp < 0:
            rows_i.append(row + np.arange(n_act))
            cols_i.append(np.full(n_act, spec.lam))
            vals_i.append(np.full(n_act, -spec.kappa_y))
        upper.append(-(a * gc + bj))
        row += n_act
        if a == 0:
            continue
        # feature rows: for every m and every level v != z^n_m
        for m, k in enumerate(d.levels):
            cur = d.codes[active, m]
            for v in range(k):
                sel = np.nonzero(cur != v)[0]
                ns = sel.size
                if ns == 0:
                    continue
                rr = row + np.arange(ns)
                # a sigma (beta_z,m(v) - beta_z,m(cur)) - lam kappa_z - r <= 0
                if v > 0:
                    rows_i.append(rr)
                    cols_i.append(np.full(ns, bz0 + offs[m] + v - 1))
                    vals_i.append(a * sigma[sel])
                has = cur[sel] > 0
                rows_i.append(rr[has])
                cols_i.append(bz0 + offs[m] + cur[sel][has] - 1)
                vals_i.append(-a * sigma[sel][has])
                rows_i += [rr, rr]
                cols_i += [np.full(ns, spec.lam), r_idx[sel, m]]
                vals_i += [np.full(ns, -spec.kappa_z), -np.ones(ns)]
                upper.append(np.zeros(ns))
                row += ns
    A = sp.csr_matrix(
        (np.concatenate(vals_i), (np.concatenate(rows_i), np.concatenate(cols_i))), shape=(row, nv)
    )
    Ab, ub_b = _base_rows(spec)
    if Ab.shape[0]:
        A = sp.vstack([A, sp.csr_matrix((Ab.data, Ab.indices, Ab.indptr), shape=(Ab.shape[0], nv))]).tocsr()
        upper.append(ub_b)
    u = np.concatenate(upper)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("solver", lp_solver)  # simplex stalls on these LPs (300 s vs 90 s measured)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    inf = highspy.kHighsInf
    lo = np.zeros(nv)
    hi = np.full(nv, inf)
    lo[:nb], hi[:nb] = -spec.bound, spec.bound
    lo[spec.lam], hi[spec.lam] = _lam_bounds(spec)
    hi[spec.tau] = 0.0
    inactive = np.setdiff1d(np.arange(d.N), active)
    hi[spec.s0 + inactive] = 0.0
    cost = np.zeros(nv)
    cost[spec.lam] = eps
    cost[spec.s0 : spec.s0 + d.N] = w
    h.addVars(nv, lo, hi)
    h.changeColsCost(nv, np.arange(nv, dtype=np.int32), cost)
    h.addRows(
        A.shape[0],
        np.full(A.shape[0], -inf),
        u,
        A.nnz,
        A.indptr.astype(np.int32),
        A.indices.astype(np.int32),
        A.data.astype(float),
    )
    h.run()
    status = h.getModelStatus()
    secs = time.perf_counter() - t0
    if status == highspy.HighsModelStatus.kTimeLimit:
        nan = float("nan")
        return FitResult(
            np.full(nb, nan),
            nan,
            np.full(d.N, nan),
            nan,
            nan,
            nan,
            0,
            0,
            0,
            secs,
            solver_label(HIGHS),
            "time_limit",
            [],
            [],
        )
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError("wasserstein_mixed bounded LP (56')", HIGHS, h.modelStatusToString(status))
    x = np.asarray(h.getSolution().col_value, float)
    obj = float(h.getInfo().objective_function_value)
    return FitResult(
        x[:nb].copy(),
        float(x[spec.lam]),
        x[spec.s0 : spec.s0 + d.N].copy(),
        obj,
        obj,
        obj,
        1,
        0,
        0,
        secs,
        solver_label(HIGHS),
        "optimal",
        [obj],
        [obj],
    )


# ------------------------------------------------------------------------------- evaluation
def predict(beta: np.ndarray, data: MixedData) -> np.ndarray:
    """The linear score ``beta_0 + beta_x^T x + beta_z^T z``."""
    check_type("data", data, MixedData, "a MixedData")
    beta = check_array("beta", beta, shape=(1 + data.M_x + data.M_z,))
    return beta[0] + data.X @ beta[1 : 1 + data.M_x] + data.Z @ beta[1 + data.M_x :]


def objective_value(spec: Spec, beta: np.ndarray, eps: float, weights=None) -> float:
    """Worst-case expected loss of a fixed beta via (57) with lambda minimised by a 1-d search is not
    needed here; this returns the empirical loss ``sum_n w_n L(.)`` of ``beta``."""
    _check_spec(spec)
    _check_eps(eps)
    w = _check_weights(spec, weights)
    score = predict(beta, spec.data)
    e = spec.data.y * score if spec.data.task == "classification" else score - spec.data.y
    return float(np.sum(w * spec.loss(e)))
