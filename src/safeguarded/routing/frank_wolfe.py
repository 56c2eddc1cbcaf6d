"""Frank-Wolfe for the link-flow system optimum: an independent check of the Clarabel Baseline.

min_y sum_e q_e y_e^2 + c_e y_e over feasible multicommodity link flows (the paper's (1) with affine
latencies).  Each iteration assigns all demand to shortest paths under the marginal costs
2 q_e y_e + c_e (all-or-nothing, Dijkstra from every origin with scipy) and takes the exact line
search step of the quadratic.  The relative duality gap  (grad^T (y - s)) / F(y)  bounds the relative
suboptimality and is the stopping rule.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse.csgraph import dijkstra

from safeguarded.routing.network import Network, check_arc_vector, check_demand, check_network
from safeguarded.validation import check_in_interval, check_integer

__all__ = ["FrankWolfeResult", "all_or_nothing", "frank_wolfe_system_optimum"]


@dataclass(frozen=True)
class FrankWolfeResult:
    y: np.ndarray
    cost: float
    rel_gap: float  #: final relative duality gap (an upper bound on the relative suboptimality)
    iterations: int


def all_or_nothing(network: Network, lam: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Link flows of sending every OD demand along one shortest path under ``weights``."""
    check_network(network)
    lam = check_demand(lam, "lam", network.n_od)
    if lam.ndim != 1:
        raise ValueError(f"lam must be one demand vector of shape ({network.n_od},), got shape {lam.shape}")
    weights = check_arc_vector("weights", weights, network)
    od = network.od_pairs
    origins = np.unique(od[lam > 0, 0])
    dist, pred = dijkstra(
        network.adjacency(weights), directed=True, indices=origins, return_predecessors=True
    )
    if np.isinf(dist[np.searchsorted(origins, od[lam > 0, 0]), od[lam > 0, 1]]).any():
        raise ValueError(f"demand has a disconnected OD pair in {network.name}")
    arc_of = {(t, h): e for e, (t, h) in enumerate(zip(network.tails, network.heads, strict=True))}
    y = np.zeros(network.n_arcs)
    # Node potentials of the demand carried into each node, accumulated along the shortest-path tree.
    for i, o in enumerate(origins):
        mask = od[:, 0] == o
        flow_to = np.zeros(network.n_nodes)
        flow_to[od[mask, 1]] = lam[mask]
        order = np.argsort(-dist[i])  # farthest first: push flow towards the origin
        for v in order:
            if v == o or flow_to[v] == 0:
                continue
            u = pred[i, v]
            y[arc_of[(u, v)]] += flow_to[v]
            flow_to[u] += flow_to[v]
    return y


def frank_wolfe_system_optimum(
    network: Network, lam: np.ndarray, q: np.ndarray, *, rel_gap: float = 1e-6, max_iter: int = 20000
) -> FrankWolfeResult:
    """Frank-Wolfe with exact line search until the relative duality gap is below ``rel_gap``."""
    check_network(network)
    lam = check_demand(lam, "lam", network.n_od)
    rel_gap = check_in_interval("rel_gap", rel_gap, 0.0, 1.0)
    max_iter = check_integer("max_iter", max_iter, minimum=1)
    c = network.free_flow
    q = check_arc_vector("q", q, network)
    y = all_or_nothing(network, lam, c)
    gap = np.inf
    for it in range(1, max_iter + 1):
        grad = 2 * q * y + c
        s = all_or_nothing(network, lam, grad)
        d = s - y
        cost = float(np.sum(q * y**2 + c * y))
        gap = float(-grad @ d) / cost
        if gap <= rel_gap:
            return FrankWolfeResult(y, cost, gap, it)
        curv = 2 * float(np.sum(q * d**2))
        step = min(1.0, float(-grad @ d) / curv) if curv > 0 else 1.0
        y = y + step * d
    raise RuntimeError(f"Frank-Wolfe stopped at max_iter={max_iter} with relative gap {gap:.3g} > {rel_gap}")
