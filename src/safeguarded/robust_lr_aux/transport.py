"""W(P_N, P̂_N̂): the type-1 Wasserstein distance between two empirical distributions as a transport LP.

The ground metric is the feature-label metric of Definition 5, d((x, y), (x′, y′)) = ‖x − x′‖_q +
κ·1[y ≠ y′] (L4103–4107); the experiments use q = 1.  §4.6 (L4243) and L4267 discard every radius
pair with ε + ε̂ < W(P_N, P̂_N̂) (the intersection of the balls is empty otherwise).  The LP

    min Σ_ij π_ij d_ij   s.t.  Σ_j π_ij = 1/N,  Σ_i π_ij = 1/N̂,  π ≥ 0

is solved exactly by the network simplex of POT (:func:`safeguarded.solvers.solve_transport`, status
checked, version recorded); ``solver="HIGHS"`` builds it as an LP in HiGHS instead
(:func:`safeguarded.solvers.solve_lp`), the independent oracle of the tests.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from safeguarded.robust_lr_aux.losses import check_data
from safeguarded.solvers import solve_lp, solve_transport
from safeguarded.validation import check_array, check_bool, check_choice, check_in_interval, check_positive

__all__ = ["TRANSPORT_SOLVERS", "ground_cost", "wasserstein_distance", "radius_pairs"]


def ground_cost(X, y, X_aux, y_aux, *, kappa: float, q=1) -> np.ndarray:
    """The N × N̂ matrix ‖x^i − x̂^j‖_q + κ·1[y^i ≠ ŷ^j]."""
    kappa = check_positive("kappa", kappa, allow_zero=True)
    X, y, X_aux, y_aux = check_data(X, y, X_aux, y_aux)
    q = check_in_interval("q", q, 1.0, np.inf, closed="both")
    diff = np.abs(X[:, None, :] - X_aux[None, :, :])
    if q == 1:
        dist = diff.sum(axis=2)
    elif np.isinf(q):
        dist = diff.max(axis=2)
    else:
        dist = (diff**q).sum(axis=2) ** (1.0 / q)
    return dist + kappa * (y[:, None] != y_aux[None, :])


#: The solvers of the transport problem: the network simplex (default) and HiGHS's LP (the tests' oracle).
TRANSPORT_SOLVERS = ("POT-EMD", "HIGHS")


def wasserstein_distance(X, y, X_aux, y_aux, *, kappa: float, q=1, return_plan: bool = False,
                         weights=None, weights_aux=None, solver: str = "POT-EMD"):
    """W(P_N, P̂_N̂) under the feature-label metric, by POT's network simplex (or HiGHS's LP, ``solver``).

    ``weights`` / ``weights_aux`` give non-uniform atom probabilities (default uniform 1/N, 1/N̂).
    Returns the distance, or (distance, plan N × N̂, TransportResult or LPResult) with ``return_plan``.
    """
    C = ground_cost(X, y, X_aux, y_aux, kappa=kappa, q=q)
    return_plan = check_bool("return_plan", return_plan)
    solver = check_choice("solver", solver, TRANSPORT_SOLVERS)
    N, M = C.shape
    a = np.full(N, 1.0 / N) if weights is None else check_array("weights", weights, nonempty=False)
    b = np.full(M, 1.0 / M) if weights_aux is None else check_array("weights_aux", weights_aux,
                                                                     nonempty=False)
    for name, w, m in (("weights", a, N), ("weights_aux", b, M)):
        if w.shape != (m,) or np.any(w < 0) or abs(w.sum() - 1) > 1e-9:
            raise ValueError(f"{name} must be {m} non-negative numbers summing to 1")
    if solver == "POT-EMD":
        res = solve_transport(a, b, C, name="robust_lr_aux.transport")
        return (res.cost, res.plan, res) if return_plan else res.cost
    rows = sp.vstack(
        [sp.kron(sp.eye(N), np.ones((1, M))), sp.kron(np.ones((1, N)), sp.eye(M))], format="csc"
    )
    rhs = np.concatenate([a, b])
    res = solve_lp(
        C.ravel(), rows, rhs, rhs, np.zeros(N * M), np.full(N * M, np.inf), name="robust_lr_aux.transport"
    )
    if return_plan:
        return res.objective, res.x.reshape(N, M), res
    return res.objective


def radius_pairs(grid_eps, grid_eps_hat, W: float) -> list[tuple[float, float]]:
    """The (ε, ε̂) pairs of the grids with ε + ε̂ ≥ W (L4267), in grid order."""
    W = check_positive("W", W, allow_zero=True)
    for name, g in (("grid_eps", grid_eps), ("grid_eps_hat", grid_eps_hat)):
        if not isinstance(g, tuple | list | np.ndarray):
            raise ValueError(f"{name} must be a tuple of radii >= 0, got {name}={g!r}")
        for v in g:
            check_positive(name, v, allow_zero=True, allow_inf=True)
    return [(float(e), float(h)) for e in grid_eps for h in grid_eps_hat if e + h >= W - 1e-12]
