"""The relaxations of thesis §6: classical RLT (138)/(140), RLT/SDP, and the proposed RLT
(Theorem 22: X = Diag(x); vertex lifting (144) for polytopes; eigen-split for the StQP, App. 6.A.4).

Every conic problem is solved through :mod:`safeguarded.solvers` with its status checked: Clarabel
first (with its retry ladder), then SCS if Clarabel fails, the fallback being recorded in the
result (``fallback`` and ``first_error``).  Times are recorded as the solver's own time
(``solve_time``, as the thesis's YALMIP ``solvertime``) and as wall time (``wall_time``: building the
cvxpy model + compiling + solving).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np
import scipy.sparse as sp
from scipy.optimize import brentq

from safeguarded.rlt.instances import (
    QuadBarrierProblem,
    StQP,
    hypercube_vertices,
    simplex_cube_vertices,
)
from safeguarded.solvers import DEFAULT_SOLVERS, SolverError, solve, solve_with_retries
from safeguarded.validation import check_array, check_bool, check_choice, check_type

__all__ = [
    "METHODS",
    "RelaxationResult",
    "solve_chain",
    "rlt_simplex",
    "rlt_polyhedral",
    "proposed_simplex_closed_form",
    "proposed_simplex_conic",
    "proposed_lifted",
    "stqp_rlt",
    "stqp_proposed",
    "solve_method",
    "lifting_vertices",
]

#: Method names used in results: the thesis's three plus the closed-form evaluation of the proposed
#: simplicial relaxation (a one-dimensional root search, this repository's addition).
METHODS = ("rlt", "rlt_sdp", "proposed", "proposed_closed_form")

#: SCS settings of the fallback (SCS is only ~1e-4 accurate at its defaults).
SCS_FALLBACK_OPTIONS = {"eps_abs": 1e-8, "eps_rel": 1e-8, "max_iters": 100_000}


@dataclass
class RelaxationResult:
    """Optimal value and solution of one relaxation, with what solved it and how long it took."""

    method: str
    value: float
    x: np.ndarray
    X: np.ndarray | None
    solver: str
    solver_version: str
    status: str
    solve_time: float
    wall_time: float
    attempt: int = 0
    fallback: bool = False
    first_error: str = ""
    extra: dict = field(default_factory=dict)

    def row(self) -> dict:
        """The scalar fields, for a results table."""
        return {
            "method": self.method,
            "value": self.value,
            "solver": self.solver,
            "solver_version": self.solver_version,
            "status": self.status,
            "solve_time": self.solve_time,
            "wall_time": self.wall_time,
            "attempt": self.attempt,
            "fallback": self.fallback,
            "first_error": self.first_error,
            **self.extra,
        }


#: Clarabel settings tried (in order, after its default retry ladder) when it stops with a solver
#: error; measured here: on the simplicial RLT (140) with n >= 200 Clarabel's default stalls
#: (InsufficientProgress) and a shorter step (0.9) or more static regularisation reaches "optimal".
CLARABEL_RESCUE_OPTIONS = ({"max_step_fraction": 0.9}, {"static_regularization_constant": 1e-7})


def _check_chain(chain) -> tuple[str, ...]:
    """``chain`` as a non-empty tuple of installed cvxpy solver names (a bare string is refused)."""
    installed = cp.installed_solvers()
    if (
        not isinstance(chain, tuple | list)
        or not chain
        or not all(isinstance(s, str) and s.upper() in installed for s in chain)
    ):
        raise ValueError(
            f"chain must be a non-empty tuple of installed solver names {installed}, got chain={chain!r}"
        )
    return tuple(chain)


def _check_problem(prob, *, simplex: bool = False) -> QuadBarrierProblem:
    check_type("prob", prob, QuadBarrierProblem, "a QuadBarrierProblem (an StQP goes to stqp_*)")
    if simplex and not prob.simplex:
        raise ValueError(f"prob must be a simplicial instance (139), got {prob.name!r}")
    return prob


def _check_stqp(stqp) -> StQP:
    return check_type("stqp", stqp, StQP, "an StQP")


def solve_chain(problem: cp.Problem, *, name: str, problem_class: str, chain=("CLARABEL", "SCS")):
    """Solve with the first solver of ``chain`` that succeeds; returns (record, fallback, first_error).

    Clarabel goes through :func:`safeguarded.solvers.solve_with_retries`, then (on a solver error)
    the settings of :data:`CLARABEL_RESCUE_OPTIONS` (the record's ``attempt`` is then 100 + their
    index); a later solver of the chain is a *fallback* (SCS with :data:`SCS_FALLBACK_OPTIONS`) and
    must return status ``optimal``.  If every solver fails, the last :class:`SolverError` propagates.
    """
    check_type("problem", problem, cp.Problem, "a cvxpy Problem")
    check_type("name", name, str, "a string")
    check_choice("problem_class", problem_class, tuple(DEFAULT_SOLVERS))
    chain = _check_chain(chain)
    first_error = ""
    for i, solver in enumerate(chain):
        steps = [None] if solver != "CLARABEL" else [None, *CLARABEL_RESCUE_OPTIONS]
        for j, extra in enumerate(steps):
            try:
                if solver == "CLARABEL" and extra is None:
                    record = solve_with_retries(
                        problem, name=name, solver=solver, problem_class=problem_class
                    )
                elif solver == "CLARABEL":
                    record = solve(problem, name=name, solver=solver, problem_class=problem_class, **extra)
                    record = dataclasses.replace(record, attempt=100 + j - 1)
                else:
                    opts = SCS_FALLBACK_OPTIONS if solver == "SCS" else {}
                    record = solve(problem, name=name, solver=solver, problem_class=problem_class, **opts)
            except SolverError as exc:
                first_error = first_error or str(exc)
                if i == len(chain) - 1 and j == len(steps) - 1:
                    raise
                continue
            return record, i > 0, first_error
    raise AssertionError("unreachable")  # pragma: no cover


def _result(method, problem, build_time, x, X, name, problem_class, chain, extra=None) -> RelaxationResult:
    record, fallback, first_error = solve_chain(problem, name=name, problem_class=problem_class, chain=chain)
    return RelaxationResult(
        method=method,
        value=record.objective,
        x=np.asarray(x.value, float).ravel(),
        X=None if X is None else np.asarray(X.value, float),
        solver=record.solver,
        solver_version=record.solver_version,
        status=record.status,
        solve_time=record.solve_time,
        wall_time=build_time + record.wall_time,
        attempt=record.attempt,
        fallback=fallback,
        first_error=first_error,
        extra=extra or {},
    )


def _barrier_expr(prob: QuadBarrierProblem, x) -> cp.Expression:
    bar = prob.barrier
    return bar.w @ cp.log(bar.G @ x + bar.h)


def _lifted_quadratic(prob: QuadBarrierProblem, X, x) -> cp.Expression:
    """f'(X, x) = <M, X> - 2 c^T M x + c^T M c, the monotone lifting of ||L(x - c)||^2 (Prop. 20)."""
    M, c = prob.M, prob.c
    return cp.sum(cp.multiply(M, X)) - 2 * (M @ c) @ x + float(c @ M @ c)


def rlt_simplex(prob: QuadBarrierProblem, sdp: bool = False, chain=("CLARABEL", "SCS")) -> RelaxationResult:
    """The RLT relaxation (140) of a simplicial instance (139); with ``sdp`` the RLT/SDP relaxation
    (140) + [X x; x^T 1] >= 0 (L6100)."""
    _check_problem(prob, simplex=True)
    sdp = check_bool("sdp", sdp)
    chain = _check_chain(chain)
    start = time.perf_counter()
    n = prob.n
    X = cp.Variable((n, n), symmetric=True)
    x = cp.Variable(n, nonneg=True)
    cons = [X >= 0, cp.sum(X, axis=1) == x, cp.sum(x) == 1]
    res = _solve_lifted(prob, X, x, cons, start, sdp, chain)
    res.extra["diag_deviation"] = float(np.abs(res.X - np.diag(res.x)).max())
    return res


def _solve_lifted(prob, X, x, cons, start: float, sdp: bool, chain) -> RelaxationResult:
    """Maximise the lifted objective over ``cons`` (plus the Shor constraint [X x; x^T 1] >= 0 when
    ``sdp``): the common tail of the RLT (140) and polyhedral RLT (138) relaxations."""
    n = prob.n
    if sdp:
        cons = cons + [
            cp.bmat(
                [[X, cp.reshape(x, (n, 1), order="F")], [cp.reshape(x, (1, n), order="F"), np.ones((1, 1))]]
            )
            >> 0
        ]
    problem = cp.Problem(cp.Maximize(_lifted_quadratic(prob, X, x) + _barrier_expr(prob, x)), cons)
    build = time.perf_counter() - start
    method = "rlt_sdp" if sdp else "rlt"
    return _result(method, problem, build, x, X, f"rlt.{prob.name}.{method}", "SDP" if sdp else "EXP", chain)


def rlt_product_matrix(A: sp.spmatrix, b: np.ndarray, X, x) -> cp.Expression:
    """The matrix of the RLT products (138): S_ij = a_i^T X a_j - (b_i a_j + b_j a_i)^T x + b_i b_j."""
    m = A.shape[0]
    Ax = cp.reshape(A @ x, (m, 1), order="F")
    bcol = b.reshape(m, 1)
    return A @ X @ A.T - Ax @ bcol.T - bcol @ Ax.T + bcol @ bcol.T


def rlt_polyhedral(
    prob: QuadBarrierProblem, sdp: bool = False, chain=("CLARABEL", "SCS")
) -> RelaxationResult:
    """Classical RLT of problem (137) over {Ax <= b}: the products (138) for all pairs i <= j;
    with ``sdp`` also [X x; x^T 1] >= 0 (RLT/SDP)."""
    _check_problem(prob)
    sdp = check_bool("sdp", sdp)
    chain = _check_chain(chain)
    start = time.perf_counter()
    n = prob.n
    X = cp.Variable((n, n), symmetric=True)
    x = cp.Variable(n)
    S = rlt_product_matrix(prob.A, prob.b, X, x)
    cons = [prob.A @ x <= prob.b, cp.diag(S) >= 0]
    if prob.A.shape[0] > 1:
        cons.append(cp.upper_tri(S) >= 0)
    return _solve_lifted(prob, X, x, cons, start, sdp, chain)


def _simplex_linear_coefficients(prob: QuadBarrierProblem) -> tuple[np.ndarray, float]:
    """f'(Diag(x), x) = a^T x + a0 on the simplex: a = diag(M) - 2 M c, a0 = c^T M c (Theorem 22)."""
    M, c = prob.M, prob.c
    return np.diag(M) - 2 * M @ c, float(c @ M @ c)


def proposed_simplex_conic(prob: QuadBarrierProblem, chain=("CLARABEL", "SCS")) -> RelaxationResult:
    """The proposed RLT of a simplicial instance: (140) with X = Diag(x) (Theorem 22), an n-variable
    exponential-cone program max a^T x + a0 + g(x) over the simplex."""
    _check_problem(prob, simplex=True)
    chain = _check_chain(chain)
    start = time.perf_counter()
    a, a0 = _simplex_linear_coefficients(prob)
    x = cp.Variable(prob.n, nonneg=True)
    problem = cp.Problem(cp.Maximize(a @ x + a0 + _barrier_expr(prob, x)), [cp.sum(x) == 1])
    build = time.perf_counter() - start
    return _result("proposed", problem, build, x, None, f"rlt.{prob.name}.proposed", "EXP", chain)


def proposed_simplex_closed_form(prob: QuadBarrierProblem) -> RelaxationResult:
    """The proposed RLT of a simplicial instance with g = sum_i w_i ln x_i, solved from its KKT
    conditions: x_i = w_i / (mu - a_i), with mu > max a the root of sum_i w_i / (mu - a_i) = 1
    (monotone; bracketed by max a + w_max <= mu <= max a + sum w).  No conic solver involved."""
    _check_problem(prob, simplex=True)
    bar = prob.barrier
    n = prob.n
    if bar.G.shape != (n, n) or (bar.G - sp.identity(n)).count_nonzero() or np.any(bar.h != 0):
        raise ValueError("proposed_simplex_closed_form needs g(x) = sum_i w_i ln x_i")
    start = time.perf_counter()
    a, a0 = _simplex_linear_coefficients(prob)
    w = bar.w
    top = a.max()

    def excess(mu: float) -> float:
        return float(np.sum(w / (mu - a)) - 1.0)

    lo, hi = top + w[np.argmax(a)], top + w.sum()
    mu = (
        lo if excess(lo) <= 0 else (hi if excess(hi) >= 0 else brentq(excess, lo, hi, xtol=1e-15, rtol=1e-15))
    )
    x = w / (mu - a)
    x = x / x.sum()
    value = float(a @ x + a0 + w @ np.log(x))
    elapsed = time.perf_counter() - start
    return RelaxationResult(
        "proposed_closed_form", value, x, None, "closed-form (brentq)", "scipy", "optimal", elapsed, elapsed
    )


def lifting_vertices(prob: QuadBarrierProblem) -> np.ndarray:
    """The vertices of the feasible polytope as columns (the matrix V of (144))."""
    _check_problem(prob)
    if prob.name == "hypercube":
        return hypercube_vertices(prob.n)
    if prob.name == "simplex_cube":
        k = prob.n - int(np.count_nonzero(prob.c))
        return simplex_cube_vertices(prob.n, k)
    if prob.simplex:
        return np.eye(prob.n)
    raise ValueError(f"no vertex enumeration for instances of kind {prob.name!r}")


def proposed_lifted(
    prob: QuadBarrierProblem, V: np.ndarray | None = None, chain=("CLARABEL", "SCS")
) -> RelaxationResult:
    """The proposed RLT of the vertex-lifted problem (144): with X' = Diag(lambda) (Theorem 22) and the
    lifting of Prop. 20.4, max sum_v lambda_v ||L(v - c)||^2 + g(V lambda) over lambda in the simplex.
    Returns x = V lambda (and lambda in ``extra``)."""
    _check_problem(prob)
    chain = _check_chain(chain)
    V = lifting_vertices(prob) if V is None else check_array("V", V, ndim=2)
    if V.shape[0] != prob.n:
        raise ValueError(f"V must have n = {prob.n} rows (one vertex per column), got shape {V.shape}")
    start = time.perf_counter()
    R = prob.L @ (V - prob.c[:, None])
    fv = np.einsum("ij,ij->j", R, R)  # f at every vertex
    lam = cp.Variable(V.shape[1], nonneg=True)
    bar = prob.barrier
    GV = sp.csr_matrix(bar.G @ V)
    problem = cp.Problem(cp.Maximize(fv @ lam + bar.w @ cp.log(GV @ lam + bar.h)), [cp.sum(lam) == 1])
    build = time.perf_counter() - start
    res = _result("proposed", problem, build, lam, None, f"rlt.{prob.name}.proposed", "EXP", chain)
    res.extra["vertices"] = V.shape[1]
    lam_value = res.x
    res.x = V @ lam_value
    return res


def _stqp_lift_constraints(n: int, sdp: bool):
    X = cp.Variable((n, n), symmetric=True)
    x = cp.Variable(n, nonneg=True)
    cons = [X >= 0, cp.sum(X, axis=1) == x, cp.sum(x) == 1]
    if sdp:
        cons.append(
            cp.bmat(
                [[X, cp.reshape(x, (n, 1), order="F")], [cp.reshape(x, (1, n), order="F"), np.ones((1, 1))]]
            )
            >> 0
        )
    return X, x, cons


def stqp_rlt(stqp: StQP, sdp: bool = False, chain=("CLARABEL", "SCS")) -> RelaxationResult:
    """Classical RLT (an LP) or RLT/SDP of the StQP max x^T Q x over the simplex, applied to the whole
    indefinite quadratic (App. 6.B.2): max <Q, X> s.t. the constraints of (140) [+ LMI]."""
    _check_stqp(stqp)
    sdp = check_bool("sdp", sdp)
    chain = _check_chain(chain)
    start = time.perf_counter()
    X, x, cons = _stqp_lift_constraints(stqp.n, sdp)
    problem = cp.Problem(cp.Maximize(cp.sum(cp.multiply(stqp.Q, X))), cons)
    build = time.perf_counter() - start
    method = "rlt_sdp" if sdp else "rlt"
    return _result(method, problem, build, x, X, f"rlt.{stqp.name}.{method}", "SDP" if sdp else "SOCP", chain)


def stqp_proposed(stqp: StQP, chain=("CLARABEL", "SCS")) -> RelaxationResult:
    """The proposed RLT of the StQP (App. 6.A.4): f = x^T Q+ x lifted with X = Diag(x), g = -x^T Q- x,
    i.e. max diag(Q+)^T x - ||F x||^2 over the simplex with Q- = F^T F (a convex QP in n variables)."""
    _check_stqp(stqp)
    chain = _check_chain(chain)
    start = time.perf_counter()
    lam, U = np.linalg.eigh(stqp.Q_minus)
    keep = lam > 1e-12 * max(1.0, lam.max(initial=0.0))
    F = (U[:, keep] * np.sqrt(lam[keep])).T
    x = cp.Variable(stqp.n, nonneg=True)
    concave = -cp.sum_squares(F @ x) if F.shape[0] else 0
    problem = cp.Problem(cp.Maximize(np.diag(stqp.Q_plus) @ x + concave), [cp.sum(x) == 1])
    build = time.perf_counter() - start
    return _result("proposed", problem, build, x, None, f"rlt.{stqp.name}.proposed", "SOCP", chain)


def solve_method(instance, method: str, chain=("CLARABEL", "SCS")) -> RelaxationResult:
    """Dispatch one of :data:`METHODS` on an instance (QuadBarrierProblem or StQP)."""
    check_type("instance", instance, QuadBarrierProblem | StQP, "a QuadBarrierProblem or an StQP")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got method={method!r}")
    chain = _check_chain(chain)
    if isinstance(instance, StQP):
        if method == "proposed_closed_form":
            raise ValueError("method='proposed_closed_form' applies to simplicial instances only")
        if method == "proposed":
            return stqp_proposed(instance, chain)
        return stqp_rlt(instance, sdp=method == "rlt_sdp", chain=chain)
    if method == "proposed_closed_form":
        return proposed_simplex_closed_form(instance)
    if instance.simplex:
        if method == "proposed":
            return proposed_simplex_conic(instance, chain)
        return rlt_simplex(instance, sdp=method == "rlt_sdp", chain=chain)
    if method == "proposed":
        return proposed_lifted(instance, chain=chain)
    return rlt_polyhedral(instance, sdp=method == "rlt_sdp", chain=chain)
