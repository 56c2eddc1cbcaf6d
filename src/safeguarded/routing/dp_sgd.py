"""Algorithm 1 (Private Projected Stochastic Gradient Descent) and its privacy calibration.

Algorithm 1 (paper Sec. 4), one pass over N days of demand:

    eta_{k-1} = min(1/(alpha k), min(1, 2 alpha)/beta)                         (line 5)
    x_k = Pi_𝒳(x_{k-1} - eta_{k-1} grad_x F(x_{k-1}, Lambda_k))  (line 6; the text's "+" is a typo)
    s = C min(min(1, 2 alpha)/beta, 1/(alpha N)) * dLambda                       (line 8, Lemma 1 + App. B)
    sigma^2 = 2 s^2 ln(1.25/delta) / eps^2                                       (line 9, Theorem 4 [DR14])
    x_alg = Pi_𝒳(x_N + Z),  Z ~ N(0, sigma^2 I)                                  (lines 10-11)

``dLambda`` is the largest change of one entry Lambda_t(o,d) caused by one request (Def. 9).  The paper
measures Lambda in requests per minute (Def. 3, Remark 1) so that dLambda = 1/T and s is its
``(C/T) min(...)``; with Lambda in hourly counts (veh/h, the TNTP unit) one request changes Lambda by 1.

Every step is vectorised over the OD pairs ("users"): one gradient outer product and one batched
projection per step, no loop over pairs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.stats import norm

from safeguarded.routing import costs
from safeguarded.routing.network import Network, check_arc_vector, check_demand, check_network
from safeguarded.routing.projection import project_unit_flows
from safeguarded.validation import check_array, check_bool, check_positive, check_rng

__all__ = [
    "check_privacy",
    "step_sizes",
    "sensitivity_bound",
    "gaussian_sigma",
    "analytic_gaussian_sigma",
    "sample_days",
    "random_policy",
    "shortest_path_policy",
    "SGDResult",
    "private_projected_sgd",
    "privatize",
]


def check_privacy(eps: float, delta: float) -> None:
    """Validate (eps, delta) for the classical Gaussian mechanism (Theorem 4 needs eps < 1)."""
    if not (isinstance(eps, int | float) and math.isfinite(eps)) or eps <= 0:
        raise ValueError(f"eps must be > 0, got eps={eps}")
    if eps >= 1:
        raise ValueError(f"eps must be < 1 for the classical Gaussian mechanism (Theorem 4), got eps={eps}")
    if not (isinstance(delta, int | float) and 0 < delta < 1):
        raise ValueError(f"delta must be in (0, 1), got delta={delta}")


def _check_positive(**values: float) -> None:
    for name, value in values.items():
        check_positive(name, value)


def _count(name: str, value) -> int:
    """``value`` as an int >= 1 (a number of steps or days)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{name} must be >= 1 and an integer, got {name}={value!r}")
    return int(value)


def step_sizes(n_steps: int, alpha: float, beta: float) -> np.ndarray:
    """eta_0 .. eta_{N-1} of Algorithm 1, line 5: eta_{k-1} = min(1/(alpha k), min(1, 2 alpha)/beta)."""
    _check_positive(alpha=alpha, beta=beta)
    n_steps = _count("n_steps", n_steps)
    k = np.arange(1, n_steps + 1)
    return np.minimum(1.0 / (alpha * k), min(1.0, 2 * alpha) / beta)


def sensitivity_bound(C: float, alpha: float, beta: float, n_days: int, d_lambda: float) -> float:  # noqa: N803
    """l2-sensitivity bound of x_N: C min(min(1, 2 alpha)/beta, 1/(alpha N)) * dLambda (Lemma 1, App. B).

    With dLambda = 1/T this is Algorithm 1's line 8.
    """
    _check_positive(C=C, alpha=alpha, beta=beta, d_lambda=d_lambda)
    n_days = _count("n_days", n_days)
    return C * min(min(1.0, 2 * alpha) / beta, 1.0 / (alpha * n_days)) * d_lambda


def gaussian_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """Classical Gaussian mechanism (Theorem 4, [DR14]): sigma = s sqrt(2 ln(1.25/delta)) / eps."""
    check_privacy(eps, delta)
    _check_positive(sensitivity=sensitivity)
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / eps


def _analytic_delta(sigma: float, eps: float) -> float:
    # Balle & Wang (2018), Thm. 8: delta(eps) of the Gaussian mechanism with sensitivity 1.
    return norm.cdf(0.5 / sigma - eps * sigma) - math.exp(eps) * norm.cdf(-0.5 / sigma - eps * sigma)


def analytic_gaussian_sigma(sensitivity: float, eps: float, delta: float) -> float:
    """The smallest sigma for which the Gaussian mechanism is (eps, delta)-DP (Balle & Wang 2018).

    Any eps > 0 is allowed; used to show how conservative the classical calibration is.
    """
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be > 0, got eps={eps}")
    if not 0 < delta < 1:
        raise ValueError(f"delta must be in (0, 1), got delta={delta}")
    _check_positive(sensitivity=sensitivity)
    hi = 1.0
    while _analytic_delta(hi, eps) > delta:
        hi *= 2.0
    lo = hi / 2.0
    while _analytic_delta(lo, eps) <= delta and lo > 1e-12:
        lo /= 2.0
    return sensitivity * brentq(lambda s: _analytic_delta(s, eps) - delta, lo, hi, xtol=1e-14, rtol=1e-14)


def sample_days(
    mean_demand: np.ndarray, n_days: int, rng: np.random.Generator, scale: float = 1.0, periods: int = 60
) -> np.ndarray:
    """N days of demand rates Lambda_t = Poisson(T * scale * mean) / T (Sec. 5.1 with Remark 1).

    Requests arrive at ``scale * mean`` per minute for T = ``periods`` minutes; Lambda_t(o,d) is the
    day's count divided by T (Remark 1), so one request changes it by 1/T (Def. 9).  ``periods=1``
    gives the other reading, hourly counts ~ Poisson(mean).
    """
    mean_demand = check_demand(mean_demand, "mean_demand")
    if mean_demand.ndim != 1:
        raise ValueError(f"mean_demand must be one demand vector (K,), got shape {mean_demand.shape}")
    n_days = _count("n_days", n_days)
    check_rng("rng", rng)
    if periods < 1 or int(periods) != periods:
        raise ValueError(f"periods must be a positive integer, got periods={periods}")
    _check_positive(scale=scale)
    counts = rng.poisson(periods * scale * mean_demand, size=(n_days, mean_demand.size))
    return counts.astype(float) / periods


def random_policy(network: Network, rng: np.random.Generator) -> np.ndarray:
    """An initial policy x_0: the projection onto 𝒳 of a uniform [0, 1] point ([DECIDE], the alternative
    start of Fig. 2: it spreads every pair's unit flow over many arcs and starts far from the optimum)."""
    check_network(network)
    check_rng("rng", rng)
    return project_unit_flows(rng.uniform(size=(network.n_od, network.n_arcs)), network)


def shortest_path_policy(network: Network, weights: np.ndarray | None = None) -> np.ndarray:
    """The routing policy that sends every pair (o, d) along one shortest path under ``weights``
    (default: the free-flow times c), a vertex of 𝒳 (Def. 11): x^{(o,d)}_e = 1 on the path's arcs.

    The primary initial policy of Fig. 2 ([DECIDE]): the paper's "random policy" (Sec. 5.2) read as a
    routing policy, i.e. free-flow shortest-path routing; ties go to scipy's Dijkstra predecessor.
    """
    from scipy.sparse.csgraph import dijkstra

    check_network(network)
    w = network.free_flow if weights is None else check_arc_vector("weights", weights, network)
    dist, pred = dijkstra(network.adjacency(w), directed=True, return_predecessors=True)
    od = network.od_pairs
    if np.isinf(dist[od[:, 0], od[:, 1]]).any():
        raise ValueError(f"every OD pair needs a directed path in {network.name}")
    arc_of = {(t, h): e for e, (t, h) in enumerate(zip(network.tails, network.heads, strict=True))}
    x = np.zeros((network.n_od, network.n_arcs))
    for k, (o, d) in enumerate(od):
        v = d
        while v != o:
            u = pred[o, v]
            x[k, arc_of[(u, v)]] = 1.0
            v = u
    return x


@dataclass
class SGDResult:
    x_N: np.ndarray  # noqa: N815 - the paper's name
    x_alg: np.ndarray | None
    sigma: float
    sensitivity: float
    steps: np.ndarray
    cost_history: np.ndarray  #: F_hat(x_k, mean of the N days), k = 0..N
    objective_history: np.ndarray  #: F(x_k, mean of the N days) including the regulariser
    iterates: list[np.ndarray] | None = None


def private_projected_sgd(
    network: Network,
    days: np.ndarray,
    q: np.ndarray,
    *,
    alpha: float,
    beta: float,
    C: float,  # noqa: N803
    eps: float,
    delta: float,
    d_lambda: float,
    rng: np.random.Generator,
    x0: np.ndarray | None = None,
    reg: float = 1.0,
    keep_iterates: bool = False,
) -> SGDResult:
    """Run Algorithm 1 on ``days`` (N x K demand vectors) and return x_N, x_alg and the cost history.

    Parameters
    ----------
    network, q
        The network and its affine slopes (c = ``network.free_flow``).
    alpha, beta, C
        Regulariser, smoothness and Assumption-6 constants (the paper: beta = lambda_max(B^T Q B), C = beta).
    eps, delta
        Privacy parameters: eps in (0, 1), delta in (0, 1).
    d_lambda
        Change of one Lambda entry caused by one request (1/T for per-minute rates, see module doc).
    rng
        Source of the initial policy (if ``x0`` is None) and of the Gaussian noise.
    reg
        Regulariser convention: F = F_hat + reg * alpha ||x||^2 (1: Sec. 5.2, 1/2: Sec. 3.4).
    """
    check_network(network)
    check_privacy(eps, delta)
    days = np.atleast_2d(check_demand(days, "days"))
    if days.ndim != 2 or days.shape[1] != network.n_od:
        raise ValueError(f"days must have {network.n_od} columns (OD pairs), got shape {days.shape}")
    q = check_arc_vector("q", q, network)
    _check_positive(alpha=alpha, beta=beta, C=C, d_lambda=d_lambda, reg=reg)
    check_rng("rng", rng)
    if x0 is not None:
        check_array("x0", x0, shape=(network.n_od, network.n_arcs))
    keep_iterates = check_bool("keep_iterates", keep_iterates)
    network.check_reachable(days.max(axis=0))
    n_days = days.shape[0]
    c = network.free_flow
    etas = step_sizes(n_days, alpha, beta)
    s = sensitivity_bound(C, alpha, beta, n_days, d_lambda)
    sigma = gaussian_sigma(s, eps, delta)
    x = random_policy(network, rng) if x0 is None else np.array(x0, dtype=float)
    if not network.is_unit_network_flow(x, atol=1e-6):
        raise ValueError("x0 must be a unit network flow (in 𝒳)")
    mean = days.mean(axis=0)
    hist_cost = [costs.travel_cost(x, mean, q, c)]
    hist_obj = [costs.objective(x, mean, q, c, alpha, reg)]
    iterates = [x] if keep_iterates else None
    nu = None
    for k in range(n_days):
        grad = costs.gradient(x, days[k], q, c, alpha, reg)
        x, nu = project_unit_flows(x - etas[k] * grad, network, nu0=nu, return_dual=True)
        hist_cost.append(costs.travel_cost(x, mean, q, c))
        hist_obj.append(costs.objective(x, mean, q, c, alpha, reg))
        if keep_iterates:
            iterates.append(x)
    x_alg = privatize(x, sigma, network, rng)
    return SGDResult(x, x_alg, sigma, s, etas, np.array(hist_cost), np.array(hist_obj), iterates)


def privatize(x_n: np.ndarray, sigma: float, network: Network, rng: np.random.Generator) -> np.ndarray:
    """Lines 10-11 of Algorithm 1: x_alg = Pi_𝒳(x_N + Z), Z ~ N(0, sigma^2 I)."""
    check_network(network)
    x_n = check_array("x_n", x_n, shape=(network.n_od, network.n_arcs))
    check_positive("sigma", sigma, allow_zero=True)
    check_rng("rng", rng)
    z = x_n + rng.normal(0.0, sigma, size=x_n.shape)
    return project_unit_flows(z, network, max_iter=2000)
