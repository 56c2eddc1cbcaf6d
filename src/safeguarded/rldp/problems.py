"""The four release-protocol problems NUNP, NURP, RUNP, RURP (7)–(10) as DPP cvxpy models.

The decision variable is the protocol Q[y, s·|U|+u] = P_{Y|SU}(y | s, u) (columns on the simplex).
Each model is built once per (|S|, |U|, ε, d) and re-solved for every (P̂, B) by setting
``cp.Parameter`` values, so that cvxpy compiles it only once (see ``benchmarks/bench_rldp_dpp.py``).

Reformulations used (all from the paper; reductions as in :mod:`safeguarded.rldp.uncertainty`):

* non-robust privacy (7), (9): L_{y,s1,s2}(P̂, Q) ≤ 0, eq. (6), for every y and ordered s1 ≠ s2;
* robust utility (22), by Lemma 1 (20) and Theorem 2 (21) with w = t·1:
  ``t + c(B+1) − 2 Σ P̂_k r_k ≤ D``, ``r_k² ≤ c (t − v_k)`` (hyperbolic second-order cones),
  where v_k = Σ_y Q[y,k] d(u_k, y);
* robust privacy (30), by Lemma 2 (27) and Theorem 4 (29) with w_i = t_i·1, for every block
  b = (y, s1, s2): ``t₁ + t₂ + c·C_b − K (g₁ + g₂) ≤ 0`` with ``g_i ≤ c^{2/3} m_i^{1/3}`` (power cones),
  ``m_i ≤ λ_i²`` written as ``m_i ≤ Σ_u P̂_{s_i,u} ρ_{i,u}``, ``ρ_{i,u}² ≤ m_i (t_i − v_i(u))``, and
  v₁ = Q[y,s1,·], v₂ = −e^ε Q[y,s2,·] (Lemma 2; eq. (30) as printed drops the factor −e^ε).

Unobserved cells (P̂_{s,u} = 0) leave columns of Q undetermined in the nominal objective.  We break
the tie deterministically (documented decision, see the notebook): every objective gets
``tie_break · mean_k v_k`` added, i.e. among (near-)optimal protocols the one with the least
distortion under the uniform distribution is returned.  Its effect on the objective is at most
``tie_break · max d``.  The paper states no tie-break: the sign (and size) of ``tie_break`` is a choice,
and :meth:`RLDPProblems.solve_directed` measures what it selects (the ends of the range of a linear
function of Q, e.g. D*, over the optimal protocols, by a tie-break in that function's direction).

Interior-point solvers leave "dust" (entries of 1e-10 to 1e-7) where the optimum has zeros.  The
returned protocols are cleaned: entries ≤ ``snap`` (default :data:`SNAP`) are set to exactly 0 and the
columns renormalised, and the nominal privacy constraint (6), implied by every one of the four problems
(P̂ ∈ ℱ_B), is re-evaluated exactly on the cleaned protocol (:func:`nominal_leakage`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cvxpy as cp
import numpy as np

from safeguarded.rldp.uncertainty import K_THM4, support_chi2, support_projection
from safeguarded.solvers import SolveRecord, solve_with_retries
from safeguarded.validation import (
    check_array,
    check_in_interval,
    check_integer,
    check_positive,
    check_simplex,
)

__all__ = [
    "METHODS",
    "SNAP",
    "RLDPSolution",
    "RLDPProblems",
    "nominal_leakage",
    "robust_distortion",
    "robust_leakage",
    "snap_protocol",
    "squared_distortion",
]

#: The four problems, in the paper's order (7)–(10).
METHODS = ("NUNP", "NURP", "RUNP", "RURP")

#: Entries of a solved protocol at or below this are solver dust and are set to exactly 0 (documented
#: decision of the notebook): the solves run at tolerance 1e-10 and leave zeros at 1e-10–1e-7.
SNAP = 1e-6


def snap_protocol(Q: np.ndarray, snap: float = SNAP) -> tuple[np.ndarray, float]:
    """Q with entries ≤ ``snap`` (and negative ones) set to 0 and each column renormalised to sum to 1.

    ``Q`` has the protocol's columns on axis 0 (shape (|Y|, …)).  Returns the cleaned protocol and the
    largest change of an entry (snapping plus renormalisation)."""
    snap = check_positive("snap", snap, allow_zero=True)
    Q = check_array("Q", Q)
    if Q.ndim < 1 or Q.size == 0:
        raise ValueError(f"Q must be a non-empty array (columns on axis 0), got shape {Q.shape}")
    cleaned = np.where(Q <= snap, 0.0, Q)
    total = cleaned.sum(axis=0, keepdims=True)
    if np.any(total <= 0):
        raise ValueError(f"snap={snap} removes every entry of a column of Q; use a smaller snap")
    cleaned = cleaned / total
    return cleaned, float(np.max(np.abs(cleaned - Q)))


def _check_protocol_array(Q, p_hat: np.ndarray) -> np.ndarray:
    if p_hat.ndim != 2:
        raise ValueError(f"p_hat must be a distribution of shape (|S|, |U|), got shape {p_hat.shape}")
    Q = check_array("Q", Q)
    if Q.ndim != 3 or Q.shape[1:] != p_hat.shape:
        raise ValueError(f"Q must have shape (|Y|, {p_hat.shape[0]}, {p_hat.shape[1]}), got {Q.shape}")
    return check_simplex("Q", Q, axis=0, atol=1e-7)


def nominal_leakage(Q: np.ndarray, p_hat: np.ndarray, epsilon: float) -> float:
    """max over y and ordered s1 ≠ s2 (both observed) of P̂_{U|s1}ᵀQ[y,s1,·] − e^ε P̂_{U|s2}ᵀQ[y,s2,·].

    The left-hand side of the non-robust privacy constraint (6); ≤ 0 for a protocol that is ε-private
    under P̂.  Robust privacy implies it (P̂ ∈ ℱ_B), so it is a check of all four problems.  −∞ when
    fewer than two secrets are observed."""
    p_hat = check_simplex("p_hat", p_hat)
    epsilon = check_positive("epsilon", epsilon)
    Q = _check_protocol_array(Q, p_hat)
    marg = p_hat.sum(axis=1)
    seen = np.flatnonzero(marg > 0)
    p_ys = np.einsum("su,ysu->ys", p_hat[seen] / marg[seen, None], Q[:, seen])
    worst = -np.inf
    for i, j in itertools.permutations(range(seen.size), 2):
        worst = max(worst, float(np.max(p_ys[:, i] - np.exp(epsilon) * p_ys[:, j])))
    return worst


def squared_distortion(n_u: int) -> np.ndarray:
    """d(u, y) = (u − y)² on 𝒰 = 𝒴 = {0, …, |U|−1} (§V), as an array indexed [y, u]."""
    n_u = check_integer("n_u", n_u, minimum=1)
    grid = np.arange(n_u, dtype=float)
    return (grid[:, None] - grid[None, :]) ** 2


def robust_leakage(Q: np.ndarray, p_hat: np.ndarray, B: float, epsilon: float) -> float:
    """max over blocks (y, s1 ≠ s2) of the worst-case leakage sup_{P ∈ ℱ_B} P_{y|s1} − e^ε P_{y|s2}
    by Lemma 2 and Theorems 3–4 (:func:`~safeguarded.rldp.uncertainty.support_projection`, a 2-D
    minimisation independent of the conic model): ≤ 0 for a robustly ε-private protocol, constraint (30).
    About 0.1 s per block: meant for re-verifying a few protocols, not a sweep."""
    p_hat = check_simplex("p_hat", p_hat)
    B = check_positive("B", B)
    epsilon = check_positive("epsilon", epsilon)
    Q = _check_protocol_array(Q, p_hat)
    worst = -np.inf
    for y in range(Q.shape[0]):
        for s1, s2 in itertools.permutations(range(p_hat.shape[0]), 2):
            v1, v2 = Q[y, s1], -np.exp(epsilon) * Q[y, s2]
            worst = max(worst, support_projection(v1, v2, p_hat, B, s1, s2))
    return worst


def robust_distortion(
    Q: np.ndarray, p_hat: np.ndarray, B: float, distortion: np.ndarray | None = None
) -> float:
    """sup_{P ∈ ℱ_B} E_P d(U, Y) of protocol Q by Theorem 2
    (:func:`~safeguarded.rldp.uncertainty.support_chi2`): the robust utility (22) of a fixed protocol,
    ≤ D at a solution of RUNP/RURP."""
    p_hat = check_simplex("p_hat", p_hat)
    B = check_positive("B", B)
    Q = _check_protocol_array(Q, p_hat)
    d = (
        squared_distortion(p_hat.shape[1])
        if distortion is None
        else check_array("distortion", distortion, shape=(Q.shape[0], p_hat.shape[1]))
    )
    v = np.einsum("ysu,yu->su", Q, d)  # v_{s,u} = Σ_y Q[y,s,u] d(u, y)
    return support_chi2(v.ravel(), p_hat, B)


@dataclass(frozen=True)
class RLDPSolution:
    """A solved protocol: Q has shape (|Y|, |S|, |U|), cleaned of solver dust (``snapped``: the largest
    change of an entry); ``objective`` is the problem's objective without the tie-break, as solved;
    ``nominal_leakage`` is :func:`nominal_leakage` of the cleaned Q (≤ 0 up to rounding if private)."""

    method: str
    Q: np.ndarray
    objective: float
    record: SolveRecord
    snapped: float = 0.0
    nominal_leakage: float = float("nan")


class RLDPProblems:
    """NUNP, NURP, RUNP and RURP for fixed |S|, |U|, ε and distortion, re-solvable for any (P̂, B).

    Parameters
    ----------
    n_s, n_u
        Alphabet sizes |S| ≥ 1 and |U| ≥ 1 (𝒴 = 𝒰).
    epsilon
        The privacy level ε > 0 of (4).
    distortion
        d(u, y) as an array indexed [y, u], shape (|Y|, |U|); default :func:`squared_distortion`.
    tie_break
        Weight of the uniform-distortion tie-break (see module docstring), a real number with
        |tie_break| ≤ 1e-2: positive picks the least, negative the most uniform distortion among
        (near-)optimal protocols, 0 whatever the solver returns.
    snap
        Entries of a solved Q at or below it are set to 0 (see :func:`snap_protocol`); 0 keeps them.
    """

    def __init__(
        self,
        n_s: int,
        n_u: int,
        epsilon: float,
        distortion: np.ndarray | None = None,
        tie_break: float = 1e-5,
        snap: float = SNAP,
    ):
        self.n_s = check_integer("n_s", n_s, minimum=1)
        self.n_u = check_integer("n_u", n_u, minimum=1)
        self.epsilon = check_positive("epsilon", epsilon)
        self.tie_break = check_in_interval("tie_break", tie_break, -1e-2, 1e-2, closed="both")
        self.snap = check_positive("snap", snap, allow_zero=True)
        d = squared_distortion(n_u) if distortion is None else np.asarray(distortion, dtype=float)
        if d.shape != (n_u, n_u) or not np.all(np.isfinite(d)):
            raise ValueError(f"distortion must be a finite array of shape ({n_u}, {n_u}), got {d.shape}")
        self.distortion = d
        self.pairs = [(s1, s2) for s1, s2 in itertools.permutations(range(self.n_s), 2)]
        # blocks b = (y, pair) in y-major order
        self.blocks = [(y, s1, s2) for y in range(n_u) for (s1, s2) in self.pairs]
        self._build()

    # ------------------------------------------------------------------ model construction
    def _build(self):
        n_s, n_u, n_y = self.n_s, self.n_u, self.n_u
        n_cells = n_s * n_u
        e = np.exp(self.epsilon)
        self.Q = Q = cp.Variable((n_y, n_cells), nonneg=True, name="Q")
        d_yk = np.tile(self.distortion, (1, n_s))  # d_yk[y, s*|U|+u] = d(u, y)
        self._d_yk = d_yk
        v_util = cp.sum(cp.multiply(d_yk, Q), axis=0)  # v_k = Σ_y Q[y,k] d(u_k, y)
        simplex = [cp.sum(Q, axis=0) == 1]

        self.p_hat = cp.Parameter(n_cells, nonneg=True, name="p_hat")
        self.b_plus_1 = cp.Parameter(nonneg=True, name="B_plus_1")
        nominal = self.p_hat @ v_util
        tie = self.tie_break * cp.sum(v_util) / n_cells

        # ---- non-robust privacy (6): rows a_{s1} Q_{s1} - e^eps a_{s2} Q_{s2} <= 0 per pair and y
        n_pairs = len(self.pairs)
        self.w_first = cp.Parameter((max(n_pairs, 1), n_u), nonneg=True, name="cond_s1")
        self.w_second = cp.Parameter((max(n_pairs, 1), n_u), nonneg=True, name="cond_s2")
        nonrobust_priv = []
        for j, (s1, s2) in enumerate(self.pairs):
            q1 = Q[:, s1 * n_u : (s1 + 1) * n_u]
            q2 = Q[:, s2 * n_u : (s2 + 1) * n_u]
            nonrobust_priv.append(q1 @ self.w_first[j] - e * (q2 @ self.w_second[j]) <= 0)

        # ---- robust utility (22) via Theorem 2 with w = t·1
        D = cp.Variable(name="D")
        t_u = cp.Variable(name="t_util")
        c_u = cp.Variable(nonneg=True, name="c_util")
        r_u = cp.Variable(n_cells, name="r_util")
        z_u = t_u - v_util
        robust_util = [
            t_u + c_u * self.b_plus_1 - 2 * (self.p_hat @ r_u) <= D,
            cp.SOC(c_u + z_u, cp.vstack([2 * r_u, c_u - z_u]), axis=0),
        ]

        # ---- robust privacy (30) via Lemma 2 and Theorem 4 with w_i = t_i·1, vectorised over blocks
        robust_priv = []
        n_b = len(self.blocks)
        self.joint_first = cp.Parameter((max(n_b, 1), n_u), nonneg=True, name="joint_s1")
        self.joint_second = cp.Parameter((max(n_b, 1), n_u), nonneg=True, name="joint_s2")
        self.radius = cp.Parameter(max(n_b, 1), nonneg=True, name="C")
        if n_b:  # |S| = 1 has no privacy constraint at all
            # v_i(u) per block (y, s1, s2): v1 = Q[y, s1, ·], v2 = -e^eps Q[y, s2, ·]  (Lemma 2)
            v1 = cp.vstack([Q[y, s1 * n_u : (s1 + 1) * n_u] for y, s1, _ in self.blocks])
            v2 = -e * cp.vstack([Q[y, s2 * n_u : (s2 + 1) * n_u] for y, _, s2 in self.blocks])
            c_p = cp.Variable(n_b, nonneg=True, name="c_priv")
            g = []
            for name, v, joint in (("1", v1, self.joint_first), ("2", v2, self.joint_second)):
                t = cp.Variable(n_b, name=f"t{name}")
                m = cp.Variable(n_b, nonneg=True, name=f"m{name}")
                rho = cp.Variable((n_b, n_u), name=f"rho{name}")
                gi = cp.Variable(n_b, name=f"g{name}")
                z = cp.reshape(t, (n_b, 1), order="C") @ np.ones((1, n_u)) - v  # t_i - v_i(u)
                m_b = cp.reshape(m, (n_b, 1), order="C") @ np.ones((1, n_u))
                robust_priv += [
                    cp.SOC(
                        cp.vec(m_b + z, order="C"),
                        cp.vstack([2 * cp.vec(rho, order="C"), cp.vec(m_b - z, order="C")]),
                        axis=0,
                    ),
                    m <= cp.sum(cp.multiply(joint, rho), axis=1),
                    cp.PowCone3D(c_p, m, gi, 2.0 / 3.0),
                ]
                g.append((t, gi))
            (t1, g1), (t2, g2) = g
            robust_priv.append(t1 + t2 + cp.multiply(self.radius, c_p) - K_THM4 * (g1 + g2) <= 0)

        self._parts = {  # (objective without tie-break, constraints) per problem
            "NUNP": (nominal, simplex + nonrobust_priv),
            "NURP": (nominal, simplex + robust_priv),
            "RUNP": (D, simplex + robust_util + nonrobust_priv),
            "RURP": (D, simplex + robust_util + robust_priv),
        }
        self.problems = {
            name: cp.Problem(cp.Minimize(obj + tie), cons) for name, (obj, cons) in self._parts.items()
        }
        self._directed: dict[str, cp.Problem] = {}  # built on first use by solve_directed
        self._tie_expr = tie
        for name, prob in self.problems.items():
            if not prob.is_dcp(dpp=True):  # pragma: no cover - guards the construction above
                raise RuntimeError(f"{name} is not DPP")

    # ------------------------------------------------------------------ parameters and solving
    def set_data(self, p_hat: np.ndarray, B: float) -> None:
        """Set P̂ (shape (|S|, |U|)) and the radius B > 0 of (2).

        Pairs involving an s with P̂_s = 0 have no non-robust privacy constraint (P̂_{U|s} is
        undefined; documented decision (a) of the notebook).
        """
        p_hat = check_simplex("p_hat", p_hat)
        if p_hat.shape != (self.n_s, self.n_u):
            raise ValueError(f"p_hat must have shape ({self.n_s}, {self.n_u}), got {p_hat.shape}")
        B = check_positive("B", B)
        marg = p_hat.sum(axis=1)
        cond = np.divide(p_hat, marg[:, None], out=np.zeros_like(p_hat), where=marg[:, None] > 0)
        observed = marg > 0
        self.p_hat.value = p_hat.ravel()
        self.b_plus_1.value = B + 1.0
        both = [observed[s1] and observed[s2] for s1, s2 in self.pairs]
        if self.pairs:
            keep = np.array(both, dtype=float)[:, None]
            self.w_first.value = np.array([cond[s1] for s1, _ in self.pairs]) * keep
            self.w_second.value = np.array([cond[s2] for _, s2 in self.pairs]) * keep
        else:  # |S| = 1: the placeholder rows enter no constraint
            self.w_first.value = self.w_second.value = np.zeros((1, self.n_u))
        if self.blocks:
            self.joint_first.value = np.array([p_hat[s1] for _, s1, _ in self.blocks])
            self.joint_second.value = np.array([p_hat[s2] for _, _, s2 in self.blocks])
            self.radius.value = np.array(
                [np.sqrt(B + 1.0) - 1.0 + marg[s1] + marg[s2] for _, s1, s2 in self.blocks]
            )
        else:
            self.joint_first.value = self.joint_second.value = np.zeros((1, self.n_u))
            self.radius.value = np.zeros(1)
        self.unobserved_secrets = int((~observed).sum())

    def solve(self, method: str, solver: str | None = None, **options) -> RLDPSolution:
        """Solve one of :data:`METHODS` for the data set by :meth:`set_data`.

        The solver runs with high-accuracy tolerances (:func:`safeguarded.solvers.high_accuracy_options`)
        unless ``options`` override them: ε* (32) is a log-ratio of probabilities, and default
        interior-point tolerances leave structural zeros at the 1e-7 level, which makes ε* meaningless.
        If the solver stops short of them it is retried with the alternative settings of
        :data:`safeguarded.solvers.RETRY_OPTIONS` (``record.attempt`` says which); if none reaches
        full accuracy the :class:`~safeguarded.solvers.InaccurateError` propagates.
        The returned Q is cleaned by :func:`snap_protocol` with this model's ``snap`` (entries ≤ snap
        set to 0, columns renormalised); ``nominal_leakage`` re-checks constraint (6) on the cleaned Q.
        """
        if method not in self.problems:
            raise ValueError(f"method must be one of {METHODS}, got method={method!r}")
        if self.p_hat.value is None:
            raise RuntimeError("call set_data(p_hat, B) before solve()")
        prob = self.problems[method]
        record = solve_with_retries(
            prob, name=f"rldp.{method}", solver=solver, problem_class="POW", high_accuracy=True, **options
        )
        objective = float(prob.value - self._tie_expr.value)
        return self._solution(method, objective, record)

    def _solution(self, method: str, objective: float, record: SolveRecord) -> RLDPSolution:
        Q, snapped = snap_protocol(np.clip(self.Q.value, 0.0, None), self.snap)
        Q = Q.reshape(self.n_u, self.n_s, self.n_u)
        p_hat = self.p_hat.value.reshape(self.n_s, self.n_u)
        leak = nominal_leakage(Q, p_hat, self.epsilon)
        return RLDPSolution(method, Q, objective, record, snapped, leak)

    def solve_directed(
        self, method: str, weights: np.ndarray, solver: str | None = None, **options
    ) -> RLDPSolution:
        """Solve ``method`` with the tie-break replaced by ⟨weights, Q⟩: minimise objective + ⟨weights, Q⟩.

        With small weights (e.g. ±1e-5·P*_{s,u} d(u, y), whose inner product with Q is ±1e-5·D*) this
        returns, among the optimal protocols, one with the smallest (or, with −weights, the largest)
        ⟨weights, Q⟩: one end of the range of D* over the optimal protocols, at an objective within
        |⟨weights, Q⟩| differences of the optimum (the ``objective`` returned is the problem's own).
        ``weights`` has Q's shape (|Y|, |S|, |U|).
        """
        if method not in self.problems:
            raise ValueError(f"method must be one of {METHODS}, got method={method!r}")
        if self.p_hat.value is None:
            raise RuntimeError("call set_data(p_hat, B) before solve_directed()")
        w = np.asarray(weights, dtype=float)
        if w.shape != (self.n_u, self.n_s, self.n_u) or not np.all(np.isfinite(w)):
            raise ValueError(
                f"weights must be a finite array of shape ({self.n_u}, {self.n_s}, {self.n_u}), got {w.shape}"
            )
        if method not in self._directed:
            if not hasattr(self, "_direction"):
                self._direction = cp.Parameter(self.Q.shape, name="direction")
            obj, cons = self._parts[method]
            directed = cp.Problem(cp.Minimize(obj + cp.sum(cp.multiply(self._direction, self.Q))), cons)
            if not directed.is_dcp(dpp=True):  # pragma: no cover - guards the construction above
                raise RuntimeError(f"the directed problem of {method} is not DPP")
            self._directed[method] = directed
        self._direction.value = w.reshape(self.n_u, self.n_s * self.n_u)
        record = solve_with_retries(
            self._directed[method],
            name=f"rldp.{method}.directed",
            solver=solver,
            problem_class="POW",
            high_accuracy=True,
            **options,
        )
        return self._solution(method, float(self._parts[method][0].value), record)
