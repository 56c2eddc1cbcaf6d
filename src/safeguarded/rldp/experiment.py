"""One Fig. 2 instance as a sweep cell: draw (P*, P̂), solve NUNP/NURP/RUNP/RURP, evaluate D*, ε*.

Seeding (documented decision): P* is drawn from ``rng_for(seed)`` and is shared by all N (and by
all four methods: a paired design); the sample of size n = N·|S|·|U| is drawn from
``rng_for(seed, N)``, independently per N.
"""

from __future__ import annotations

import functools

from safeguarded.experiments import rng_for
from safeguarded.rldp.measures import distortion_star, epsilon_star
from safeguarded.rldp.problems import METHODS, RLDPProblems
from safeguarded.rldp.uncertainty import chi2_radius, chi2_statistic, draw_empirical, draw_true_distribution
from safeguarded.solvers import SolverError

__all__ = ["ZERO_TOLERANCES", "fig2_cell", "model"]

#: ε* is evaluated with the default zero tolerance 1e-7 (three orders above the solver's 1e-10
#: feasibility tolerance) and, as a sensitivity check, 1e-9 and 1e-5.
ZERO_TOLERANCES = {"eps_star": 1e-7, "eps_star_tol1e-9": 1e-9, "eps_star_tol1e-5": 1e-5}


@functools.lru_cache(maxsize=8)
def model(n_s: int, n_u: int, epsilon: float, tie_break: float = 1e-5) -> RLDPProblems:
    """The four DPP models, built once per process and re-solved for every instance."""
    return RLDPProblems(n_s, n_u, epsilon, tie_break=tie_break)


def fig2_cell(
    N: int,
    seed: int,
    n_s: int = 3,
    n_u: int = 5,
    epsilon: float = 0.5,
    alpha: float = 0.05,
    dirichlet_alpha: float = 0.5,
    solver: str | None = None,
) -> list[dict]:
    """One instance at n = N·|S|·|U| samples: one row per method with D*, ε* and the solve record.

    A failed solve is recorded as a row with ``status`` = the solver's status and NaN measures;
    it is never silently dropped.
    """
    n = N * n_s * n_u
    p_star = draw_true_distribution(rng_for(seed), n_s, n_u, dirichlet_alpha)
    p_hat = draw_empirical(rng_for(seed, N), p_star, n)
    B = chi2_radius(alpha, n, n_s * n_u)
    models = model(n_s, n_u, epsilon)
    models.set_data(p_hat, B)
    common = {
        "n": n,
        "B": B,
        "p_star_in_F": chi2_statistic(p_star, p_hat) <= B,
        "unobserved_secrets": models.unobserved_secrets,
        "unobserved_cells": int((p_hat == 0).sum()),
    }
    rows = []
    for method in METHODS:
        try:
            sol = models.solve(method, solver=solver)
        except SolverError as exc:
            rows.append(
                {
                    **common,
                    "method": method,
                    "status": exc.status,
                    "solver": exc.solver,
                    "objective": float("nan"),
                    "D_star": float("nan"),
                    **{k: float("nan") for k in ZERO_TOLERANCES},
                    "solve_time": float("nan"),
                    "solver_attempt": -1,
                }
            )
            continue
        rows.append(
            {
                **common,
                "method": method,
                "status": sol.record.status,
                "solver": f"{sol.record.solver} {sol.record.solver_version}",
                "objective": sol.objective,
                "D_star": distortion_star(sol.Q, p_star),
                **{k: epsilon_star(sol.Q, p_star, tol) for k, tol in ZERO_TOLERANCES.items()},
                "solve_time": sol.record.solve_time,
                "solver_attempt": sol.record.attempt,
            }
        )
    return rows
