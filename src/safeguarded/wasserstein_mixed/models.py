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

Layout.  This module is the public face: :func:`solver_label`, :func:`make_model` and the algorithms
above.  The problem in matrix form (:class:`Spec`, the parameter checks, the cut maps) is in
:mod:`._problem`, the two cut models (:class:`HighsCutModel`, :class:`ConicCutModel`) in
:mod:`._cut_models`; their public names are re-exported here, so
``from safeguarded.wasserstein_mixed.models import Spec`` keeps working.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from safeguarded.solvers import SolverError, solver_version
from safeguarded.validation import (
    check_array,
    check_bool,
    check_choice,
    check_integer,
    check_positive,
    check_type,
)
from safeguarded.wasserstein_mixed._cut_models import (
    CLARABEL_RETRIES,
    ConicCutModel,
    HighsCutModel,
    add_epigraph,
)
from safeguarded.wasserstein_mixed._problem import (
    CLARABEL,
    HIGHS,
    Spec,
    _base_rows,
    _check_eps,
    _check_spec,
    _check_time_limit,
    _check_weights,
    _lam_bounds,
    _pieces,
    cut_matrices,
)
from safeguarded.wasserstein_mixed.data import MixedData
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
    # re-exported from the private modules (see Layout above)
    "HIGHS",
    "CLARABEL",
    "CLARABEL_RETRIES",
    "cut_matrices",
    "add_epigraph",
]


def solver_label(name: str) -> str:
    check_choice("name", name, (HIGHS, CLARABEL))
    pkg = "HIGHS" if name == HIGHS else "CLARABEL"
    return f"{name} {solver_version(pkg)}"


def make_model(spec: Spec, time_limit: float | None = None, *, working_set: bool = False):
    """HiGHS (in place) for piecewise-affine losses without regulariser, Clarabel otherwise (on a working
    set of the cuts with ``working_set``, see :class:`ConicCutModel`)."""
    _check_spec(spec)
    time_limit = _check_time_limit(time_limit)
    check_bool("working_set", working_set)
    if spec.loss.piecewise_affine and spec.alpha == 0:
        return HighsCutModel(spec, time_limit)
    return ConicCutModel(spec, time_limit, working_set=working_set)


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
