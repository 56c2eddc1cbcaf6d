"""ERM, ARO, ARO+Aux (67), DR-ARO (Corollary 8) and Inter-ARO* (Theorem 11) as exponential-cone programs.

Every model is built once as a cvxpy problem whose hyper-parameters (α, ε, ε̂, κ, the mixture weight)
are ``cp.Parameter`` s, so a cross-validation grid re-solves the compiled problem (DPP); every solve goes
through :func:`safeguarded.solvers.solve` (Clarabel by default, problem class EXP).

Notation (thesis §4.3–4.5): training data (x^i, y^i), i ∈ [N]; auxiliary data (x̂^j, ŷ^j), j ∈ [N̂];
labels in {−1, +1}; attack ‖z‖_p ≤ α with dual p*; feature-label metric ‖x − x′‖_q + κ·1[y ≠ y′] with
dual q*.  The experiments fix q = 1 (q* = ∞) and p = 2 (L4267).

* ERM: min (1/N) Σ log(1 + exp(−y^i βᵀx^i)).
* ARO (L4125–4127): min (1/N) Σ ℓ^α_β(x^i, y^i), with u ≥ α‖β‖_{p*} (Observation 7).
* ARO+Aux (67) / Observation 8: min λ_mix·E_{P_N}[ℓ^α] + (1 − λ_mix)·E_{P̂}[ℓ^α], λ_mix = N/(N + wN̂).
* DR-ARO (Corollary 8, L4161–4173): min ελ + (1/N)Σ s_i, s_i ≥ ℓ^α(x^i, y^i),
  s_i ≥ ℓ^α(x^i, −y^i) − κλ, ‖β‖_{q*} ≤ λ.
* Inter-ARO* (Theorem 11, L4199–4203): the literal model with z^l_ij ∈ ℝⁿ (:func:`build_inter_aro_literal`)
  and, for q = 1, the reduced model (:func:`build_inter_aro`) in which the z are eliminated exactly:
  L^α is decreasing, the z-box {‖lβ − z‖_∞ ≤ λ, ‖z‖_∞ ≤ λ̂} is the same for every (i, j), so the best z
  takes the upper end min(lβ + λ, λ̂) where x̂^j − x^i > 0 and the lower end max(lβ − λ, −λ̂) where it
  is < 0; the box is non-empty iff ‖β‖_∞ ≤ λ + λ̂.  This leaves 2·N·N̂ exp-cone constraints with no
  z-variables (catalog §3.3 item 5); :func:`fit_inter_aro_cg` adds them by constraint generation.

App. 4.C sign convention (L4776–4790).  The appendix writes the first DR-ARO constraint as
(v⁺, 1, [−u + y·βᵀx] − s) ∈ K_exp, (w⁺, 1, −s) ∈ K_exp, v⁺ + w⁺ ≤ 1.  With MOSEK's
K_exp = {x₁ ≥ x₂·exp(x₃/x₂)} this encodes exp(−s)(1 + exp(yβᵀx − u)) ≤ 1, i.e.
log(1 + exp(+yβᵀx − u)) ≤ s: the loss of the *opposite* label with the attack *subtracted*.  The
constraint that Corollary 8 needs, log(1 + exp(−yβᵀx + u)) ≤ s, is (v⁺, 1, −yβᵀx + u − s) ∈ K_exp: the
signs inside the brackets are flipped (both constraints).  :func:`dr_aro_appendix_conic` builds the
appendix's model with either convention; the test suite and the Fig. 16 notebook show that only the
corrected convention's optimal value equals the directly evaluated Corollary-8 objective.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import cvxpy as cp
import numpy as np

from safeguarded.robust_lr_aux.losses import adversarial_loss, check_attack_norm, check_data, dual_order
from safeguarded.solvers import (
    InfeasibleError,
    SolveRecord,
    SolverError,
    UnboundedError,
    resolve_solver,
    solve,
)
from safeguarded.validation import (
    check_array,
    check_bool,
    check_choice,
    check_in_interval,
    check_integer,
    check_positive,
    check_type,
)

__all__ = [
    "Fit",
    "Model",
    "build_erm",
    "build_aro",
    "build_aro_aux",
    "build_dr_aro",
    "build_inter_aro_literal",
    "build_inter_aro",
    "fit_inter_aro_cg",
    "dr_aro_objective",
    "dr_aro_appendix_conic",
    "inter_aro_violations",
    "inter_aro_exact_objective",
    "mixture_weight",
]

_NORM = {1.0: 1, 2.0: 2, np.inf: "inf"}


@dataclass
class Fit:
    """An optimal β with its objective value and the solve record(s)."""

    beta: np.ndarray
    objective: float
    records: list[SolveRecord] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    @property
    def solve_time(self) -> float:
        return float(sum(r.wall_time for r in self.records))


@dataclass
class Model:
    """A compiled cvxpy model with named parameters; :meth:`fit` sets them and solves."""

    name: str
    problem: cp.Problem
    beta: cp.Variable
    params: dict[str, cp.Parameter]
    variables: dict[str, cp.Variable] = field(default_factory=dict)
    scale: float = 1.0  #: reported objective = problem value * scale

    def set(self, **values) -> Model:
        for key, value in values.items():
            if key not in self.params:
                raise ValueError(f"parameter must be one of {sorted(self.params)}, got {key!r}")
            _check_param(key, value)
            self.params[key].value = float(value)
        if "mix" in values:
            self.params["mix_c"].value = 1.0 - float(values["mix"])
        return self

    def fit(self, solver: str | None = None, accept_inaccurate: bool = False, **values) -> Fit:
        self.set(**values)
        missing = [k for k, p in self.params.items() if p.value is None]
        if missing:
            raise ValueError(f"{self.name}: parameters {missing} must be set before fitting")
        record = _solve_ladder(self.problem, f"robust_lr_aux.{self.name}", solver, accept_inaccurate)
        extra = {k: (None if v.value is None else np.array(v.value)) for k, v in self.variables.items()}
        return Fit(np.array(self.beta.value, dtype=float), record.objective * self.scale, [record], extra)


#: Clarabel settings tried in turn when a solve ends ``optimal_inaccurate`` / fails (measured: the
#: Inter-ARO* restricted problems of constraint generation stall at a relative gap ~1e-3 on a few
#: percent of the UCI instances with the default 1e-8 tolerances; 1e-7 or 1e-6 then finish "optimal").
#: The attempt that succeeded is kept in the record; the tolerances stay far below the effects measured.
LADDER = ({}, {"tol_gap_abs": 1e-7, "tol_gap_rel": 1e-7, "tol_feas": 1e-7},
          {"tol_gap_abs": 1e-6, "tol_gap_rel": 1e-6, "tol_feas": 1e-6, "tol_ktratio": 1e-5})


def _solve_ladder(problem: cp.Problem, name: str, solver: str | None, accept_inaccurate: bool = False
                  ) -> SolveRecord:
    """:func:`safeguarded.solvers.solve` with the :data:`LADDER` of Clarabel tolerances (others: once).

    With ``accept_inaccurate`` (used only where the point is afterwards repaired to an exactly evaluated
    feasible one, :func:`inter_aro_exact_objective`) the last Clarabel rung may return an
    ``optimal_inaccurate`` record, and when Clarabel fails altogether ECOS and then SCS are tried; the
    record names the solver and status that produced the point.  Without ``accept_inaccurate`` and
    with no solver named, ECOS is the last rung (measured: the ARO+Aux refit of one ecoli simulation ends
    ``optimal_inaccurate`` on every Clarabel rung); it must report ``optimal`` to be used.
    """
    chosen = resolve_solver(solver, "EXP")
    ladder = [(chosen, o) for o in (LADDER if chosen == "CLARABEL" else ({},))]
    if accept_inaccurate:
        ladder += [("ECOS", {}), ("SCS", {"eps_abs": 1e-7, "eps_rel": 1e-7, "max_iters": 20000})]
    elif solver is None and chosen == "CLARABEL":
        ladder += [("ECOS", {})]
    for attempt, (name_solver, options) in enumerate(ladder):
        last = attempt == len(ladder) - 1
        try:
            record = solve(problem, name=name, solver=name_solver, problem_class="EXP",
                           accept_inaccurate=accept_inaccurate and (attempt >= len(LADDER) - 1), **options)
        except SolverError as exc:
            if isinstance(exc, InfeasibleError | UnboundedError) or last:
                raise
            continue
        return dataclasses.replace(record, attempt=attempt)
    raise AssertionError("unreachable")  # pragma: no cover


def _check_param(key: str, value) -> None:
    if key in ("alpha", "eps", "eps_hat", "kappa"):
        check_positive(key, value, allow_zero=True)
    elif key == "mix":
        check_in_interval("mix", value, 0.0, 1.0, closed="both")
    elif key == "mix_c":
        raise ValueError("mix_c is set through mix")


def check_beta_bound(beta_bound) -> float | None:
    """``beta_bound`` (the box ‖β‖_∞ ≤ bound) as None or a finite number > 0."""
    return None if beta_bound is None else check_positive("beta_bound", beta_bound)


def check_solver(solver) -> str | None:
    """``solver`` None (the default) or the name of an installed exponential-cone solver."""
    if solver is not None:
        check_type("solver", solver, str, "a solver name or None")
        resolve_solver(solver, "EXP")  # ValueError naming solver if it is not installed
    return solver


def _check_q(q) -> float:
    """The feature norm q of the metric (Definition 5), 1, 2 or ∞, with an error naming ``q``."""
    try:
        return check_attack_norm(q)
    except ValueError:
        raise ValueError(f"q must be one of 1, 2, inf, got q={q!r}") from None


def _check_fit(fit, N: int, N_hat: int, n: int) -> Fit:
    """A Fit of Inter-ARO* (β of length n, λ, λ̂ >= 0, s of length N, ŝ of length N̂)."""
    check_type("fit", fit, Fit, "a Fit")
    ok = {"lam", "lam_hat", "s", "s_hat"} <= set(fit.extra) and np.shape(fit.beta) == (n,)
    if not ok or np.shape(fit.extra["s"]) != (N,) or np.shape(fit.extra["s_hat"]) != (N_hat,):
        raise ValueError(f"fit must be an Inter-ARO* fit for these data (beta of length {n}, extra lam, "
                         f"lam_hat, s of length {N}, s_hat of length {N_hat})")
    return fit


def mixture_weight(w: float, N: int, N_hat: int) -> float:
    """λ = N/(N + wN̂) of Observation 8 for a weight w ∈ [0, 1] (the grid of L4267)."""
    w = check_in_interval("w", w, 0.0, 1.0, closed="both")
    N = check_integer("N", N, minimum=1)
    N_hat = check_integer("N_hat", N_hat, minimum=1)
    return N / (N + w * N_hat)


def _bound(beta: cp.Variable, beta_bound: float | None) -> list:
    return [] if beta_bound is None else [cp.norm(beta, "inf") <= beta_bound]


def _attack(beta: cp.Variable, p) -> tuple[cp.Parameter, cp.Variable, list]:
    """u ≥ α‖β‖_{p*} with α a non-negative parameter (Observation 7, App. 4.C)."""
    alpha = cp.Parameter(nonneg=True, name="alpha")
    u = cp.Variable(name="u")
    return alpha, u, [u >= alpha * cp.norm(beta, _NORM[dual_order(p)])]


def build_erm(X, y, *, beta_bound: float | None = None) -> Model:
    """ERM: min (1/N) Σ log(1 + exp(−y^i βᵀx^i)) (L4091–4097)."""
    X, y = check_data(X, y)
    beta_bound = check_beta_bound(beta_bound)
    beta = cp.Variable(X.shape[1], name="beta")
    obj = cp.sum(cp.logistic(-cp.multiply(y, X @ beta))) / X.shape[0]
    return Model("ERM", cp.Problem(cp.Minimize(obj), _bound(beta, beta_bound)), beta, {})


def build_aro(X, y, *, p=2, beta_bound: float | None = None) -> Model:
    """ARO: min (1/N) Σ ℓ^α_β(x^i, y^i) (L4125–4127 with Observation 7)."""
    X, y = check_data(X, y)
    check_attack_norm(p)
    beta_bound = check_beta_bound(beta_bound)
    beta = cp.Variable(X.shape[1], name="beta")
    alpha, u, cons = _attack(beta, p)
    obj = cp.sum(cp.logistic(-cp.multiply(y, X @ beta) + u)) / X.shape[0]
    return Model("ARO", cp.Problem(cp.Minimize(obj), cons + _bound(beta, beta_bound)), beta, {"alpha": alpha})


def build_aro_aux(X, y, X_aux, y_aux, *, p=2, beta_bound: float | None = None) -> Model:
    """ARO+Aux, problem (67) in the mixture form (68) of Observation 8 with parameter ``mix`` = λ.

    (67) with weight w equals (68) with λ = N/(N + wN̂) (:func:`mixture_weight`); ``mix = 1`` is ARO.
    """
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    check_attack_norm(p)
    beta_bound = check_beta_bound(beta_bound)
    beta = cp.Variable(X.shape[1], name="beta")
    alpha, u, cons = _attack(beta, p)
    mix = cp.Parameter(nonneg=True, name="mix")
    mix_c = cp.Parameter(nonneg=True, name="mix_c")
    emp = cp.sum(cp.logistic(-cp.multiply(y, X @ beta) + u)) / X.shape[0]
    aux = cp.sum(cp.logistic(-cp.multiply(y_aux, X_aux @ beta) + u)) / X_aux.shape[0]
    problem = cp.Problem(cp.Minimize(mix * emp + mix_c * aux), cons + _bound(beta, beta_bound))
    return Model("ARO+Aux", problem, beta, {"alpha": alpha, "mix": mix, "mix_c": mix_c})


def build_dr_aro(X, y, *, p=2, q=1, beta_bound: float | None = None) -> Model:
    """DR-ARO, Corollary 8 (L4161–4173); q is the feature norm of the metric (dual q*)."""
    X, y = check_data(X, y)
    check_attack_norm(p)
    _check_q(q)
    beta_bound = check_beta_bound(beta_bound)
    N, n = X.shape
    beta = cp.Variable(n, name="beta")
    lam = cp.Variable(nonneg=True, name="lam")
    s = cp.Variable(N, nonneg=True, name="s")
    alpha, u, cons = _attack(beta, p)
    eps = cp.Parameter(nonneg=True, name="eps")
    kappa = cp.Parameter(nonneg=True, name="kappa")
    margin = cp.multiply(y, X @ beta)
    cons += [
        cp.logistic(-margin + u) <= s,
        cp.logistic(margin + u) - kappa * lam <= s,
        cp.norm(beta, _NORM[dual_order(q)]) <= lam,
    ]
    problem = cp.Problem(cp.Minimize(eps * lam + cp.sum(s) / N), cons + _bound(beta, beta_bound))
    return Model(
        "DR-ARO", problem, beta, {"alpha": alpha, "eps": eps, "kappa": kappa}, {"lam": lam, "s": s}
    )


def _pairs(N: int, N_hat: int, pairs) -> tuple[np.ndarray, np.ndarray]:
    if pairs is None:
        I, J = np.meshgrid(np.arange(N), np.arange(N_hat), indexing="ij")
        return I.ravel(), J.ravel()
    if not isinstance(pairs, tuple | list) or len(pairs) != 2:
        raise ValueError(f"pairs must be a pair (I, J) of index arrays or None, got pairs={pairs!r}")
    I, J = (check_array("pairs", a, ndim=1) for a in pairs)
    whole = np.all(I == np.round(I)) and np.all(J == np.round(J))
    if I.shape != J.shape or not whole or np.any(I < 0) | np.any(J < 0) | np.any(I >= N) | np.any(J >= N_hat):
        raise ValueError(f"pairs must be two equal-length integer arrays, I < N = {N}, J < N_hat = {N_hat}")
    return I.astype(int), J.astype(int)


def _inter_common(X, y, X_aux, y_aux, p, beta_bound):
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    check_attack_norm(p)
    beta_bound = check_beta_bound(beta_bound)
    N, n = X.shape
    N_hat = X_aux.shape[0]
    beta = cp.Variable(n, name="beta")
    lam = cp.Variable(nonneg=True, name="lam")
    lam_hat = cp.Variable(nonneg=True, name="lam_hat")
    s = cp.Variable(N, nonneg=True, name="s")
    s_hat = cp.Variable(N_hat, nonneg=True, name="s_hat")
    alpha, u, cons = _attack(beta, p)
    params = {
        "alpha": alpha,
        "eps": cp.Parameter(nonneg=True, name="eps"),
        "eps_hat": cp.Parameter(nonneg=True, name="eps_hat"),
        "kappa": cp.Parameter(nonneg=True, name="kappa"),
    }
    obj = params["eps"] * lam + params["eps_hat"] * lam_hat + cp.sum(s) / N + cp.sum(s_hat) / N_hat
    variables = {"lam": lam, "lam_hat": lam_hat, "s": s, "s_hat": s_hat}
    cons += _bound(beta, beta_bound)
    return X, y, X_aux, y_aux, beta, u, params, obj, variables, cons


def _rhs_terms(l: int, I, J, y, y_aux, s, s_hat, lam, lam_hat, kappa):
    a = (1.0 - l * y[I]) / 2.0  # 0 or 1
    b = (1.0 - l * y_aux[J]) / 2.0
    return s[I] + s_hat[J] + a * (kappa * lam) + b * (kappa * lam_hat)


def build_inter_aro_literal(X, y, X_aux, y_aux, *, p=2, q=1, beta_bound: float | None = None) -> Model:
    """Inter-ARO*, Theorem 11 (L4199–4203), literally: 2·N·N̂ vectors z^l_ij ∈ ℝⁿ (small instances only)."""
    _check_q(q)
    common = _inter_common(X, y, X_aux, y_aux, p, beta_bound)
    X, y, X_aux, y_aux, beta, u, params, obj, variables, cons = common
    N, n = X.shape
    I, J = _pairs(N, X_aux.shape[0], None)
    D = X_aux[J] - X[I]
    qn = _NORM[dual_order(q)]
    lam, lam_hat, s, s_hat = (variables[k] for k in ("lam", "lam_hat", "s", "s_hat"))
    for l in (1, -1):
        Z = cp.Variable((len(I), n), name=f"z_{'plus' if l > 0 else 'minus'}")
        variables[f"z{l:+d}"] = Z
        arg = l * (X @ beta)[I] + cp.sum(cp.multiply(Z, D), axis=1)
        rhs = _rhs_terms(l, I, J, y, y_aux, s, s_hat, lam, lam_hat, params["kappa"])
        cons += [
            cp.logistic(-arg + u) <= rhs,
            cp.norm(l * (np.ones((len(I), 1)) @ cp.reshape(beta, (1, n), order="C")) - Z, qn, axis=1) <= lam,
            cp.norm(Z, qn, axis=1) <= lam_hat,
        ]
    return Model("Inter-ARO*-literal", cp.Problem(cp.Minimize(obj), cons), beta, params, variables)


def build_inter_aro(X, y, X_aux, y_aux, *, p=2, pairs=None, beta_bound: float | None = None) -> Model:
    """Inter-ARO* (Theorem 11) for the ℓ₁ metric (q* = ∞) with the z-variables eliminated exactly.

    ``pairs`` = (I, J) restricts the (i, j) constraints (both l) to a subset (constraint generation);
    ``None`` uses all N·N̂ pairs.
    """
    common = _inter_common(X, y, X_aux, y_aux, p, beta_bound)
    X, y, X_aux, y_aux, beta, u, params, obj, variables, cons = common
    N, n = X.shape
    I, J = _pairs(N, X_aux.shape[0], pairs)
    D = X_aux[J] - X[I]
    Dp, Dm = np.maximum(D, 0.0), np.maximum(-D, 0.0)
    lam, lam_hat, s, s_hat = (variables[k] for k in ("lam", "lam_hat", "s", "s_hat"))
    cons += [cp.norm(beta, "inf") <= lam + lam_hat]
    Xb = X @ beta
    for l in (1, -1):
        upper = cp.minimum(l * beta + lam, lam_hat)
        lower = cp.maximum(l * beta - lam, -lam_hat)
        arg = l * Xb[I] + Dp @ upper - Dm @ lower
        rhs = _rhs_terms(l, I, J, y, y_aux, s, s_hat, lam, lam_hat, params["kappa"])
        cons += [cp.logistic(-arg + u) <= rhs]
    return Model("Inter-ARO*", cp.Problem(cp.Minimize(obj), cons), beta, params, variables)


def inter_aro_violations(fit: Fit, X, y, X_aux, y_aux, *, alpha: float, kappa: float, p=2, rows=None):
    """max over l of L^α(arg_ijl) − rhs_ijl for every pair (i, j) (an N × N̂ array; rows of i optional).

    Evaluated with NumPy from a (restricted) solution; used by :func:`fit_inter_aro_cg`.
    """
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    _check_fit(fit, X.shape[0], X_aux.shape[0], X.shape[1])
    alpha = check_positive("alpha", alpha, allow_zero=True)
    kappa = check_positive("kappa", kappa, allow_zero=True)
    if rows is not None:
        r = check_array("rows", rows, ndim=1)
        if np.any(r != np.round(r)) or np.any(r < 0) or np.any(r >= X.shape[0]):
            raise ValueError(f"rows must be row indices of X in [0, {X.shape[0] - 1}], got rows={rows!r}")
    beta = fit.beta
    lam, lam_hat = float(fit.extra["lam"]), float(fit.extra["lam_hat"])
    s, s_hat = np.asarray(fit.extra["s"]), np.asarray(fit.extra["s_hat"])
    shift = alpha * np.linalg.norm(beta, dual_order(p))
    rows = np.arange(X.shape[0]) if rows is None else np.asarray(rows)
    out = np.full((len(rows), X_aux.shape[0]), -np.inf)
    for l in (1, -1):
        upper = np.minimum(l * beta + lam, lam_hat)
        lower = np.maximum(l * beta - lam, -lam_hat)
        for r, i in enumerate(rows):
            D = X_aux - X[i]
            arg = l * (X[i] @ beta) + np.maximum(D, 0) @ upper - np.maximum(-D, 0) @ lower
            rhs = s[i] + s_hat + kappa * lam * (1 - l * y[i]) / 2 + kappa * lam_hat * (1 - l * y_aux) / 2
            out[r] = np.maximum(out[r], np.logaddexp(0.0, -arg + shift) - rhs)
    return out


#: :func:`fit_inter_aro_cg` reports as ``binding_pairs`` the restricted problem's pairs whose violation
#: at the solution is at least −BINDING_SLACK (a neighbouring candidate's starting set).
BINDING_SLACK = 1e-2


def fit_inter_aro_cg(
    X,
    y,
    X_aux,
    y_aux,
    *,
    alpha: float,
    eps: float,
    eps_hat: float,
    kappa: float,
    p=2,
    start: int = 5,
    add: int = 5,
    tol: float = 1e-6,
    max_rounds: int = 50,
    solver: str | None = None,
    beta_bound: float | None = None,
    initial_pairs=None,
    accept_inaccurate: bool = True,
) -> Fit:
    """Inter-ARO* (reduced form) by constraint generation over the (i, j) pairs.

    Starts with each i paired to its ``start`` nearest auxiliary points (ℓ₁ distance) and the pairs
    ``initial_pairs`` = (I, J) (e.g. those binding at a neighbouring candidate's solution), solves,
    evaluates all N·N̂ pairs (:func:`inter_aro_violations`) and adds, for every i, up to
    ``add``·2^(round−1) most violated pairs with violation > ``tol``; stops when none is left (then
    the solution is optimal for the full model, whose feasible set is the restricted one intersected
    with satisfied constraints).  With ``accept_inaccurate`` (the default) rounds accept an inaccurate
    conic solve (and fall back to ECOS, SCS); without, every round must end ``optimal`` as the full
    model's solve must (:func:`_solve_ladder`).  The returned objective is the exactly evaluated value
    of :func:`inter_aro_exact_objective` at the final (β, λ, λ̂), and ``extra`` keeps the solver's own
    value, the count of inaccurate rounds and ``binding_pairs``, the (I, J) of the pairs within
    :data:`BINDING_SLACK` of binding at the solution.
    """
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    for key, value in (("alpha", alpha), ("eps", eps), ("eps_hat", eps_hat), ("kappa", kappa)):
        check_positive(key, value, allow_zero=True)
    check_attack_norm(p)
    start = check_integer("start", start, minimum=1)
    add = check_integer("add", add, minimum=1)
    tol = check_positive("tol", tol)
    max_rounds = check_integer("max_rounds", max_rounds, minimum=1)
    check_solver(solver)
    check_beta_bound(beta_bound)
    check_bool("accept_inaccurate", accept_inaccurate)
    N, N_hat = X.shape[0], X_aux.shape[0]
    chosen: set[tuple[int, int]] = set()
    if initial_pairs is not None:
        try:
            I0, J0 = _pairs(N, N_hat, initial_pairs)
        except ValueError:
            raise ValueError(f"initial_pairs must be None or two equal-length integer arrays (I, J), I < N = "
                             f"{N}, J < N_hat = {N_hat}, got initial_pairs={initial_pairs!r}") from None
        chosen.update(zip(I0.tolist(), J0.tolist(), strict=True))
    dist = np.abs(X[:, None, :] - X_aux[None, :, :]).sum(axis=2) if N * N_hat <= 4e6 else None
    for i in range(N):
        d = dist[i] if dist is not None else np.abs(X_aux - X[i]).sum(axis=1)
        chosen.update((i, int(j)) for j in np.argsort(d, kind="stable")[: min(start, N_hat)])
    records: list[SolveRecord] = []
    for rounds in range(1, max_rounds + 1):
        I, J = (np.array(a) for a in zip(*sorted(chosen), strict=True))
        model = build_inter_aro(X, y, X_aux, y_aux, p=p, pairs=(I, J), beta_bound=beta_bound)
        fit = model.fit(solver=solver, accept_inaccurate=accept_inaccurate, alpha=alpha, eps=eps,
                        eps_hat=eps_hat, kappa=kappa)
        records += fit.records
        viol = inter_aro_violations(fit, X, y, X_aux, y_aux, alpha=alpha, kappa=kappa, p=p)
        new = 0
        grow = add * 2 ** (rounds - 1)  # doubling: rounds stay few when many pairs end up active
        for i in range(N):
            order = np.argsort(-viol[i], kind="stable")[:grow]
            for j in order:
                if viol[i, j] > tol and (i, int(j)) not in chosen:
                    chosen.add((i, int(j)))
                    new += 1
        if new == 0:
            exact, s, s_hat = inter_aro_exact_objective(fit, X, y, X_aux, y_aux, alpha=alpha, eps=eps,
                                                        eps_hat=eps_hat, kappa=kappa, p=p)
            inaccurate = sum(r.status != "optimal" for r in records)
            fit.records = records
            bind = viol[I, J] >= -BINDING_SLACK
            fit.extra.update(rounds=rounds, pairs=len(chosen), max_violation=float(viol.max()),
                             solver_objective=fit.objective, inaccurate_rounds=inaccurate, s=s, s_hat=s_hat,
                             binding_pairs=(I[bind], J[bind]))
            fit.objective = exact
            return fit
    raise RuntimeError(f"fit_inter_aro_cg: no convergence in max_rounds={max_rounds} rounds")


def inter_aro_exact_objective(fit: Fit, X, y, X_aux, y_aux, *, alpha, eps, eps_hat, kappa, p=2):
    """The Inter-ARO* objective at (β, λ, λ̂) of ``fit`` with the optimal (s, ŝ), computed exactly.

    For fixed (β, λ, λ̂) the best (s, ŝ) solve the LP min (1/N)Σs + (1/N̂)Σŝ s.t. s_i + ŝ_j ≥ c_ij,
    s, ŝ ≥ 0, with c_ij = max_l L^α(arg_ijl) − κ-terms (HiGHS).  The returned point is feasible for
    Theorem 11 whatever the accuracy of the conic solve, so its value is an exact upper bound.
    """
    import scipy.sparse as sp

    from safeguarded.solvers import solve_lp

    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    _check_fit(fit, X.shape[0], X_aux.shape[0], X.shape[1])
    for key, value in (("alpha", alpha), ("eps", eps), ("eps_hat", eps_hat), ("kappa", kappa)):
        check_positive(key, value, allow_zero=True)
    check_attack_norm(p)
    zero = Fit(fit.beta, 0.0, [], {**fit.extra, "s": np.zeros(len(y)), "s_hat": np.zeros(len(y_aux))})
    C = inter_aro_violations(zero, X, y, X_aux, y_aux, alpha=alpha, kappa=kappa, p=p)  # = c_ij
    N, M = C.shape
    rows = sp.hstack([sp.kron(sp.eye(N), np.ones((M, 1))), sp.kron(np.ones((N, 1)), sp.eye(M))], format="csc")
    cost = np.concatenate([np.full(N, 1.0 / N), np.full(M, 1.0 / M)])
    res = solve_lp(cost, rows, C.ravel(), np.full(N * M, np.inf), np.zeros(N + M), np.full(N + M, np.inf),
                   name="robust_lr_aux.inter_aro_s_lp")
    lam, lam_hat = float(fit.extra["lam"]), float(fit.extra["lam_hat"])
    return eps * lam + eps_hat * lam_hat + res.objective, res.x[:N], res.x[N:]


def dr_aro_objective(beta, lam: float, X, y, *, alpha: float, eps: float, kappa: float, p=2) -> float:
    """The Corollary-8 objective at (β, λ) with the optimal s, evaluated directly (no solver)."""
    lam = check_positive("lam", lam, allow_zero=True)
    eps = check_positive("eps", eps, allow_zero=True)
    kappa = check_positive("kappa", kappa, allow_zero=True)
    own = adversarial_loss(beta, X, y, alpha, p)
    flip = adversarial_loss(beta, X, -np.asarray(y, float), alpha, p) - kappa * lam
    return float(eps * lam + np.mean(np.maximum(np.maximum(own, flip), 0.0)))


def dr_aro_appendix_conic(
    X, y, *, alpha: float, eps: float, kappa: float, p=2, q=1, signs: str = "corrected", solver=None
) -> Fit:
    """DR-ARO in the explicit exponential-cone form of App. 4.C (L4786–4790).

    ``signs="thesis"`` uses the brackets as printed, [−u + yβᵀx] and [−u − yβᵀx]; ``"corrected"`` uses
    [u − yβᵀx] and [u + yβᵀx] (see the module docstring).  cvxpy's ``ExpCone(a, b, c)`` is
    b·exp(a/b) ≤ c, so MOSEK's (x₁, x₂, x₃) ∈ K_exp is ``ExpCone(x₃, x₂, x₁)``.
    """
    check_choice("signs", signs, ("thesis", "corrected"))
    X, y = check_data(X, y)
    for key, value in (("alpha", alpha), ("eps", eps), ("kappa", kappa)):
        check_positive(key, value, allow_zero=True)
    check_attack_norm(p)
    _check_q(q)
    check_solver(solver)
    N, n = X.shape
    beta, lam, u = cp.Variable(n), cp.Variable(nonneg=True), cp.Variable()
    s = cp.Variable(N)
    vp, wp, vm, wm = (cp.Variable(N) for _ in range(4))
    margin = cp.multiply(y, X @ beta)
    sign = -1.0 if signs == "thesis" else 1.0
    one = np.ones(N)
    cons = [
        vp + wp <= 1,
        cp.constraints.ExpCone(sign * (u - margin) - s, one, vp),
        cp.constraints.ExpCone(-s, one, wp),
        vm + wm <= 1,
        cp.constraints.ExpCone(sign * (u + margin) - s - kappa * lam, one, vm),
        cp.constraints.ExpCone(-s - kappa * lam, one, wm),
        alpha * cp.norm(beta, _NORM[dual_order(p)]) <= u,
        cp.norm(beta, _NORM[dual_order(q)]) <= lam,
    ]
    problem = cp.Problem(cp.Minimize(eps * lam + cp.sum(s) / N), cons)
    record = solve(problem, name=f"robust_lr_aux.DR-ARO-App4C-{signs}", solver=solver, problem_class="EXP")
    return Fit(np.array(beta.value), record.objective, [record], {"lam": float(lam.value)})
