"""Link latencies and the reformulated routing cost (paper Sec. 3.1 and 3.4).

Latency models
    * BPR (the TNTP data's own model): t_e(y) = c_e (1 + b (y / cap_e)^p), b = 0.15, p = 4;
    * affine (the paper's model, Sec. 3.4): f_e(y) = q_e y + c_e with q_e = (kappa - 1) c_e / cap_e, i.e.
      "the travel time on the link is doubled when the link flow equals the link capacity" for the
      nominal kappa = 2 (Sec. 5.1).  The paper uses only the affine model.

The reformulation (Sec. 3, eq. (7), (11)) moves the demand out of the constraints: a policy X (K x m,
one unit flow per OD pair, see :mod:`safeguarded.routing.network`) is feasible independently of the
data, and the demand enters only the objective through the link flows

    y = B_Lambda x = sum_{od} Lambda(o,d) x^{(o,d)}               (Sec. 3.4)
    F_hat(x, Lambda) = y^T Q y + c^T y                            (11)
    F(x, Lambda) = F_hat(x, Lambda) + reg * alpha * ||x||^2,      reg = 1 (Sec. 5.2) or 1/2 (Sec. 3.4)

``B_Lambda`` is never formed (it is m x K m); every function below works on a batch of demands
(``lam`` of shape (K,) or (N, K)) with one matrix product.

Units (Sioux Falls): Lambda in veh/h (the TNTP trips), c_e in "minutes" (TNTP 0.01 h), q_e in
min/(veh/h); F in veh*min/h.
"""

from __future__ import annotations

import numpy as np

from safeguarded.validation import check_array, check_in_interval, check_integer, check_positive

__all__ = [
    "bpr_travel_time",
    "affine_slopes",
    "link_flows",
    "travel_cost",
    "objective",
    "gradient",
    "smoothness_beta",
    "section34_beta",
    "section34_C",
    "cost_rescaled_units",
]


def _vector(name: str, v, length: int | None = None, *, nonneg: bool = False, positive: bool = False):
    """A finite 1-D float array (of ``length`` if given; >= 0 or > 0 entries if asked)."""
    arr = check_array(name, v, ndim=1)
    if length is not None and arr.size != length:
        raise ValueError(f"{name} must have length {length}, got length {arr.size}")
    if positive and arr.min() <= 0:
        raise ValueError(f"{name} must have entries > 0, got min {name}={arr.min():.6g}")
    if nonneg and arr.min() < 0:
        raise ValueError(f"{name} must have entries >= 0, got min {name}={arr.min():.6g}")
    return arr


def _policy_and_demand(x, lam):
    """x as a finite (K, m) array and lam as finite demand(s) of shape (K,) or (N, K)."""
    x = check_array("x", x, ndim=2)
    lam = check_array("lam", lam)
    if lam.ndim not in (1, 2) or lam.shape[-1] != x.shape[0]:
        k = x.shape[0]
        raise ValueError(f"lam must have shape ({k},) or (N, {k}) to match x, got {lam.shape}")
    return x, lam


def _arc_data(q, c, m: int):
    return _vector("q", q, m, nonneg=True), _vector("c", c, m)


def bpr_travel_time(y, free_flow, capacity, b: float = 0.15, power: float = 4.0) -> np.ndarray:
    """BPR link travel time t = c (1 + b (y/cap)^power) (the TNTP network's latency function)."""
    y = check_array("y", y)
    if np.any(y < 0):
        raise ValueError(f"link flows y must be >= 0, got min y={y.min():.6g}")
    free_flow, capacity = check_array("free_flow", free_flow), check_array("capacity", capacity)
    for name, arr in (("free_flow", free_flow), ("capacity", capacity)):
        try:
            np.broadcast_shapes(y.shape, arr.shape)
        except ValueError:
            raise ValueError(f"{name} must broadcast against y {y.shape}, got shape {arr.shape}") from None
    if free_flow.min() < 0:
        raise ValueError(f"free_flow must be >= 0, got min free_flow={free_flow.min():.6g}")
    if capacity.min() <= 0:
        raise ValueError(f"capacity must be > 0, got min capacity={capacity.min():.6g}")
    b = check_positive("b", b, allow_zero=True)
    power = check_in_interval("power", power, 1.0, np.inf, closed="left")
    return free_flow * (1.0 + b * (y / capacity) ** power)


def affine_slopes(free_flow, capacity, kappa: float = 2.0) -> np.ndarray:
    """q_e = (kappa - 1) c_e / cap_e: travel time at capacity is kappa x free flow (Sec. 5.1, 5.4).

    ``kappa`` must be > 1 (kappa = 1 gives q = 0: no congestion, the objective is linear).
    """
    if isinstance(kappa, bool) or not isinstance(kappa, int | float) or not 1 < kappa < np.inf:
        raise ValueError(f"kappa must be > 1 and finite, got kappa={kappa!r}")
    free_flow = _vector("free_flow", free_flow, nonneg=True)
    capacity = _vector("capacity", capacity, free_flow.size, positive=True)
    return (kappa - 1.0) * free_flow / capacity


def link_flows(x: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """y = B_Lambda x (Sec. 3.4): shape (m,) for one demand vector, (N, m) for N of them."""
    x, lam = _policy_and_demand(x, lam)
    return lam @ x


def travel_cost(x, lam, q, c) -> np.ndarray | float:
    """F_hat(x, Lambda) = sum_e y_e (q_e y_e + c_e) (eq. (7) with affine latencies, (11))."""
    x, lam = _policy_and_demand(x, lam)
    q, c = _arc_data(q, c, x.shape[1])
    y = lam @ x
    return (y * (q * y + c)).sum(axis=-1)


def objective(x, lam, q, c, alpha: float = 0.0, reg: float = 1.0) -> np.ndarray | float:
    """F(x, Lambda) = F_hat + reg * alpha * ||x||^2 (reg = 1: Sec. 5.2; reg = 1/2: Sec. 3.4)."""
    alpha = check_positive("alpha", alpha, allow_zero=True)
    reg = check_positive("reg", reg)
    return travel_cost(x, lam, q, c) + reg * alpha * float(np.sum(np.square(x)))


def gradient(x, lam, q, c, alpha: float = 0.0, reg: float = 1.0) -> np.ndarray:
    """grad_x F(x, Lambda) for one demand vector: row k is Lambda_k (2 Q y + c) + 2 reg alpha x^k.

    Vectorised over all OD pairs ("users"): one outer product, no loop.
    """
    x, lam = _policy_and_demand(x, lam)
    if lam.ndim != 1:
        raise ValueError(f"lam must be one demand vector of shape (K,), got shape {lam.shape}")
    q, c = _arc_data(q, c, x.shape[1])
    alpha = check_positive("alpha", alpha, allow_zero=True)
    reg = check_positive("reg", reg)
    marginal = 2.0 * q * (lam @ x) + c
    return np.outer(lam, marginal) + (2.0 * reg * alpha) * x


def smoothness_beta(lam, q) -> float:
    """lambda_max(B_Lambda^T Q B_Lambda) = ||vec Lambda||^2 max_e q_e  (exact).

    B^T Q B = (vec Lambda vec Lambda^T) kron Q, whose eigenvalues are ||vec Lambda||^2 q_e and 0.
    This is the paper's "beta ... the largest eigenvalue of B^T Q B" (Sec. 5.2).  The Hessian of F is
    2 B^T Q B + 2 reg alpha I (Sec. 3.4), so F's true smoothness constant is 2 beta + 2 reg alpha.
    """
    lam = _vector("lam", lam, nonneg=True)
    q = _vector("q", q, nonneg=True)
    return float(np.dot(lam, lam) * np.max(q))


def section34_beta(n_nodes: int, q, lam_max: float, alpha: float) -> float:
    """The paper's Sec. 3.4 bound beta := n^2 (max_e q_e) lambda_max^2 + alpha / 2."""
    n_nodes = check_integer("n_nodes", n_nodes, minimum=2)
    q = _vector("q", q, nonneg=True)
    lam_max = check_positive("lam_max", lam_max)
    alpha = check_positive("alpha", alpha, allow_zero=True)
    return float(n_nodes**2 * np.max(q) * lam_max**2 + alpha / 2.0)


def section34_C(n_nodes: int, q, c, lam_max: float) -> float:
    """The paper's Sec. 3.4 constant for Assumption 6: C = 2 lambda_max ||Q|| sqrt(m) n (n+1) + ||c||."""
    n_nodes = check_integer("n_nodes", n_nodes, minimum=2)
    q = _vector("q", q, nonneg=True)
    c = _vector("c", c, q.size, nonneg=True)
    lam_max = check_positive("lam_max", lam_max)
    m = len(q)
    return float(2 * lam_max * np.max(q) * np.sqrt(m) * n_nodes * (n_nodes + 1) + np.linalg.norm(c))


def cost_rescaled_units(lam_per_hour, q_per_hour, periods: float = 60.0) -> tuple[np.ndarray, np.ndarray]:
    """The same instance in per-minute rates (Def. 3): Lambda / T and q * T (so q y is unchanged)."""
    lam_per_hour = check_array("lam_per_hour", lam_per_hour)
    q_per_hour = check_array("q_per_hour", q_per_hour)
    periods = check_positive("periods", periods)
    return lam_per_hour / periods, q_per_hour * periods
