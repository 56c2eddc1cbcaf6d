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
``tie_break · max d``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cvxpy as cp
import numpy as np

from safeguarded.rldp.uncertainty import K_THM4
from safeguarded.solvers import SolveRecord, solve_with_retries
from safeguarded.validation import check_integer, check_positive, check_simplex

__all__ = ["METHODS", "RLDPSolution", "RLDPProblems", "squared_distortion"]

#: The four problems, in the paper's order (7)–(10).
METHODS = ("NUNP", "NURP", "RUNP", "RURP")


def squared_distortion(n_u: int) -> np.ndarray:
    """d(u, y) = (u − y)² on 𝒰 = 𝒴 = {0, …, |U|−1} (§V), as an array indexed [y, u]."""
    n_u = check_integer("n_u", n_u, minimum=1)
    grid = np.arange(n_u, dtype=float)
    return (grid[:, None] - grid[None, :]) ** 2


@dataclass(frozen=True)
class RLDPSolution:
    """A solved protocol: Q has shape (|Y|, |S|, |U|); ``objective`` is the problem's optimum."""

    method: str
    Q: np.ndarray
    objective: float
    record: SolveRecord


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
        Weight ≥ 0 of the uniform-distortion tie-break (see module docstring).
    """

    def __init__(
        self,
        n_s: int,
        n_u: int,
        epsilon: float,
        distortion: np.ndarray | None = None,
        tie_break: float = 1e-5,
    ):
        self.n_s = check_integer("n_s", n_s, minimum=1)
        self.n_u = check_integer("n_u", n_u, minimum=1)
        self.epsilon = check_positive("epsilon", epsilon)
        self.tie_break = check_positive("tie_break", tie_break, allow_zero=True)
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

        self.problems = {
            "NUNP": cp.Problem(cp.Minimize(nominal + tie), simplex + nonrobust_priv),
            "NURP": cp.Problem(cp.Minimize(nominal + tie), simplex + robust_priv),
            "RUNP": cp.Problem(cp.Minimize(D + tie), simplex + robust_util + nonrobust_priv),
            "RURP": cp.Problem(cp.Minimize(D + tie), simplex + robust_util + robust_priv),
        }
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
        The returned Q is clipped at 0 and its columns renormalised (a change of at most the solver
        tolerance).
        """
        if method not in self.problems:
            raise ValueError(f"method must be one of {METHODS}, got method={method!r}")
        if self.p_hat.value is None:
            raise RuntimeError("call set_data(p_hat, B) before solve()")
        prob = self.problems[method]
        record = solve_with_retries(
            prob, name=f"rldp.{method}", solver=solver, problem_class="POW", high_accuracy=True, **options
        )
        Q = np.clip(self.Q.value, 0.0, None)
        Q = Q / Q.sum(axis=0, keepdims=True)
        Q = Q.reshape(self.n_u, self.n_s, self.n_u)
        objective = float(prob.value - self._tie_expr.value)
        return RLDPSolution(method, Q, objective, record)
