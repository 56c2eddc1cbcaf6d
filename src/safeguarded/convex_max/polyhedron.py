"""Convex maximisation over a polyhedron ``U = {x >= 0 : Dx <= d}`` (thesis §5.3.2, Algorithm 12).

Upper bound: Theorem 21's problem (95) (linear decision rule ``lambda = u + Vw + r w0``), in the
three forms of Table 35:

* log-sum-exp: the exponential-cone program (118) (Cor. 13), :func:`lse_upper_bound` (cvxpy+Clarabel);
* convex quadratic: the SOCP (113), written with rotated cones in ``alpha = v̄ + v̂``,
  ``beta = v̄ - v̂`` (an exact rewrite, better conditioned), :func:`quad_upper_bound`;
* sum of max: the LP (124), built directly as a sparse HiGHS model in an equivalent reduced form
  (124') with ``n + m + nm`` rows instead of ``1 + m + n + (n + q)m + q``, :func:`summax_upper_bound`.

Lower bound (Algorithm 12, L5239–5259): plug the optimal LDR into (94), take the worst-case ``w`` of
each of its 1 + n + q constraints ((97)–(99); Table 36: softmax for log-sum-exp (Cor. 14 in closed
form), ``h(a) = a/||a||`` for the quadratic (App. 5.F), a one-hot per block for sum-of-max (129)),
solve the LP (96) ``max (A'w)'x`` over U for each, and keep the best ``f(Ax + b)``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from safeguarded.convex_max.functions import block_argmax, entropy_argmax, lse, quadratic, sum_of_max
from safeguarded.convex_max.instances import PolyInstance
from safeguarded.convex_max.lp import PolyhedronLP, check_polyhedron, check_solver, solve_lp
from safeguarded.solvers import SolverError, resolve_solver, solve, solve_with_retries, solver_version
from safeguarded.validation import check_array, check_bool, check_choice, check_positive, check_type

__all__ = [
    "UpperBound",
    "LowerBound",
    "PolyBounds",
    "lse_upper_bound",
    "quad_upper_bound",
    "summax_upper_bound",
    "lse_scenarios",
    "quad_scenarios",
    "quad_certified_tau",
    "summax_scenarios",
    "summax_ldr_bound",
    "objective",
    "scenario_lower_bound",
    "poly_bounds",
]


@dataclass
class UpperBound:
    value: float
    u: np.ndarray
    V: np.ndarray
    r: np.ndarray | None
    solve_time: float
    wall_time: float
    solver: str
    solver_version: str
    status: str
    extra: dict | None = None


@dataclass
class LowerBound:
    value: float
    x: np.ndarray
    n_scenarios: int
    n_lps: int
    lp_time: float
    wall_time: float
    best_scenario: int


@dataclass
class PolyBounds:
    upper: UpperBound
    lower: LowerBound

    @property
    def time(self) -> float:
        """Solver time of UB + LB (the thesis reports solver times, L5281)."""
        return self.upper.solve_time + self.lower.lp_time


def _check_inst(inst, kind: str | None = None) -> PolyInstance:
    check_type("inst", inst, PolyInstance, "a PolyInstance")
    if kind is not None and inst.kind != kind:
        raise ValueError(f"inst must be of kind {kind!r}, got kind={inst.kind!r}")
    return inst


def _check_ub(ub, inst: PolyInstance, *, needs_r: bool = False, extra=()) -> UpperBound:
    """``ub`` an :class:`UpperBound` of ``inst``'s sizes (V of shape (q, m)) with the fields needed."""
    check_type("ub", ub, UpperBound, "an UpperBound")
    V = np.asarray(ub.V, dtype=float)
    missing = (needs_r and ub.r is None) or any(k not in (ub.extra or {}) for k in extra)
    if V.shape != (inst.q, inst.m) or missing:
        raise ValueError(f"ub must be the upper bound of an instance like inst (V of shape {(inst.q, inst.m)}"
                         f"{', with r' if needs_r else ''}{', with ' + ', '.join(extra) if extra else ''}), "
                         f"got V of shape {V.shape}")
    return ub


# ---------------------------------------------------------------- log-sum-exp: (118), Cor. 13/14
def lse_upper_bound(inst: PolyInstance, *, solver: str | None = None, **options) -> UpperBound:
    """Theorem 21's UB for log-sum-exp as the exponential-cone program (118).

    Each perspective ``t >= s·LSE(x/s)`` is written as ``s >= Σ_j z_j``, ``z_j >= s exp((x_j - t)/s)``
    ((119)–(120)) for the three groups: (95a) ``s = 1 + d'r, x = V'd + b, t = tau - d'u``;
    (95b) ``s = -D_i'r, x = A_i - V'D_i, t = D_i'u`` (i = 1..n); (95c) ``s = -r_i, x = -V_(i), t = u_i``.
    """
    _check_inst(inst, "lse")
    check_solver(solver, "EXP")
    start = time.perf_counter()
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    m, n, q = inst.m, inst.n, inst.q
    u, r, tau = cp.Variable(q), cp.Variable(q), cp.Variable()
    V = cp.Variable((q, m))
    z1, z2, z3 = cp.Variable(m), cp.Variable((m, n)), cp.Variable((q, m))
    s1 = 1 + d @ r
    s2 = -(D.T @ r)  # (n,)
    s3 = -r
    X2 = A - V.T @ D  # (m, n)
    cons = [
        s1 >= cp.sum(z1),
        cp.constraints.ExpCone(V.T @ d + b - (tau - d @ u), s1 * np.ones(m), z1),
        s2 >= cp.sum(z2, axis=0),
        cp.constraints.ExpCone(X2 - np.ones((m, 1)) @ cp.reshape(D.T @ u, (1, n), order="C"),
                               np.ones((m, 1)) @ cp.reshape(s2, (1, n), order="C"), z2),
        s3 >= cp.sum(z3, axis=1),
        cp.constraints.ExpCone(-V - cp.reshape(u, (q, 1), order="C") @ np.ones((1, m)),
                               cp.reshape(s3, (q, 1), order="C") @ np.ones((1, m)), z3),
    ]
    problem = cp.Problem(cp.Minimize(tau), cons)
    record = solve_with_retries(problem, name=f"convex_max.ub118[{inst.name}]", solver=solver,
                                problem_class="EXP", **options)
    return UpperBound(record.objective, np.asarray(u.value), np.asarray(V.value), np.asarray(r.value),
                      record.solve_time, time.perf_counter() - start, record.solver, record.solver_version,
                      record.status)


def lse_scenarios(inst: PolyInstance, ub: UpperBound) -> list[np.ndarray]:
    """The 1 + n + q worst-case ``w`` of (97)–(99) for log-sum-exp (Cor. 14, closed form softmax)."""
    _check_ub(ub, _check_inst(inst, "lse"), needs_r=True)
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    V, r = ub.V, ub.r
    out = [entropy_argmax(V.T @ d + b, 1 + d @ r)]
    X2 = A - V.T @ D
    kap2 = -(D.T @ r)
    out += [entropy_argmax(X2[:, i], kap2[i]) for i in range(inst.n)]
    out += [entropy_argmax(-V[i], -r[i]) for i in range(inst.q)]
    return out


# ---------------------------------------------------------------- convex quadratic: (113), App. 5.E/F
def quad_upper_bound(
    inst: PolyInstance, *, solver: str | None = None, scale: float | None = None,
    accept_inaccurate: bool = False, **options
) -> UpperBound:
    """Theorem 21's UB for ``x'Qx + l'x`` (Q = L'L): the SOCP (113) in rotated-cone form.

    With ``alpha = v̄ + v̂`` and ``beta = v̄ - v̂`` the three constraint families of (113) read
    ``||Ṽ'd||² <= (tau - d'u - alpha'd)(1 - d'u - beta'd)``,
    ``||L_i - Ṽ'D_i||² <= (D_i'u + alpha'D_i - l_i)(D_i'u + beta'D_i)`` and
    ``||Ṽ_(i)||² <= (u_i + alpha_i)(u_i + beta_i)`` (squared, exact), each a rotated cone.

    ``scale``: the objective is divided by ``S`` (``L/sqrt(S)``, ``l/S``; the bound scales exactly) so
    that the conic solve sees O(1) numbers; default ``S`` = the power of ten of ``f`` at the vertex
    maximising ``1'x`` (measured: Clarabel fails on Table 39 P3–P5 unscaled, succeeds scaled).

    ``accept_inaccurate``: one solve, returning an ``optimal_inaccurate`` solution with that status
    (its value is then *not* a certified bound; its LDR still yields valid lower-bound scenarios).
    """
    _check_inst(inst, "quad")
    check_solver(solver, "SOCP")
    if scale is not None:
        scale = check_positive("scale", scale)
    accept_inaccurate = check_bool("accept_inaccurate", accept_inaccurate)
    start = time.perf_counter()
    if scale is None:
        x0 = PolyhedronLP(inst.D, inst.d, "scale").argmax(np.ones(inst.n))
        scale = 10.0 ** np.floor(np.log10(max(1.0, quadratic(x0, inst.L, inst.ell))))
    S = float(scale)
    L, ell, D, d = inst.L / np.sqrt(S), inst.ell / S, inst.D, inst.d
    m, n, q = inst.m, inst.n, inst.q
    u, al, be = cp.Variable(q), cp.Variable(q), cp.Variable(q)
    Vt, tau_var = cp.Variable((q, m)), cp.Variable()
    num = tau_var - d @ u - al @ d
    den = 1 - d @ u - be @ d
    X = L - Vt.T @ D  # (m, n)
    P = D.T @ u + D.T @ al - ell
    R = D.T @ u + D.T @ be
    # ||v||² <= a·c with a, c >= 0  <=>  ||(2v, a - c)|| <= a + c
    cons = [
        cp.SOC(num + den, cp.hstack([2 * (Vt.T @ d), cp.reshape(num - den, (1,), order="C")])),
        cp.SOC(P + R, cp.vstack([2 * X, cp.reshape(P - R, (1, n), order="C")]), axis=0),
        cp.SOC(2 * u + al + be, cp.hstack([2 * Vt, cp.reshape(al - be, (q, 1), order="C")]), axis=1),
    ]
    problem = cp.Problem(cp.Minimize(tau_var), cons)
    if accept_inaccurate:
        record = solve(problem, name=f"convex_max.ub113[{inst.name}]", solver=solver, problem_class="SOCP",
                       accept_inaccurate=True, **options)
    else:
        record = solve_with_retries(problem, name=f"convex_max.ub113[{inst.name}]", solver=solver,
                                    problem_class="SOCP", **options)
    tau = record.objective  # of the scaled problem; the scenarios of App. 5.F use the scaled data
    vbar = (al.value + be.value) / 2
    vhat = (al.value - be.value) / 2
    certified = quad_certified_tau(L, ell, D, d, u.value, al.value, be.value, Vt.value)
    return UpperBound(S * tau, np.asarray(u.value), np.asarray(Vt.value), None, record.solve_time,
                      time.perf_counter() - start, record.solver, record.solver_version, record.status,
                      extra={"vbar": vbar, "vhat": vhat, "tau": tau, "scale": S,
                             "certified": S * certified})


def quad_certified_tau(L, ell, D, d, u, alpha, beta, Vt) -> float:
    """A *verified* value of (113) from an approximate solution (NaN if it cannot be repaired).

    The solver's ``(u, alpha, beta, Ṽ)`` may violate the cones of (113) by its tolerance.  Keeping
    ``u, beta, Ṽ`` and raising ``alpha`` by the smallest ``delta >= 0`` (the same for all rows) makes the
    families (ii) and (iii) hold exactly (their second factors must be positive: ``alpha`` enters only
    the first factors, with coefficient ``1'D_i >= 0`` resp. 1); then
    ``tau = d'u + alpha'd + ||Ṽ'd||²/(1 - d'u - beta'd)`` satisfies (i) with equality.  Any feasible
    point of (113) gives an upper bound by Theorem 21, so the value is valid whatever the solve status.

    When a second factor is not positive (an ``optimal_inaccurate`` solve at a degenerate optimum, where
    ``1 - d'u - beta'd`` or ``u_i + beta_i`` is ~ -1e-8: Table 39 P5–P7), the point is first blended
    with ``(u, alpha, beta, Ṽ) = (0, 0, 1/(2·1'd), 0)``, whose second factors are positive: the least
    repaired value over ``theta`` in {0} ∪ [1e-14, 1e-1] (log grid) of the blend
    ``(1 - theta)·point + theta·(0, 0, c, 0)`` is returned (each candidate is a verified point).
    """
    L = check_array("L", L, ndim=2)
    D = check_array("D", D, ndim=2)
    if L.shape[1] != D.shape[1]:
        raise ValueError(f"L and D must have the same number n of columns, got L {L.shape} and D {D.shape}")
    (m, n), q = L.shape, D.shape[0]
    ell = check_array("ell", ell, shape=(n,))
    d = check_array("d", d, shape=(q,))
    u, alpha, beta = (check_array(k, v, shape=(q,)) for k, v in (("u", u), ("alpha", alpha), ("beta", beta)))
    Vt = check_array("Vt", Vt, shape=(q, m))
    best = _quad_repair(L, ell, D, d, u, alpha, beta, Vt)
    if not np.isfinite(best) and d.sum() > 0:
        c = 1.0 / (2.0 * d.sum())
        for theta in np.logspace(-14, -1, 131):
            value = _quad_repair(L, ell, D, d, (1 - theta) * u, (1 - theta) * alpha,
                                 (1 - theta) * beta + theta * c, (1 - theta) * Vt)
            if np.isfinite(value) and not value >= best:
                best = value
    return best


def _quad_repair(L, ell, D, d, u, alpha, beta, Vt) -> float:
    """The ``alpha``-raising repair of :func:`quad_certified_tau` (validated arrays; NaN if impossible)."""
    X = L - Vt.T @ D
    f2_ii = D.T @ u + D.T @ beta
    f2_iii = u + beta
    colsum = D.sum(axis=0)
    den = 1 - d @ u - beta @ d
    if np.any(f2_ii <= 0) or np.any(f2_iii <= 0) or den <= 0 or np.any(colsum[np.any(X != 0, axis=0)] <= 0):
        return float("nan")
    need_ii = np.einsum("ji,ji->i", X, X) / f2_ii - (D.T @ u + D.T @ alpha - ell)
    need_ii = need_ii / np.maximum(colsum, 1e-300)
    need_iii = np.einsum("ij,ij->i", Vt, Vt) / f2_iii - (u + alpha)
    delta = max(0.0, float(np.max(need_ii)), float(np.max(need_iii)))
    delta = delta * (1 + 1e-9) + 1e-15  # float safety margin
    alpha = alpha + delta
    return float(d @ u + alpha @ d + np.sum((Vt.T @ d) ** 2) / den)


def _unit(v: np.ndarray) -> np.ndarray:
    nv = np.linalg.norm(v)
    return v / nv if nv > 0 else v


def quad_scenarios(inst: PolyInstance, ub: UpperBound) -> list[np.ndarray]:
    """The 1 + n + q scenarios of App. 5.F: ``w = h(.)`` in R^{m+1} (the last entry of (w; 1) is 1)."""
    _check_ub(ub, _check_inst(inst, "quad"), extra=("scale", "vhat", "tau"))
    S = ub.extra["scale"]
    L, ell, D, d = inst.L / np.sqrt(S), inst.ell / S, inst.D, inst.d
    Vt, vhat, tau = ub.V, ub.extra["vhat"], ub.extra["tau"]
    out = [_unit(np.concatenate([Vt.T @ d, [d @ vhat + (1 - tau) / 2]]))]
    X = L - Vt.T @ D
    out += [_unit(np.concatenate([X[:, i], [ell[i] / 2 - D[:, i] @ vhat]])) for i in range(inst.n)]
    out += [_unit(np.concatenate([-Vt[i], [-vhat[i]]])) for i in range(inst.q)]
    return out


# ---------------------------------------------------------------- sum of max: LP (124)
def summax_upper_bound(
    inst: PolyInstance, *, form: str = "auto", method: str = "ipm", time_limit: float | None = None
) -> UpperBound:
    """Theorem 21's UB for sum-of-max, the LP (124), as a sparse HiGHS model (no cvxpy).

    ``form="literal"``: (124) as printed.  Variables ``[u (q), V (q×m), tau, e1 (K), e2 (n×K),
    e3 (q×K)]``; the block maxima are epigraphs ``e1_k >= V_j'd + b_j``, ``e2_ik >= A_ji - V_j'D_i``,
    ``e3_lk >= -V_lj`` for j in I_k, with ``d'u + Σ e1 <= tau``, ``-D_i'u + Σ_k e2_ik <= 0``,
    ``-u_l + Σ_k e3_lk <= 0`` (the sign of the third family as in Theorem 21 / App. 5.B; (124) prints
    it with a typo).  ``1 + m + n + nm + q + qm`` rows.

    ``form="reduced"`` (default): the same optimum from ``n + m + nm`` rows, (124') below.  Substitute
    ``V_lj = s_lj - e3_lk`` with ``s >= 0`` (the ``e3`` family becomes the bound ``s >= 0``), then
    ``t_k = e1_k + d'e3_k``, ``w_ik = e2_ik - D_i'e3_k`` and ``u' = u - Σ_k e3_k``; ``e3`` drops out::

        (124')  min  d'u' + Σ_k t_k
                s.t. D'u' >= Σ_k w_k,   u' >= 0,
                     d's_j + b_j <= t_k,   D's_j + w_k >= A_j,   s_j >= 0      (j in I_k),

    i.e. ``min_w h_U(Σ_k w_k) + Σ_k max_{j in I_k} (b_j + h_U(A_j - w_k))`` with ``h_U`` the support
    function of U written by LP duality (``s_j`` are the dual multipliers of ``max (A_j - w_k)'x``).
    Every point of one problem maps to a point of the other with the same objective, and ``V = s``,
    ``u = u'`` is an optimal LDR of (124) (tested against the literal form).

    ``form="generation"``: (124') with only the pieces ``j`` it needs (:func:`_summax_generation`); the
    same optimum, from about a quarter of the pieces on Table 41 P5/P6/P9/P10.  Its decision rule for the
    dropped pieces is a vertex of their multiplier sets rather than the interior point the IPM returns,
    so the LB scenarios built from it can differ (measured: equal LBs on P5, P10, P13; lower on P2–P4,
    P7, P9).  ``form="auto"`` (default): ``"generation"`` when (124') has at least 10⁶ columns ``s``
    (``q·m``; Table 41 P6 only), else ``"reduced"``.

    ``method``: HiGHS's LP solver (the IPM runs without crossover: the reported bound does not need a
    vertex).  The reported ``value`` is :func:`summax_ldr_bound` at the solution's ``V`` — Theorem 21's
    bound evaluated exactly at that LDR, valid whatever the solver's tolerance; the LP optimum is in
    ``extra["lp_objective"]``.  ``time_limit`` (s): HiGHS's limit; a solve that stops raises a
    :class:`SolverError` naming the status.
    """
    _check_inst(inst, "summax")
    check_choice("form", form, ("auto", "reduced", "literal", "generation"))
    check_choice("method", method, ("ipm", "simplex", "pdlp", "choose"))
    if time_limit is not None:
        time_limit = check_positive("time_limit", time_limit)
    start = time.perf_counter()
    options = {"solver": method, "run_crossover": "off" if method == "ipm" else "on"}
    if form == "auto":
        form = "generation" if inst.q * inst.m >= 1_000_000 else "reduced"
    if form == "generation":
        u, V, res, info = _summax_generation(inst, options, time_limit)
    else:
        build = _summax_reduced_lp if form == "reduced" else _summax_literal_lp
        cost, Amat, upper, col_lo, unpack = build(inst)
        res = solve_lp(cost, Amat, np.full(Amat.shape[0], -np.inf), upper, col_lo,
                       np.full(Amat.shape[1], np.inf), name=f"convex_max.ub124[{inst.name}]",
                       options={**options, **({} if time_limit is None else {"time_limit": time_limit})})
        u, V = unpack(res.x)
        info = {"rows": Amat.shape[0], "cols": Amat.shape[1], "nnz": Amat.nnz, "solve_time": res.solve_time}
    value = summax_ldr_bound(inst, V)
    return UpperBound(value, u, V, None, info.pop("solve_time"), time.perf_counter() - start, "HIGHS",
                      res.solver_version, res.status,
                      extra={"form": form, "lp_objective": res.objective, **info})


def _box_bounds(D: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(lo, hi)`` if every row of D is a multiple of a unit vector and U is the box [lo, hi], else None."""
    if np.any((D != 0).sum(axis=1) != 1):
        return None
    i = np.argmax(D != 0, axis=1)
    a = D[np.arange(D.shape[0]), i]
    hi = np.full(D.shape[1], np.inf)
    lo = np.zeros(D.shape[1])
    np.minimum.at(hi, i[a > 0], d[a > 0] / a[a > 0])
    np.maximum.at(lo, i[a < 0], d[a < 0] / a[a < 0])
    return (lo, hi) if np.all(np.isfinite(hi)) and np.all(lo <= hi) else None


def _support(C: np.ndarray, D: np.ndarray, d: np.ndarray, box, lp) -> tuple[np.ndarray, np.ndarray]:
    """``h_U(c)`` for each row ``c`` of C, and optimal multipliers (rows of Λ: D'λ >= c, d'λ = h_U(c)).

    Closed form on a box (``λ`` on the tightest upper-bound row of each ``c_i > 0``, and on the tightest
    lower-bound row of each ``c_i < 0`` when ``lo_i > 0``); otherwise one LP (96) per row (HiGHS duals).
    """
    if box is None:
        out = [lp.support(c) for c in C]
        return np.array([v for v, _ in out]), np.array([lam for _, lam in out])
    lo, hi = box
    values = np.maximum(C * lo, C * hi).sum(axis=1)
    lam = np.zeros((C.shape[0], D.shape[0]))
    for i in range(D.shape[1]):
        rows = np.flatnonzero(D[:, i])
        a = D[rows, i]
        up = rows[a > 0][np.argmin(d[rows[a > 0]] / a[a > 0])]
        pos = C[:, i] > 0
        lam[pos, up] = C[pos, i] / D[up, i]
        if lo[i] > 0:
            dn = rows[a < 0][np.argmax(d[rows[a < 0]] / a[a < 0])]
            neg = C[:, i] < 0
            lam[neg, dn] = C[neg, i] / D[dn, i]
    return values, lam


def _summax_generation(inst: PolyInstance, options: dict, time_limit: float | None, *, initial: int = 3,
                       per_round: int = 5, tol: float = 1e-9):
    """(124') restricted to the pieces ``j`` it needs: each ``j`` brings its block ``s_j`` and its
    ``1 + n`` rows; a dropped ``j`` relaxes ``t_k >= b_j + h_U(A_j - w_k)``.  Start from the ``initial``
    pieces per block with the largest ``b_j + h_U(A_j)``, solve, add up to ``per_round`` violated pieces
    per block (the most violated), until none is violated by more than ``tol`` (relative): then the
    restricted optimum is the optimum of (124').  ``V``'s columns of the dropped pieces are the optimal
    multipliers of ``h_U(A_j - w_k)`` (``_support``), so ``V`` is an optimal LDR of (124)."""
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    m, n, q, K, J = inst.m, inst.n, inst.q, inst.K, inst.J
    box = _box_bounds(D, d)
    lp = None if box is not None else PolyhedronLP(D, d, f"{inst.name}: h_U")
    block = np.arange(m) // J
    start, solve_time = time.perf_counter(), 0.0
    first = b + _support(A, D, d, box, lp)[0]
    active = np.zeros(m, dtype=bool)
    for k in range(K):
        idx = np.arange(k * J, (k + 1) * J)
        active[idx[np.argsort(-first[idx], kind="stable")[:initial]]] = True
    Dt = sp.csr_matrix(D.T)
    nu, nt, nw = q, K, n * K
    Z = lambda r, c: sp.csr_matrix((r, c))  # noqa: E731
    rounds = 0
    while True:
        rounds += 1
        act = np.flatnonzero(active)
        na = act.size
        rows_a = sp.hstack([-Dt, Z(n, nt), sp.kron(sp.identity(n), np.ones((1, K))), Z(n, q * na)])
        T = sp.csr_matrix((-np.ones(na), (np.arange(na), block[act])), shape=(na, K))
        rows_b = sp.hstack([Z(na, nu), T, Z(na, nw), sp.kron(sp.identity(na), sp.csr_matrix(d[None, :]))])
        j_of, i_of = np.divmod(np.arange(na * n), n)
        W = sp.csr_matrix((-np.ones(na * n), (np.arange(na * n), i_of * K + block[act][j_of])),
                          shape=(na * n, nw))
        rows_c = sp.hstack([Z(na * n, nu), Z(na * n, nt), W, -sp.kron(sp.identity(na), Dt)])
        Amat = sp.vstack([rows_a, rows_b, rows_c], format="csc")
        ncol = Amat.shape[1]
        cost = np.zeros(ncol)
        cost[:nu], cost[nu:nu + nt] = d, 1.0
        col_lo = np.full(ncol, -np.inf)
        col_lo[:nu], col_lo[nu + nt + nw:] = 0.0, 0.0
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            raise SolverError(f"convex_max.ub124[{inst.name}]", "HIGHS", "Time limit reached",
                              f"generation stopped after {rounds - 1} rounds ({na} of {m} pieces)")
        res = solve_lp(cost, Amat, np.full(Amat.shape[0], -np.inf),
                       np.concatenate([np.zeros(n), -b[act], -A[act].ravel()]), col_lo, np.full(ncol, np.inf),
                       name=f"convex_max.ub124[{inst.name}]",
                       options={**options, **({} if left is None else {"time_limit": left})})
        solve_time += res.solve_time
        t, w = res.x[nu:nu + nt], res.x[nu + nt:nu + nt + nw].reshape(n, K)
        h_all, lam_all = _support(A - w[:, block].T, D, d, box, lp)
        violation = b + h_all - t[block]
        candidates = np.flatnonzero(~active & (violation > tol * max(1.0, abs(res.objective))))
        if candidates.size == 0:
            break
        for k in np.unique(block[candidates]):
            in_k = candidates[block[candidates] == k]
            active[in_k[np.argsort(-violation[in_k], kind="stable")[:per_round]]] = True
    V = lam_all.T.copy()  # (q, m): the multipliers of every piece ...
    V[:, act] = res.x[nu + nt + nw:].reshape(na, q).T  # ... and the LP's own s_j where it has them
    info = {"rows": Amat.shape[0], "cols": ncol, "nnz": Amat.nnz, "rounds": rounds, "pieces": na,
            "solve_time": solve_time}
    return res.x[:nu], V, res, info


def _summax_literal_lp(inst: PolyInstance):
    """(124) as printed: ``(cost, A, row upper bounds, column lower bounds, unpack(x) -> (u, V))``."""
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    m, n, q, K, J = inst.m, inst.n, inst.q, inst.K, inst.J
    B = sp.kron(sp.identity(K), np.ones((J, 1)), format="csr")  # (m, K) block indicator
    Dt = sp.csr_matrix(D.T)  # (n, q)
    Im, Iq, In = sp.identity(m, format="csr"), sp.identity(q, format="csr"), sp.identity(n, format="csr")
    nu, nV, ne1, ne2, ne3 = q, q * m, K, n * K, q * K
    Z = lambda r, c: sp.csr_matrix((r, c))  # noqa: E731
    # rows: R0 (1), R1 (m), R2a (n), R2b (n m), R3a (q), R3b (q m)
    R0 = sp.hstack([sp.csr_matrix(d[None, :]), Z(1, nV), -sp.csr_matrix(np.ones((1, 1))),
                    sp.csr_matrix(np.ones((1, K))), Z(1, ne2), Z(1, ne3)])
    R1 = sp.hstack([Z(m, nu), sp.kron(sp.csr_matrix(d[None, :]), Im), Z(m, 1), -B, Z(m, ne2), Z(m, ne3)])
    R2a = sp.hstack([-Dt, Z(n, nV), Z(n, 1), Z(n, ne1), sp.kron(In, np.ones((1, K))), Z(n, ne3)])
    R2b = sp.hstack([Z(n * m, nu), -sp.kron(Dt, Im), Z(n * m, 1), Z(n * m, ne1), -sp.kron(In, B),
                     Z(n * m, ne3)])
    R3a = sp.hstack([-Iq, Z(q, nV), Z(q, 1), Z(q, ne1), Z(q, ne2), sp.kron(Iq, np.ones((1, K)))])
    R3b = sp.hstack([Z(q * m, nu), -sp.identity(q * m), Z(q * m, 1), Z(q * m, ne1), Z(q * m, ne2),
                     -sp.kron(Iq, B)])
    Amat = sp.vstack([R0, R1, R2a, R2b, R3a, R3b], format="csc")
    upper = np.concatenate([[0.0], -b, np.zeros(n), -A.T.ravel(), np.zeros(q), np.zeros(q * m)])
    cost = np.zeros(Amat.shape[1])
    cost[nu + nV] = 1.0
    return (cost, Amat, upper, np.full(Amat.shape[1], -np.inf),
            lambda x: (x[:nu], x[nu:nu + nV].reshape(q, m)))


def _summax_reduced_lp(inst: PolyInstance):
    """(124'), see :func:`summax_upper_bound`; columns ``[u' (q), t (K), w (n×K), s (m×q, s_j contiguous)]``,
    rows ``[D'u' >= Σ w (n), d's_j - t_k <= -b_j (m), -w_k - D's_j <= -A_j (m n, row j n + i)]``."""
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    m, n, q, K, J = inst.m, inst.n, inst.q, inst.K, inst.J
    nu, nt, nw, ns = q, K, n * K, q * m
    Dt = sp.csr_matrix(D.T)  # (n, q)
    Z = lambda r, c: sp.csr_matrix((r, c))  # noqa: E731
    rows_a = sp.hstack([-Dt, Z(n, nt), sp.kron(sp.identity(n), np.ones((1, K))), Z(n, ns)])
    block = np.arange(m) // J
    T = sp.csr_matrix((-np.ones(m), (np.arange(m), block)), shape=(m, K))
    rows_b = sp.hstack([Z(m, nu), T, Z(m, nw), sp.kron(sp.identity(m), sp.csr_matrix(d[None, :]))])
    j_of, i_of = np.divmod(np.arange(m * n), n)
    W = sp.csr_matrix((-np.ones(m * n), (np.arange(m * n), i_of * K + block[j_of])), shape=(m * n, nw))
    rows_c = sp.hstack([Z(m * n, nu), Z(m * n, nt), W, -sp.kron(sp.identity(m), Dt)])
    Amat = sp.vstack([rows_a, rows_b, rows_c], format="csc")
    upper = np.concatenate([np.zeros(n), -b, -A.ravel()])
    ncol = Amat.shape[1]
    cost = np.zeros(ncol)
    cost[:nu], cost[nu:nu + nt] = d, 1.0
    col_lo = np.full(ncol, -np.inf)
    col_lo[:nu], col_lo[nu + nt + nw:] = 0.0, 0.0
    return cost, Amat, upper, col_lo, lambda x: (x[:nu], x[nu + nt + nw:].reshape(m, q).T.copy())


def summax_ldr_bound(inst: PolyInstance, V) -> float:
    """Theorem 21's bound (124) at the LDR ``V`` (q×m), evaluated exactly: a valid UB for any ``V``.

    The epigraph variables of (124) at their least values ``e1_k = max_j (V_j'd + b_j)``,
    ``e2_ik = max_j (A_ji - V_j'D_i)``, ``e3_lk = max_j (-V_lj)`` (j in I_k); then the best ``u`` is
    the small LP ``min d'u`` s.t. ``u >= Σ_k e3_k``, ``D'u >= Σ_k e2_k`` (q columns, n + q rows).
    """
    _check_inst(inst, "summax")
    V = check_array("V", V, shape=(inst.q, inst.m))
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    n, q, K, J = inst.n, inst.q, inst.K, inst.J
    e1 = (V.T @ d + b).reshape(K, J).max(axis=1)
    e2 = (A.T - D.T @ V).reshape(n, K, J).max(axis=2).sum(axis=1)
    e3 = (-V).reshape(q, K, J).max(axis=2).sum(axis=1)
    res = solve_lp(d, sp.csc_matrix(D.T), e2, np.full(n, np.inf), e3, np.full(q, np.inf),
                   name=f"convex_max.ub124_u[{inst.name}]", options={"solver": "simplex"})
    return float(res.objective + e1.sum())


def summax_scenarios(inst: PolyInstance, ub: UpperBound) -> list[np.ndarray]:
    """The 1 + n + q worst-case ``w`` of (125)–(127): one-hot per block at the argmax (129)."""
    _check_ub(ub, _check_inst(inst, "summax"))
    A, b, D, d = inst.A, inst.b, inst.D, inst.d
    V, J, K = ub.V, inst.J, inst.K
    out = [block_argmax(V.T @ d + b, J, K)]
    X2 = A - V.T @ D
    out += [block_argmax(X2[:, i], J, K) for i in range(inst.n)]
    out += [block_argmax(-V[i], J, K) for i in range(inst.q)]
    return out


# ---------------------------------------------------------------- Algorithm 12
def objective(inst: PolyInstance, x: np.ndarray) -> float:
    """``f(Ax + b)`` of the instance (raw, before the App. 5.G.3 reporting transform)."""
    _check_inst(inst)
    x = check_array("x", x, shape=(inst.n,))
    if inst.kind == "lse":
        return float(lse(inst.A @ x + inst.b))
    if inst.kind == "summax":
        return float(sum_of_max(inst.A @ x + inst.b, inst.J, inst.K))
    return quadratic(x, inst.L, inst.ell)


def _lp_direction(inst: PolyInstance, w: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """The objective ``A'w`` of (96); for the quadratic ``L'w_{1:m} + (l/2) w_{m+1} + l/2`` ((111)),
    with the data of the (scaled, see :func:`quad_upper_bound`) UB problem the scenarios come from."""
    if inst.kind == "quad":
        L, ell = inst.L / np.sqrt(scale), inst.ell / scale
        return L.T @ w[:-1] + ell / 2 * w[-1] + ell / 2
    return inst.A.T @ w


def scenario_lower_bound(inst: PolyInstance, scenarios: list[np.ndarray], scale: float = 1.0) -> LowerBound:
    """Solve (96) for every scenario (duplicate directions once) and keep the best ``f(Ax + b)``."""
    _check_inst(inst)
    size = inst.m + 1 if inst.kind == "quad" else inst.m
    if not isinstance(scenarios, list | tuple) or not scenarios:
        raise ValueError(f"scenarios must be a non-empty list of vectors of length {size}, got {scenarios!r}")
    scenarios = [check_array("scenarios", w, shape=(size,)) for w in scenarios]
    scale = check_positive("scale", scale)
    start = time.perf_counter()
    lp = PolyhedronLP(inst.D, inst.d, f"convex_max.lb96[{inst.name}]")
    seen: dict[bytes, float] = {}
    best, best_x, best_k = -np.inf, None, -1
    for k, w in enumerate(scenarios):
        g = _lp_direction(inst, w, scale)
        key = np.round(g, 12).tobytes()
        if key in seen:
            continue
        x = np.maximum(lp.argmax(g), 0.0)
        val = objective(inst, x)
        seen[key] = val
        if val > best:
            best, best_x, best_k = val, x, k
    return LowerBound(best, best_x, len(scenarios), lp.count, lp.solve_time, time.perf_counter() - start,
                      best_k)


def poly_bounds(
    inst: PolyInstance, *, solver: str | None = None, check: bool = True, ub_options: dict | None = None
) -> PolyBounds:
    """Algorithm 12: Theorem 21 UB (118 / 113 / 124 by ``inst.kind``) and the 1 + n + q scenario LB.

    ``ub_options``: solver options of the conic UB solve (e.g. Clarabel's ``time_limit``)."""
    _check_inst(inst)
    check_solver(solver, "EXP" if inst.kind == "lse" else "SOCP")
    if check_bool("check", check):
        try:
            check_polyhedron(inst.D, inst.d)
        except ValueError as exc:
            raise ValueError(f"inst: {exc}") from exc
    _check_ub_options(ub_options, inst, solver)
    if inst.kind == "lse":
        ub = lse_upper_bound(inst, solver=solver, **(ub_options or {}))
        scen = lse_scenarios(inst, ub)
    elif inst.kind == "quad":
        ub = quad_upper_bound(inst, solver=solver, **(ub_options or {}))
        scen = quad_scenarios(inst, ub)
    else:
        ub = summax_upper_bound(inst, **(ub_options or {}))
        scen = summax_scenarios(inst, ub)
    lb = scenario_lower_bound(inst, scen, (ub.extra or {}).get("scale", 1.0) if inst.kind == "quad" else 1.0)
    tol = 1e-6 * max(1.0, abs(ub.value))
    if ub.status.lower() == "optimal" and lb.value > ub.value + tol:
        raise SolverError(f"convex_max.alg12[{inst.name}]", ub.solver, "invalid_bound",
                          f"LB {lb.value:.8g} exceeds UB {ub.value:.8g}: the UB solve is not accurate")
    return PolyBounds(ub, lb)


def _check_ub_options(ub_options, inst: PolyInstance, solver) -> None:
    """``ub_options`` None or a dict of keyword arguments of the UB function / Clarabel settings."""
    if ub_options is None:
        return
    check_type("ub_options", ub_options, dict, "a dict of solver options or None")
    if inst.kind == "summax":
        bad = [k for k in ub_options if k not in ("form", "method", "time_limit")]
        if bad:
            raise ValueError(f"ub_options must name arguments of summax_upper_bound (form, method, "
                             f"time_limit) for a sum-of-max instance, got unknown {bad}")
        return
    if resolve_solver(solver, "EXP" if inst.kind == "lse" else "SOCP") != "CLARABEL":
        return
    import clarabel

    own = {"scale", "accept_inaccurate"} if inst.kind == "quad" else set()
    bad = [k for k in ub_options if k not in own and not hasattr(clarabel.DefaultSettings(), k)]
    if bad:
        raise ValueError(f"ub_options must name Clarabel settings{' or ' + str(sorted(own)) if own else ''}, "
                         f"got unknown {bad}")


__all__ += ["solver_version"]
