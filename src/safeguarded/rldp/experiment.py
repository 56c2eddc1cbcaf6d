"""One Fig. 2 instance as a sweep cell: draw (P*, P̂), solve NUNP/NURP/RUNP/RURP, evaluate D*, ε*.

Seeding (documented decision): P* is drawn from ``rng_for(seed)`` and is shared by all N (and by
all four methods: a paired design); the sample of size n = N·|S|·|U| is drawn from
``rng_for(seed, N)``, independently per N.
"""

from __future__ import annotations

import functools

import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.rldp.measures import distortion_star, epsilon_star, mean_sd_without_outliers
from safeguarded.rldp.problems import METHODS, RLDPProblems
from safeguarded.rldp.uncertainty import chi2_radius, chi2_statistic, draw_empirical, draw_true_distribution
from safeguarded.solvers import SolverError, resolve_solver
from safeguarded.validation import check_frame, check_in_interval, check_integer, check_positive

__all__ = ["ZERO_TOLERANCES", "fig2_instance", "fig2_cell", "model", "band_summary", "cross_solver_check"]

#: ε* is evaluated with the default zero tolerance 1e-5 and, as a sensitivity check, 1e-7 and 1e-9
#: (see :func:`safeguarded.rldp.measures.epsilon_star` for why a threshold is needed at all).
ZERO_TOLERANCES = {"eps_star": 1e-5, "eps_star_tol1e-7": 1e-7, "eps_star_tol1e-9": 1e-9}


@functools.lru_cache(maxsize=8)
def model(n_s: int, n_u: int, epsilon: float, tie_break: float = 1e-5) -> RLDPProblems:
    """The four DPP models, built once per process and re-solved for every instance."""
    return RLDPProblems(n_s, n_u, epsilon, tie_break=tie_break)


def fig2_instance(N: int, seed: int, n_s: int = 3, n_u: int = 5, dirichlet_alpha: float = 0.5):
    """(P*, P̂) of instance ``seed`` at n = N·|S|·|U| (seeding as in the module docstring)."""
    N = check_integer("N", N, minimum=1)
    seed = check_integer("seed", seed, minimum=0)
    p_star = draw_true_distribution(rng_for(seed), n_s, n_u, dirichlet_alpha)
    return p_star, draw_empirical(rng_for(seed, N), p_star, N * n_s * n_u)


def _check_cell(N, n_s, n_u, epsilon, alpha) -> None:
    check_integer("N", N, minimum=1)
    check_integer("n_s", n_s, minimum=1)
    check_integer("n_u", n_u, minimum=1)
    check_positive("epsilon", epsilon)
    check_in_interval("alpha", alpha, 0.0, 1.0)


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
    _check_cell(N, n_s, n_u, epsilon, alpha)
    if solver is not None:
        resolve_solver(solver)  # ValueError naming solver unless installed
    n = N * n_s * n_u
    p_star, p_hat = fig2_instance(N, seed, n_s, n_u, dirichlet_alpha)
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


def band_summary(results: pd.DataFrame, metrics=("eps_star", "D_star"), k: float = 1.5) -> pd.DataFrame:
    """Figs. 2(c)–(d): per method and N, mean and standard deviation after the k·IQR rule.

    The rule is applied per method × N × metric (documented decision); ε* = ∞ counts as an outlier.
    Rows whose solve failed (status not optimal) are excluded and counted in ``failed``.
    """
    if not isinstance(metrics, tuple | list) or not all(isinstance(m, str) for m in metrics):
        raise ValueError(f"metrics must be a tuple or list of column names, got metrics={metrics!r}")
    check_frame("results", results, ("method", "N", "n", "status"))
    missing = [m for m in metrics if m not in results.columns]
    if missing:
        raise ValueError(f"metrics must be columns of results, missing {missing}")
    k = check_positive("k", k, allow_zero=True)
    rows = []
    for (method, N), grp in results.groupby(["method", "N"], sort=False):
        ok = grp["status"].isin(["optimal"])
        row = {
            "method": method,
            "N": N,
            "n": int(grp["n"].iloc[0]),
            "instances": len(grp),
            "failed": int((~ok).sum()),
        }
        for metric in metrics:
            mean, sd, removed = mean_sd_without_outliers(grp.loc[ok, metric].to_numpy(), k)
            row |= {f"{metric}_mean": mean, f"{metric}_sd": sd, f"{metric}_outliers": removed}
        rows.append(row)
    order = {m: i for i, m in enumerate(METHODS)}
    return (
        pd.DataFrame(rows)
        .sort_values(["method", "N"], key=lambda s: s.map(order) if s.name == "method" else s)
        .reset_index(drop=True)
    )


#: SCS is a first-order method: asked for 1e-10 it runs for minutes; 1e-6 is its useful accuracy.
CROSS_CHECK_OPTIONS = {"SCS": {"eps_abs": 1e-6, "eps_rel": 1e-6, "max_iters": 100000}}


def cross_solver_check(
    N: int,
    seeds,
    solvers=("CLARABEL", "SCS"),
    n_s: int = 3,
    n_u: int = 5,
    epsilon: float = 0.5,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Optimal values of the four problems on the Fig. 2 instances by several solvers (and NUNP,
    an LP, by HiGHS too): one row per seed, method and solver, with the solver's version."""
    _check_cell(N, n_s, n_u, epsilon, alpha)
    if not isinstance(seeds, tuple | list | range) or not seeds:
        raise ValueError(f"seeds must be a non-empty sequence of seeds, got seeds={seeds!r}")
    for seed in seeds:
        check_integer("seeds", seed, minimum=0)
    if not isinstance(solvers, tuple | list) or not solvers:
        raise ValueError(f"solvers must be a non-empty tuple or list of solver names, got {solvers!r}")
    for solver in solvers:
        resolve_solver(solver)  # ValueError naming solver unless installed
    rows = []
    for seed in seeds:
        n = N * n_s * n_u
        _, p_hat = fig2_instance(N, seed, n_s, n_u)
        models = model(n_s, n_u, epsilon)
        models.set_data(p_hat, chi2_radius(alpha, n, n_s * n_u))
        for method in METHODS:
            for solver in (*solvers, "HIGHS") if method == "NUNP" else solvers:
                try:
                    sol = models.solve(method, solver=solver, **CROSS_CHECK_OPTIONS.get(solver, {}))
                    rows.append(
                        {
                            "seed": seed,
                            "N": N,
                            "method": method,
                            "solver": solver,
                            "version": sol.record.solver_version,
                            "objective": sol.objective,
                            "status": sol.record.status,
                        }
                    )
                except SolverError as exc:
                    rows.append(
                        {
                            "seed": seed,
                            "N": N,
                            "method": method,
                            "solver": solver,
                            "version": "",
                            "objective": float("nan"),
                            "status": exc.status,
                        }
                    )
    return pd.DataFrame(rows)
