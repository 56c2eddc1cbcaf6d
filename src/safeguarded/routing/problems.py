"""Non-private optima by convex solves through :mod:`safeguarded.solvers` (Clarabel by default).

* :func:`system_optimum_links` - the aggregated (origin-based) link-flow system optimum of F_hat at one
  demand: min sum_e q_e y_e^2 + c_e y_e over origin flows z^o >= 0 with A z^o = demand of o.  This is
  the paper's Baseline ("min of (10) without regulariser", solved at the mean demand, App. D) in
  1 824 variables; y* is unique because every q_e > 0.
* :func:`policy_optimum` - the policy-space problem of the reformulation, (8)/(10) with the
  regulariser of Sec. 5.2: min_{x in 𝒳} (1/N) sum_i F_hat(x, Lambda_i) + reg alpha ||x||^2, with the
  N day-flows y_i = B_{Lambda_i} x as auxiliary variables.  N = 1 with the mean demand is the paper's
  "solving at the mean demand"; N days is the SAA (10).  Table 2 uses both.
"""

from __future__ import annotations

from dataclasses import dataclass

import cvxpy as cp
import numpy as np

from safeguarded.routing.network import Network, check_arc_vector, check_demand, check_network
from safeguarded.solvers import SolveRecord, resolve_solver, solve
from safeguarded.validation import check_positive

__all__ = ["LinkOptimum", "PolicyOptimum", "system_optimum_links", "policy_optimum", "origin_demands"]


@dataclass(frozen=True)
class LinkOptimum:
    y: np.ndarray  #: optimal link flows (m,)
    cost: float  #: F_hat at the optimum
    record: SolveRecord


@dataclass(frozen=True)
class PolicyOptimum:
    x: np.ndarray  #: optimal policy (K x m)
    objective: float  #: the solved objective (SAA average + regulariser)
    record: SolveRecord


def origin_demands(network: Network, lam: np.ndarray) -> np.ndarray:
    """(n x n) net inflow per origin: row o has lam(o, d) at d and -sum_d lam(o, d) at o."""
    check_network(network)
    lam = check_demand(lam, "lam", network.n_od)
    if lam.ndim != 1:
        raise ValueError(f"lam must be one demand vector of shape ({network.n_od},), got shape {lam.shape}")
    od = network.od_pairs
    out = np.zeros((network.n_nodes, network.n_nodes))
    np.add.at(out, (od[:, 0], od[:, 1]), lam)
    np.add.at(out, (od[:, 0], od[:, 0]), -lam)
    return out


def _check_q(network: Network, q: np.ndarray) -> np.ndarray:
    return check_arc_vector("q", q, network)


def system_optimum_links(
    network: Network, lam: np.ndarray, q: np.ndarray, *, solver: str | None = None
) -> LinkOptimum:
    """Link-flow system optimum of F_hat(., lam) (Baseline of Sec. 5.2 at demand ``lam``, length K)."""
    check_network(network)
    q = _check_q(network, q)
    resolve_solver(solver, "QP")  # ValueError naming solver unless installed
    origin_demands(network, lam)  # checks lam
    network.check_reachable(lam)
    rhs = origin_demands(network, lam)
    a = network.incidence
    origins = np.flatnonzero(np.abs(rhs).sum(axis=1) > 0)
    z = cp.Variable((len(origins), network.n_arcs), nonneg=True)
    # Drop one node row (the rows of A sum to zero) to keep the equalities independent.
    cons = [z @ a[:-1].T == rhs[origins][:, :-1]]
    y = cp.sum(z, axis=0)
    obj = cp.sum(cp.multiply(q, cp.square(y))) + network.free_flow @ y
    prob = cp.Problem(cp.Minimize(obj), cons)
    rec = solve(prob, name="routing.system_optimum_links", solver=solver, problem_class="QP")
    yv = np.asarray(y.value).ravel()
    cost = float(np.sum(q * yv**2 + network.free_flow * yv))
    return LinkOptimum(yv, cost, rec)


def policy_optimum(
    network: Network,
    lams: np.ndarray,
    q: np.ndarray,
    *,
    alpha: float = 0.0,
    reg: float = 1.0,
    solver: str | None = None,
) -> PolicyOptimum:
    """min_{x in 𝒳} (1/N) sum_i F_hat(x, lams[i]) + reg * alpha * ||x||^2  ((8) for N=1, (10) for N days).

    Parameters
    ----------
    lams
        Demand vectors, shape (K,) (one demand, e.g. the mean) or (N, K) (the SAA over N days).
    q
        Affine latency slopes.
    alpha, reg
        Regulariser weight and convention (reg=1: alpha ||x||^2 as in Sec. 5.2).
    """
    check_network(network)
    q = _check_q(network, q)
    alpha = check_positive("alpha", alpha, allow_zero=True)
    reg = check_positive("reg", reg)
    resolve_solver(solver, "QP")  # ValueError naming solver unless installed
    lams = np.atleast_2d(check_demand(lams, "lams"))
    if lams.ndim != 2 or lams.shape[1] != network.n_od:
        raise ValueError(f"lams must have {network.n_od} columns (OD pairs), got shape {lams.shape}")
    network.check_reachable(lams.max(axis=0))
    n_days = lams.shape[0]
    a = network.incidence
    x = cp.Variable((network.n_od, network.n_arcs), nonneg=True)
    y = cp.Variable((n_days, network.n_arcs))
    cons = [x <= 1, x @ a[:-1].T == network.unit_rhs[:, :-1], y == lams @ x]
    sq = cp.sum(cp.multiply(np.tile(q, (n_days, 1)), cp.square(y)))
    obj = (sq + cp.sum(y @ network.free_flow)) / n_days
    if alpha > 0:
        obj = obj + reg * alpha * cp.sum_squares(x)
    prob = cp.Problem(cp.Minimize(obj), cons)
    rec = solve(
        prob, name=f"routing.policy_optimum(N={n_days}, alpha={alpha:g})", solver=solver, problem_class="QP"
    )
    xv = np.clip(np.asarray(x.value), 0.0, 1.0)
    return PolicyOptimum(xv, float(prob.value), rec)
