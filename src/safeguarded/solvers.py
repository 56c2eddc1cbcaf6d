"""The one place that picks a solver, checks a licence, checks a status and records what ran.

Every optimisation problem in the package is solved through :func:`solve`.  It

* names the solver explicitly (cvxpy's own default would pick an installed but unlicensed MOSEK and
  fail), choosing the open-source default for the problem class unless told otherwise;
* uses MOSEK only when it is requested *and* a licence check passes, otherwise falls back to the
  open-source default and records the fallback;
* raises a typed :class:`SolverError` for infeasible, unbounded, inaccurate or failed solves, naming
  the problem and the status, so that a bad solve is never silently used;
* returns a :class:`SolveRecord` (solver, version, status, times, objective) that experiments store
  beside every number they report.

The default solver can be overridden for a whole run with the environment variable
``SAFEGUARDED_SOLVER`` (e.g. ``SAFEGUARDED_SOLVER=MOSEK make reproduce``), which is how results are
cross-checked across solvers.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.metadata
import os
import time
import warnings
from dataclasses import asdict, dataclass

import cvxpy as cp
import numpy as np
import scipy.sparse as sp

from safeguarded.validation import check_array, check_type

__all__ = [
    "SolveRecord",
    "SolverError",
    "InfeasibleError",
    "UnboundedError",
    "InaccurateError",
    "DEFAULT_SOLVERS",
    "mosek_licensed",
    "resolve_solver",
    "solver_version",
    "solve",
    "high_accuracy_options",
    "HIGH_ACCURACY_OPTIONS",
    "RETRY_OPTIONS",
    "solve_with_retries",
    "LPResult",
    "solve_lp",
    "highs_model",
    "pass_lp",
    "check_highs_status",
    "TransportResult",
    "solve_transport",
]

#: Open-source default per problem class.  Clarabel is the most accurate open-source conic
#: interior-point solver available through cvxpy; HiGHS is used for pure LPs and MILPs.
DEFAULT_SOLVERS: dict[str, str] = {
    "LP": "HIGHS",
    "MILP": "HIGHS",
    "QP": "CLARABEL",
    "SOCP": "CLARABEL",
    "EXP": "CLARABEL",
    "POW": "CLARABEL",
    "SDP": "CLARABEL",
}

_PACKAGE_OF_SOLVER = {
    "CLARABEL": "clarabel",
    "HIGHS": "highspy",
    "SCS": "scs",
    "ECOS": "ecos",
    "MOSEK": "mosek",
    "SCIP": "pyscipopt",
    "OSQP": "osqp",
    "GLPK": "cvxopt",
    "POT-EMD": "pot",
}


class SolverError(RuntimeError):
    """A solve that must not be used: names the problem, the solver and the status."""

    def __init__(self, problem_name: str, solver: str, status: str, detail: str = ""):
        self.problem_name = problem_name
        self.solver = solver
        self.status = status
        msg = f"problem {problem_name!r} solved with {solver}: status {status!r}"
        if detail:
            msg += f" ({detail})"
        self.detail = detail
        super().__init__(msg)

    def __reduce__(self):
        # picklable, so that a failed solve inside a process-pool worker reaches the sweep as itself
        return (type(self), (self.problem_name, self.solver, self.status, self.detail))


class InfeasibleError(SolverError):
    """The solver proved the problem infeasible."""


class UnboundedError(SolverError):
    """The solver proved the problem unbounded."""


class InaccurateError(SolverError):
    """The solver stopped with an inaccurate status (``optimal_inaccurate`` and friends)."""


@dataclass(frozen=True)
class SolveRecord:
    """What ran and what it returned: stored beside every reported number."""

    problem: str
    solver: str
    solver_version: str
    status: str
    objective: float
    solve_time: float
    wall_time: float
    requested_solver: str
    attempt: int = 0  #: index into :data:`RETRY_OPTIONS` of the settings that succeeded

    def as_dict(self) -> dict:
        return asdict(self)


@functools.cache
def solver_version(solver: str) -> str:
    """Version string of the Python package that provides ``solver`` ('unknown' if not found)."""
    package = _PACKAGE_OF_SOLVER.get(solver.upper(), solver.lower())
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@functools.cache
def mosek_licensed() -> bool:
    """True when MOSEK is importable *and* a licence can be checked out.

    The check solves nothing: it asks MOSEK for a licence token, which fails fast without a licence
    file. Set ``SAFEGUARDED_NO_MOSEK=1`` to pretend MOSEK is absent.
    """
    if os.environ.get("SAFEGUARDED_NO_MOSEK"):
        return False
    try:
        import mosek
    except ImportError:
        return False
    try:
        with mosek.Env() as env:
            env.checkoutlicense(mosek.feature.pts)
        return True
    except Exception:  # mosek.Error without a licence, or anything else: not usable
        return False


def resolve_solver(solver: str | None = None, problem_class: str = "SOCP") -> str:
    """The cvxpy solver name to use.

    Parameters
    ----------
    solver
        A cvxpy solver name (case-insensitive), or ``None`` for the default of ``problem_class``
        (overridable by the ``SAFEGUARDED_SOLVER`` environment variable).
    problem_class
        One of the keys of :data:`DEFAULT_SOLVERS`.

    MOSEK is returned only when :func:`mosek_licensed`; otherwise the open-source default for the
    problem class is returned with a warning, so a missing licence never stops a run.
    """
    if problem_class not in DEFAULT_SOLVERS:
        raise ValueError(
            f"problem_class must be one of {sorted(DEFAULT_SOLVERS)}, got problem_class={problem_class!r}"
        )
    name = (solver or os.environ.get("SAFEGUARDED_SOLVER") or DEFAULT_SOLVERS[problem_class]).upper()
    if name == "MOSEK" and not mosek_licensed():
        fallback = DEFAULT_SOLVERS[problem_class]
        warnings.warn(f"MOSEK requested but not licensed here; using {fallback} instead", stacklevel=2)
        return fallback
    if name not in cp.installed_solvers():
        raise ValueError(
            f"solver must be one of the installed solvers {cp.installed_solvers()}, got solver={name!r}"
        )
    return name


#: High-accuracy options per solver, for results that are evaluated through ratios of small numbers
#: (e.g. ε* in rldp): interior-point solvers otherwise leave "zeros" at the 1e-8..1e-7 level.
HIGH_ACCURACY_OPTIONS: dict[str, dict] = {
    "CLARABEL": {"tol_gap_abs": 1e-10, "tol_gap_rel": 1e-10, "tol_feas": 1e-10, "tol_ktratio": 1e-8},
    "ECOS": {"abstol": 1e-10, "reltol": 1e-10, "feastol": 1e-10},
    "MOSEK": {
        "mosek_params": {
            "MSK_DPAR_INTPNT_CO_TOL_PFEAS": 1e-10,
            "MSK_DPAR_INTPNT_CO_TOL_DFEAS": 1e-10,
            "MSK_DPAR_INTPNT_CO_TOL_REL_GAP": 1e-10,
        }
    },
    "SCS": {"eps_abs": 1e-9, "eps_rel": 1e-9, "max_iters": 200000},
    "HIGHS": {},
}


#: Alternative settings tried in turn by :func:`solve_with_retries` when a solve stops with an
#: inaccurate status. Measured on 1,200 rldp power-cone problems (many zero probabilities): Clarabel
#: at tolerance 1e-10 stalled on ~1 % of them (status AlmostSolved, objective off by up to 5e-3);
#: a shorter step, no equilibration or a 1e-9 / 1e-8 tolerance then reach a full "optimal".  The
#: attempt that succeeded is recorded, so relaxed tolerances are visible in the results.
RETRY_OPTIONS: dict[str, list[dict]] = {
    "CLARABEL": [
        {},
        {"max_step_fraction": 0.9},
        {"equilibrate_enable": False},
        {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9},
        {"tol_gap_abs": 1e-9, "tol_gap_rel": 1e-9, "tol_feas": 1e-9, "max_step_fraction": 0.9},
        {"tol_gap_abs": 1e-8, "tol_gap_rel": 1e-8, "tol_feas": 1e-8, "tol_ktratio": 1e-6},
        {
            "tol_gap_abs": 1e-8,
            "tol_gap_rel": 1e-8,
            "tol_feas": 1e-8,
            "tol_ktratio": 1e-6,
            "max_step_fraction": 0.9,
        },
    ],
}


def high_accuracy_options(solver: str) -> dict:
    """Solver options for tight tolerances (see :data:`HIGH_ACCURACY_OPTIONS`); {} if unknown."""
    return dict(HIGH_ACCURACY_OPTIONS.get(solver.upper(), {}))


_INACCURATE = {cp.OPTIMAL_INACCURATE, cp.INFEASIBLE_INACCURATE, cp.UNBOUNDED_INACCURATE}


def solve(
    problem: cp.Problem,
    *,
    name: str,
    solver: str | None = None,
    problem_class: str = "SOCP",
    accept_inaccurate: bool = False,
    **solver_options,
) -> SolveRecord:
    """Solve ``problem`` with a named solver and check its status.

    Parameters
    ----------
    problem
        The cvxpy problem (built once with ``cp.Parameter`` where it is re-solved in a sweep).
    name
        A human-readable name used in errors and records, e.g. ``"rldp.NURP"``.
    solver, problem_class
        See :func:`resolve_solver`.
    accept_inaccurate
        If True, ``optimal_inaccurate`` is returned (the record's status says so) instead of raising.
    **solver_options
        Passed to ``problem.solve``.  ``warm_start`` defaults to False so that a result never depends
        on the previous solve of the same (parametrised) problem.

    Returns
    -------
    SolveRecord

    Raises
    ------
    InfeasibleError, UnboundedError, InaccurateError, SolverError
        For every status other than ``optimal`` (and ``optimal_inaccurate`` if accepted).
    """
    chosen = resolve_solver(solver, problem_class)
    # Reproducibility: cvxpy warm-starts a re-solved parametrised problem from the previous solution
    # by default, which makes the result depend on what was solved before (measured on rldp: Q
    # differed by 1e-3 between a fresh and a warm solve). The compiled problem is still reused.
    solver_options.setdefault("warm_start", False)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():  # the status is checked below; cvxpy's warning is redundant
            warnings.filterwarnings("ignore", message="Solution may be inaccurate")
            problem.solve(solver=chosen, **solver_options)
    except cp.error.SolverError as exc:
        raise SolverError(name, chosen, "solver_error", str(exc)) from exc
    wall = time.perf_counter() - start
    status = problem.status
    if status in (cp.INFEASIBLE, cp.INFEASIBLE_INACCURATE):
        raise InfeasibleError(name, chosen, status)
    if status in (cp.UNBOUNDED, cp.UNBOUNDED_INACCURATE):
        raise UnboundedError(name, chosen, status)
    if status in _INACCURATE and not accept_inaccurate:
        raise InaccurateError(name, chosen, status, "pass accept_inaccurate=True to record it")
    if status not in (cp.OPTIMAL, cp.OPTIMAL_INACCURATE):
        raise SolverError(name, chosen, str(status))
    stats = problem.solver_stats
    return SolveRecord(
        problem=name,
        solver=chosen,
        solver_version=solver_version(chosen),
        status=status,
        objective=float(problem.value),
        solve_time=float(stats.solve_time) if stats and stats.solve_time is not None else wall,
        wall_time=wall,
        requested_solver=(solver or "default").upper(),
    )


def solve_with_retries(
    problem: cp.Problem,
    *,
    name: str,
    solver: str | None = None,
    problem_class: str = "SOCP",
    high_accuracy: bool = False,
    **solver_options,
) -> SolveRecord:
    """:func:`solve`, retried with the settings of :data:`RETRY_OPTIONS` on an inaccurate status.

    ``high_accuracy`` adds :func:`high_accuracy_options` (explicit ``solver_options`` win).  The
    record's ``attempt`` says which settings succeeded; if none does, the last
    :class:`InaccurateError` propagates (the solve is never silently accepted).
    """
    chosen = resolve_solver(solver, problem_class)
    base = {**(high_accuracy_options(chosen) if high_accuracy else {}), **solver_options}
    ladder = RETRY_OPTIONS.get(chosen, [{}])
    for attempt, extra in enumerate(ladder):
        try:
            record = solve(
                problem, name=name, solver=chosen, problem_class=problem_class, **{**base, **extra}
            )
        except InaccurateError:
            if attempt == len(ladder) - 1:
                raise
            continue
        return dataclasses.replace(record, attempt=attempt, requested_solver=(solver or "default").upper())
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------------------------------
# LPs built natively in HiGHS (no cvxpy compile), for the large sparse LPs of several works
# --------------------------------------------------------------------------------------------------
@dataclass
class LPResult:
    """The solution of :func:`solve_lp`: optimal ``x``, objective, HiGHS's status, seconds in HiGHS."""

    x: np.ndarray
    objective: float
    status: str
    solve_time: float
    solver: str = "HIGHS"
    solver_version: str = ""


def highs_model(options: dict | None = None):
    """A silent ``highspy.Highs`` with ``options`` set (ValueError naming a bad option)."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    if options is not None:
        check_type("options", options, dict, "a dict of HiGHS options or None")
    for key, value in (options or {}).items():
        if h.setOptionValue(key, value) == highspy.HighsStatus.kError:
            raise ValueError(f"options must be valid HiGHS options, got {key}={value!r}")
    return h


def pass_lp(h, c, A, row_lo, row_hi, col_lo, col_hi) -> None:
    """Load ``min c'x`` s.t. ``row_lo <= Ax <= row_hi``, ``col_lo <= x <= col_hi`` into the model ``h``."""
    import highspy

    A = sp.csc_matrix(A)
    lp = highspy.HighsLp()
    lp.num_col_ = A.shape[1]
    lp.num_row_ = A.shape[0]
    lp.col_cost_ = np.asarray(c, dtype=float)
    lp.col_lower_ = np.asarray(col_lo, dtype=float)
    lp.col_upper_ = np.asarray(col_hi, dtype=float)
    lp.row_lower_ = np.asarray(row_lo, dtype=float)
    lp.row_upper_ = np.asarray(row_hi, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A.indices.astype(np.int32)
    lp.a_matrix_.value_ = A.data.astype(float)
    status = h.passModel(lp)
    if status == highspy.HighsStatus.kError:
        raise SolverError("highs.passModel", "HIGHS", "error", "the model was rejected")


def check_highs_status(h, name: str) -> str:
    """The model status of a solved ``h`` if optimal; else the typed :class:`SolverError` naming ``name``."""
    import highspy

    status = h.getModelStatus()
    text = h.modelStatusToString(status)
    if status == highspy.HighsModelStatus.kOptimal:
        return text
    if status == highspy.HighsModelStatus.kInfeasible:
        raise InfeasibleError(name, "HIGHS", text)
    if status in (highspy.HighsModelStatus.kUnbounded, highspy.HighsModelStatus.kUnboundedOrInfeasible):
        raise UnboundedError(name, "HIGHS", text)
    raise SolverError(name, "HIGHS", text)


def solve_lp(c, A, row_lo, row_hi, col_lo, col_hi, *, name: str, options: dict | None = None) -> LPResult:
    """``min c'x`` s.t. ``row_lo <= Ax <= row_hi``, ``col_lo <= x <= col_hi`` in HiGHS, built natively (no
    cvxpy compile); status checked, HiGHS's version recorded.  Bounds may be ``±inf``."""
    c = check_array("c", c, ndim=1)
    if sp.issparse(A):
        if A.ndim != 2:
            raise ValueError(f"A must be a 2-d matrix, got shape {A.shape}")
    else:
        A = check_array("A", A, ndim=2)
    m, n = A.shape
    if c.size != n:
        raise ValueError(f"c must have one entry per column of A ({n}), got length {c.size}")
    for lo_name, lo, hi_name, hi, size in (("row_lo", row_lo, "row_hi", row_hi, m),
                                           ("col_lo", col_lo, "col_hi", col_hi, n)):
        lo = check_array(lo_name, lo, shape=(size,), finite=False, nonempty=False)
        hi = check_array(hi_name, hi, shape=(size,), finite=False, nonempty=False)
        for side, v in ((lo_name, lo), (hi_name, hi)):
            if np.any(np.isnan(v)):
                raise ValueError(f"{side} must not contain NaN (use +-inf for a free side)")
        if np.any(lo > hi):
            raise ValueError(f"{lo_name} must be <= {hi_name} entrywise, got {lo_name} > {hi_name} at "
                             f"{int(np.argmax(lo > hi))}")
    check_type("name", name, str, "a string")
    h = highs_model(options)
    pass_lp(h, c, A, row_lo, row_hi, col_lo, col_hi)
    start = time.perf_counter()
    h.run()
    elapsed = time.perf_counter() - start
    status = check_highs_status(h, name)
    x = np.asarray(h.getSolution().col_value)
    return LPResult(x, float(h.getInfo().objective_function_value), status, elapsed, "HIGHS",
                    solver_version("HIGHS"))


@dataclass(frozen=True)
class TransportResult:
    """The solution of :func:`solve_transport`: the optimal plan, its cost and the dual potentials."""

    plan: np.ndarray
    cost: float
    u: np.ndarray
    v: np.ndarray
    solve_time: float
    solver: str = "POT-EMD"
    solver_version: str = ""


#: POT's network-simplex statuses (``ot.lp.emd_c``'s result codes).
_EMD_STATUS = {0: "infeasible", 1: "optimal", 2: "unbounded", 3: "iteration limit"}


def solve_transport(a, b, M, *, name: str, max_iter: int | None = None) -> TransportResult:
    """``min Σ π_ij M_ij`` over couplings π ≥ 0 with row sums ``a`` and column sums ``b`` (Σa = Σb), exactly,
    by the network simplex of POT (``ot.emd``); the status is checked (:class:`SolverError` unless optimal).

    The duals satisfy u_i + v_j ≤ M_ij with equality on the plan's support and cost = a·u + b·v.
    ``max_iter`` caps the simplex pivots (default 100·(number of variables), at least 10⁶).
    """
    import ot  # POT: imported here, so that importing the solvers never pays for it

    check_type("name", name, str, "a string")
    M = check_array("M", M, ndim=2)
    a = check_array("a", a, shape=(M.shape[0],))
    b = check_array("b", b, shape=(M.shape[1],))
    for side, w in (("a", a), ("b", b)):
        if np.any(w < 0):
            raise ValueError(f"{side} must be non-negative, got min {w.min()}")
    if abs(a.sum() - b.sum()) > 1e-9 * max(1.0, a.sum()):
        raise ValueError(f"a and b must have equal sums, got {a.sum()} and {b.sum()}")
    if max_iter is None:
        max_iter = max(10**6, 100 * M.size)
    start = time.perf_counter()
    M = np.ascontiguousarray(M, dtype=np.float64)
    with warnings.catch_warnings():  # POT warns about a non-optimal end; the status check below raises
        warnings.simplefilter("ignore", UserWarning)
        plan, log = ot.emd(a, b, M, numItermax=int(max_iter), log=True)
    elapsed = time.perf_counter() - start
    status = _EMD_STATUS.get(int(log["result_code"]), f"code {log['result_code']}")
    if status != "optimal" or log.get("warning"):
        raise SolverError(name, "POT-EMD", status, str(log.get("warning") or ""))
    return TransportResult(np.asarray(plan), float(log["cost"]), np.asarray(log["u"]), np.asarray(log["v"]),
                           elapsed, "POT-EMD", solver_version("POT-EMD"))
