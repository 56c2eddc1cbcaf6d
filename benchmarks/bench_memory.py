"""Peak resident memory of one sweep cell per existing work, each in a fresh spawned process.

The number to pass as ``run_sweep(..., cell_memory_mb=...)`` is ``peak`` (a worker needs the interpreter
and imports too).  Cells are run at the parameters of the notebooks' smoke scale unless ``--paper``
is given (paper-scale cells can take minutes and, for routing Table 2, gigabytes: run it under the heavy
lock, ``flock /tmp/safeguarded-heavy.lock .venv/bin/python benchmarks/bench_memory.py --paper``).

    .venv/bin/python benchmarks/bench_memory.py [--paper] [--only WORK]
"""

from __future__ import annotations

import argparse
import os
import time

from safeguarded.experiments import peak_rss_mb


def cells(paper: bool):
    """(work, sweep, function, params): one representative cell of each sweep that is cheap at smoke."""
    from safeguarded.dp_noise import synthetic
    from safeguarded.gaussian_mixtures import grid as gm_grid
    from safeguarded.gaussian_mixtures import optimum
    from safeguarded.rldp.experiment import fig2_cell
    from safeguarded.routing import experiments as rexp

    kind = "paper" if paper else "smoke"
    return [
        ("rldp", "rldp/fig2", fig2_cell, dict(N=1000)),
        (
            "dp_noise",
            "dp_noise/fig02",
            synthetic.figure2_cell,
            dict(epsilon=1.0, delta=0.2, support=8, k=32 if paper else 4),
        ),
        (
            "dp_noise",
            "dp_noise/tables",
            synthetic.table_cell,
            dict(epsilon=1.0, delta=0.1, loss="l1", work=6000 if paper else 1500),
        ),
        (
            "gaussian_mixtures",
            "gaussian_mixtures/grid",
            gm_grid.mixture_cell,
            dict(epsilon=1.0, delta=0.1, k_max=10 if paper else 3),
        ),
        ("gaussian_mixtures", "gaussian_mixtures/qg", gm_grid.qg_cell, dict(epsilon=1.0, delta=0.1)),
        (
            "gaussian_mixtures",
            "gaussian_mixtures/lp",
            optimum.lp_cell,
            dict(epsilon=1.0, delta=0.1, work=20000 if paper else 3000),
        ),
        (
            "routing",
            "routing/alg1",
            rexp.convergence_cell,
            dict(
                kind=kind, n_days=50 if paper else 8, kappa=2.0, demand_scale=1.0, alpha=1e4, beta_mode="data"
            ),
        ),
        (
            "routing",
            "routing/table2",
            rexp.approximation_cell,
            dict(kind=kind, n_days=50 if paper else 8, alpha=1e4),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paper", action="store_true", help="paper-scale parameters (slow, large)")
    parser.add_argument("--only", default=None, help="one work")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    print(f"scale: {'paper' if args.paper else 'smoke'}; MiB (ru_maxrss of a fresh spawned process)")
    print("| work | sweep | parameters | baseline MiB | peak MiB | seconds |")
    print("|---|---|---|---|---|---|")
    for work, sweep, func, params in cells(args.paper):
        if args.only and work != args.only:
            continue
        start = time.perf_counter()
        try:
            rss = peak_rss_mb(func, params, seed=0)
        except Exception as exc:  # report and go on: one broken cell must not hide the others
            print(f"| {work} | {sweep} | {params} | failed: {type(exc).__name__}: {exc} | | |")
            continue
        seconds = time.perf_counter() - start
        print(f"| {work} | {sweep} | {params} | {rss['baseline']:.0f} | {rss['peak']:.0f} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
