"""The relaxations of (57) that Algorithm 9 adds cuts to (thesis Section 3): :class:`HighsCutModel`, one
HiGHS LP grown in place for piecewise-affine losses, and :class:`ConicCutModel`, a Clarabel conic program
assembled natively from the stored cuts (exponential / second-order cone epigraphs of Corollaries 2, 3,
5, 7 in :func:`add_epigraph`).  Both keep the keys of their cuts, so a cut is never added twice.

The public names are re-exported by :mod:`safeguarded.wasserstein_mixed.models`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from safeguarded.solvers import InaccurateError, InfeasibleError, SolverError
from safeguarded.validation import check_bool, check_positive
from safeguarded.wasserstein_mixed._problem import (
    CLARABEL,
    HIGHS,
    Spec,
    _base_rows,
    _check_spec,
    _check_time_limit,
    _lam_bounds,
    _pwa_rows,
    cut_matrices,
)
from safeguarded.wasserstein_mixed.losses import Loss

#: Clarabel settings tried in turn; equilibration off rescues the large enumerated exp-cone models
#: (measured: default settings stop with InsufficientProgress on the K = 3, N = 40 log-loss test).
CLARABEL_RETRIES = (
    {},
    {"equilibrate_enable": False},
    {"equilibrate_enable": False, "max_iter": 2000, "static_regularization_constant": 1e-7},
)


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


def _most_violated_per_sample(n: np.ndarray, viol: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Of the cuts ``idx`` (samples ``n``, violations ``viol``), the most violated one per sample."""
    order = np.lexsort((-viol, n))
    first = np.ones(order.size, bool)
    first[1:] = n[order][1:] != n[order][:-1]
    return idx[order[first]]


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
    stored cuts each time it is solved: building it costs a few sparse stacks.

    ``working_set=True`` (opt-in; the stored sweeps use the default) solves each round on a working set of
    the cut pool instead of on every stored cut: the cuts within ``slack`` of binding at the previous
    solution, then, while a pool cut outside the set is violated by more than ``pool_tol`` at the new
    solution, the set grows by the most violated such cut of each sample (as Algorithm 9 adds cuts) and
    Clarabel solves again.  The returned point is thus optimal for the relaxation of the whole pool up to
    ``pool_tol`` (the set is a relaxation of the pool, and the pool's other cuts hold to ``pool_tol``),
    which is all that Algorithm 9's bounds and stopping rule use; the exp-cone count per solve falls from
    the pool's size to about the binding cuts'.  (Growing by every cut within ``slack`` of binding instead,
    as first written, took nearly the whole pool on lymphography's r-MixF(K) at alpha = 1e-3 when the
    previous point was far away, where Clarabel stops with InsufficientProgress and the accepted
    ``optimal_inaccurate`` value was 0.0808 against the optimum 0.0318: benchmarks/bench_wm21_ws_fit.py.)
    ``solves`` counts Clarabel calls (retries with other settings excluded), ``set_sizes`` the cuts of
    each.
    """

    solver = CLARABEL

    def __init__(self, spec: Spec, time_limit: float | None = None, *, working_set: bool = False,
                 slack: float = 1e-2, pool_tol: float = 1e-9):
        self.spec = _check_spec(spec)
        self.time_limit = _check_time_limit(time_limit)
        self.keys: set = set()
        self.cuts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.n_cuts = 0
        self.working_set = check_bool("working_set", working_set)
        self.slack = check_positive("slack", slack)
        self.pool_tol = check_positive("pool_tol", pool_tol)
        self.solves = 0
        self.set_sizes: list[int] = []
        self._x: np.ndarray | None = None  # the last solution (working set: where the next set is chosen)

    def add_cuts(self, n, group, codes) -> int:
        n, group, codes = _new_cuts(self.keys, n, group, codes)
        if len(n):
            self.cuts.append((n, group, codes))
            self.n_cuts += len(n)
        return len(n)

    def _pool_cuts(self, weights: np.ndarray):
        """(samples, groups, codes) of the stored cuts of the samples with positive weight (None: no cut);
        :func:`cut_matrices` of them is the pool the relaxations solve, one row per cut in the same order."""
        if not self.cuts:
            return None
        n = np.concatenate([c[0] for c in self.cuts])
        g = np.concatenate([c[1] for c in self.cuts])
        z = np.vstack([c[2] for c in self.cuts])
        act = weights[n] > 0
        return n[act], g[act], z[act]

    def _violation(self, cuts, x: np.ndarray) -> np.ndarray:
        """``L(G x + gc) - (R x + rc)`` per cut (positive: violated at x)."""
        G, gc, R, rc = cuts
        return self.spec.loss(G @ x + gc) - (R @ x + rc)

    def solve(self, eps: float, weights: np.ndarray):
        rows = self._pool_cuts(weights)
        cuts = None if rows is None else cut_matrices(self.spec, *rows)
        if not self.working_set or cuts is None:
            x, obj, flag = self._solve(eps, weights, cuts)
            self.solves += 1
            self.set_sizes.append(0 if cuts is None else cuts[0].shape[0])
            return x, obj, flag
        m = cuts[0].shape[0]
        keep = np.ones(m, bool) if self._x is None else self._violation(cuts, self._x) >= -self.slack
        n = rows[0]  # the sample of each pool cut
        while True:  # the returned point and its flag are the last solve's (the others only grow the set)
            part = tuple(a[keep] for a in cuts)
            x, obj, flag = self._solve(eps, weights, part)
            self.solves += 1
            self.set_sizes.append(int(keep.sum()))
            viol = self._violation(cuts, x)
            out = np.nonzero(~keep & (viol > self.pool_tol))[0]
            if out.size == 0:
                break
            keep[_most_violated_per_sample(n[out], viol[out], out)] = True
        self._x = x
        return x, obj, flag

    def _solve(self, eps: float, weights: np.ndarray, cuts):
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
        if cuts is not None:
            add_epigraph(cm, spec.loss, *cuts)
        cost = np.zeros(spec.n_base)
        cost[spec.lam] = eps
        cost[spec.s0 : spec.s0 + N] = weights
        cost[spec.tau] = spec.alpha
        x, obj, flag = cm.solve(cost, self.time_limit)
        return x[: spec.n_base], obj, flag
