"""Solves per second for the four rldp problems, with and without cvxpy parameter reuse (DPP).

    python benchmarks/bench_rldp_dpp.py [--instances 20]

*With reuse*: one :class:`~safeguarded.rldp.problems.RLDPProblems` is built and re-solved for every
instance by setting parameter values (what the Fig. 2 sweep does). *Without reuse*: the model is
built and compiled again for every instance. Results are printed and written to
``benchmarks/results/rldp_dpp.csv``.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from safeguarded.experiments import rng_for
from safeguarded.rldp.problems import METHODS, RLDPProblems
from safeguarded.rldp.uncertainty import chi2_radius, draw_empirical, draw_true_distribution


def instances(k: int, N: int = 5):
    for seed in range(k):
        p_star = draw_true_distribution(rng_for(seed), 3, 5)
        yield draw_empirical(rng_for(seed, N), p_star, 15 * N), chi2_radius(0.05, 15 * N, 15)


def main(argv=None) -> pd.DataFrame:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=20)
    args = parser.parse_args(argv)
    rows = []
    for method in METHODS:
        reused = RLDPProblems(3, 5, 0.5)
        reused.set_data(*next(instances(1)))
        reused.solve(method)  # compile once, outside the timing
        start = time.perf_counter()
        solver_time = 0.0
        for p_hat, B in instances(args.instances):
            reused.set_data(p_hat, B)
            solver_time += reused.solve(method).record.solve_time
        with_reuse = time.perf_counter() - start
        start = time.perf_counter()
        for p_hat, B in instances(args.instances):
            fresh = RLDPProblems(3, 5, 0.5)
            fresh.set_data(p_hat, B)
            fresh.solve(method)
        without_reuse = time.perf_counter() - start
        rows.append(
            {
                "method": method,
                "instances": args.instances,
                "solves_per_s_with_reuse": args.instances / with_reuse,
                "solves_per_s_without_reuse": args.instances / without_reuse,
                "speedup": without_reuse / with_reuse,
                "clarabel_time_per_solve_ms": 1e3 * solver_time / args.instances,
            }
        )
    table = pd.DataFrame(rows)
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    table.to_csv(out / "rldp_dpp.csv", index=False)
    print(f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}")
    print(table.round(2).to_string(index=False))
    return table


if __name__ == "__main__":
    main()
